/* wtrack.c: the cases where rec's write tracking used to be lost: main
 * spins alone until a timer signal's handler stops it (rec preempts it to
 * deliver the signal, so its process's first preemption holds one); then
 * a thread starts, writes its stack and ends (glibc frees its stack with
 * MADV_DONTNEED), and two new threads hand a token to each other ROUNDS
 * times with no syscall (each hand-over a preemption under rec). Prints
 * a random seed and what the threads computed from it. */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/time.h>

#define ROUNDS 6

static volatile sig_atomic_t rung;
static volatile int go, turn;
static uint64_t seed, got[3];

static void ring(int sig)
{
	(void)sig;
	rung = 1;
}

static uint64_t next(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	return x ^ (x << 17);
}

/* Writes 64 KiB of its stack, so it has something to free as it ends. */
static void *brief(void *arg)
{
	(void)arg;
	volatile uint8_t buf[65536];
	uint64_t x = seed;
	for (size_t i = 0; i < sizeof buf; i++) {
		x = next(x);
		buf[i] = x;
	}
	got[0] = x ^ buf[seed % sizeof buf];
	return NULL;
}

/* Thread k (1 or 2) waits for go, then takes its turn ROUNDS times. */
static void *pingpong(void *arg)
{
	int k = (int)(intptr_t)arg;
	uint64_t x = seed + k;
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		x = next(x);
	for (int r = 0; r < ROUNDS; r++) {
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != k - 1)
			;
		x = next(x + r);
		got[k] ^= x;
		__atomic_store_n(&turn, 2 - k, __ATOMIC_RELEASE);
	}
	return NULL;
}

int main(void)
{
	if (getrandom(&seed, sizeof seed, 0) != sizeof seed)
		return perror("getrandom"), 1;
	seed |= 1;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = ring;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { .it_value = { 0, 5000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	uint64_t x = seed, spins = 0;
	while (!rung) {
		x = next(x);
		spins++;
	}
	pthread_t t[3];
	if (pthread_create(&t[0], NULL, brief, NULL) || pthread_join(t[0], NULL))
		return fprintf(stderr, "wtrack: pthread_create failed\n"), 1;
	for (intptr_t k = 1; k <= 2; k++)
		if (pthread_create(&t[k], NULL, pingpong, (void *)k))
			return fprintf(stderr, "wtrack: pthread_create failed\n"), 1;
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (int k = 1; k <= 2; k++)
		pthread_join(t[k], NULL);
	printf("seed %016llx: %016llx %016llx %016llx (%s)\n", (unsigned long long)seed,
	       (unsigned long long)got[0], (unsigned long long)got[1], (unsigned long long)got[2],
	       spins ? "spun" : "no spin");
	return 0;
}
