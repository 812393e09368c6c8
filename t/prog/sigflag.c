/* sigflag.c: a thread (the signals blocked in it) sends SIGUSR1 and
 * SIGUSR2 to its process, which main takes, N times (argv[1], default
 * 10), each time after main's handlers acknowledged the last; after the
 * last it sets a flag that ends main's loop of buffered reads. Natively
 * the kernel delivers the last two before main leaves the kernel, so main
 * leaves its loop having taken all: prints a random token and the counts
 * (rr's async_signal_syscalls2). */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static volatile int done, usr1, usr2;
static int acks[2], n = 10;

static void handler(int sig)
{
	if (sig == SIGUSR1)
		usr1++;
	else
		usr2++;
	(void)!write(acks[1], "K", 1);
}

static void *sender(void *p)
{
	(void)p;
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGUSR1);
	sigaddset(&m, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &m, NULL);
	for (int i = 0; i < n; i++) {
		struct timespec ts = { 0, 1000 };
		nanosleep(&ts, NULL);
		for (int got = 0; i > 0 && got < 2;) {
			char b[2];
			ssize_t k = read(acks[0], b, 2 - got);
			if (k <= 0)
				exit(3);
			got += k;
		}
		kill(getpid(), SIGUSR1);
		kill(getpid(), SIGUSR2);
	}
	done = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		n = atoi(argv[1]);
	unsigned r;
	char buf[16];
	pthread_t t;
	int fd = open("/dev/zero", O_RDONLY);
	if (fd < 0 || pipe(acks) || getrandom(&r, sizeof r, 0) != sizeof r)
		return 2;
	signal(SIGUSR1, handler);
	signal(SIGUSR2, handler);
	if (pthread_create(&t, NULL, sender, NULL))
		return 2;
	while (!done) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		(void)!read(fd, buf, sizeof buf);
	}
	pthread_join(t, NULL);
	printf("token %08x usr1 %d usr2 %d of %d\n", r, usr1, usr2, n);
	return usr1 == n && usr2 == n ? 0 : 1;
}
