#!/bin/bash
# t0001-nonroot.sh: run as root, switches to user nobody and goes through
# every tool as an ordinary user would: rec (a program, a shell pipeline,
# python3), replay, tdump, tpack, tseek and gdbstub under gdb, with the
# traces in a directory nobody owns and system files nobody may not
# hard-link (fs.protected_hardlinks).
. "$(dirname "$0")/test-lib.sh"
require_tprog demo dbg lines shmat

[ "$(id -u)" = 0 ] || skip_all "not root: the whole suite runs as an ordinary user already"
id nobody >/dev/null 2>&1 || skip_all "no user nobody"
if command -v setpriv >/dev/null 2>&1; then
	as=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups)
elif command -v runuser >/dev/null 2>&1; then
	as=(runuser -u nobody --)
else
	skip_all "neither setpriv nor runuser to become nobody"
fi
# The scratch directory is root's and 0700: nobody gets a directory of
# its own inside it, and the right to pass through.
chmod 711 "$scratch"
nr=$scratch/nr
mkdir "$nr" && chown nobody "$nr" || skip_all "cannot give nobody a directory"

# nb CMD...: CMD as nobody in $nr, its home and traces there too.
nb () {
	(cd "$nr" && "${as[@]}" env HOME="$nr" REWIND_DIR="$nr/traces" TMPDIR="$nr" \
		PATH="$PATH" timeout -k 5 "$REWIND_TIMEOUT" "$@")
}
nb test -x "$REWIND_BIN/rec" -a -x "$T/demo" ||
	skip_all "nobody cannot run $REWIND_BIN/rec or $T/demo (a directory above is closed)"
test "$(nb id -u)" = "$(id -u nobody)" || skip_all "cannot run as nobody"

# nb_rec_replay NAME CMD...: records CMD as nobody into $nr/NAME and
# replays it as nobody; their stdout, stderr and status must match.
nb_rec_replay () {
	local name=$1
	shift
	nb rec -o "$nr/$name" "$@" >"$name.rec.out" 2>"$name.rec.raw"
	echo $? >"$name.rec.st"
	strip_rec_line "$name.rec.raw" >"$name.rec.err"
	nb replay "$nr/$name" >"$name.rep.out" 2>"$name.rep.err" </dev/null
	echo $? >"$name.rep.st"
	cat "$name.rec.raw"
	check_status "$name.rec.st" 0 &&
	test_cmp_bytes "$name.rec.out" "$name.rep.out" &&
	test_cmp_bytes "$name.rec.err" "$name.rep.err" &&
	check_status "$name.rep.st" 0
}

test_expect_success 'demo prints something else each native run' '
	differs_natively "$T/demo"
'
test_expect_success 'nobody records demo and replays it byte for byte' '
	nb_rec_replay demo "$T/demo" &&
	test "$(stat -c %U "$nr/demo")" = nobody &&
	test "$(stat -c %a "$nr/demo")" = 700
'
test_expect_success 'its interpreter is kept by path, size and hash' '
	nb tdump --json "$nr/demo" >demo.json &&
	grep -q "\"role\":\"interp\",\"path\":\"/[^\"]*\",\"size\":[1-9][0-9]*,\"hash\":\"[0-9a-f]\{16\}\"" demo.json
'
test_expect_success 'nobody records into REWIND_DIR; replay, replay -M and tdump find it' '
	nb rec "$T/lines" 3 >lines.out 2>lines.err &&
	test -L "$nr/traces/latest-trace" &&
	nb replay >lines.rep &&
	test_cmp_bytes lines.out lines.rep &&
	nb replay -M >lines.m &&
	test "$(grep -c "^\[[0-9]*:[0-9]*\] " lines.m)" = 3 &&
	nb tdump >lines.dump &&
	grep -q " exit status 0$" lines.dump
'
test_expect_success 'a shell pipeline, as nobody' '
	nb_rec_replay sh sh -c "ls / | sort | head -3; date +%N"
