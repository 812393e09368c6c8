/* held-signal.c: a timer fires while the program computes without syscalls,
 * then it waits for the signal. rec holds the signal to the next syscall
 * and must raise it there, or the wait would last for ever. The wait is
 * sigsuspend with SIGALRM blocked since the check, not `if (!hits)
 * pause()`: a signal that comes between that check and pause() (rec may
 * deliver a held one at a preemption anywhere) leaves pause() waiting
 * for ever, natively too. */
#include <signal.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t hits;

static void on_alarm(int sig)
{
	(void)sig;
	hits++;
}

int main(void)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	signal(SIGALRM, on_alarm);
	struct itimerval it = { { 0, 0 }, { 0, 10000 + r % 1000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < 400000000ul; i++)	/* ~0.2 s, no syscall */
		x++;
	sigset_t alrm, old;
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, &old);
	int seen = hits;
	while (!hits)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	printf("token %08x, seen while computing %d, hits %d\n", r, seen, (int)hits);
	return 0;
}
