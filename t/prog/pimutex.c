/* pimutex.c: threads contend for a robust priority-inheritance mutex: a
 * waiter's FUTEX_LOCK_PI marks the lock word (FUTEX_WAITERS), so the
 * owner's unlock goes through the kernel, which hands the lock over (and
 * a robust one's unlock fails unless the word names its caller). Prints
 * how often an owner saw the mark, the sum the threads made, and a token. */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>

static pthread_mutex_t m;
static long sum, marked;
static int active = 3;	/* threads not done: each will lock again */

static void *worker(void *arg)
{
	for (int i = 0; i < 200; i++) {
		if (pthread_mutex_lock(&m) != 0)
			continue;
		sum += (long)arg;
		if (i % 10 == 0) {
			/* Give way while owning it until another thread
			 * waits: one that is not done will come. */
			while (!(__atomic_load_n(&m.__data.__lock, __ATOMIC_ACQUIRE) & FUTEX_WAITERS) &&
			       __atomic_load_n(&active, __ATOMIC_ACQUIRE) > 1)
				sched_yield();
			if (__atomic_load_n(&m.__data.__lock, __ATOMIC_ACQUIRE) & FUTEX_WAITERS)
				marked++;
		}
		pthread_mutex_unlock(&m);
	}
	__atomic_fetch_sub(&active, 1, __ATOMIC_RELEASE);
	return NULL;
}

int main(void)
{
	uint64_t tok = 0;
	if (getrandom(&tok, sizeof tok, 0) != sizeof tok)
		return 1;
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&m, &a);
	pthread_t t[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 1));
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("sum %ld\n", sum);
	printf("marked %s\n", marked ? "yes" : "no");
	printf("marked times %ld\n", marked);
	printf("trylock %d\n", pthread_mutex_trylock(&m));
	printf("unlock %d\n", pthread_mutex_unlock(&m));
	printf("token %016llx\n", (unsigned long long)tok);
	return 0;
}
