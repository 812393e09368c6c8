#!/bin/bash
# t2159-replay-cpuid-set.sh: arch_prctl(ARCH_SET_CPUID) by the program.
# On a machine without CPUID faulting the kernel answers ENODEV whatever
# rec does, so the call goes to it and replays (rec refused it, as it
# still does where the machine has CPUID faulting, which rec may use:
# skipped there).
. "$(dirname "$0")/test-lib.sh"
require_tprog cpuidset

if rec --probe | grep -q '^cpuid faulting: missing'; then
	test_set_prereq NOFAULT
fi

test_expect_success NOFAULT 'output differs between native runs' '
	differs_natively "$T/cpuidset"
'
test_expect_success NOFAULT 'the ENODEV answers replay byte for byte' '
	rec_replay_cmp "$T/cpuidset" &&
	cat rec.out &&
	grep -q "^set_cpuid 0: -1 ENODEV$" rec.out &&
	grep -q "^get_cpuid: 1$" rec.out
'
test_done
