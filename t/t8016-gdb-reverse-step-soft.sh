#!/bin/bash
# t8016-gdb-reverse-step-soft: t8002 with debug registers but without perf breakpoints: executions counted by int3s
REWIND_NO_PERF_BP=1
export REWIND_NO_PERF_BP
. "$(dirname "$0")/t8002-gdb-reverse-step.sh"
