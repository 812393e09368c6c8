#!/bin/bash
# t8013-gdb-threads-pages: t8009 (breakpoints and a watchpoint in threads) without debug registers: a protected page faults in whichever thread runs
REWIND_NO_DEBUGREGS=1
export REWIND_NO_DEBUGREGS
. "$(dirname "$0")/t8009-gdb-threads.sh"
