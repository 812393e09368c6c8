/* ptevent.c: a tracer inside the program with the event options (exec,
 * exit, fork, vfork, clone, vfork-done, seize, of a stopped child) and PTRACE_GET_SYSCALL_INFO; the
 * mode (argv[1]) picks one. Prints what the tracer sees, ids as "child". */
#include <errno.h>
#include <stdint.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;
static const char empty[] = "";
static int last;	/* the status waitshow saw */

/* An id as the tracer names it: the child, its new one, or another. */
static const char *who(long pid, long newpid)
{
	if (pid == child)
		return "child";
	if (pid == newpid && newpid)
		return "new";
	return "other";
}

static int waitshow(const char *what, pid_t pid, long newpid)
{
	int st = 0;
	pid_t r = waitpid(pid, &st, __WALL);
	last = st;
	if (r < 0) {
		printf("%s: wait errno %d\n", what, errno);
	} else if (WIFEXITED(st)) {
		printf("%s: %s exited %d\n", what, who(r, newpid), WEXITSTATUS(st));
	} else if (WIFSIGNALED(st)) {
		printf("%s: %s killed by %d\n", what, who(r, newpid), WTERMSIG(st));
	} else {
		unsigned long msg = 0;
		siginfo_t si;
		struct user_regs_struct regs;
		memset(&si, 0, sizeof si);
		long g = ptrace(PTRACE_GETSIGINFO, r, 0, &si);
		ptrace(PTRACE_GETEVENTMSG, r, 0, &msg);
		ptrace(PTRACE_GETREGS, r, 0, &regs);
		printf("%s: %s stopped by 0x%x event %d msg %s, siginfo %ld signo %d code 0x%x "
		       "pid %s, orig_rax %lld rax %lld\n",
		       what, who(r, newpid), WSTOPSIG(st), st >> 16,
		       msg < 4 ? (msg == 0 ? "0" : msg == 1 ? "1" : msg == 2 ? "2" : "3")
			       : who(msg, newpid), g, si.si_signo, si.si_code,
		       si.si_pid ? who(si.si_pid, newpid) : "0", (long long)regs.orig_rax,
		       (long long)regs.rax < -4095 || (long long)regs.rax > 255 ? 4096LL : (long long)regs.rax);
	}
	fflush(stdout);
	return r;
}

static long eventmsg(pid_t pid)
{
	unsigned long msg = 0;
	ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg);
	return msg;
}

/* A child that stops for its tracer (TRACEME) before it goes on. */
static int traced_child(void)
{
	child = fork();
	if (!child) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		return 1;
	}
	waitshow("start", child, 0);
	return 0;
}

/* The child execs /bin/true: every stop up to the exec's (and the
 * call's exit after it when req is PTRACE_SYSCALL), then its end. */
static void do_exec(long opts, int req)
{
	if (traced_child()) {
		execl("/bin/true", "true", (char *)0);
		_exit(99);
	}
	ptrace(PTRACE_SETOPTIONS, child, 0, opts);
	int past = 0;
	for (int i = 0; i < 12; i++) {
		ptrace(past > (req == PTRACE_SYSCALL) ? PTRACE_CONT : req, child, 0, 0);
		if (waitshow("stop", child, 0) < 0 || !WIFSTOPPED(last))
			break;
		siginfo_t si;
		memset(&si, 0, sizeof si);
		ptrace(PTRACE_GETSIGINFO, child, 0, &si);
		if (past || (si.si_signo == SIGTRAP && (si.si_code == SI_USER ||
					     si.si_code == (SIGTRAP | PTRACE_EVENT_EXEC << 8))))
			past++;
	}
}

static void *thread(void *a)
{
	return a;
}

/* The child makes a process with fork, one with vfork, and a thread;
 * the tracer follows each new one as the kernel reports it. */
static void do_fork(int seize)
{
	int pfd[2];
	if (pipe(pfd))
		return;
	child = fork();
	if (!child) {
		char c;
		if (!seize) {
			ptrace(PTRACE_TRACEME, 0, 0, 0);
			raise(SIGSTOP);
		} else if (read(pfd[0], &c, 1) != 1) {
			_exit(98);
		}
		/* The ends of its children stop it for no SIGCHLD. */
		sigset_t chld;
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		sigprocmask(SIG_BLOCK, &chld, NULL);
		pid_t p = fork();
		if (!p)
			_exit(11);
		waitpid(p, NULL, 0);
		p = vfork();
		if (!p)
			_exit(12);
		waitpid(p, NULL, 0);
		pthread_t t;
		pthread_create(&t, NULL, thread, NULL);
		pthread_join(t, NULL);
		_exit(3);
	}
	long opts = PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |
		    PTRACE_O_TRACEVFORKDONE | PTRACE_O_TRACESYSGOOD;
	if (seize) {
		printf("seize %ld\n", ptrace(PTRACE_SEIZE, child, 0, opts));
		if (write(pfd[1], "x", 1) != 1)
			return;
	} else {
		waitshow("start", child, 0);
		ptrace(PTRACE_SETOPTIONS, child, 0, opts);
		ptrace(PTRACE_CONT, child, 0, 0);
	}
	for (int i = 0; i < 3; i++) {
		/* The child's event stop, then the new one's first stop. */
		int r = waitshow("event", child, 0);
		if (r != child)
			return;
		long n = eventmsg(child);
		waitshow("new one", n, n);
		int vf = 0;
		siginfo_t si;
		if (ptrace(PTRACE_GETSIGINFO, child, 0, &si) == 0 &&
		    si.si_code == (SIGTRAP | PTRACE_EVENT_VFORK << 8))
			vf = 1;
		ptrace(PTRACE_CONT, n, 0, 0);
		if (vf) {
			/* Its child ends; then the vfork is done. */
			waitshow("new one", n, n);
			ptrace(PTRACE_CONT, child, 0, 0);
			waitshow("vfork done", child, n);
			ptrace(PTRACE_CONT, child, 0, 0);
		} else {
			waitshow("new one", n, n);
			ptrace(PTRACE_CONT, child, 0, 0);
		}
	}
	waitshow("end", child, 0);
}

