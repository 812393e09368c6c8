/* robust.c: threads that end holding robust mutexes: the kernel marks
 * them (FUTEX_OWNER_DIED) through the thread's robust list, and the next
 * lock gets EOWNERDEAD. Replay's kernel knows the thread by another id
 * than the one in the mutexes and would not mark them: rec records what
 * the kernel wrote. Prints what each lock returned, and a token. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>

static pthread_mutex_t m[2];

static void *holder(void *arg)
{
	long n = (long)arg;
	for (long i = 0; i < n; i++)
		pthread_mutex_lock(&m[i]);
	return NULL;	/* ends holding them */
}

int main(void)
{
	unsigned tok;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x\n", tok);
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	for (int i = 0; i < 2; i++)
		pthread_mutex_init(&m[i], &a);
	for (long round = 0; round < 3; round++) {
		pthread_t t;
		long n = round;
		pthread_create(&t, NULL, holder, (void *)n);
		pthread_join(t, NULL);
		printf("a thread ended holding %ld:", n);
		for (int i = 0; i < 2; i++) {
			int r = pthread_mutex_lock(&m[i]);
			printf(" %s", r == EOWNERDEAD ? "EOWNERDEAD" : r ? "error" : "0");
			if (r == EOWNERDEAD)
				pthread_mutex_consistent(&m[i]);
			pthread_mutex_unlock(&m[i]);
		}
		printf("\n");
	}
	return 0;
}
