/* madvzero.c: madvise that changes memory: MADV_DONTNEED of private
 * anonymous, shared anonymous, locked and private and shared file pages,
 * MADV_REMOVE, MADV_WIPEONFORK. Prints the pid and what pages hold. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

static void show(const char *what, const char *p)
{
	printf("%s: %d %d\n", what, p[0], p[4096]);
}

int main(void)
{
	printf("pid %d\n", (int)getpid());
	char *a = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(a, 5, 8192);
	printf("madvise private anon DONTNEED %d\n", madvise(a, 4096, MADV_DONTNEED));
	show("private anon", a);
	char *s = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	memset(s, 6, 8192);
	printf("madvise shared anon DONTNEED %d\n", madvise(s, 4096, MADV_DONTNEED));
	show("shared anon", s);
	printf("madvise shared anon REMOVE %d\n", madvise(s + 4096, 4096, MADV_REMOVE));
	show("shared anon", s);
	char *l = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(l, 7, 8192);
	printf("mlock %d\n", mlock(l, 8192));
	printf("madvise locked DONTNEED %d\n", madvise(l, 4096, MADV_DONTNEED));
	show("locked", l);
	printf("madvise locked DONTNEED_LOCKED %d\n", madvise(l, 4096, 24));
	show("locked", l);
	FILE *f = fopen("madvzero.tmp", "w+");
	char buf[8192];
	memset(buf, 9, sizeof buf);
	fwrite(buf, 1, sizeof buf, f);
	fflush(f);
	char *fp = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE, fileno(f), 0);
	memset(fp, 3, 8192);
	printf("madvise private file DONTNEED %d\n", madvise(fp, 4096, MADV_DONTNEED));
	show("private file", fp);
	char *fs = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fileno(f), 0);
	fs[0] = 4;
	printf("madvise shared file DONTNEED %d\n", madvise(fs, 8192, MADV_DONTNEED));
	show("shared file", fs);
	printf("madvise shared file REMOVE %d\n", madvise(fs, 4096, MADV_REMOVE));
	show("shared file", fs);
	printf("madvise private anon FREE %d\n", madvise(a + 4096, 4096, MADV_FREE));
	char *w = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(w, 8, 8192);
	printf("wipeonfork %d\n", madvise(w, 4096, MADV_WIPEONFORK));
	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		printf("child sees %d %d\n", w[0], w[4096]);
		fflush(stdout);
		_exit(0);
	}
	waitpid(c, NULL, 0);
	unlink("madvzero.tmp");
	return 0;
}
