/* tscshare.h: the tracer's thread faults on rdtsc as its tracees do, so
 * that a switch between them (two a ptrace stop) leaves CR4.TSD as it is. */
#ifndef REWIND_TSCSHARE_H
#define REWIND_TSCSHARE_H

#include <stdint.h>

/* The kernel sets CR4.TSD (rdtsc faults) at a switch into a thread that
 * asked for PR_TSC_SIGSEGV and clears it at a switch out to one that did
 * not; in a VM that write may be a VM exit (about 9 us a switch on an
 * AMD EPYC KVM host, twice a stop). Called by a tracer's thread once its
 * tracees trap rdtsc (tracees_trap: tsc_traps()): it asks for the trap,
 * and an rdtsc of its own (tsc_read, the vDSO's clock_gettime, a
 * library's) faults into a handler that runs it with the trap lifted
 * for that instruction. Threads and children made after inherit both;
 * an execve keeps the trap but not the handler (see tsc_unshare). Called
 * again, it sets the trap again (after tsc_unshare). Off with
 * REWIND_NO_TSC_SHARE=1. */
void tsc_share(int tracees_trap);

/* Before a thread is made that runs with signals blocked (a fault there
 * kills the process) or an execve of anything but a tracee (which
 * tsc_arm() arms itself): the calling thread's rdtsc runs again, and so
 * will the new thread's or program's. Returns whether it trapped, for
 * tsc_reshare() after a thread is made. */
int tsc_unshare(void);
void tsc_reshare(int was);

/* The time-stamp counter, read in the tracer (rdtscp's TSC_AUX in *aux
 * when rdtscp), whether or not tsc_share() armed the trap. */
uint64_t tsc_read(int rdtscp, uint32_t *aux);

#endif
