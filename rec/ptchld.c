/* ptchld.c: SIGCHLD for the stops of tracees whose tracer is inside the
 * recorded tree: rec sends it (kill or tgkill) and makes its siginfo the
 * kernel's where the program takes it (delivered, or by a call). */
#include "ptchld.h"
#include "rec.h"
#include "task.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* SA_NOCLDSTOP as each process last set it for SIGCHLD. */
static struct { pid_t tgid; int nocldstop; } flags[64];
static int nflags;
/* The siginfo of the SIGCHLD sent to a process that blocks it in every
 * thread, for the call that takes it. */
static struct { pid_t tgid; siginfo_t si; } sent[64];
static int nsent;

static int *nocldstop_of(pid_t tgid, int add)
{
	for (int i = 0; i < nflags; i++)
		if (flags[i].tgid == tgid)
			return &flags[i].nocldstop;
	if (!add || nflags == 64)
		return NULL;
	flags[nflags].tgid = tgid;
	return &flags[nflags++].nocldstop;
}

/* cur's process is gone, or no SIGCHLD is pending for it any more. */
static void forget_sent(pid_t tgid)
{
	for (int i = 0; i < nsent; i++)
		if (sent[i].tgid == tgid)
			sent[i--] = sent[--nsent];
}

void ptchld_entry(long nr, const uint64_t a[6])
{
	uint64_t k[2];	/* the handler, the flags */
	if (nr != SYS_rt_sigaction || a[0] != SIGCHLD || !a[1] ||
	    pt_read(&cur->p, a[1], k, sizeof k) != sizeof k)
		return;
	int *n = nocldstop_of(cur->tgid, 1);
	if (n)
		*n = (k[1] & SA_NOCLDSTOP) != 0;
	/* Ignored (SIG_IGN, or SIG_DFL for SIGCHLD), a pending one is
	 * dropped by the kernel. */
	if (k[0] == (uint64_t)SIG_IGN || k[0] == (uint64_t)SIG_DFL)
		forget_sent(cur->tgid);
}

void ptchld_gone(struct task *t)
{
	struct task *o;
	for (int i = 0; (o = task_nth(i)); i++)
		if (o != t && o->tgid == t->tgid)
			return;	/* not the process's end (an exec from a thread) */
	forget_sent(t->tgid);
	for (int i = 0; i < nflags; i++)
		if (flags[i].tgid == t->tgid)
			flags[i--] = flags[--nflags];
}

void ptchld_exec(void)
{
	int *n = nocldstop_of(cur->tgid, 1);
	if (n)
		*n = 0;
}

/* Whether thread tid blocks SIGCHLD (-1: it cannot be read). */
static int blocks(pid_t tid)
{
	uint64_t m;
	if (pt_status_hex(tid, "SigBlk:", &m) < 0)
		return -1;
	return (m >> (SIGCHLD - 1)) & 1;
}

/* The siginfo of t's stop, as do_notify_parent_cldstop fills it. */
static siginfo_t stop_info(const struct task *t)
{
	siginfo_t si = { .si_signo = SIGCHLD };
	char buf[1024], line[256];
	int event = t->report >> 16, sig = (t->report >> 8) & 0x7f;
	si.si_code = t->pgroup || event == PTRACE_EVENT_STOP ? CLD_STOPPED : CLD_TRAPPED;
	si.si_pid = self_id(t->p.pid, t->p.pid);
	/* CLD_STOPPED tells the group-stop's signal: none for an
	 * INTERRUPT's stop outside one. */
	si.si_status = !t->pgroup && event == PTRACE_EVENT_STOP ? 0 : sig;
	const char *u = pt_status(t->p.pid, "Uid:", line, sizeof line);
	si.si_uid = u ? strtoul(u, NULL, 10) : getuid();
	const char *s = pt_stat(t->p.pid, buf, sizeof buf);
	/* utime and stime: the 12th and 13th fields after the state. */
	for (int i = 0; s && i < 11; i++)
		s = strchr(s, ' ') ? strchr(s, ' ') + 1 : NULL;
	if (s) {
		char *end;
		si.si_utime = strtol(s, &end, 10);
		si.si_stime = strtol(end, NULL, 10);
	}
	return si;
}

/* Sends SIGCHLD with siginfo si to tr's process, as the kernel picks
 * the thread, unless it is ignored or one is pending already. */
