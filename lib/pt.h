/* pt.h: ptrace plumbing shared by rec and replay: starting a traced
 * program under the seccomp filter, stops, registers and tracee memory. */
#ifndef REWIND_PT_H
#define REWIND_PT_H

#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>

/* The ptrace options of every tracee: seccomp stops, exec, syscall-exit
 * stops marked, every new thread and process traced too, and killed if
 * the tracer dies. */
#define PT_OPTIONS (PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD | \
		    PTRACE_O_EXITKILL | PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | \
		    PTRACE_O_TRACEVFORK)

struct pt_proc {
	pid_t pid;
	int memfd;		/* /proc/PID/mem, reopened after each exec */
	int entries;		/* resumed to run on (RESUME_CONT), it stops at
				   each call's entry too (PTRACE_SYSCALL): the
				   calls the filter lets through are seen */
	int at_entry;		/* stopped at a call's entry stop, not at the
				   filter's (set by who saw it; a resume clears it) */
	int nobuf;		/* its process has no live syscall buffer (rec:
				   a read of the header found none; replay:
				   nothing mapped there), until its library
				   readies one (rec/bufdrain.c, lib/bufplay.c) */
	int raw_zero;		/* replay: its buffer header's raw_next is known
				   to hold 0, as last written (lib/bufplay.c) */
};

/* When non-zero, the filter of pt_spawn() lets every call made by the
 * syscall instruction ending at this address through without a stop (the
 * untraced path of syscall buffering: lib/bufabi.h). */
extern uint64_t pt_untraced_ip;

/* When non-zero, the filter lets rt_sigaction calls that only ask (no
 * new action) through without a stop: they change nothing, and the
 * kernel answers them from the dispositions that the traced calls set,
 * the same in rec and replay (IT_FILTER, lib/trace.h). posix_spawn's
 * child asks for every signal's before it resets it. A thread whose
 * tracer in the tree wants its calls is resumed to stop at each entry
 * (struct pt_proc's entries) and sees them all the same. */
extern int pt_untraced_queries;
/* When non-zero, this run's filter lets none of them through: they stop
 * like any call, and the replay engine makes each where it stops
 * (gdbstub watching by page protection, whose read-only pages the
 * kernel could not write the answer into unseen; REWIND_TRACE_ALL=1). */
extern int pt_trace_all;
/* Whether rec let call nr with arguments a through (pt_untraced_queries). */
int pt_let_call(long nr, const uint64_t a[6]);
/* Whether this run's filter lets it through untraced from any address. */
int pt_untraced_call(long nr, const uint64_t a[6]);
/* Whether p's syscall stop (SIGTRAP | 0x80) is a call's entry, not its
 * end (PTRACE_GET_SYSCALL_INFO). */
int pt_at_entry(struct pt_proc *p);

/* When non-zero, pt_spawn's child joins this process group instead of
 * leading one of its own (see pt_group_holder). */
extern pid_t pt_spawn_pgid;

/* Start a process that leads a new process group in the caller's
 * session and does nothing else, signals ignored, until the caller is
 * gone (it reads a pipe whose other end only the caller holds). Returns
 * the group's id, or -1 with errno set. A program put in that group is
 * not a group leader, as in a shell without job control, and its
 * kill(0, sig) reaches neither the caller nor the caller's group. */
pid_t pt_group_holder(void);

/* Fork a child that disables ASLR, installs the seccomp filter built
 * from the syscall table, runs before_exec (if not NULL; last, so that
 * nothing of ours meets what it arms: rec and replay pass tsc_arm, which
 * arms the rdtsc trap where the chosen way wants it), and stops at its
 * execve(path, argv, envp) in dir (dir may be NULL). before_exec returns
 * 0, or -1 with errno set, and the child then dies. The child leads a
 * process group of its own, or joins pt_spawn_pgid's. On return the child is stopped at the
 * seccomp stop of that execve. Dies on failure. */
