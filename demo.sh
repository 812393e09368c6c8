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
