/* remapfp.c: remap_file_pages rearranges the pages of a file mapped
 * shared (and of shared anonymous memory): a page shows another page of
 * the file, a store there reaches that page of the file, and a private
 * mapping is refused (EINVAL). Prints what it reads, with a random token. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

int main(void)
{
	unsigned tok;
	getrandom(&tok, sizeof tok, 0);
	int fd = open("pages", O_RDWR | O_CREAT | O_TRUNC, 0600);
	ftruncate(fd, 4 * 4096);
	char *p = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	for (int i = 0; i < 4; i++)
		snprintf(p + i * 4096, 32, "page %d of %08x", i, tok);
	int r = remap_file_pages(p, 4096, 0, 3, 0);
	printf("remap = %d, first page shows: %s\n", r, p);
	r = remap_file_pages(p + 4096, 4096, 0, 0, 0);
	printf("remap = %d, second page shows: %s\n", r, p + 4096);
	p[4096] = 'P';
	char b[32] = { 0 };
	pread(fd, b, 20, 0);
	printf("the file's first page: %s\n", b);
	char *s = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	snprintf(s + 4096, 32, "anon %u", tok % 1000);
	r = remap_file_pages(s, 4096, 0, 1, 0);
	printf("remap = %d, shared anonymous page shows: %s\n", r, s);
	char *q = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	r = remap_file_pages(q, 4096, 0, 1, 0);
	printf("private: %d errno %d\n", r, errno);
	return 0;
}
