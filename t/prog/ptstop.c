/* ptstop.c: a tracer inside the program in the cases that once hung rec
 * (group-stop, SEIZE+INTERRUPT, waits from threads, a stop's SIGCHLD);
 * the mode (argv[1]) picks one. Prints what the tracer sees, no ids. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;
static int pfd[2], tfd[2];

static void show(const char *what, int st)
{
	if (WIFEXITED(st))
		printf("%s: exited %d\n", what, WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		printf("%s: killed by %d\n", what, WTERMSIG(st));
	else if (WIFSTOPPED(st))
		printf("%s: stopped by %d event %d\n", what, WSTOPSIG(st), st >> 16);
	else
		printf("%s: status 0x%x\n", what, st);
	fflush(stdout);
}

static void waitshow(const char *what)
{
	int st;
	pid_t r = waitpid(child, &st, __WALL);
	if (r != child) {
		printf("%s: wait %d errno %d\n", what, (int)r, errno);
		fflush(stdout);
		return;
	}
	show(what, st);
}

/* A child that waits for a byte on the pipe, says so, and exits 5. */
static void reader(void)
{
	char c;
	if (read(pfd[0], &c, 1) == 1)
		printf("child read %c\n", c);
	fflush(stdout);
	_exit(5);
}

static void groupstop(void)
{
	child = fork();
	if (!child) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		kill(getpid(), SIGSTOP);
		printf("child goes on\n");
		fflush(stdout);
		_exit(7);
	}
	waitshow("signal stop");
	ptrace(PTRACE_CONT, child, 0, SIGSTOP);
	waitshow("group stop");
	siginfo_t si;
	errno = 0;
	long r = ptrace(PTRACE_GETSIGINFO, child, 0, &si);
	printf("getsiginfo at the group stop: %ld errno %d\n", r, errno);
	fflush(stdout);
	ptrace(PTRACE_CONT, child, 0, 0);
	waitshow("end");
}

static void interrupt(void)
{
	child = fork();
	if (!child)
		reader();
	printf("seize %ld\n", ptrace(PTRACE_SEIZE, child, 0, 0));
	printf("interrupt %ld\n", ptrace(PTRACE_INTERRUPT, child, 0, 0));
	waitshow("interrupted");
	printf("cont %ld\n", ptrace(PTRACE_CONT, child, 0, 0));
	fflush(stdout);
	write(pfd[1], "x", 1);
	waitshow("end");
}

static void regs(const char *what)
{
	struct user_regs_struct r;
	ptrace(PTRACE_GETREGS, child, 0, &r);
	printf("%s: orig_rax %lld rax %lld\n", what, (long long)r.orig_rax, (long long)r.rax);
	fflush(stdout);
}

/* Wait until process pid sleeps in a call ('S' in /proc/PID/stat): a
 * fixed pause is not enough on a loaded machine under rec, where the
 * call's entry waits for rec first ('t'), and an INTERRUPT there finds
 * the child before its sleep. */
static void wait_asleep(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	for (;;) {
		int fd = open(path, O_RDONLY);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
		if (fd >= 0)
			close(fd);
		if (n > 0) {
			buf[n] = 0;
			char *q = strrchr(buf, ')');
			if (q && q[1] == ' ' && q[2] == 'S')
				return;
		}
		usleep(1000);
	}
}

static void intsys(void)
{
	char c;
	child = fork();
	if (!child) {
		write(tfd[1], "r", 1);
		sleep(10000);
		_exit(77);
	}
	printf("seize %ld\n", ptrace(PTRACE_SEIZE, child, 0, PTRACE_O_TRACESYSGOOD));
	read(tfd[0], &c, 1);
	wait_asleep(child);
	printf("interrupt %ld\n", ptrace(PTRACE_INTERRUPT, child, 0, 0));
	waitshow("interrupted");
	regs("at the interrupt");
	printf("syscall %ld\n", ptrace(PTRACE_SYSCALL, child, 0, 0));
	waitshow("next stop");
	regs("there");
	kill(child, SIGKILL);
	waitshow("end");
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void intsusp(void)
{
	char c;
	long r;
	signal(SIGUSR1, on_usr1);
	child = fork();
	if (!child) {
		sigset_t none;
		sigemptyset(&none);
		write(tfd[1], "r", 1);
		sigsuspend(&none);
		printf("child woke\n");
		fflush(stdout);
		_exit(3);
	}
	read(tfd[0], &c, 1);
	wait_asleep(child);
	printf("seize %ld\n", ptrace(PTRACE_SEIZE, child, 0, 0));
	printf("interrupt %ld\n", ptrace(PTRACE_INTERRUPT, child, 0, 0));
	waitshow("interrupted");
	r = ptrace(PTRACE_CONT, child, 0, 0);
	usleep(100000);
	kill(child, SIGUSR1);
	waitshow("signal stop");
	printf("cont %ld\n", r);
	fflush(stdout);
	ptrace(PTRACE_CONT, child, 0, SIGUSR1);
	waitshow("end");
}

static void *thrwait(void *arg)
{
	(void)arg;
	printf("thread attach %ld\n", ptrace(PTRACE_ATTACH, child, 0, 0));
	waitshow("thread's wait");
	printf("thread detach %ld\n", ptrace(PTRACE_DETACH, child, 0, 0));
	fflush(stdout);
	return NULL;
}

/* Attaches, lets the main thread wait for the stop, then detaches. */
static void *grpwait(void *arg)
{
	(void)arg;
	char c;
	long r = ptrace(PTRACE_ATTACH, child, 0, 0);
	if (read(tfd[0], &c, 1) == 1)	/* said after the main thread's */
		printf("thread attach %ld\n", r);
	if (r == 0)
		printf("thread detach %ld\n", ptrace(PTRACE_DETACH, child, 0, 0));
	fflush(stdout);
	return NULL;
}

static void *thrchld(void *arg)
{
	(void)arg;
	sigset_t set;
	siginfo_t si;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	printf("thread attach %ld\n", ptrace(PTRACE_ATTACH, child, 0, 0));
	fflush(stdout);
	int sig = sigwaitinfo(&set, &si);
	printf("thread's sigwait: signal %d code %d status %d from the child %d\n", sig, si.si_code,
	       si.si_status, si.si_pid == child);
	waitshow("thread's wait");
	printf("thread detach %ld\n", ptrace(PTRACE_DETACH, child, 0, 0));
	fflush(stdout);
	return NULL;
}

static volatile int chld, chld_code, chld_status, chld_pid;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	chld++;
	chld_code = si->si_code;
	chld_status = si->si_status;
	chld_pid = si->si_pid;
}

