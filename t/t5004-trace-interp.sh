#!/bin/bash
# t5004-trace-interp.sh: the kernel maps the ELF interpreter from its path
# on disk, not from the trace; replay checks it against the recorded hash
# and refuses a changed one by name instead of replaying wrong.
. "$(dirname "$0")/test-lib.sh"
require_tprog random

interp=$(readelf -l "$T/random" 2>/dev/null | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
command -v cc >/dev/null 2>&1 && [ -r "$interp" ] ||
	skip_all "needs cc, readelf and the system's ELF interpreter"

test_expect_success 'build a program that uses a copy of the interpreter' '
	cp "$interp" "$scratch/myld.so" &&
	printf "#include <stdio.h>\nint main(void){printf(\"%%p\\\\n\", (void *)&main);return 0;}\n" >p.c &&
	cc -o p p.c -Wl,--dynamic-linker="$scratch/myld.so" &&
	./p >native.out
'
test_expect_success 'it records and replays' '
	rec_replay_cmp "$scratch/p"
'
test_expect_success 'a changed interpreter is refused by name' '
	printf x >>"$scratch/myld.so" &&
	timeout 20 replay "$trace" >out 2>err
	st=$?
	cat err &&
	expect_status $st 125 &&
	one_line_error err "myld.so"
'
test_done
