#!/bin/bash
# t8011-gdb-watch-reverse-pages: t8001 (watch, rwatch, awatch, back and forth) without debug registers: watchpoints by page protection, counts by stops
REWIND_NO_DEBUGREGS=1
export REWIND_NO_DEBUGREGS
. "$(dirname "$0")/t8001-gdb-watch-reverse.sh"