'
# (Replay found a segment's copy through /proc/PID/map_files, which is
# root's only: shmdt diverged.)
test_expect_success 'SysV shared memory attached and detached, as nobody' '
	nb_rec_replay shm "$T/shmat" &&
	grep -q "^a fault after shmdt" shm.rec.out
'
# demo is root's, so nobody cannot hard-link it: it is kept by path. Run
# again through a bind mount inside a user and mount namespace, its path
# there names another file outside (mnt/demo, a script): rec copies it
# then (it had kept the first path for both, and replay ran the script).
nb unshare -Urm true 2>/dev/null && test_set_prereq USERNS
test_expect_success USERNS 'kept by path, then run from a mount namespace where that path names another file' '
	mkdir "$nr/mnt" && printf "#!/bin/sh\necho wrong file\n" >"$nr/mnt/demo" &&
	chmod 755 "$nr/mnt/demo" && chown -R nobody "$nr/mnt" &&
	nb_rec_replay ns sh -c "$T/demo >/dev/null; exec unshare -Urm sh -c \"mount --bind $T $nr/mnt && exec $nr/mnt/demo\"" &&
	! grep -q "wrong file" ns.rec.out ns.rep.out &&
	test -s ns.rec.out
'
test_expect_success PYTHON 'python3, as nobody' '
	nb_rec_replay py /usr/bin/python3 -c "import random, time; print(random.random(), time.time())"
'
test_expect_success 'tpack as nobody copies the files it could not link; a moved copy replays' '
	nb tpack "$nr/demo" >pack.out 2>pack.err &&
	test ! -s pack.err &&
	grep -q "^tpack: added .*ld-linux" pack.out &&
	nb cp -r "$nr/demo" "$nr/moved" &&
	nb replay "$nr/moved" >moved.out &&
	test_cmp_bytes demo.rec.out moved.out
'
test_expect_success 'tseek as nobody; replay --to starts from its checkpoint' '
	nb rec -o "$nr/ln" "$T/lines" 20 >/dev/null 2>&1 &&
	last=$(nb tdump "$nr/ln" | awk "\$3 == \"syscall\" { e = \$1 } END { print e }") &&
	nb replay --to $last "$nr/ln" >before 2>before.err &&
	nb tseek --quiet --every 2 "$nr/ln" >ts.out 2>ts.err &&
	test ! -s ts.err &&
	nb tseek --list "$nr/ln" >list &&
	test $(grep -c " seek/cp-[0-9]* " list) -gt 1 &&
	nb replay --to $last "$nr/ln" >after 2>after.err &&
	test_cmp_bytes before.err after.err &&
	sed -n "/^-- stopped after event /,\$p" before >b &&
	sed -n "/^-- stopped after event /,\$p" after >a &&
	test -s a && test_cmp_bytes b a
'
if command -v gdb >/dev/null 2>&1 && [ -x "$REWIND_BIN/gdbstub" ]; then
	test_set_prereq GDB
fi
test_expect_success GDB 'gdb and gdbstub as nobody: the watchpoint hunt finds the BUG line' '
	nb rec -o "$nr/dbg" "$T/dbg" >/dev/null 2>&1 &&
	src=$TEST_DIR/prog/dbg.c &&
	out=$(grep -n "printf(\"seed" "$src" | cut -d: -f1) &&
	buglin=$(grep -n "/\* BUG \*/" "$src" | cut -d: -f1) &&
	nb gdb -batch -nx -iex "set remotetimeout 60" -ex "set pagination off" \
		-ex "target remote | $REWIND_BIN/gdbstub $nr/dbg" \
		-ex "break dbg.c:$out" -ex continue -ex "watch -l last->next" \
		-ex reverse-continue -ex "monitor when" "$T/dbg" >gdb.out 2>&1 &&
	cat gdb.out &&
	grep -Eq "^bug \(k=[0-2]\) at .*dbg\.c:$buglin$" gdb.out &&
	grep -q "^Current event: [0-9]" gdb.out
'
test_done
