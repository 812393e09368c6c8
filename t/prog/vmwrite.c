/* vmwrite.c: process_vm_writev into its child (a random string the child
 * then prints) and into itself; "outside" writes into its parent. */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static char box[64] = "empty";

int main(int argc, char **argv)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);
	fflush(stdout);
	char msg[64];
	int n = snprintf(msg, sizeof msg, "written %08x", r) + 1;
	struct iovec l = { msg, n }, rem = { box, n };
	if (argc > 1 && !strcmp(argv[1], "outside")) {
		ssize_t k = process_vm_writev(getppid(), &l, 1, &rem, 1, 0);
		printf("into the parent: %zd\n", k);
		return 0;
	}
	int p[2];
	pipe(p);
	pid_t c = fork();
	if (c == 0) {
		char go;
		read(p[0], &go, 1);
		printf("child's box: %s\n", box);
		return 0;
	}
	ssize_t k = process_vm_writev(c, &l, 1, &rem, 1, 0);
	printf("into the child: %zd\n", k);
	fflush(stdout);
	write(p[1], "g", 1);
	waitpid(c, NULL, 0);
	printf("own box before: %s\n", box);
	k = process_vm_writev(getpid(), &l, 1, &rem, 1, 0);
	printf("into itself: %zd, box: %s\n", k, box);
	return 0;
}
