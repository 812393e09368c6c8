/* native.c: things a program sees of its process, which rec must show as
 * they are without it. "setsid": its process group and session, and
 * setsid(); "parentint": SIGINT to its parent; "execmask": SIGSEGV
 * blocked across execve; "tsync": PR_GET_SECCOMP in two threads after a
 * filter installed with SECCOMP_FILTER_FLAG_TSYNC; "yield": two threads
 * hand a token back and forth with sched_yield(). Output depends on none
 * of the ids, so it is the same every run. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_sig(int sig)
{
	got = sig;
}

static int do_setsid(void)
{
	pid_t me = getpid();
	printf("leader %s\n", getpgrp() == me ? "yes" : "no");
	printf("session leader %s\n", getsid(0) == me ? "yes" : "no");
	pid_t s = setsid();
	printf("setsid %s\n", s == me ? "ok" : strerror(errno));
	printf("leader %s\n", getpgrp() == me ? "yes" : "no");
	printf("session leader %s\n", getsid(0) == me ? "yes" : "no");
	printf("setpgid %s\n", setpgid(0, 0) == 0 ? "ok" : strerror(errno));
	signal(SIGUSR1, on_sig);
	kill(0, SIGUSR1);
	printf("caught %d\n", got);
	pid_t c = fork();
	if (c == 0) {
		printf("child leader %s\n", getpgrp() == getpid() ? "yes" : "no");
		printf("child setpgid %s\n", setpgid(0, 0) == 0 ? "ok" : strerror(errno));
		printf("child leader %s\n", getpgrp() == getpid() ? "yes" : "no");
		printf("child setsid %s\n", setsid() == getpid() ? "ok" : strerror(errno));
		fflush(stdout);
		_exit(0);
	}
	waitpid(c, NULL, 0);
	return 0;
}

static int parentint(void)
{
	printf("sending\n");
	fflush(stdout);
	printf("kill %d\n", kill(getppid(), SIGINT));
	usleep(100000);
	printf("alive\n");
	return 3;
}

static int execmask(char *self)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGSEGV);
	sigaddset(&s, SIGUSR2);
	sigprocmask(SIG_BLOCK, &s, NULL);
	execl(self, self, "execmask2", (char *)NULL);
	perror("execl");
	return 1;
}

static int execmask2(void)
{
	sigset_t s;
	sigprocmask(SIG_BLOCK, NULL, &s);
	printf("SIGSEGV %s\n", sigismember(&s, SIGSEGV) ? "blocked" : "not blocked");
	printf("SIGUSR2 %s\n", sigismember(&s, SIGUSR2) ? "blocked" : "not blocked");
	printf("SIGUSR1 %s\n", sigismember(&s, SIGUSR1) ? "blocked" : "not blocked");
	return 0;
}

static volatile int go, seen;

static void *tsync_thread(void *arg)
{
	(void)arg;
	while (!go)
		usleep(1000);
	seen = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
	return NULL;
}

static int tsync(void)
{
	pthread_t t;
	pthread_create(&t, NULL, tsync_thread, NULL);
	printf("before %d\n", prctl(PR_GET_SECCOMP, 0, 0, 0, 0));
	struct sock_filter f[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_fprog prog = { 1, f };
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog);
	printf("seccomp %ld\n", r);
	printf("after %d\n", prctl(PR_GET_SECCOMP, 0, 0, 0, 0));
	go = 1;
	pthread_join(t, NULL);
	printf("thread %d\n", seen);
	return 0;
}

#define ROUNDS 200
static volatile int turn;
static int passes[2];

static void *yielder(void *arg)
{
	int me = (int)(long)arg;
	for (int i = 0; i < ROUNDS; i++) {
		while (turn != me)
			sched_yield();
		passes[me]++;
		turn = !me;
	}
	return NULL;
}

static int yield(void)
{
	pthread_t t;
	pthread_create(&t, NULL, yielder, (void *)1L);
	yielder((void *)0L);
	pthread_join(t, NULL);
	printf("passes %d %d\n", passes[0], passes[1]);
	return 0;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(m, "setsid"))
		return do_setsid();
	if (!strcmp(m, "parentint"))
		return parentint();
	if (!strcmp(m, "execmask"))
		return execmask(argv[0]);
	if (!strcmp(m, "execmask2"))
		return execmask2();
	if (!strcmp(m, "tsync"))
		return tsync();
	if (!strcmp(m, "yield"))
		return yield();
	fprintf(stderr, "usage: native setsid|parentint|execmask|tsync|yield\n");
	return 2;
}
