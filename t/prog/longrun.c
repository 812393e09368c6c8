/* longrun.c: prints "running pid P" and then, in rounds of computing
 * with one getppid() call each, "round N TOKEN" every 100 rounds, until
 * the file STOP exists (checked every 100 rounds) or for ever without
 * one; then "done". With THREADS > 0 that many threads compute with calls
 * too, for ever; with "wait" they wait on a condition variable for ever
 * instead. Usage: longrun [STOP [THREADS [wait]]] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

static volatile unsigned long sink;

static void compute(void)
{
	for (unsigned i = 0; i < 300000; i++)
		sink = sink * 6364136223846793005ul + i;
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static void *worker(void *arg)
{
	if (arg) {
		pthread_mutex_lock(&mu);
		for (;;)
			pthread_cond_wait(&cv, &mu);
	}
	for (;;) {
		compute();
		getppid();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *stop = argc > 1 && argv[1][0] ? argv[1] : NULL;
	int nthreads = argc > 2 ? atoi(argv[2]) : 0;
	void *wait = argc > 3 ? argv[3] : NULL;
	setvbuf(stdout, NULL, _IONBF, 0);
	for (int i = 0; i < nthreads; i++) {
		pthread_t t;
		pthread_create(&t, NULL, worker, wait);
	}
	printf("running pid %d\n", (int)getpid());
	for (unsigned n = 1;; n++) {
		compute();
		getppid();
		if (n % 100)
			continue;
		unsigned r;
		getrandom(&r, sizeof r, 0);
		printf("round %u %08x\n", n, r);
		if (stop && access(stop, F_OK) == 0)
			break;
	}
	printf("done\n");
	return 0;
}
