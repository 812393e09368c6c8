/* callout.c: main receives 64 KiB of random bytes with MSG_WAITALL from
 * a socketpair. A thread sends the first half, which the kernel copies
 * into main's buffer while main stays inside the call for the rest; the
 * thread spins a while beside a second spinning thread (both preempted
 * at points meanwhile), then sends the rest. rec hashes main's buffer
 * half written where replay, at the call's entry, has written nothing.
 * Prints a sum of the bytes received. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/socket.h>

#define HALF (32 << 10)

static int sv[2];
static volatile int done;
static uint8_t out[2 * HALF], in[2 * HALF];

static void *sender(void *arg)
{
	(void)arg;
	send(sv[1], out, HALF, 0);
	for (volatile long i = 0; i < 100000000; i++)
		;
	send(sv[1], out + HALF, HALF, 0);
	return NULL;
}

static void *spin(void *arg)
{
	volatile uint64_t *n = arg;
	while (!done)
		++*n;
	return NULL;
}

int main(void)
{
	static uint64_t n;
	pthread_t s, t;
	if (getrandom(out, sizeof out, 0) != sizeof out || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 1;
	pthread_create(&t, NULL, spin, &n);
	pthread_create(&s, NULL, sender, NULL);
	if (recv(sv[0], in, sizeof in, MSG_WAITALL) != sizeof in)
		return 1;
	done = 1;
	pthread_join(s, NULL);
	pthread_join(t, NULL);
	uint64_t sum = 0;
	for (size_t i = 0; i < sizeof in; i++)
		sum = sum * 31 + in[i];
	printf("sum %016llx\n", (unsigned long long)sum);
	return 0;
}
