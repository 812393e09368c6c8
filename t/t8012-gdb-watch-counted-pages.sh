#!/bin/bash
# t8012-gdb-watch-counted-pages: t8008 (forty writes back, then forwards) without debug registers: watchpoints by page protection, hits counted by stops
REWIND_NO_DEBUGREGS=1
export REWIND_NO_DEBUGREGS
. "$(dirname "$0")/t8008-gdb-watch-counted.sh"
