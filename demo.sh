#!/bin/bash
# demo.sh: `make demo`: records a program whose output changes on every run,
# shows that replay gives the recorded output back exactly, and shows tdump.
set -e
top=$(cd "$(dirname "$0")" && pwd)
bin=$top/build/bin
prog=$top/build/t/demo
for f in "$bin/rec" "$bin/replay" "$bin/tdump" "$prog"; do
	[ -x "$f" ] || { echo "demo: $f missing: run make first" >&2; exit 1; }
done
REWIND_DIR=$(mktemp -d "${TMPDIR:-/tmp}/rewind-demo.XXXXXX")
export REWIND_DIR
trap 'rm -rf "$REWIND_DIR"' EXIT
PATH=$bin:$PATH

if [ -t 1 ]; then bold='\033[1m' plain='\033[0m'; else bold= plain=; fi
step () {
	printf "\n$bold== %s$plain\n" "$*"
}
show () {
	printf '$ %s\n' "$*"
	"$@"
}

step "The demo program prints a random number, the time and a heap address."
step "Run natively twice: the output differs each time."
show "$prog"
show "$prog"

step "Record one run with rec (traces go to \$REWIND_DIR=$REWIND_DIR)."
show rec "$prog"

step "Replay the trace twice: the program runs again, without the outside world,"
echo "   and prints exactly what it printed when recorded."
show replay
show replay

step "tdump lists the events of the trace, one per line."
printf '$ tdump | head\n'
tdump | head
printf '$ tdump | grep write\n'
tdump | grep write

step "replay -M tags each line with the event that wrote it."
show replay -M

step "The trace directory:"
show ls -l "$REWIND_DIR/latest-trace/"

step "Process trees and threads record whole: a shell pipeline, then its replay,"
echo "   each line tagged [EVENT:PID] with the process that wrote it."
printf "\$ rec sh -c 'ls / | sort | head -3; date +%%N'\n"
rec sh -c 'ls / | sort | head -3; date +%N'
show replay -M
printf '$ tdump | grep "new process"\n'
tdump | grep "new process"

if command -v gdb >/dev/null 2>&1; then
	step "Debug a recording backwards: dbg corrupts a list pointer; gdb watches it"
	echo "   and reverse-continue stops on the line that wrote it."
	dbg=$(dirname "$prog")/dbg
	show rec -o "$REWIND_DIR/dbg.trace" "$dbg"
	line=$(grep -n 'printf("seed' "$(dirname "$0")/t/prog/dbg.c" | cut -d: -f1)
	printf '$ gdb -batch -ex "target remote | gdbstub dbg.trace" -ex "break %s" -ex continue \\\n' "$line"
	printf '      -ex "watch -l last->next" -ex reverse-continue -ex "monitor when" dbg\n'
	hunt=$(gdb -batch -nx -ex 'set pagination off' -ex 'handle SIGUSR1 nostop noprint' \
		-ex "target remote | gdbstub $REWIND_DIR/dbg.trace" -ex "break $line" -ex continue \
		-ex 'watch -l last->next' -ex reverse-continue -ex 'monitor when' "$dbg" 2>&1 |
		grep -v '^warning: remote target does not support file transfer')
	printf '%s\n' "$hunt"
	# A hunt that stops anywhere else is a wrong answer, never a demo.
	printf '%s\n' "$hunt" | grep -q 'BUG \*/' || {
		echo "demo: reverse-continue did not stop on the BUG line" >&2
		exit 1
	}
fi
