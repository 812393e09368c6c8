/* threads.c: bench workload of threads sharing a mutex: 4 threads each make
 * 20,000 one-byte writes to /dev/null while holding it. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NTHREADS 4

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long n = 20000, total;
static int fd;

static void *worker(void *arg)
{
	(void)arg;
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&lock);
		if (write(fd, "x", 1) == 1)
			total++;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		n = atol(argv[1]);
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return perror("/dev/null"), 1;
	pthread_t t[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, NULL))
			return fprintf(stderr, "threads: pthread_create failed\n"), 1;
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	printf("%ld\n", total);
	return total == NTHREADS * n ? 0 : 1;
}
