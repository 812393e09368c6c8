#!/bin/bash
# t8014-gdb-reverse-step-pages: t8002 (reverse-step, reverse-finish, reverse-stepi at twenty places) without debug registers: executions counted by int3s
REWIND_NO_DEBUGREGS=1
export REWIND_NO_DEBUGREGS
. "$(dirname "$0")/t8002-gdb-reverse-step.sh"
