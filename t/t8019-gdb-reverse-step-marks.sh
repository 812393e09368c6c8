#!/bin/bash
# t8019-gdb-reverse-step-marks: t8002 (reverse-next, reverse-step, reverse-finish, reverse-stepi) with a checkpoint every 0.5 ms and without debug registers
REWIND_MARK_EVERY=0.0005 REWIND_NO_DEBUGREGS=1
export REWIND_MARK_EVERY REWIND_NO_DEBUGREGS
. "$(dirname "$0")/t8002-gdb-reverse-step.sh"
