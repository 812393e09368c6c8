#!/bin/bash
# t1016-tree-clone-into-cgroup.sh: clone3 with CLONE_INTO_CGROUP (LTP's
# clone303). Replay answers the open of the cgroup directory, so the
# descriptor it hands the kernel is no cgroup: it strips the flag, as it
# does the namespace flags (the child's cgroup is what the trace says).
# Needs a cgroup2 directory this user may make a cgroup in.
. "$(dirname "$0")/test-lib.sh"
require_tprog cgclone

cg=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -n "$cg" ] && mkdir "$cg/rewind-probe-$$" 2>/dev/null; then
	rmdir "$cg/rewind-probe-$$"
	test_set_prereq CGROUP2
fi

test_expect_success CGROUP2 'output differs between native runs' '
	differs_natively "$T/cgclone" "$cg"
'
test_expect_success CGROUP2 'the child made into a cgroup replays byte for byte' '
	rec_replay_cmp "$T/cgclone" "$cg" &&
	cat rec.out &&
	grep -Eq "^child [0-9]+ in the new cgroup$" rec.out &&
	grep -q "^clone3 made a child, status 3$" rec.out
'
test_done
