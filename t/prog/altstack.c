/* altstack.c: two threads each set an alternate signal stack, make a few
 * calls, then take a SIGUSR1 on it; the handler writes from a buffer on
 * that stack, so a replay that lost a thread's stack diverges at that
 * write's address. Prints a random token first. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define ALT (64 * 1024)

static __thread char *alt;

static void on_usr1(int sig)
{
	char buf[80];
	int on = (char *)buf >= alt && (char *)buf < alt + ALT;
	int n = snprintf(buf, sizeof buf, "signal %d on the %s stack\n", sig, on ? "alternate" : "normal");
	write(1, buf, n);
}

static void *worker(void *arg)
{
	alt = malloc(ALT);
	stack_t ss = { .ss_sp = alt, .ss_size = ALT };
	if (!alt || sigaltstack(&ss, NULL) < 0)
		return perror("sigaltstack"), NULL;
	for (int i = 0; i < 10 + (int)(long)arg; i++)
		getppid();
	pthread_kill(pthread_self(), SIGUSR1);
	for (int i = 0; i < 5; i++)
		getppid();
	return NULL;
}

int main(void)
{
	unsigned r = 0;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);
	fflush(stdout);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR1, &sa, NULL);
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
