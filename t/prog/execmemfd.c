/* execmemfd.c: copies its own executable into a memfd and runs that
 * copy with fexecve in a child (the way a loader of programs kept in
 * memory does); the copy prints the random token it was given. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("the copy in a memfd got %s\n", argv[1]);
		return 3;
	}
	unsigned tok = 0;
	getrandom(&tok, sizeof tok, 0);
	char arg[16];
	snprintf(arg, sizeof arg, "%08x", tok);
	printf("token %s\n", arg);
	fflush(stdout);
	int src = open("/proc/self/exe", O_RDONLY), mfd = memfd_create("copy", MFD_CLOEXEC);
	char b[65536];
	ssize_t n;
	while ((n = read(src, b, sizeof b)) > 0)
		if (write(mfd, b, n) != n)
			return 1;
	pid_t p = fork();
	if (p == 0) {
		char *av[] = { argv[0], arg, NULL }, *ev[] = { NULL };
		fexecve(mfd, av, ev);
		perror("execmemfd: fexecve");
		_exit(1);
	}
	int st;
	waitpid(p, &st, 0);
	printf("the copy exited %d\n", WEXITSTATUS(st));
	return 0;
}
