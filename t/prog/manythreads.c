/* manythreads.c: starts THREADS threads (default 64) and CHILDREN child
 * processes (default 8); each writes four lines with a random token and
 * ends; main waits for them all and prints "done". Its many thread and
 * process ends must not force tseek checkpoints (t9022). With TOGETHER
 * 1, every thread lives until all are made (a barrier): as many threads
 * at once as THREADS (t1200). Usage:
 * manythreads [THREADS [CHILDREN [TOGETHER]]] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

static void lines(const char *who, int i)
{
	for (int j = 0; j < 4; j++) {
		unsigned r = 0;
		char b[80];
		if (getrandom(&r, sizeof r, 0) != sizeof r)
			r = 0;
		int n = snprintf(b, sizeof b, "%s %d line %d %08x\n", who, i, j, r);
		if (write(1, b, n) != n)
			exit(1);
	}
}

static pthread_barrier_t all;
static int together;

static void *work(void *arg)
{
	if (together)
		pthread_barrier_wait(&all);
	lines("thread", (int)(long)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	int nt = argc > 1 ? atoi(argv[1]) : 64, nc = argc > 2 ? atoi(argv[2]) : 8;
	pthread_t *t = calloc(nt > 0 ? nt : 1, sizeof *t);
	together = argc > 3 && atoi(argv[3]) && nt > 0;
	if (together)
		pthread_barrier_init(&all, NULL, nt + 1);
	for (int i = 0; i < nc; i++) {
		pid_t c = fork();
		if (c == 0) {
			lines("child", i);
			_exit(0);
		}
		if (c < 0 || waitpid(c, NULL, 0) != c)
			return 1;
	}
	for (int i = 0; i < nt; i++)
		if (pthread_create(&t[i], NULL, work, (void *)(long)i))
			return 1;
	if (together)
		pthread_barrier_wait(&all);
	for (int i = 0; i < nt; i++)
		pthread_join(t[i], NULL);
	printf("done\n");
	return 0;
}
