#!/bin/bash
# t1100-tree-real.sh: real programs that make process trees replay byte for
# byte: a shell pipeline, gcc -c (cc1 and as) and make -j2; replay writes
# none of the files the recording wrote.
. "$(dirname "$0")/test-lib.sh"

command -v gcc >/dev/null 2>&1 && test_set_prereq GCC
command -v make >/dev/null 2>&1 && command -v cc >/dev/null 2>&1 && test_set_prereq MAKE
# Run from make check, the make here must not join the outer one.
unset MAKEFLAGS MFLAGS MAKELEVEL

# rec_in DIR PROG ARGS...: rec_prog, but PROG runs in DIR (which holds its
# input files) and writes its temporary files to $scratch/tmp.
rec_in () {
	local dir=$1
	shift
	rr_n=$((rr_n + 1))
	while [ -e "$scratch/trace.$rr_n" ]; do
		rr_n=$((rr_n + 1))
	done
	trace=$scratch/trace.$rr_n
	mkdir -p "$scratch/tmp"
	(cd "$dir" && TMPDIR=$scratch/tmp run_tool rec -o "$trace" -- "$@") \
		>"$scratch/rec.out" 2>"$scratch/rec.err.raw"
	echo $? >"$scratch/rec.status"
	strip_rec_line "$scratch/rec.err.raw" >"$scratch/rec.err"
	REPLAY_CMD="cd $scratch && $REWIND_BIN/replay $trace"
}

# no_files DIR: DIR is empty.
no_files () {
	if [ -n "$(ls -A "$1")" ]; then
		echo "$1 is not empty:"
		ls -lA "$1"
		return 1
	fi
}

# exec_re NAME: the regex of a successful execve of a path ending in /NAME
# in tdump's output.
exec_re () {
	echo " (syscall|sysret) execve\(\"([^\"]*/)?$1\", .*\) = 0( |\$)"
}

# execs NAME: the dump (file dump) ran a program whose path ends in /NAME.
execs () {
	grep -Eq "$(exec_re "$1")" dump || {
		echo "no execve of $1 in the dump"
		return 1
	}
}

pipeline='ls / | sort | head -3; date +%N'

test_expect_success 'the pipeline differs natively (date +%N)' '
	differs_natively sh -c "$pipeline"
'
test_expect_success 'sh -c with a pipeline replays byte for byte' '
	rec_replay_cmp sh -c "$pipeline" &&
	test $(wc -l <rec.out) = 4 &&
	grep -Eqx "[0-9]{9}" rec.out
'
test_expect_success 'tdump shows the children and their execve' '
	run_tool tdump "$trace" >dump &&
	grep -Eq " (syscall|sysret) (clone|clone3|fork|vfork)\(" dump &&
	execs ls && execs sort && execs head && execs date
'
test_expect_success 'a second replay is identical' '
	replay_cmp
'

mkdir -p src
cat >src/hello.c <<'EOF'
#include <stdio.h>
int main(void) { printf("hello\n"); return 0; }
EOF
printf 'int main(void) { return missing; }\n' >src/bad.c

# gcc -v names its temporary files, whose names are random.
test_expect_success GCC 'gcc -v -c differs natively' '
	differs_natively gcc -v -c "$scratch/src/hello.c" -o /dev/null
'
test_expect_success GCC 'gcc -v -c hello.c replays byte for byte' '
	rec_in src gcc -v -c hello.c &&
	check_status rec.status 0 &&
	test -s src/hello.o &&
	grep -q "/cc1 " rec.err &&
	grep -q " $scratch/tmp/cc" rec.err &&
	replay_cmp
'
test_expect_success GCC 'tdump shows cc1 and as run' '
	run_tool tdump "$trace" >dump &&
	execs cc1 && execs as
'
test_expect_success GCC 'only the recording wrote hello.o and temporary files' '
	rm -f src/hello.o &&
	replay_cmp &&
	test ! -e src/hello.o &&
	no_files elsewhere &&
	no_files tmp
'
test_expect_success GCC 'gcc -c of a file with an error replays its message and status 1' '
	rec_in src gcc -c bad.c &&
	check_status rec.status 1 &&
	grep -q "missing" rec.err &&
	replay_cmp &&
	test ! -e src/bad.o
'

# A two-file project whose recipes print the time in nanoseconds.
mkdir -p proj
cat >proj/a.c <<'EOF'
int two(void) { return 2; }
EOF
cat >proj/b.c <<'EOF'
#include <stdio.h>
int two(void);
int main(void) { printf("two is %d\n", two()); return 0; }
EOF
printf '%s\n' \
	'prog: a.o b.o' \
	'	@echo "link $$(date +%N)"' \
	'	@$(CC) -o $@ a.o b.o' \
	'	@./prog' \
	'%.o: %.c' \
	'	@echo "compile $< $$(date +%N)"' \
	'	@$(CC) -c -o $@ $<' >proj/Makefile

# fresh_proj DIR: a copy of the project with nothing built.
fresh_proj () {
	rm -rf "$1" && mkdir -p "$1" && cp proj/a.c proj/b.c proj/Makefile "$1"/
}

test_expect_success MAKE 'make -j2 differs natively' '
	fresh_proj n1 && fresh_proj n2 &&
	(cd n1 && make -j2) >n1.out 2>&1 &&
	(cd n2 && make -j2) >n2.out 2>&1 &&
	grep -q "^two is 2" n1.out &&
	! cmp -s n1.out n2.out
'
test_expect_success MAKE 'make -j2 replays byte for byte' '
	fresh_proj mk &&
	rec_in mk make -j2 &&
	check_status rec.status 0 &&
	grep -q "^compile a.c " rec.out &&
	grep -q "^compile b.c " rec.out &&
	grep -q "^two is 2" rec.out &&
	test -x mk/prog &&
	replay_cmp
'
test_expect_success MAKE 'make ran two compilers, a linker and the program' '
	run_tool tdump "$trace" >dump &&
	test $(grep -Ec "$(exec_re cc1)" dump) = 2 &&
	execs ld && execs prog
'
test_expect_success MAKE 'replaying make writes no object, no program' '
	rm -f mk/a.o mk/b.o mk/prog &&
	replay_cmp &&
	test ! -e mk/a.o && test ! -e mk/b.o && test ! -e mk/prog &&
	no_files elsewhere
'
test_done
