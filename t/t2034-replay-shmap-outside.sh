#!/bin/bash
# t2034-replay-shmap-outside.sh: a file mapped shared while another
# process writes it: a process of the recorded tree (dd under sh), whose
# write replay repeats in its copy; then one outside the recording (this
# script), which rec reports in one line and records as the file's new
# bytes where it noticed, so that replay shows the same change.
. "$(dirname "$0")/test-lib.sh"
require_tprog shmap-outside

test_expect_success 'dd in the recorded tree writes into the mapped file' '
	rec_prog sh -c "\"\$0\" \"\$1\" & p=\$!
		until test -e \"\$1.ready\"; do sleep 0.01; done
		printf \"dd%06d\" \$\$ | dd of=\"\$1\" conv=notrunc 2>/dev/null
		wait \$p" "$T/shmap-outside" "$scratch/tree.file" &&
	check_status rec.status 0 &&
	grep -Eq "^token [0-9a-f]{8}, outside wrote \"dd[0-9]{6}\"$" rec.out &&
	! grep -q "outside the recording" rec.err &&
	replay_cmp
'
test_expect_success 'record while this script writes into the mapped file' '
	rec_prog "$T/shmap-outside" "$scratch/shared.file" &
	p=$! &&
	i=0 &&
	until test -e "$scratch/shared.file.ready"; do
		i=$((i + 1)) && test $i -le $((REWIND_TIMEOUT * 100)) || return 1
		sleep 0.01
	done &&
	# Written while it sleeps (not between a call and its look: rec
	# notices a change from outside at a system call, and replay makes
	# it there). Its own file names it: the first test'"'"'s may still be
	# ending (a grep of a pid gone looped for ever).
	pid=$(pgrep -xf "$T/shmap-outside $scratch/shared.file") &&
	test $(echo $pid | wc -w) = 1 &&
	wait_for /proc/$pid/wchan nanosleep &&
	printf "out%05d" $$ | dd of="$scratch/shared.file" conv=notrunc 2>/dev/null &&
	wait $p &&
	trace=$(ls -d "$scratch"/trace.* | tail -n 1) &&
	check_status rec.status 0 &&
	grep -Eq "^token [0-9a-f]{8}, outside wrote \"out[0-9]{5}\"$" rec.out
'
test_expect_success 'rec said so in one line' '
	{ grep -v "^rec: .*shared.file, mapped shared, was changed by a process outside the recording" rec.err >rec.err.prog || :; } &&
	test $(wc -l <rec.err) = $(($(wc -l <rec.err.prog) + 1)) &&
	cp rec.err.prog rec.err
'
test_expect_success 'replay shows the change as recorded' '
	replay_cmp
'
test_done
