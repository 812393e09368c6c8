#!/bin/bash
# t1130-tree-nondumpable.sh: a program that makes itself non-dumpable
# closes /proc/PID/fd to an ordinary user's rec, which then cannot tell
# whether a write goes to its stdout: it stops and says why (it dropped
# the program's output from the trace without a word, and replay printed
# less). Root's rec may still look, and records it.
. "$(dirname "$0")/test-lib.sh"
require_tprog nodump

test_expect_success 'native output differs (token)' '
	differs_natively "$T/nodump"
'
if [ "$(id -u)" = 0 ]; then
	test_expect_success 'as root it records and replays' '
		rec_replay_cmp "$T/nodump" &&
		grep -q "^PR_SET_DUMPABLE 0 = 0, dumpable 0$" rec.out
	'
	id nobody >/dev/null 2>&1 && command -v runuser >/dev/null 2>&1 &&
		test_set_prereq NOBODY
	as=(runuser -u nobody --)
else
	test_set_prereq NOBODY
	as=()
fi
test_expect_success NOBODY 'an ordinary user gets a one-line reason and 125' '
	chmod 711 "$scratch" && mkdir nb && chmod 777 nb &&
	(cd nb && run_tool "${as[@]}" "$REWIND_BIN/rec" -o tr "$T/nodump" >out 2>err)
	expect_status $? 125 &&
	strip_rec_line nb/err >reason &&
	one_line_error reason "^rec: cannot tell where descriptor 1 of process [0-9]+ goes: .* \(a program that makes itself non-dumpable is recorded by root only\)" &&
	grep -q "^token " nb/out &&
	! grep -q "^PR_SET_DUMPABLE" nb/out
'
test_done
