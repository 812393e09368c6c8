/* addrs.c: prints heap, stack, code, library and mmap addresses with %p
 * (they differ natively through ASLR) and the time in nanoseconds. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

int global;

int main(int argc, char **argv)
{
	(void)argc;
	int local = 0;
	void *small = malloc(32), *big = malloc(1 << 20);
	void *anon = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	printf("stack %p argv %p\n", (void *)&local, (void *)argv);
	printf("heap %p big %p\n", small, big);
	printf("code %p data %p libc %p\n", (void *)main, (void *)&global, (void *)printf);
	printf("mmap %p\n", anon);
	printf("ns %ld\n", ts.tv_nsec);
	free(small);
	free(big);
	return 0;
}
