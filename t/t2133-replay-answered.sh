#!/bin/bash
# t2133-replay-answered.sh: calls rec answers as a kernel without the
# feature would, recorded with the answer: memfd_secret and a userfaultfd
# from /dev/userfaultfd get ENOSYS (rec stopped on mapping the first with
# an odd error; the second wrote memory replay never saw), and
# process_madvise with MADV_DONTNEED on the caller's own memory gets
# EINVAL, as before Linux 6.13 (its zeros were missing at replay).
. "$(dirname "$0")/test-lib.sh"
require_tprog answered

test_expect_success 'native output differs (token)' '
	differs_natively "$T/answered"
'
test_expect_success 'the answers record and replay' '
	rec_replay_cmp "$T/answered" &&
	grep -q "^memfd_secret = -1 Function not implemented$" rec.out &&
	grep -Eq "^(USERFAULTFD_IOC_NEW = -1 Function not implemented|/dev/userfaultfd: closed)$" rec.out &&
	grep -q "^process_madvise MADV_DONTNEED = -1 Invalid argument$" rec.out &&
	grep -q "^process_madvise MADV_COLD = 16384$" rec.out &&
	tok=$(sed -n "s/^token //p" rec.out) &&
	grep -q "^memory $tok " rec.out
'
test_done
