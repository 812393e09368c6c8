/* uncounted.c: spins in a loop whose 2-byte back edge follows a store to
 * memory (so the patcher cannot count it) until a one-shot 20 ms timer's
 * SIGALRM comes, then prints the turns (mod 1000003) and a random token.
 * With argv[1] "thread", a second thread computes beside it, so that rec
 * preempts the spinner for it too. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/time.h>

static volatile int got;
static volatile unsigned long turns;

static void on_alarm(int sig)
{
	(void)sig;
	got = 1;
}

static void *other(void *arg)
{
	unsigned long x = (unsigned long)arg;
	while (!got)
		x = x * 6364136223846793005ul + 1;
	return (void *)x;
}

int main(int argc, char **argv)
{
	unsigned r = 0;
	getrandom(&r, sizeof r, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	pthread_t t;
	int threaded = argc > 1 && !strcmp(argv[1], "thread");
	if (threaded && pthread_create(&t, NULL, other, (void *)(unsigned long)r))
		return 2;
	struct itimerval it = { { 0, 0 }, { 0, 20000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	/* load the flag; count in memory (a store: not movable); test; je back */
	__asm__ volatile("1:\n\t"
			 "movl %[got], %%eax\n\t"
			 "addq $1, %[turns]\n\t"
			 "testl %%eax, %%eax\n\t"
			 ".byte 0x74, 1b - . - 1\n\t"	/* je 1b, in its 2-byte form */
			 : [turns] "+m"(turns)
			 : [got] "m"(got)
			 : "eax", "cc", "memory");
	if (threaded)
		pthread_join(t, NULL);
	printf("alarm after %lu turns (mod 1000003), token %08x\n", turns % 1000003, r);
	return 0;
}
