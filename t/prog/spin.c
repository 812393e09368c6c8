/* spin.c: a thread spins on an atomic flag with no syscall in its loop
 * while main, after seeing it start, makes syscalls and then sets the flag.
 * Usage: spin [count]  (count: the loop also counts its turns). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static atomic_int started, flag;
static atomic_uint token;
static int counting;

static void *spinner(void *arg)
{
	unsigned long n = 0;

	(void)arg;
	atomic_store(&started, 1);
	/* No syscall from here until the flag is set: under rec this thread
	 * must be preempted for main to run again. */
	if (counting)
		while (!atomic_load(&flag))
			n++;
	else
		while (!atomic_load(&flag))
			;
	unsigned v = atomic_load(&token) * 2654435761u;
	return (void *)(unsigned long)(counting ? (n > 0) : v);
}

int main(int argc, char **argv)
{
	pthread_t t;
	unsigned r = 0;
	struct timespec ts;
	void *res;

	counting = argc > 1 && !strcmp(argv[1], "count");
	int e = pthread_create(&t, NULL, spinner, NULL);
	if (e)
		return fprintf(stderr, "spin: pthread_create: %s\n", strerror(e)), 1;
	/* Wait for the spinner with syscalls, so that it spins before the
	 * flag is set. */
	while (!atomic_load(&started))
		sched_yield();
	getrandom(&r, sizeof r, 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	write(1, "main: working\n", 14);
	atomic_store(&token, r ^ (unsigned)ts.tv_nsec);
	atomic_store(&flag, 1);
	pthread_join(t, &res);
	if (counting)
		printf("token %08x, spinner counted: %s\n", atomic_load(&token),
		       res ? "yes" : "no");
	else
		printf("token %08x, spinner saw %08x\n", atomic_load(&token),
		       (unsigned)(unsigned long)res);
	return 0;
}
