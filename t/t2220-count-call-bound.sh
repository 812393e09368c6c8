#!/bin/bash
# t2220-count-call-bound.sh: rec keeps a counted thread's count in the
# record of each call it makes with a stop (tdump --json shows it), and
# replay lets the thread run at most 65536 counted edges past that count
# looking for the call: a replay gone astray ends in a divergence (one
# line, exit 125) instead of running for ever. spinread spins for ever
# when the byte it reads is 'h'; with its recorded read changed to one,
# replay (and tseek, and gdbstub under gdb) stops at the call rec saw
# next.
. "$(dirname "$0")/test-lib.sh"
require_tprog spinread
command -v zstd >/dev/null 2>&1 || skip_all "no zstd command"
test_have_prereq PYTHON || skip_all "no python3"
require_gdb
unset REWIND_NO_COUNT

test_expect_success 'output differs between native runs' '
	echo go >in &&
	differs_natively sh -c "\"$T/spinread\" <\"$scratch/in\""
'
test_expect_success 'recorded, its calls carry counts, and replay matches' '
	rec_replay_cmp "$T/spinread" <in &&
	if counted; then
		run_tool tdump --json "$trace" >dump &&
		grep -Eq "\"name\":\"write\",.*\"count\":[0-9]{7,},\"text\":\"write\(1, " dump
	fi
'
counted && test_set_prereq COUNTED
test_expect_success COUNTED 'the byte it read made an h: a divergence at its next call, exit 125' '
	rm -rf bad && cp -r "$trace" bad &&
	tamper_record bad call:19 mem >/dev/null &&
	timeout 300 "$REWIND_BIN/replay" bad >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: divergence at event [0-9]+: thread [0-9]+ ran 65536 counted edges past where rec saw its write call \(count [0-9]+\) without it$"
'
test_expect_success COUNTED 'tseek on it says the same' '
	timeout 300 "$REWIND_BIN/tseek" bad >out 2>err
	expect_status $? 125 &&
	grep -Eq "divergence at event [0-9]+: thread [0-9]+ ran 65536 counted edges past where rec saw its write call" err
'
test_expect_success COUNTED 'gdbstub on it: continue ends in the same divergence' '
	cat >bad.gdb <<-END &&
	set pagination off
	target remote | $REWIND_BIN/gdbstub $scratch/bad
	continue
	END
	gdb_run "$T/spinread" bad.gdb
	grep -Eq "^gdbstub: divergence at event [0-9]+: thread [0-9]+ ran 65536 counted edges past where rec saw its write call \(count [0-9]+\) without it$" gdb.out
'
test_expect_success COUNTED 'its last write'"'"'s count made 100000 smaller: a divergence' '
	rm -rf back && cp -r "$trace" back &&
	ev=$(tamper_record back call:1 count-back) &&
	run_tool replay back >out 2>err
	expect_status $? 125 &&
	one_line_error err "^replay: divergence at event $ev: thread [0-9]+ ran 65536 counted edges past where rec saw its write call \(count [0-9]+\) without it$"
'
test_expect_success COUNTED 'one larger than the call: replay still ends by it' '
	rm -rf ok && cp -r "$trace" ok &&
	tamper_record ok call:1 count >/dev/null &&
	replay_cmp "$scratch/ok"
'
test_done
