/* leak: built with -fsanitize=address; leaks a number of blocks of sizes
 * that differ per run, so LeakSanitizer's report at exit (made by a
 * helper process that ptraces this one) differs per run too. With an
 * argument N it also starts N threads that block in read meanwhile. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

static void *sink[64];
static int pipefd[2];

static void *blocked(void *arg)
{
	char c;
	(void)arg;
	return read(pipefd[0], &c, 1) == 1 ? NULL : arg;
}

static void __attribute__((noinline)) leak(unsigned r)
{
	int n = 1 + r % 5;
	for (int i = 0; i < n; i++) {
		char *p = malloc(16 + (r >> (4 * i)) % 200);
		memset(p, 'x', 16);
		sink[i] = p;
	}
	for (int i = 0; i < n; i++)
		sink[i] = NULL;	/* now unreachable: leaked */
	printf("leaked %d blocks\n", n);
}

int main(int argc, char **argv)
{
	unsigned r;
	if (getrandom(&r, sizeof r, 0) != sizeof r || pipe(pipefd) < 0)
		return 2;
	int nthreads = argc > 1 ? atoi(argv[1]) : 0;
	pthread_t t[8];
	for (int i = 0; i < nthreads && i < 8; i++)
		pthread_create(&t[i], NULL, blocked, NULL);
	leak(r);
	fflush(stdout);
	return 0;
}