void pt_spawn(struct pt_proc *p, const char *path, char *const argv[], char *const envp[],
	      const char *dir, int (*before_exec)(void));

/* Note which of SIGINT, SIGQUIT, SIGHUP and SIGPIPE the caller was
 * started with ignored (as nohup and background jobs of a script are):
 * call before changing them; pt_spawn's program then inherits them ignored,
 * as it would natively. Returns the set. */
const sigset_t *pt_note_ignored(void);

/* Note every signal (1 to 64) the caller was started with ignored, and
 * its blocked mask, as bit sets (bit n-1: signal n) into *ign and *mask;
 * call before changing either. pt_spawn's program then starts with
 * exactly those, as it would natively (execve keeps both). */
void pt_note_start_signals(uint64_t *ign, uint64_t *mask);

/* pt_spawn's program starts with the signals of ign ignored, every other
 * one at its default, and mask blocked, whatever the caller has (replay
 * gives the recorded ones). Without a call: see pt_note_ignored(). */
void pt_start_signals(uint64_t ign, uint64_t mask);

/* Wait for the tracee; retries EINTR unless *interrupted is non-NULL, in
 * which case it returns -1 with *interrupted set. Returns the pid. */
int pt_wait(struct pt_proc *p, int *status, int *interrupted);

/* What a wait status is. */
enum pt_stop {
	PS_EXITED = 1,	/* exited or killed */
	PS_SECCOMP,	/* seccomp stop at a syscall entry */
	PS_SYSEXIT,	/* syscall-exit stop (PTRACE_SYSCALL) */
	PS_EXEC,	/* PTRACE_EVENT_EXEC */
	PS_SIGNAL,	/* signal-delivery-stop (or group-stop) */
	PS_OTHER,
};
enum pt_stop pt_classify(int status);

/* When set (rec sets it), pt_getregs keeps the registers of the thread
 * it read last until that thread is resumed, its registers set, or
 * pt_regs_forget names it: the caller then calls pt_regs_forget at each
 * stop it waits for, and resumes threads only through pt_resume (or sets
 * their registers with pt_setregs after any other resume). */
extern int pt_regs_cache;
/* Forget the registers kept of thread pid (every thread's if pid <= 0). */
void pt_regs_forget(pid_t pid);
void pt_getregs(struct pt_proc *p, struct user_regs_struct *r);
/* As pt_getregs, but -1 instead of dying when the thread was killed since
 * it stopped (ESRCH: SIGKILL from outside); its end comes next. */
int pt_getregs_alive(struct pt_proc *p, struct user_regs_struct *r);
void pt_setregs(struct pt_proc *p, const struct user_regs_struct *r);
/* Resume with PTRACE_CONT (how 0; PTRACE_SYSCALL when p's entries is
 * set), PTRACE_SYSCALL (1, to the syscall's exit), PTRACE_SINGLESTEP (2)
 * or PTRACE_CONT whatever entries says (3: on to the filter's stop, as
 * an injected call), passing sig. */
enum { RESUME_CONT, RESUME_SYSCALL, RESUME_STEP, RESUME_FILTER };
void pt_resume(struct pt_proc *p, int how, int sig);

/* Block sig in stopped thread p's mask. Returns 1 when it was unblocked,
 * 0 when it was blocked already, -1 when the mask cannot be read or set. */
int pt_block_signal(struct pt_proc *p, int sig);

/* The signals pending for the stopped thread p, its own (set[0]) and
 * its process's (set[1]): at a syscall exit, what the kernel delivers
 * before it runs user code again. Blocked ones are left in
 * (PTRACE_GETSIGMASK gives the mask a sigsuspend restores, not the one
 * it waits with): one that waits for its unblocking is delivered after
 * another call, with other registers. A queue longer than it reads only
 * leaves signals out, which is safe (do_signal holds those). */
