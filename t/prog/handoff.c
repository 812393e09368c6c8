/* handoff.c: one thread opens and closes a file in a loop (calls the
 * syscall buffer makes without a stop) while the main thread creates and
 * joins N threads (argv[1], default 100) one after the other, as rr's
 * thread_open_race does: each new thread and each woken join must get
 * the CPU while the looping thread runs. Prints a random token, the
 * joins, and whether the loop saw its file each time it looked (under
 * rec --chaos it may not have run before the end). */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

static volatile int stop;
static volatile long failed;

static void *opener(void *p)
{
	(void)p;
	while (!stop) {
		int fd = open("handoff.tmp", O_RDONLY);
		if (fd < 0)
			failed++;
		else
			close(fd);
	}
	return NULL;
}

static void *nothing(void *p)
{
	return p;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, joined = 0;
	unsigned r;
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return 2;
	int fd = open("handoff.tmp", O_RDWR | O_CREAT, 0600);
	if (fd < 0)
		return 2;
	close(fd);
	pthread_t op;
	if (pthread_create(&op, NULL, opener, NULL))
		return 2;
	for (int i = 0; i < n; i++) {
		pthread_t t;
		void *v = NULL;
		if (pthread_create(&t, NULL, nothing, &joined) == 0 && pthread_join(t, &v) == 0 &&
		    v == &joined)
			joined++;
	}
	stop = 1;
	pthread_join(op, NULL);
	unlink("handoff.tmp");
	printf("token %08x joined %d opens %s\n", r, joined, !failed ? "all good" : "failed");
	return 0;
}
