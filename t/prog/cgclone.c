/* cgclone.c: clone3 with CLONE_INTO_CGROUP into a new cgroup made under
 * the cgroup2 directory DIR; the child prints its /proc/self/cgroup
 * line of cgroup2 and a random marker, the parent its wait status, then
 * removes the cgroup. Usage: cgclone DIR */
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned marker = 0;
	char dir[4096], line[512];
	if (argc != 2 || getrandom(&marker, sizeof marker, 0) != sizeof marker)
		return 2;
	snprintf(dir, sizeof dir, "%s/rewind-cgclone-%d", argv[1], getpid());
	if (mkdir(dir, 0755) < 0) {
		perror(dir);
		return 2;
	}
	int cg = open(dir, O_DIRECTORY | O_PATH);
	struct clone_args ca;
	memset(&ca, 0, sizeof ca);
	ca.flags = CLONE_INTO_CGROUP;
	ca.exit_signal = SIGCHLD;
	ca.cgroup = cg;
	fflush(stdout);
	long pid = syscall(SYS_clone3, &ca, sizeof ca);
	if (pid == 0) {
		FILE *f = fopen("/proc/self/cgroup", "r");
		while (f && fgets(line, sizeof line, f))
			if (!strncmp(line, "0::", 3))
				printf("child %u in %s", marker % 1000,
				       strstr(line, "rewind-cgclone-") ? "the new cgroup\n" : line);
		fflush(stdout);
		_exit(3);
	}
	int st = 0;
	if (pid > 0)
		waitpid(pid, &st, 0);
	printf("clone3 %s, status %d\n", pid > 0 ? "made a child" : "failed",
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	rmdir(dir);
	return 0;
}
