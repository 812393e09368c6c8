/* preempts.c: fills argv[1] (20) fresh 2 MiB pieces of memory with
 * pseudo-random bytes, each followed by computing with no syscall until a
 * timer's SIGALRM comes, which preempts it there under rec with the piece
 * in the record; then prints a checksum that differs from run to run and
 * 256 KiB more (more than a pipe holds: a reader that has its first byte
 * knows that every preemption is behind the writer). A SIGALRM that comes
 * before the loop (the process was off the CPU for the timer's 2 ms, its
 * setitimer still in the kernel) is not counted: the timer is set again,
 * so every piece is preempted inside the loop, however loaded the host. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/time.h>

#define PIECE (2u << 20)

static volatile sig_atomic_t fired, armed, rang;

static void on_alarm(int sig)
{
	(void)sig;
	fired = 1;
	rang = armed;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;
	uint64_t x = 0;
	if (getrandom(&x, sizeof x, 0) != sizeof x)
		return 1;
	x |= 1;
	uint64_t *mem = mmap(NULL, (size_t)n * PIECE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return perror("mmap"), 1;
	struct sigaction sa = { .sa_handler = on_alarm };
	sigaction(SIGALRM, &sa, NULL);
	uint64_t sum = 0;
	for (int k = 0; k < n; k++) {
		uint64_t *p = mem + (size_t)k * (PIECE / 8);
		for (size_t i = 0; i < PIECE / 8; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			p[i] = x;
		}
		rang = 0;
		struct itimerval it = { { 0, 0 }, { 0, 2000 } };
		while (!rang) {
			fired = armed = 0;
			setitimer(ITIMER_REAL, &it, NULL);
			armed = 1;
			while (!fired)
				for (int i = 0; i < 1000; i++)
					sum += p[(sum + i) % (PIECE / 8)] & 1;
		}
	}
	printf("sum %llu last %llx\n", (unsigned long long)sum, (unsigned long long)x);
	for (int i = 0; i < 4096; i++)
		printf("%063llx\n", (unsigned long long)(mem[i] ^ i));
	return 0;
}
