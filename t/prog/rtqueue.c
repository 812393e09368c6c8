/* rtqueue.c: real-time signals queue: three of each of two, queued with
 * values while blocked, are all delivered once unblocked (rec held them
 * for the next syscall and merged those of one number, losing two of
 * three). Prints how many came, in the order they ran, and a token. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

static int got[16], n;

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (n < 16)
		got[n++] = (sig - SIGRTMIN) * 100 + si->si_value.sival_int;
}

int main(void)
{
	unsigned tok;
	getrandom(&tok, sizeof tok, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGRTMIN, &sa, NULL);
	sigaction(SIGRTMIN + 1, &sa, NULL);
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGRTMIN);
	sigaddset(&m, SIGRTMIN + 1);
	sigprocmask(SIG_BLOCK, &m, NULL);
	for (int i = 0; i < 3; i++) {
		sigqueue(getpid(), SIGRTMIN + 1, (union sigval){ .sival_int = i + 1 });
		sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = (tok + i) % 90 });
	}
	sigprocmask(SIG_UNBLOCK, &m, NULL);
	printf("token %08x: %d signals:", tok, n);
	for (int i = 0; i < n; i++)
		printf(" %d", got[i]);
	printf("\n");
	return 0;
}
