#!/bin/bash
# t7006-tpack-interp.sh: a packed trace replays after the ELF interpreter
# it was recorded with is gone: replay has the kernel load the trace's copy.
. "$(dirname "$0")/test-lib.sh"
require_tprog random

interp=$(readelf -l "$T/random" 2>/dev/null | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
command -v cc >/dev/null 2>&1 && [ -r "$interp" ] ||
	skip_all "needs cc, readelf and the system's ELF interpreter"

test_expect_success 'build a program that uses its own copy of the interpreter' '
	cp "$interp" "$scratch/myld.so" &&
	printf "#include <stdio.h>\n#include <sys/random.h>\nint main(void){unsigned r;getrandom(&r,4,0);printf(\"%%u %%p\\\\n\",r,(void *)&r);return 0;}\n" >p.c &&
	cc -o p p.c -Wl,--dynamic-linker="$scratch/myld.so" &&
	differs_natively "$scratch/p"
'
test_expect_success 'record it and pack the trace' '
	rec_replay_cmp "$scratch/p" &&
	run_tool tpack "$trace" >pack.out 2>&1
'
test_expect_success 'with the interpreter gone, the packed trace replays byte for byte' '
	rm "$scratch/myld.so" &&
	timeout 20 replay "$trace" >again.out 2>again.err &&
	test_cmp_bytes rec.out again.out &&
	! ls -d /tmp/rwi-* 2>/dev/null | grep -q .
'
test_expect_success 'so does a changed one' '
	cp "$interp" "$scratch/myld.so" && printf x >>"$scratch/myld.so" &&
	timeout 20 replay "$trace" >again2.out 2>again2.err &&
	test_cmp_bytes rec.out again2.out
'
test_done