void pt_pending(struct pt_proc *p, uint64_t set[2]);

/* Read n bytes of tracee memory; returns the number read (short at an
 * unmapped page) or -1. */
ssize_t pt_read(struct pt_proc *p, uint64_t addr, void *buf, size_t n);
/* Write n bytes, also into read-only pages. Returns 0 or -1. */
int pt_write(struct pt_proc *p, uint64_t addr, const void *buf, size_t n);
/* Read a NUL-terminated string of at most max-1 bytes; returns its length
 * (max-1 if truncated) or -1. buf is always NUL-terminated. */
ssize_t pt_read_str(struct pt_proc *p, uint64_t addr, char *buf, size_t max);
/* Wait (up to 10 s) until thread tid is a zombie or gone: its exit
 * has done all it does to its process (cleared its id for a join). */
void pt_wait_zombie(pid_t tid);
/* /proc/PID/stat read into buf (len bytes at most): a pointer to its
 * third field (the state letter) on, past the command name, or NULL when
 * unreadable. */
char *pt_stat(pid_t pid, char *buf, size_t len);
/* /proc/PID/FILE ("status", "syscall") read into buf (len - 1 bytes at
 * most, NUL-terminated): its length, or -1. Async-signal-safe (no stdio),
 * as pt_stat is: signal handlers use both. */
ssize_t pt_proc_read(pid_t pid, const char *file, char *buf, size_t len);
/* The line of /proc/PID/status that starts with field ("NSpid:") read
 * into line (len bytes at most): a pointer to what follows field in it,
 * or NULL when there is none or it is unreadable. */
char *pt_status(pid_t pid, const char *field, char *line, size_t len);
/* A number field of /proc/PID/fdinfo/FD ("pos:", "flags:" in octal with
 * base 8, a pidfd's "Pid:"), or -1 when there is none or it is
 * unreadable. */
long long pt_fdinfo(pid_t pid, uint64_t fd, const char *field, int base);
/* A hex field of /proc/PID/status ("SigCgt:") in *v: 0, or -1 when
 * unreadable. */
int pt_status_hex(pid_t pid, const char *field, uint64_t *v);
/* Whether thread pid has capability cap in its effective set (its
 * status's CapEff): 1, 0, or -1 when that cannot be read. */
int pt_cap_eff(pid_t pid, int cap);
/* Whether pid names no process, as the kernel finds none (ESRCH): 0 or
 * less, or one that is not there. */
int pt_no_process(pid_t pid);
/* Whether thread pid is being killed (SIGKILL pending, exiting, a zombie
 * or gone): its memory may then fail to read or write, and its end is
 * the next stop its tracer sees. */
int pt_dying(pid_t pid);
/* Reopen /proc/PID/mem (after execve). */
void pt_reopen_mem(struct pt_proc *p);
/* p's memfd a copy of same's, a thread (or vfork child) of its memory,
 * sparing /proc/PID/mem's open (pt_reopen_mem when same has none). */
void pt_share_mem(struct pt_proc *p, const struct pt_proc *same);

/* The syscall arguments in registers, in order. */
void pt_args(const struct user_regs_struct *r, uint64_t a[6]);
void pt_set_args(struct user_regs_struct *r, const uint64_t a[6]);

/* Debug register i (0-3: addresses, 6: status, 7: control) of stopped
 * thread tid: set to v (0, or -1 with errno set), or read into *v. */
int pt_set_dr(pid_t tid, int i, uint64_t v);
int pt_get_dr(pid_t tid, int i, uint64_t *v);

/* The FP/SSE/AVX state (XSAVE layout) of the stopped thread: returns
 * its length (at most max), or -1. */
ssize_t pt_getxstate(struct pt_proc *p, void *buf, size_t max);
int pt_setxstate(struct pt_proc *p, const void *buf, size_t len);

/* Kill and reap the tracee. */
void pt_kill(struct pt_proc *p);

#endif
