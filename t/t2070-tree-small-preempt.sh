#!/bin/bash
# t2070-tree-small-preempt.sh: a preemption record holds what changed since
# the process's last one (pages written, found with userfaultfd write
# protection), not all of its memory. bigspin.c fills 64 MiB once, then two
# threads compute, each writing 128 words of it: each record after the
# first hashes a small part of the 64 MiB, the trace stays near the array's
# size, and replay is byte for byte. REWIND_NO_UFFD_WP=1 hashes everything
# every time, and replays as well.
. "$(dirname "$0")/test-lib.sh"
require_tprog bigspin
# Where the kernel cannot track written pages (rec --probe says so) every
# record hashes it all, which the REWIND_NO_UFFD_WP=1 tests cover.
rec --probe | grep -q '^write tracking: present' && test_set_prereq UFFD_WP

# kib_hashed: the KiB each preemption of the dump hashed, one a line.
kib_hashed () {
	sed -nE 's/.* preempt at .* ([0-9]+) KiB of memory hashed.*/\1/p' dump
}

test_expect_success 'output differs natively' '
	differs_natively "$T/bigspin"
'
test_expect_success 'rec and replay write the same bytes' '
	rec_replay_cmp "$T/bigspin" &&
	run_tool tdump "$trace" >dump &&
	test $(kib_hashed | wc -l) -ge 2
'
test_expect_success UFFD_WP 'the records after the first hash what changed, not 64 MiB' '
	grep " preempt at " dump >pre &&
	! grep -v "what changed since the last" pre &&
	kib_hashed | sed 1d >later &&
	test -s later &&
	# At most 256 blocks of 64 KiB changed in the array in all: 16 MiB.
	! awk "\$1 >= 32768" later | grep .
'
test_expect_success UFFD_WP 'the trace holds the array about once' '
	size=$(stat -c %s "$trace/events") &&
	test "$size" -lt $((80 << 20))
'
test_expect_success 'replays the same again' '
	replay_cmp
'
test_expect_success 'REWIND_NO_UFFD_WP=1: every record hashes it all, replays the same' '
	REWIND_NO_UFFD_WP=1 rec_replay_cmp "$T/bigspin" &&
	run_tool tdump "$trace" >dump &&
	test $(kib_hashed | wc -l) -ge 1 &&
	! grep "what changed since the last" dump &&
	! kib_hashed | awk "\$1 < 65536" | grep . &&
	size=$(stat -c %s "$trace/events") &&
	test "$size" -lt $((80 << 20))
'
test_done
