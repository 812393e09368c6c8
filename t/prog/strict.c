/* strict.c: seccomp strict mode, as LTP's prctl tests use it: a child in
 * it may read, write and exit, and is killed by SIGKILL at any other
 * call; one that exits through exit(2) gives its status; a thread with a
 * filter of its own cannot enter it (EINVAL), nor can seccomp() with
 * flags. Prints a token and what each child did. */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void status(const char *what, pid_t c)
{
	int st;
	waitpid(c, &st, 0);
	printf("%s: %s %d\n", what, WIFSIGNALED(st) ? "killed by" : "exit",
	       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	fflush(stdout);
}

int main(void)
{
	unsigned tok;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x\n", tok);
	fflush(stdout);
	int p[2];
	pipe(p);
	write(p[1], "r", 1);
	pid_t c = fork();
	if (c == 0) {
		char b, msg[] = "in strict mode, read x\n";
		prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT);
		read(p[0], &b, 1);
		msg[21] = b;
		write(1, msg, sizeof msg - 1);
		syscall(SYS_getpid);
		write(1, "not killed\n", 11);
		syscall(SYS_exit, 1);
	}
	status("getpid in strict mode", c);
	c = fork();
	if (c == 0) {
		syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 0, NULL);
		syscall(SYS_exit, tok % 50);
	}
	status("exit in strict mode", c);
	c = fork();
	if (c == 0) {
		struct sock_filter f[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
		struct sock_fprog prog = { 1, f };
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
		int r = prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT);
		printf("strict after a filter: %d errno %d\n", r, errno);
		fflush(stdout);
		_exit(0);
	}
	status("with a filter", c);
	errno = 0;
	long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 1, NULL);
	printf("seccomp(STRICT, 1) = %ld errno %d\n", r, errno);
	return 0;
}
