/* watchask.c: a watched local beside the struct an rt_sigaction that only
 * asks writes its answer into (the filter lets those through): with
 * watchpoints by page protection the page is read-only while the program
 * runs, and the kernel's write must still land. Prints lines that differ
 * each run. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

static void on_usr1(int sig)
{
	(void)sig;
}

static long step(unsigned seed, int i)
{
	volatile long counter = seed % 1000;
	struct sigaction old;
	memset(&old, 0xa5, sizeof old);
	counter += i + 1; /* WRITE */
	if (sigaction(SIGUSR1, NULL, &old) != 0)
		return -1;
	counter += old.sa_handler == on_usr1; /* ASKED */
	return counter;
}

int main(void)
{
	unsigned seed = 0;
	if (getrandom(&seed, sizeof seed, 0) != sizeof seed)
		return 1;
	signal(SIGUSR1, on_usr1);
	for (int i = 0; i < 3; i++)
		printf("seed %u step %d: %ld\n", seed, i, step(seed, i));
	return 0;
}
