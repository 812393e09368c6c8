/* sigcorner.c: signal corners. "overflow": infinite recursion caught on
 * a sigaltstack (the handler prints and exits); "overflow-noalt": the same
 * without one (killed by SIGSEGV); "ppoll": ppoll with a signal mask that
 * lets a pending SIGUSR1 in; "early": SIGALRM from a zero timer kills it
 * at once. Each prints a token first. */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_segv(int sig)
{
	char msg[] = "overflow caught on the alternate stack\n";
	(void)sig;
	write(1, msg, sizeof msg - 1);
	_exit(3);
}

static void on_usr1(int sig)
{
	got = sig;
}

static int (*volatile again)(volatile char *);

static int deep(volatile char *p)
{
	volatile char pad[4096];
	pad[0] = p ? p[0] + 1 : 0;
	return again(pad) + pad[100];
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "overflow";
	unsigned r;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);
	fflush(stdout);
	if (!strcmp(how, "overflow") || !strcmp(how, "overflow-noalt")) {
		if (!strcmp(how, "overflow")) {
			stack_t ss = { .ss_sp = malloc(65536), .ss_size = 65536 };
			sigaltstack(&ss, NULL);
			struct sigaction sa = { .sa_handler = on_segv, .sa_flags = SA_ONSTACK };
			sigaction(SIGSEGV, &sa, NULL);
		}
		again = deep;
		return deep(NULL);
	}
	if (!strcmp(how, "ppoll")) {
		sigset_t block, open;
		sigemptyset(&block);
		sigaddset(&block, SIGUSR1);
		sigprocmask(SIG_BLOCK, &block, &open);
		signal(SIGUSR1, on_usr1);
		raise(SIGUSR1);	/* pending, blocked */
		int p[2];
		pipe(p);
		struct pollfd pf = { p[0], POLLIN, 0 };
		struct timespec ts = { 5, 0 };
		int rc = ppoll(&pf, 1, &ts, &open);
		printf("ppoll = %d, got %d\n", rc, got);
		return 0;
	}
	if (!strcmp(how, "early")) {
		struct itimerval it = { { 0, 0 }, { 0, 1 } };
		setitimer(ITIMER_REAL, &it, NULL);
		for (;;)
			;
	}
	return 1;
}