struct info {
	uint8_t op, pad[3];
	uint32_t arch;
	uint64_t ip, sp;
	union {
		struct { uint64_t nr, args[6]; } entry;
		struct { int64_t rval; uint8_t is_error; } exit;
	};
};

static void show_info(pid_t pid)
{
	struct info in;
	memset(&in, 0xee, sizeof in);
	long r = ptrace(0x420e, pid, (void *)sizeof in, &in);
	printf("  info %ld: op %d arch 0x%x ip %d sp %d", r, in.op, in.arch, in.ip != 0, in.sp != 0);
	if (in.op == 1)
		printf(" entry nr %llu arg0 %s", (unsigned long long)in.entry.nr,
		       in.entry.args[0] == (uint64_t)(uintptr_t)empty ? "the string" : "other");
	if (in.op == 2)
		printf(" exit rval %s is_error %d",
		       in.exit.rval == child ? "child" : in.exit.rval == -ENOENT ? "-ENOENT" : "other",
		       in.exit.is_error);
	memset(&in, 0xee, sizeof in);
	r = ptrace(0x420e, pid, (void *)8, &in);
	printf("; 8 bytes: %ld, byte 8 0x%x\n", r, ((uint8_t *)&in)[8]);
	fflush(stdout);
}

/* strace's probe: the stops of chdir(""), gettid() and exit_group. */
static void do_info(int sysgood)
{
	if (traced_child()) {
		syscall(SYS_chdir, empty);
		syscall(SYS_gettid);
		syscall(SYS_exit_group, 0);
	}
	ptrace(PTRACE_SETOPTIONS, child, 0, sysgood ? PTRACE_O_TRACESYSGOOD : 0);
	show_info(child);
	for (int i = 0; i < 5; i++) {
		ptrace(PTRACE_SYSCALL, child, 0, 0);
		if (waitshow("stop", child, 0) < 0)
			break;
		show_info(child);
	}
	ptrace(PTRACE_CONT, child, 0, 0);
	waitshow("end", child, 0);
}

/* PTRACE_O_TRACEEXIT: the stop before the end, with the exit status. */
static void do_exit(int sys)
{
	if (traced_child())
		syscall(SYS_exit_group, 7);
	ptrace(PTRACE_SETOPTIONS, child, 0, PTRACE_O_TRACEEXIT | PTRACE_O_TRACESYSGOOD);
	for (int i = 0; i < 4; i++) {
		ptrace(sys ? PTRACE_SYSCALL : PTRACE_CONT, child, 0, 0);
		if (waitshow("stop", child, 0) < 0 || !WIFSTOPPED(last))
			break;
		printf("  message 0x%lx\n", eventmsg(child));
		fflush(stdout);
	}
}

/* PTRACE_SEIZE (or ATTACH) of a child in a group-stop: it traps into
 * it at once; detached, it stays stopped till a SIGCONT. */
static void do_stopped(int seize)
{
	child = fork();
	if (!child) {
		raise(SIGSTOP);
		_exit(4);
	}
	int st;
	waitpid(child, &st, WUNTRACED);
	printf("seen stopped: %d\n", WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP);
	printf("attach %ld\n", seize ? ptrace(PTRACE_SEIZE, child, 0, 0)
				      : ptrace(PTRACE_ATTACH, child, 0, 0));
	waitshow("trapped", child, 0);
	printf("detach %ld\n", ptrace(PTRACE_DETACH, child, 0, 0));
	kill(child, SIGCONT);
	waitshow("end", child, 0);
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	if (!strcmp(m, "exec"))
		do_exec(PTRACE_O_TRACEEXEC, PTRACE_CONT);
	else if (!strcmp(m, "execold"))
		do_exec(0, PTRACE_CONT);
	else if (!strcmp(m, "execsys"))
		do_exec(PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD, PTRACE_SYSCALL);
	else if (!strcmp(m, "execoldsys"))
		do_exec(0, PTRACE_SYSCALL);
	else if (!strcmp(m, "fork"))
		do_fork(0);
	else if (!strcmp(m, "seize"))
		do_fork(1);
	else if (!strcmp(m, "exit"))
		do_exit(0);
	else if (!strcmp(m, "exitsys"))
		do_exit(1);
	else if (!strcmp(m, "seizestopped"))
		do_stopped(1);
	else if (!strcmp(m, "attachstopped"))
		do_stopped(0);
	else if (!strcmp(m, "info"))
		do_info(1);
	else if (!strcmp(m, "infonone"))
		do_info(0);
	else
		return 2;
	return 0;
}
