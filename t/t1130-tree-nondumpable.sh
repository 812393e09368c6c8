#!/bin/bash
# t1130-tree-nondumpable.sh: a program that makes itself non-dumpable
# would close /proc/PID/fd to an ordinary user's rec, which then could
# not tell whether a write went to its stdout (it dropped the program's
# output from the trace without a word, and replay printed less). Under
# an ordinary user's rec the program stays dumpable and is told it is
# not, as its children are, until it executes a program or sets the flag
# again; root's rec lets the kernel do it. Either way it replays.
. "$(dirname "$0")/test-lib.sh"
require_tprog nodump

test_expect_success 'native output differs (token)' '
	differs_natively "$T/nodump"
'
check_flags () {
	grep -q "^PR_SET_DUMPABLE 0 = 0, dumpable 0$" "$1" &&
	grep -q "^child: dumpable 0$" "$1" &&
	grep -q "^after exec: dumpable 1$" "$1" &&
	grep -q "^PR_SET_DUMPABLE 1 = 0, dumpable 1$" "$1"
}
test_expect_success 'it records and replays, the flag as natively' '
	rec_replay_cmp "$T/nodump" &&
	check_flags rec.out
'
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v runuser >/dev/null 2>&1; then
	test_set_prereq NOBODY
fi
test_expect_success NOBODY 'so under an ordinary user'"'"'s rec' '
	chmod 711 "$scratch" && mkdir nb && chmod 777 nb &&
	(cd nb && run_tool runuser -u nobody -- "$REWIND_BIN/rec" -o tr "$T/nodump" >rec.out 2>rec.err &&
	 run_tool runuser -u nobody -- "$REWIND_BIN/replay" tr >replay.out 2>replay.err) &&
	test_cmp_bytes nb/rec.out nb/replay.out &&
	check_flags nb/rec.out
'
test_done