/* SIGCHLD at a tracee's stops: an INTERRUPT's, a signal's, its end. */
static void handler(int nocldstop)
{
	struct sigaction sa = { .sa_sigaction = on_chld, .sa_flags = SA_SIGINFO };
	sigset_t block, old;
	if (nocldstop)
		sa.sa_flags |= SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &old);
	child = fork();
	if (!child)
		reader();
	printf("seize %ld\n", ptrace(PTRACE_SEIZE, child, 0, 0));
	printf("interrupt %ld\n", ptrace(PTRACE_INTERRUPT, child, 0, 0));
	fflush(stdout);
	if (!nocldstop)
		while (!chld)
			sigsuspend(&old);
	printf("SIGCHLDs %d: code %d status %d from the child %d\n", chld, chld_code, chld_status,
	       chld_pid == child);
	waitshow("interrupted");
	kill(child, SIGUSR1);
	printf("cont %ld\n", ptrace(PTRACE_CONT, child, 0, 0));
	fflush(stdout);
	if (!nocldstop)
		while (chld < 2)
			sigsuspend(&old);
	printf("SIGCHLDs %d: code %d status %d from the child %d\n", chld, chld_code, chld_status,
	       chld_pid == child);
	waitshow("signal stop");
	printf("cont %ld\n", ptrace(PTRACE_CONT, child, 0, SIGUSR1));
	fflush(stdout);
	while (chld < 3 - 2 * nocldstop)
		sigsuspend(&old);
	printf("SIGCHLDs %d: code %d status %d from the child %d\n", chld, chld_code, chld_status,
	       chld_pid == child);
	waitshow("end");
}

/* The stop's SIGCHLD read from a signalfd. */
static void sigfd(void)
{
	sigset_t set;
	struct signalfd_siginfo ss;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	int fd = signalfd(-1, &set, 0);
	child = fork();
	if (!child)
		reader();
	printf("attach %ld\n", ptrace(PTRACE_ATTACH, child, 0, 0));
	ssize_t n = read(fd, &ss, sizeof ss);
	printf("signalfd read %zd: signal %u code %d status %d from the child %d\n", n, ss.ssi_signo,
	       ss.ssi_code, ss.ssi_status, (pid_t)ss.ssi_pid == child);
	waitshow("wait");
	printf("detach %ld\n", ptrace(PTRACE_DETACH, child, 0, 0));
	fflush(stdout);
	write(pfd[1], "s", 1);
	waitshow("end");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "groupstop";
	if (pipe(pfd) < 0)
		return 1;
	if (!strcmp(mode, "groupstop")) {
		groupstop();
		return 0;
	}
	if (!strcmp(mode, "intsys") && pipe(tfd) == 0) {
		intsys();
		return 0;
	}
	if (!strcmp(mode, "intsusp") && pipe(tfd) == 0) {
		intsusp();
		return 0;
	}
	if (!strcmp(mode, "handler") || !strcmp(mode, "nocldstop")) {
		handler(!strcmp(mode, "nocldstop"));
		return 0;
	}
	if (!strcmp(mode, "sigfd")) {
		sigfd();
		return 0;
	}
	if (!strcmp(mode, "interrupt")) {
		interrupt();
		return 0;
	}
	void *(*fn)(void *) = !strcmp(mode, "thrwait") ? thrwait : !strcmp(mode, "thrchld") ? thrchld :
			      !strcmp(mode, "grpwait") ? grpwait : NULL;
	if (!fn || pipe(tfd) < 0)
		return 2;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	child = fork();
	if (!child)
		reader();
	pthread_t t;
	pthread_create(&t, NULL, fn, NULL);
	if (fn == grpwait) {
		waitshow("main's wait");
		write(tfd[1], "z", 1);
	}
	pthread_join(t, NULL);
	write(pfd[1], "y", 1);
	waitshow("end");
	return 0;
}
