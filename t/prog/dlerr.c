/* dlerr.c: a failed dlopen, whose message libc keeps on the heap until
 * the next dl call, then calls the preloaded library buffers (an open, a
 * close, a stat of a path on the heap) and heap addresses printed: the
 * heap must look the same whether replay answers the calls in the
 * process or traces each one (replay --stack, gdbstub). */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	if (dlopen("/nonexistent/librewind-none.so", RTLD_NOW))
		return 1;
	for (int i = 0; i < 3; i++) {
		int fd = open(".", O_RDONLY);
		if (fd >= 0)
			close(fd);
		char *p = malloc(24 + i);
		strcpy(p, i ? "/nonexistent" : ".");
		struct stat st;
		int r = stat(p, &st);
		printf("%d: stat %d at %p\n", i, r, (void *)p);
	}
	return 0;
}
