/* demo.c: the program `make demo` records; it prints a random number, the
 * time and a heap address, so every native run prints something new. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

int main(void)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	char when[64];
	strftime(when, sizeof when, "%H:%M:%S", localtime(&ts.tv_sec));
	void *heap = malloc(100);
	printf("lucky number: %u\n", r % 1000000);
	printf("time now:     %s.%09ld\n", when, ts.tv_nsec);
	printf("heap address: %p\n", heap);
	free(heap);
	return 0;
}
