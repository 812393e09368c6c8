#!/bin/bash
# t2101-replay-to.sh: replay --to N stops after event N and prints that
# event and the registers.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

test_expect_success 'record and find the writes' '
	rec_replay_cmp "$T/lines" 5 &&
	run_tool tdump "$trace" >dump &&
	awk "\$3 == \"syscall\" && \$4 ~ /^write\\(1,/ { print \$1 }" dump >writes &&
	test $(wc -l <writes) = 5 &&
	third=$(sed -n 3p writes) &&
	fourth=$(sed -n 4p writes)
'
test_expect_success 'replay --to the third write' '
	run_tool replay --to "$third" "$trace" >to.out 2>to.err
	st=$? &&
	cat to.out to.err >to.all &&
	not_signalled $st
'
test_expect_success 'it re-emits up to that write and no further' '
	grep -q "^line 2 " to.all &&
	! grep -q "^line 3 " to.all
'
test_expect_success 'it prints the event, as tdump prints it' '
	grep "^$third " dump >want &&
	grep -Fxf want to.out &&
	grep -q "^-- stopped after event $third --\$" to.out
'
test_expect_success 'it prints the registers' '
	grep -qi "rip" to.all &&
	grep -qi "rax" to.all
'
test_expect_success 'replay --to 1 (the execve) stops before any output' '
	run_tool replay --to 1 "$trace" >z.out 2>z.err
	st=$? &&
	not_signalled $st &&
	! grep -q "^line" z.out &&
	cat z.out z.err | grep -qi rip
'
test_expect_success 'replay --to 0 (the start record) does not crash' '
	run_tool replay --to 0 "$trace" >z0.out 2>z0.err
	st=$? &&
	not_signalled $st &&
	! grep -q "^line" z0.out
'
test_expect_success '--to a later event lets more through' '
	run_tool replay --to "$fourth" "$trace" >to4.out 2>to4.err &&
	grep -q "^line 3 " to4.out
'
test_done
