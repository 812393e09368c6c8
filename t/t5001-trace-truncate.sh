#!/bin/bash
# t5001-trace-truncate.sh: an events file cut short anywhere gives exit 125
# and one line of error (naming the file, or saying the trace ends early
# when the cut falls between chunks), never a crash or a hang.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

test_expect_success 'record' '
	rec_replay_cmp "$T/lines" 20 &&
	size=$(stat -c %s "$trace/events") &&
	echo "events is $size bytes"
'

# cut_check TOOL OFFSET: TOOL on a copy of the trace cut at OFFSET bytes.
cut_check () {
	rm -rf cut && cp -r "$trace" cut &&
	truncate -s "$2" cut/events &&
	timeout 20 "$1" cut >out 2>err
	st=$?
	echo "$1 on events cut at $2: status $st"
	cat err
	expect_status $st 125 &&
	one_line_error err "cut/events|ends early"
}

for off in 0 1 7 8 12 15 16 17 20 24 39 40 41 48; do
	test_expect_success "replay refuses events cut at $off" "cut_check replay $off"
	test_expect_success "tdump refuses events cut at $off" "cut_check tdump $off"
done
test_expect_success 'cuts in the middle and near the end' '
	ok=1 &&
	for off in $((size / 3)) $((size / 2)) $((size - 9)) $((size - 1)); do
		cut_check replay $off || ok=0
		cut_check tdump $off || ok=0
	done &&
	test $ok = 1
'
test_expect_success 'a cut inside a chunk names the offset' '
	rm -rf cut && cp -r "$trace" cut &&
	truncate -s $((size - 1)) cut/events &&
	timeout 20 replay cut >out 2>err
	grep -Eq "cut/events.*[0-9]" err
'
test_done
