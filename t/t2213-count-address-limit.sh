#!/bin/bash
# t2213-count-address-limit.sh: counting maps only the pages its
# trampolines fill, so a program under a tight address-space limit
# (ulimit -v, RLIMIT_AS) starts under a counted rec as it does natively,
# give or take the preloaded library: `date` needed 800 KiB more counted
# when each mapping's trampolines had room for the longest of each. The
# recording replays byte for byte.
. "$(dirname "$0")/test-lib.sh"
export REWIND_NO_COUNT=

# The smallest limit in KiB (in steps of 100) under which date runs natively.
native_limit () {
	local v
	for v in $(seq 1000 100 20000); do
		if sh -c "ulimit -v $v && date +%N" >/dev/null 2>&1; then
			echo $v
			return 0
		fi
	done
	return 1
}

test_expect_success 'date under a limit 400 KiB above its native one: counted, it runs and replays' '
	n=$(native_limit) && echo "date runs natively from $n KiB" &&
	differs_natively sh -c "date +%N" &&
	rec_replay_cmp sh -c "ulimit -v $((n + 400)) && date +%N; echo status \$?" &&
	counted && grep -qx "status 0" rec.out
'
test_done
