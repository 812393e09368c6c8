#!/bin/bash
# fuzz.sh: runs the trace readers on damaged copies of a trace.
#   fuzz.sh TPROG TRACE FIRST COUNT [TOOL...]
# Makes mutant FIRST..FIRST+COUNT-1 of TRACE with TPROG/tmutate (the seed
# is the mutant's number) and runs each TOOL (default: tdump replay) on
# it. A tool may exit 0 or 125 (replay any status: a damaged exit record
# gives the program another); a death by signal, a sanitizer report or
# a hang (FUZZ_TIMEOUT seconds) is a failure: "FAIL SEED TOOL HOW" is
# printed and the mutant kept as crash-SEED. Exits 1 if anything failed.
tm=$1/tmutate ts=$1/tstatus base=$2 first=$3 count=$4
shift 4
tools=${*:-tdump replay}
: "${FUZZ_TIMEOUT:=20}"
bad=0
for ((s = first; s < first + count; s++)); do
	rm -rf "m-$s"
	"$tm" "$base" "m-$s" "$s" || { echo "FAIL $s tmutate $?"; bad=1; continue; }
	for tool in $tools; do
		case $tool in
		tseek) args="--every 5" ;;
		*) args= ;;
		esac
		st=$("$ts" "$FUZZ_TIMEOUT" "$tool" $args "m-$s" 2>"m-$s.err" </dev/null)
		ok=1
		case $st in
		"exit 0" | "exit 125") ;;
		exit*) [ "$tool" = replay ] || ok=0 ;;
		*) ok=0 ;;
		esac
		grep -q "Sanitizer\|runtime error" "m-$s.err" && ok=0
		if [ $ok = 0 ]; then
			echo "FAIL $s $tool $st: $(head -c 300 "m-$s.err" | tr '\n' ' ')"
			bad=1
			rm -rf "crash-$s"
			"$tm" "$base" "crash-$s" "$s"
		fi
	done
	rm -rf "m-$s" "m-$s.err"
done
exit $bad
