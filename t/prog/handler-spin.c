/* handler-spin.c: main sends itself SIGUSR1 (delivered as its tgkill
 * returns) and its handler computes for a while with no syscall, while a
 * second thread spins waiting for it to finish; prints what the handler
 * computed, what the interrupted tgkill returned and a random token. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

static atomic_int done;
static volatile unsigned long sum;

static void on_usr1(int sig)
{
	(void)sig;
	/* About 0.2 s: under rec, the waiting thread gets turns. */
	for (unsigned long i = 0; i < 200000000ul; i++)
		sum += i & 7;
}

static void *waiter(void *arg)
{
	(void)arg;
	while (!atomic_load(&done))
		;
	return NULL;
}

int main(void)
{
	unsigned r = 0;
	getrandom(&r, sizeof r, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	pthread_t t;
	pthread_create(&t, NULL, waiter, NULL);
	long k = syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGUSR1);
	atomic_store(&done, 1);
	pthread_join(t, NULL);
	printf("handler sum %lu, tgkill %ld, token %08x\n", sum % 1000003, k, r);
	return 0;
}
