/* outorder: threads write to stdout while one blocks in read awaiting a
 * signal. Thread r writes one long line of SIZE bytes (argv[1]; more than
 * a pipe holds makes it block on a slow reader), main writes a short one
 * meanwhile; the bytes must come out of replay in the order they reached
 * the file. Each line carries a token that differs per run. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static unsigned token;
static size_t size = 100;
static int pipefd[2];
static volatile int woke, writing;

static void on_usr1(int sig)
{
	(void)sig;
}

static void *waiter(void *arg)
{
	char c;
	(void)arg;
	ssize_t n = read(pipefd[0], &c, 1);	/* until SIGUSR1 interrupts it */
	char line[64];
	woke = 1;
	int len = snprintf(line, sizeof line, "waiter read %zd %08x\n", n, token);
	if (write(1, line, len) != len)
		exit(1);
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	char *buf = malloc(size);
	if (!buf)
		exit(1);
	int head = snprintf(buf, size, "r %08x ", token);
	for (size_t i = head; i + 1 < size; i++)
		buf[i] = 'a' + (token + i) % 26;
	buf[size - 1] = '\n';
	writing = 1;
	for (size_t off = 0; off < size;) {
		ssize_t n = write(1, buf + off, size - off);
		if (n <= 0)
			exit(1);
		off += n;
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		size = strtoul(argv[1], NULL, 0);
	if (size < 16)
		size = 16;
	if (getrandom(&token, sizeof token, 0) != sizeof token || pipe(pipefd) < 0)
		return 1;
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */
	sigaction(SIGUSR1, &sa, NULL);
	pthread_t w, r;
	pthread_create(&w, NULL, waiter, NULL);
	pthread_create(&r, NULL, writer, NULL);
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	do			/* until r is at its write, then a little more */
		nanosleep(&ts, NULL);
	while (!writing);
	nanosleep(&ts, NULL);
	char line[64];
	int len = snprintf(line, sizeof line, "main %08x\n", token);
	if (write(1, line, len) != len)
		return 1;
	pthread_join(r, NULL);
	ts.tv_nsec = 10 * 1000 * 1000;
	while (!woke) {		/* a signal before its read would be lost */
		pthread_kill(w, SIGUSR1);
		nanosleep(&ts, NULL);
	}
	pthread_join(w, NULL);
	len = snprintf(line, sizeof line, "done %08x\n", token);
	return write(1, line, len) != len;
}
