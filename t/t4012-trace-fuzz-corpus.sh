#!/bin/bash
# t4012-trace-fuzz-corpus.sh: every events file that once crashed a reader
# (t/fuzz/corpus/*.events, kept from t4011's fuzzing) is refused now:
# tdump, replay and tseek exit 0 or 125, with no signal and no hang.
# Each is put in a trace of this machine (its cpu file and files/, which
# hold the program's copy when the build is the same) with --force, so
# that it reaches the records whatever CPU it was found on.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines tstatus

test_expect_success 'record a trace for its cpu file' '
	rec -o base "$T/lines" 3 >/dev/null 2>&1 &&
	test -f base/cpu
'
for ev in "$TEST_DIR"/fuzz/corpus/*.events; do
	name=$(basename "$ev" .events)
	for tool in tdump replay tseek; do
		test_expect_success "$tool on $name" '
			rm -rf "$name" && mkdir "$name" &&
			cp -r base/cpu base/files "$name"/ && cp "$ev" "$name"/events &&
			case $tool in tdump) f= ;; *) f=--force ;; esac &&
			how=$("$T/tstatus" 60 "$tool" $f "$name" 2>err)
			cat err
			echo "$tool: $how"
			case $how in
			"exit 0" | "exit 125") ;;
			*) false ;;
			esac &&
			! grep -q "Sanitizer\|runtime error" err
		'
	done
done
test_done
