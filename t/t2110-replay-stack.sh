#!/bin/bash
# t2110-replay-stack.sh: replay --stack prints the call stack at events:
# main -> foo -> bar -> write in t/prog/stack.c, with source lines, as
# text and as JSON, for every event, for --stack-filter and for --to.
. "$(dirname "$0")/test-lib.sh"
require_tprog stack
command -v python3 >/dev/null 2>&1 || skip_all "no python3 to read the JSON"

test_expect_success 'record and replay the program' '
	differs_natively "$T/stack" &&
	rec_replay_cmp "$T/stack"
'
test_expect_success '--stack-filter write: the write and its frames' '
	run_tool replay --stack-filter write "$trace" >f.out 2>f.err &&
	grep -q "^[0-9]* [0-9]* syscall write(1, \"stack " f.out &&
	! grep -q "^[0-9]* [0-9]* syscall getppid" f.out &&
	grep -A8 "syscall write(1, \"stack " f.out >w &&
	grep "^  #1 .* bar+0x[0-9a-f]* (.*stack) at .*stack.c:$(grep -n "/\* WRITE \*/" "$TEST_DIR/prog/stack.c" | cut -d: -f1)\$" w &&
	grep -q "^  #2 .* foo+0x" w &&
	grep -q "^  #3 .* main+0x" w &&
	grep -q "^  #0 .*write.*libc" w
'
test_expect_success 'it names the recorded executable, not the trace copy' '
	! grep -q "/files/" f.out
'
test_expect_success 'the program output is not re-emitted in a listing' '
	! grep -q "^stack [0-9]*\$" f.out
'
test_expect_success '--stack lists every event, each with frames' '
	run_tool replay --stack "$trace" >all.out 2>all.err &&
	run_tool tdump "$trace" >dump &&
	test $(grep -c "^[0-9]" all.out) = $(awk "\$3 != \"start\" && \$3 != \"exit\"" dump | wc -l) &&
	grep -q "getppid" all.out &&
	grep -A3 "syscall getppid" all.out | grep -q "^  #1 .* foo+0x"
'
test_expect_success '--stack --json: one object per line, frames as an array' '
	run_tool replay --stack --json --stack-filter write,getppid "$trace" >j.out &&
	python3 -c "
import json, sys
objs = [json.loads(l) for l in open(\"j.out\")]
assert len(objs) == 2, objs
w = [o for o in objs if o[\"name\"] == \"write\"][0]
names = [f[\"func\"] for f in w[\"stack\"]]
assert names[1:4] == [\"bar\", \"foo\", \"main\"], names
assert w[\"stack\"][1][\"file\"].endswith(\"stack.c\") and w[\"stack\"][1][\"line\"] > 0
assert \"stack \" in w[\"text\"]
g = [o for o in objs if o[\"name\"] == \"getppid\"][0]
assert [f[\"func\"] for f in g[\"stack\"]][1:3] == [\"foo\", \"main\"]
"
'
test_expect_success '--to N --stack: output, registers, then the stack' '
	ev=$(awk "/syscall write\\(1, \"stack /{print \$1}" dump) &&
	run_tool replay --to "$ev" --stack "$trace" >to.out &&
	grep -q "^stack [0-9]*\$" to.out &&
	grep -q "^rip " to.out &&
	sed -n "/^stack:\$/,\$p" to.out | grep -q "^  #1 .* bar+0x" &&
	run_tool replay --to "$ev" --stack --json "$trace" >toj.out &&
	tail -n 1 toj.out | python3 -c "
import json, sys
o = json.load(sys.stdin)
assert o[\"event\"] == $ev and o[\"regs\"][\"rip\"] == o[\"stack\"][0][\"pc\"]
assert [f[\"func\"] for f in o[\"stack\"]][1:4] == [\"bar\", \"foo\", \"main\"]
"
'
test_expect_success 'bad uses: --json alone, an unknown name, --to with a filter' '
	run_tool replay --json "$trace" >/dev/null 2>e1; expect_status $? 2 &&
	run_tool replay --stack-filter nosuchcall "$trace" >/dev/null 2>e2; expect_status $? 2 &&
	grep -q "nosuchcall" e2 &&
	run_tool replay --to 3 --stack-filter write "$trace" >/dev/null 2>e3; expect_status $? 2
'
test_done
