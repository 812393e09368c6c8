/* signals.c: sends itself signals with raise, kill(getpid()) and sigqueue
 * (carrying a random value) and prints what the handlers saw. */
#include <signal.h>
#include <stdio.h>
#include <sys/random.h>
#include <unistd.h>

static volatile int got_sig[3];
static volatile int got_val, got_code;

static void handler(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	int i = sig == SIGUSR1 ? 0 : sig == SIGUSR2 ? 1 : 2;
	got_sig[i]++;
	got_code = si->si_code;
	if (sig == SIGRTMIN)
		got_val = si->si_value.sival_int;
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGRTMIN, &sa, NULL);
	int r;
	getrandom(&r, sizeof r, 0);

	raise(SIGUSR1);
	printf("raise: usr1 %d code %d\n", got_sig[0], got_code);
	kill(getpid(), SIGUSR2);
	printf("kill: usr2 %d code %d\n", got_sig[1], got_code);
	sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = r });
	printf("sigqueue: rt %d value %d code %d\n", got_sig[2], got_val, got_code);
	signal(SIGUSR1, SIG_IGN);
	raise(SIGUSR1);
	printf("ignored: usr1 %d\n", got_sig[0]);
	return 0;
}
