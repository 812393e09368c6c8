/* hugetlbmap.c: maps 1 MiB with MAP_HUGETLB (the kernel gives a whole huge
 * page), writes a random marker at its start and past the 1 MiB asked
 * for, and prints both; "no huge pages" where none is reserved. */
#include <stdio.h>
#include <sys/mman.h>
#include <sys/random.h>

int main(void)
{
	unsigned marker = 0;
	if (getrandom(&marker, sizeof marker, 0) != sizeof marker)
		return 1;
	char *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p == MAP_FAILED) {
		printf("no huge pages\n");
		return 0;
	}
	*(unsigned *)p = marker;
	*(unsigned *)(p + (3 << 19)) = marker / 2;	/* 1.5 MiB in */
	printf("huge page: %u %u\n", *(unsigned *)p, *(unsigned *)(p + (3 << 19)));
	return munmap(p, 2 << 20) == 0 ? 0 : 1;
}
