/* spinkill.c: prints its pid and a random token, then computes until it
 * is killed from outside. Usage: spinkill MODE; MODE 0 with no syscall in
 * its loop, 1 with buffered clock_gettime calls, 2 in a second thread
 * while main joins it, 3 in a child process the parent waits for. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sum;
static int mode;

static void compute(void)
{
	for (;;) {
		if (mode == 1) {
			struct timespec ts;
			clock_gettime(CLOCK_MONOTONIC, &ts);
			sum += ts.tv_nsec;
		} else {
			sum++;
		}
	}
}

static void *thread(void *arg)
{
	(void)arg;
	compute();
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned r = 0;
	mode = argc > 1 ? atoi(argv[1]) : 0;
	getrandom(&r, sizeof r, 0);
	if (mode == 3) {
		pid_t c = fork();
		if (c < 0)
			return perror("fork"), 2;
		if (c == 0) {
			printf("pid %d token %08x\n", (int)getpid(), r);
			fflush(stdout);
			compute();
		}
		int st = 0;
		waitpid(c, &st, 0);
		printf("child status 0x%x\n", st);
		return 0;
	}
	printf("pid %d token %08x\n", (int)getpid(), r);
	fflush(stdout);
	if (mode == 2) {
		pthread_t t;
		pthread_create(&t, NULL, thread, NULL);
		pthread_join(t, NULL);
	}
	compute();
}
