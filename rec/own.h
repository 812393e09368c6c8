/* own.h: what the program sets of rewind's own settings (rdtsc mode,
 * no_new_privs, seccomp, dumpable), kept here and shown back to it. */
#ifndef REWIND_REC_OWN_H
#define REWIND_REC_OWN_H

#include "rec.h"

/* prctl PR_SET_DUMPABLE's values (the kernel's SUID_DUMP_*). */
enum { DUMP_DISABLE = 0, DUMP_USER = 1 };

/* cur ends a prctl, seccomp or arch_prctl call (registers r): what the program set
 * of rewind's own settings is shown to it as if rewind had none. Returns
 * the call's result, changed in r when it must be. */
int64_t own_settings(struct user_regs_struct *r);

/* Seccomp strict mode, which rewind's own filter rules out in the
 * kernel, is kept here: the call that enters it (nr, registers r) is
 * answered without the kernel, and in it a call other than read, write,
 * exit and rt_sigreturn kills the thread with SIGKILL, as the kernel's
 * check would; it never runs. Returns 1 for such a call. */
int seccomp_strict(long nr, struct user_regs_struct *r);

/* cur enters call nr (registers r): a prctl that sets the rdtsc mode or
 * makes the process non-dumpable is kept here for the program (shown back
 * by own_settings), rewind's own setting staying, r changed to match. A
 * seccomp filter the kernel would refuse without rewind's no_new_privs is
 * answered EACCES. An arch_prctl(ARCH_SET_CPUID) while CPUID faults for
 * rec stops the recording, which cannot keep it yet. */
void own_entry(long nr, struct user_regs_struct *r);

#endif
