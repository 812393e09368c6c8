/* libsig.c: signals that land on reads the syscall buffer leaves traced
 * (too large to log), whose handler makes a traced call, while a second thread
 * computes and is preempted: the handler runs on the library's frames.
 * Prints the sum, the handlers run and a random token. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

#define SIZE (4 << 20)	/* more than the buffer logs in one call */
#define READS 200

static atomic_int done;
static volatile sig_atomic_t handled;
static int pipefd[2];
static pthread_t main_thread;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
	(void)!write(pipefd[1], "x", 1);	/* traced: a pipe may block */
}

static void *signaller(void *arg)
{
	(void)arg;
	uint64_t x = 1;
	while (!atomic_load(&done)) {
		for (int i = 0; i < 2000000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		pthread_kill(main_thread, SIGUSR1);
	}
	return (void *)(uintptr_t)(x & 1);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "libsig.data";
	unsigned token = 0;
	getrandom(&token, sizeof token, 0);
	char *buf = malloc(SIZE);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (!buf || fd < 0 || pipe(pipefd) < 0 || ftruncate(fd, SIZE) < 0) {
		perror("libsig");
		return 1;
	}
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	sigaction(SIGUSR1, &sa, NULL);
	main_thread = pthread_self();
	pthread_t t;
	pthread_create(&t, NULL, signaller, NULL);
	uint64_t sum = 0;
	for (int i = 0; i < READS; i++) {
		if (pread(fd, buf, SIZE, 0) != SIZE) {
			perror("pread");
			return 1;
		}
		sum += buf[i] + i;
	}
	atomic_store(&done, 1);
	pthread_join(t, NULL);
	unlink(path);
	printf("sum %llu handled %s token %u\n", (unsigned long long)sum,
	       handled > 0 ? "some" : "none", token);
	return 0;
}
