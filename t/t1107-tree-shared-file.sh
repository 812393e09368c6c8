#!/bin/bash
# t1107-tree-shared-file.sh: a file in /dev/shm mapped MAP_SHARED before a
# fork (a named semaphore and a shm_open page, as Python's multiprocessing
# uses) stays shared between the processes in replay: the parent sees what
# the child wrote, as when recorded.
. "$(dirname "$0")/test-lib.sh"
require_tprog shm

test_expect_success 'output differs natively' '
	differs_natively "$T/shm"
'
test_expect_success 'record and replay byte for byte, twice' '
	rec_replay_cmp "$T/shm" &&
	replay_cmp
'
test_expect_success 'the parent printed what the child wrote' '
	read -r tok saw < <(sed -nE "s/^token ([0-9a-f]{8}), the child wrote ([0-9a-f]{8})$/\1 \2/p" rec.out) &&
	test -n "$saw" &&
	test $(((0x$tok * 2654435761) & 0xffffffff)) = $((0x$saw))
'
test_expect_success PYTHON 'a Python multiprocessing pool replays' '
	rec_replay_cmp /usr/bin/python3 -c "import multiprocessing as m, random; print(m.Pool(2).map(abs, range(-3, 3)), random.random())"
'
test_done
