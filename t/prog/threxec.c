/* threxec: execve while other threads live. "main": the main thread
 * execs while two threads block (one in read, one in nanosleep);
 * "thread": a thread other than the main one execs, and the kernel gives
 * it the main thread's id. The new program prints the token it was
 * passed and the pid it sees. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int pipefd[2];
static char tok[16], pidbuf[16];

static void *reader(void *arg)
{
	char c;
	(void)arg;
	return read(pipefd[0], &c, 1) == 1 ? NULL : arg;
}

static void *sleeper(void *arg)
{
	struct timespec ts = { 100, 0 };
	nanosleep(&ts, NULL);
	return arg;
}

static void again(void)
{
	char *args[] = { "/proc/self/exe", "done", tok, pidbuf, NULL };
	execv(args[0], args);
	perror("execv");
	exit(1);
}

static void *execer(void *arg)
{
	printf("thread %s execs\n", tok);
	fflush(stdout);
	again();
	return arg;
}

int main(int argc, char **argv)
{
	if (argc > 3 && !strcmp(argv[1], "done")) {
		printf("after exec: token %s, same pid %d, one thread %d\n", argv[2],
		       atoi(argv[3]) == getpid(), (int)syscall(SYS_gettid) == getpid());
		return 0;
	}
	unsigned r;
	if (getrandom(&r, sizeof r, 0) != sizeof r || pipe(pipefd) < 0)
		return 2;
	snprintf(tok, sizeof tok, "%08x", r);
	snprintf(pidbuf, sizeof pidbuf, "%d", getpid());
	pthread_t t;
	pthread_create(&t, NULL, reader, NULL);
	pthread_create(&t, NULL, sleeper, NULL);
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	nanosleep(&ts, NULL);	/* the threads block meanwhile */
	if (argc > 1 && !strcmp(argv[1], "thread")) {
		pthread_create(&t, NULL, execer, NULL);
		pause();
	}
	printf("main %s execs\n", tok);
	fflush(stdout);
	again();
	return 1;
}