static void send_chld(struct task *tr, const siginfo_t *si)
{
	struct task *to = NULL;
	uint64_t ign = 0, cgt = 0;
	if (pt_status_hex(tr->p.pid, "SigIgn:", &ign) < 0 ||
	    pt_status_hex(tr->p.pid, "SigCgt:", &cgt) < 0 || ((ign >> (SIGCHLD - 1)) & 1))
		return;
	/* As the kernel picks: the tracer if it does not block it, else
	 * another thread of its process that does not. */
	if (!blocks(tr->p.pid)) {
		to = tr;
	} else {
		struct task *c;
		for (int i = 0; !to && (c = task_nth(i)); i++)
			if (c->tgid == tr->tgid && blocks(c->p.pid) == 0)
				to = c;
	}
	if (to && !((cgt >> (SIGCHLD - 1)) & 1))
		return;		/* ignored by default: dropped when delivered */
	/* One pending already (rec's, or the kernel's for a child's end)
	 * takes this one in, as the kernel's do. */
	uint64_t pend = 0, shd = 0, bit = 1ull << (SIGCHLD - 1);
	int i;
	for (i = 0; i < nsent && sent[i].tgid != tr->tgid; i++)
		;
	if (i < nsent || i == 64 || pt_status_hex(tr->p.pid, "ShdPnd:", &shd) < 0 || (shd & bit) ||
	    (to && (pt_status_hex(to->p.pid, "SigPnd:", &pend) < 0 || (pend & bit))))
		return;
	nsent++;
	sent[i].tgid = tr->tgid;
	sent[i].si = *si;
	if (to)
		syscall(SYS_tgkill, to->tgid, to->p.pid, SIGCHLD);
	else
		kill(tr->tgid, SIGCHLD);	/* pending for the process */
}

void ptchld_notify(struct task *t)
{
	struct task *tr = t->tracer;
	int *n = tr ? nocldstop_of(tr->tgid, 0) : NULL;
	if (!tr || (n && *n))
		return;
	siginfo_t si = stop_info(t);
	send_chld(tr, &si);
}

void ptchld_ended(struct task *t, struct task *tr, int st)
{
	siginfo_t si = { .si_signo = SIGCHLD };
	char line[256];
	si.si_code = WIFEXITED(st) ? CLD_EXITED : WCOREDUMP(st) ? CLD_DUMPED : CLD_KILLED;
	si.si_status = WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st);
	si.si_pid = self_id(t->p.pid, t->p.pid);
	const char *u = pt_status(t->p.pid, "Uid:", line, sizeof line);
	si.si_uid = u ? strtoul(u, NULL, 10) : getuid();
	send_chld(tr, &si);
}

/* The SIGCHLD sent to cur's process, if rec sent it (as rec's kill
 * and tgkill show: from rec, or from 0 in a pid namespace), taken now. */
static siginfo_t *taken(int code, int pid)
{
	if ((code != SI_USER && code != SI_TKILL) || (pid != getpid() && pid != 0))
		return NULL;
	for (int i = 0; i < nsent; i++)
		if (sent[i].tgid == cur->tgid) {
			static siginfo_t si;
			si = sent[i].si;
			sent[i] = sent[--nsent];
			return &si;
		}
	return NULL;
}

void ptchld_exit(void)
{
	struct user_regs_struct r;
	if (!nsent || pt_getregs_alive(&cur->p, &r) < 0)
		return;
	int64_t ret = r.rax;
	if (cur->nr == SYS_rt_sigtimedwait && ret == SIGCHLD) {
		siginfo_t got, *si;
		if (!cur->a[1])	/* no siginfo asked: none pending now */
			forget_sent(cur->tgid);
		else if (pt_read(&cur->p, cur->a[1], &got, sizeof got) == sizeof got &&
			 (si = taken(got.si_code, got.si_pid)))
			pt_write(&cur->p, cur->a[1], si, sizeof *si);
		return;
	}
	if (cur->nr != SYS_read || ret < (int64_t)sizeof(struct signalfd_siginfo))
		return;
	char path[64], link[64];
	snprintf(path, sizeof path, "/proc/%d/fd/%d", cur->p.pid, (int)cur->a[0]);
	ssize_t k = readlink(path, link, sizeof link - 1);
	if (k < 0 || (link[k] = 0, strcmp(link, "anon_inode:[signalfd]")))
		return;
	for (int64_t off = 0; off + (int64_t)sizeof(struct signalfd_siginfo) <= ret;
	     off += sizeof(struct signalfd_siginfo)) {
		struct signalfd_siginfo s;
		siginfo_t *si;
		if (pt_read(&cur->p, cur->a[1] + off, &s, sizeof s) != sizeof s)
			return;
		if (s.ssi_signo != SIGCHLD || !(si = taken(s.ssi_code, s.ssi_pid)))
			continue;
		s.ssi_code = si->si_code;
		s.ssi_pid = si->si_pid;
		s.ssi_uid = si->si_uid;
		s.ssi_status = si->si_status;
		s.ssi_utime = si->si_utime;
		s.ssi_stime = si->si_stime;
		pt_write(&cur->p, cur->a[1] + off, &s, sizeof s);
	}
}

void ptchld_signal(int sig)
{
	siginfo_t got, *si;
	if (sig == SIGCHLD && nsent && ptrace(PTRACE_GETSIGINFO, cur->p.pid, 0, &got) == 0 &&
	    (si = taken(got.si_code, got.si_pid)))
		ptrace(PTRACE_SETSIGINFO, cur->p.pid, 0, si);
}
