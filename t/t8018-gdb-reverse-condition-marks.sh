#!/bin/bash
# t8018-gdb-reverse-condition-marks: t8004 (reverse-continue, reverse-stepi, conditions) with a checkpoint every 0.5 ms, so search windows end on breakpoint stops (a stop there was skipped: one iteration too far back)
REWIND_MARK_EVERY=0.0005
export REWIND_MARK_EVERY
. "$(dirname "$0")/t8004-gdb-reverse-condition.sh"
