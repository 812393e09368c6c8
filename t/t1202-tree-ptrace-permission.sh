#!/bin/bash
# t1202-tree-ptrace-permission.sh: PTRACE_ATTACH inside the program by a
# process of another user is refused (EPERM), as the kernel refuses it
# (rec's emulation let it attach: LTP's ptrace02); root's is allowed.
# Root only: the program changes user.
. "$(dirname "$0")/test-lib.sh"
require_tprog ptperm

[ "$(id -u)" = 0 ] && test_set_prereq ROOT

test_expect_success ROOT 'output differs between native runs' '
	differs_natively "$T/ptperm"
'
test_expect_success ROOT 'another user may not attach; root may; the trace replays' '
	rec_replay_cmp "$T/ptperm" &&
	cat rec.out &&
	grep -q "^nobody attaches: -1 EPERM$" rec.out &&
	grep -q "^root attaches: 0$" rec.out &&
	grep -q "^done$" rec.out
'
test_done
