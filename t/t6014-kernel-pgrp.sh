#!/bin/bash
# t6014-kernel-pgrp.sh: the recorded program leads a process group of its
# own, so signals it sends to its group (kill(0, ...)) reach its tree and
# not rec: SIGUSR1 caught, SIGABRT killing it and its child, SIGTRAP
# caught, SIGSTOP then SIGCONT from its child. A child in a group-stop
# stays stopped until its parent continues it, as natively. The trace holds its start
# at once. (Native runs use setsid, since they signal their group.)
. "$(dirname "$0")/test-lib.sh"
require_tprog pgkill groupstop
command -v setsid >/dev/null 2>&1 || skip_all "no setsid"

test_expect_success 'kill(0, SIGABRT): rec survives, status 134 in both runs' '
	RR_EXPECT=134 rec_replay_cmp "$T/pgkill" &&
	grep -q "^caught 10" rec.out &&
	tdump "$trace" | grep -q "exit signal SIGABRT"
'
test_expect_success 'native output differs (token)' '
	differs_natively setsid -w "$T/pgkill" trap
'
test_expect_success 'SIGTRAP to the group is caught, recorded and replayed' '
	rec_replay_cmp "$T/pgkill" trap &&
	grep -q "^caught 5" rec.out
'
test_expect_success 'SIGSTOP, then SIGCONT from a child' '
	rec_replay_cmp "$T/pgkill" stop &&
	grep -q "^woken" rec.out
'
test_expect_success 'a group-stop lasts until SIGCONT; the parent sees both' '
	rec_replay_cmp "$T/groupstop" &&
	"$T/groupstop" >native.out &&
	grep -v "^token" native.out >want &&
	grep -v "^token" rec.out >got &&
	test_cmp_bytes want got &&
	grep -q "^continued 1" got
'
test_expect_success 'a background job of a script: SIGINT and SIGQUIT stay ignored' '
	sh -c "\"$T/pgkill\" disp & wait" >native.out &&
	grep -q "^signal 2 ignored" native.out &&
	sh -c "rec -o tr-bg \"$T/pgkill\" disp 2>/dev/null & wait" >bg.out &&
	grep -v "^token" native.out >want &&
	grep -v "^token" bg.out >got &&
	test_cmp_bytes want got &&
	run_tool replay tr-bg >replayed.out &&
	test_cmp_bytes bg.out replayed.out
'
test_done
