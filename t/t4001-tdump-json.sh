#!/bin/bash
# t4001-tdump-json.sh: tdump --json prints one JSON object per event with
# the keys event, tid, kind, name, args, ret, errno, text.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines
test_have_prereq PYTHON || skip_all 'no /usr/bin/python3 to check JSON'

test_expect_success 'record' '
	rec_replay_cmp "$T/lines" 4 mix &&
	run_tool tdump "$trace" >dump &&
	run_tool tdump --json "$trace" >json
'
test_expect_success 'every line is valid JSON' '
	/usr/bin/python3 -c "import json,sys; [json.loads(l) for l in sys.stdin]" <json
'
test_expect_success 'as many objects as text lines' '
	test $(wc -l <json) = $(wc -l <dump)
'
test_expect_success 'each object has the documented keys' '
	/usr/bin/python3 -c "
import json, sys
for l in sys.stdin:
    o = json.loads(l)
    for k in (\"event\", \"tid\", \"kind\"):
        assert k in o, (k, l)
    if o[\"kind\"] == \"syscall\":
        for k in (\"name\", \"args\", \"ret\", \"errno\"):
            assert k in o, (k, l)
" <json
'
test_expect_success 'event numbers and kinds match the text form' '
	cut -d" " -f1-3 dump >text &&
	/usr/bin/python3 -c "
import json, sys
for l in sys.stdin:
    o = json.loads(l)
    print(o[\"event\"], o[\"tid\"], o[\"kind\"])
" <json >fromjson &&
	test_cmp_bytes text fromjson
'
test_expect_success 'the writes carry their text' '
	/usr/bin/python3 -c "
import json, sys
n = 0
for l in sys.stdin:
    o = json.loads(l)
    if o.get(\"name\") == \"write\":
        assert o[\"ret\"] == 16, l
        if isinstance(o[\"args\"], list):
            assert str(o[\"args\"][0]) == str(1 + n % 2), l
        assert (\"line %d \" % n) in o[\"text\"], l
        n += 1
assert n == 4, n
" <json
'
test_done
