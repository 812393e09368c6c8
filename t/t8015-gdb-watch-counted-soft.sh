#!/bin/bash
# t8015-gdb-watch-counted-soft: t8008 with debug registers but without perf breakpoints: the watchpoint's hits are counted by its stops
REWIND_NO_PERF_BP=1
export REWIND_NO_PERF_BP
. "$(dirname "$0")/t8008-gdb-watch-counted.sh"
