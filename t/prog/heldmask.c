/* heldmask.c: a child sends SIGUSR1 once its parent spins (no syscall)
 * on a flag the child then sets in shared memory; the parent then blocks
 * SIGUSR1, computes long with no syscall, unblocks it and prints in which
 * phase its handler ran and a random token. */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t phase, ran_in = -1;

static void on_usr1(int sig)
{
	(void)sig;
	ran_in = phase;
}

int main(void)
{
	unsigned r = 0;
	getrandom(&r, sizeof r, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	atomic_int *flag = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (flag == MAP_FAILED)
		return perror("mmap"), 2;
	atomic_int *spinning = flag + 1;
	pid_t parent = getpid(), c = fork();
	if (c < 0)
		return perror("fork"), 2;
	if (c == 0) {
		/* Sent while the parent runs its loop, past its last call. */
		while (!atomic_load(spinning))
			;
		kill(parent, SIGUSR1);
		atomic_store(flag, 1);
		_exit(0);
	}
	/* Phase 0: no syscall until the child has sent the signal. */
	atomic_store(spinning, 1);
	while (!atomic_load(flag))
		;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	/* Phase 1: blocked, long enough (about 0.5 s) for rec to stop the
	 * program to deliver a signal it holds. */
	phase = 1;
	volatile unsigned long turns = 0;
	for (unsigned long i = 0; i < 600000000ul; i++)
		turns += i & 3;
	phase = 2;
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	waitpid(c, NULL, 0);
	printf("handler ran in phase %d, turns %lu, token %08x\n", (int)ran_in, turns % 1000003, r);
	return 0;
}
