/* shmap-procs.c: two processes each map one file MAP_SHARED themselves
 * (the child after the fork, by its path): a store by one shows in the
 * other's mapping, and so does a pwrite by the other, and the file
 * growing under both. Checks itself; the tokens are random. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

static void step(int fd)	/* wait for the other side */
{
	char c;
	if (read(fd, &c, 1) != 1)
		exit(3);
}

int main(void)
{
	char path[] = "procsXXXXXX";
	unsigned r[2];
	getrandom(r, sizeof r, 0);
	int fd = mkstemp(path), to_child[2], to_parent[2];
	if (fd < 0 || ftruncate(fd, 4096) < 0 || pipe(to_child) < 0 || pipe(to_parent) < 0)
		return perror("setup"), 2;
	pid_t pid = fork();
	if (pid == 0) {
		int cfd = open(path, O_RDWR);
		unsigned *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
		if (cfd < 0 || m == MAP_FAILED)
			_exit(2);
		m[0] = r[0] * 2654435761u;	/* the parent reads it */
		write(to_parent[1], "x", 1);
		step(to_child[0]);
		/* The parent pwrote r[1] at 64 and grew the file to 8192. */
		printf("child sees %08x and %08x past the old end\n", m[16], m[1025]);
		int bad = m[16] != r[1] || m[1025] != ~r[1];
		fflush(stdout);
		m[2] = m[16] ^ 1;
		write(to_parent[1], "x", 1);
		_exit(bad);
	}
	unsigned *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return perror("mmap"), 2;
	step(to_parent[0]);
	printf("token %08x, the child stored %08x\n", r[0], m[0]);
	int bad = m[0] != r[0] * 2654435761u;
	unsigned v[2] = { r[1], ~r[1] };
	if (pwrite(fd, &v[0], 4, 64) != 4 || pwrite(fd, &v[1], 4, 4100) != 4)
		return perror("pwrite"), 2;
	write(to_child[1], "x", 1);
	step(to_parent[0]);
	printf("the child stored %08x\n", m[2]);
	bad |= m[2] != (r[1] ^ 1);
	int st;
	waitpid(pid, &st, 0);
	unlink(path);
	bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	printf("%s\n", bad ? "FAILED" : "all aliased");
	return bad;
}
