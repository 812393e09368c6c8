/* ptrmove.c: calls whose path and output pointers depend on stale stack
 * (the preloaded library's frames, which differ between rec and replay),
 * so that replay sees them point elsewhere than rec did: the kernel's
 * reads are the same bytes, and replay writes the recorded outputs where
 * the pointers point now. Prints only what the calls gave. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
static __attribute__((noinline)) unsigned stale(void)
{
	volatile unsigned char junk[16384];
	unsigned h = 2166136261u;
	for (size_t i = 0; i < sizeof junk; i++)
		h = (h ^ junk[i]) * 16777619u;
	return h;
}

static void churn(void)
{
	struct stat st;
	struct timespec ts;
	stat("/", &st);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	stat("/nonexistent/ptrmove", &st);
}

static char arenas[4][64 * 1024];

/* A place in arena k that depends on the stale stack (one arena a
 * buffer: a call's input and output never overlap). */
static void *somewhere(int k, size_t size)
{
	churn();
	return arenas[k] + (stale() % 1024) * 32 % (sizeof arenas[k] - size);
}

int main(void)
{
	for (int i = 0; i < 4; i++) {
		char *path = somewhere(0, 32);
		strcpy(path, i % 2 ? "/" : "/nonexistent");
		struct stat *st = somewhere(1, sizeof *st);
		int r = stat(path, st);
		printf("stat %s: %d %s\n", path, r, r == 0 && S_ISDIR(st->st_mode) ? "dir" : "-");
		char *cwd = somewhere(2, 4096);
		printf("getcwd: %s\n", getcwd(cwd, 4096) ? "ok" : "failed");
		int fd = open("/proc/self/exe", O_RDONLY);
		char *b = somewhere(3, 16);
		printf("read: %zd %.4s\n", read(fd, b, 4), b + 1);
		close(fd);
	}
	return 0;
}
