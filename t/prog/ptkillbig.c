/* ptkillbig.c: a tracer kills its stopped tracee, once by PTRACE_KILL
 * and once by kill(SIGKILL), and waits for its end. Each tracee holds
 * 1 GiB of memory the kernel must free first, so the end comes long
 * after the kill: rec must wait for it, not call it a hang. Prints a
 * token and what each wait got. */
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	unsigned tok;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x\n", tok);
	fflush(stdout);
	for (int how = 0; how < 2; how++) {
		pid_t c = fork();
		if (c == 0) {
			ptrace(PTRACE_TRACEME, 0, 0, 0);
			if (mmap(NULL, 1ul << 30, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0) == MAP_FAILED)
				_exit(2);
			raise(SIGSTOP);
			for (;;)
				pause();
		}
		int st;
		waitpid(c, &st, 0);
		if (how == 0)
			ptrace(PTRACE_KILL, c, 0, 0);
		else
			kill(c, SIGKILL);
		waitpid(c, &st, 0);
		printf("%s: killed by %d\n", how ? "kill" : "PTRACE_KILL",
		       WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		fflush(stdout);
	}
	return 0;
}
