#!/bin/bash
# t2031-replay-shmap-procs.sh: two processes that each map one file
# MAP_SHARED themselves see each other's stores and writes in replay, as
# when recorded; so does a file in /dev/shm shared the same way.
. "$(dirname "$0")/test-lib.sh"
require_tprog shmap-procs
[ -d /dev/shm ] && [ -w /dev/shm ] && test_set_prereq DEV_SHM

test_expect_success 'output differs between native runs' '
	differs_natively "$T/shmap-procs"
'
test_expect_success 'replay writes the recorded bytes and status, twice' '
	rec_replay_cmp "$T/shmap-procs" &&
	replay_cmp
'
test_expect_success 'the processes saw each other' '
	grep -q "^all aliased$" rec.out
'
test_expect_success DEV_SHM 'in /dev/shm too' '
	mkdir -p shmdir && cd shmdir &&
	rec_prog sh -c "cd /dev/shm && exec \"\$0\"" "$T/shmap-procs" &&
	cd .. && check_status rec.status 0 && replay_cmp
'
test_done
