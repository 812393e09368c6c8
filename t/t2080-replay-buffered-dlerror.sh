#!/bin/bash
# t2080-replay-buffered-dlerror.sh: after a failed dlopen (libc keeps its
# message on the heap until the next dl call), a program's buffered calls
# replay the same whether replay answers them in the process (plain
# replay) or traces each one (replay --stack, gdbstub): the preloaded
# library makes its own dl calls at start, never on a call's traced path,
# so the program's heap, and the heap pointers it passes, stay as
# recorded. Bash's `enable -f` of a missing file, then a PATH search, is
# what every pyenv-style shim does.
. "$(dirname "$0")/test-lib.sh"
require_tprog dlerr

# stack_cmp: replay --stack of $trace ends as rec did, with no divergence,
# and the records of the writes are rec's.
stack_cmp () {
	REPLAY_CMD="cd $scratch && $REWIND_BIN/replay --stack $trace"
	run_tool replay --stack "$trace" >stack.out 2>stack.err </dev/null
	expect_status $? "$(cat rec.status)" &&
	! grep -i divergence stack.err &&
	run_tool tdump "$trace" | grep " syscall write(" >rec.writes &&
	grep " syscall write(" stack.out >stack.writes &&
	test_cmp_bytes rec.writes stack.writes
}

test_expect_success 'dlerr: a failed dlopen, then buffered calls: replayed' '
	rec_replay_cmp "$T/dlerr" &&
	grep -q "^2: stat -1 at 0x" rec.out
'
test_expect_success 'dlerr: replay --stack traces each call and agrees' '
	stack_cmp
'
if command -v gdb >/dev/null 2>&1; then
	test_expect_success 'dlerr: gdbstub agrees' '
		gdb_cmp "$T/dlerr"
	'
else
	test_skip 'dlerr: gdbstub agrees' 'no gdb'
fi

test_expect_success BASH 'bash: enable -f of a missing file, then type -P: replayed' '
	rec_replay_cmp bash -c "enable -f /nonexistent realpath 2>/dev/null; R=\$(type -P readlink); echo \$R" &&
	grep -q "/readlink$" rec.out
'
test_expect_success BASH 'bash: replay --stack agrees' '
	stack_cmp
'
if command -v gdb >/dev/null 2>&1; then
	test_expect_success BASH 'bash: gdbstub agrees' '
		gdb_cmp "$(command -v bash)"
	'
else
	test_skip 'bash: gdbstub agrees' 'no gdb'
fi

# A shim as version managers install them: a script that looks its
# tool up on PATH and execs it.
test_expect_success BASH 'a shim script: replayed, under --stack and gdbstub' '
	mkdir -p shims &&
	cat >shims/tool <<-\END &&
	#!/bin/bash
	enable -f /nonexistent realpath 2>/dev/null
	for c in cat sed "$1"; do
		p=$(type -P "$c") && [ -x "$p" ] || exit 3
	done
	exec "$p" "$2"
	END
	chmod +x shims/tool &&
	echo hello >data &&
	rec_replay_cmp "$scratch/shims/tool" cat "$scratch/data" &&
	grep -qx hello rec.out &&
	stack_cmp &&
	if command -v gdb >/dev/null 2>&1; then
		gdb_cmp "$(command -v bash)"
	fi
'
test_done
