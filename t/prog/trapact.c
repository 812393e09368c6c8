/* trapact.c: rdtsc while SIGSEGV and SIGILL are blocked, and while
 * SIGSEGV is ignored, in the process and in a forked child. The fault of
 * rec's trap (SIGSEGV, or SIGILL at a patched site) would make the kernel
 * unblock the signal and reset its action; the program must see what it
 * sees natively: its handlers kept, the signals blocked, SIGSEGV still
 * ignored. Prints a token (differs run to run) and what it saw. */
#include <signal.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

static volatile sig_atomic_t ran;

static void on_sig(int sig)
{
	ran = sig;
}

/* rdtsc with SIGSEGV and SIGILL blocked; then each is raised. */
static void blocked_round(const char *who)
{
	sigset_t m, now;
	struct sigaction q;
	sigemptyset(&m);
	sigaddset(&m, SIGSEGV);
	sigaddset(&m, SIGILL);
	sigprocmask(SIG_BLOCK, &m, NULL);
	unsigned long long t = __rdtsc();
	sigprocmask(SIG_BLOCK, NULL, &now);
	int blocked = sigismember(&now, SIGSEGV) && sigismember(&now, SIGILL);
	sigprocmask(SIG_UNBLOCK, &m, NULL);
	sigaction(SIGSEGV, NULL, &q);
	int segv = q.sa_handler == on_sig;
	sigaction(SIGILL, NULL, &q);
	int ill = q.sa_handler == on_sig;
	ran = 0;
	raise(SIGSEGV);
	int got_segv = ran;
	ran = 0;
	raise(SIGILL);
	printf("%s: tsc %d, still blocked %d, handlers kept %d %d, ran %d %d\n", who, t > 0, blocked,
	       segv, ill, got_segv, ran);
	fflush(stdout);
}

int main(void)
{
	unsigned tok;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x\n", tok);
	fflush(stdout);
	struct sigaction sa = { .sa_handler = on_sig };
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	blocked_round("parent");
	pid_t c = fork();
	if (c == 0) {
		blocked_round("child");
		_exit(0);
	}
	int st;
	waitpid(c, &st, 0);
	signal(SIGSEGV, SIG_IGN);
	unsigned long long t = __rdtsc();
	struct sigaction q;
	sigaction(SIGSEGV, NULL, &q);
	raise(SIGSEGV);
	printf("ignored: tsc %d, still ignored %d, child status %d\n", t > 0, q.sa_handler == SIG_IGN,
	       st);
	return 0;
}
