/* heldmask.c: a child sends SIGUSR1 once its parent spins (no syscall)
 * on a flag the child then sets in shared memory; the parent then blocks
 * SIGUSR1, computes long with no syscall, unblocks it and prints in which
 * phase its handler ran and a random token. A round whose signal came in
 * before the block is tried again with a new child. */
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
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	/* Under rec the child may be switched out between its kill and its
	 * flag: the parent, spinning, is then stopped at the end of its
	 * timeslice and the signal it holds is rightly delivered there, in
	 * phase 0. Nothing can rule that out (timeslices are wall time),
	 * so such a round is done again, with a new child, until the signal
	 * is still held when the parent blocks it (natively it mostly comes
	 * at once: ROUNDS bounds that). */
	enum { ROUNDS = 20 };
	for (int round = 1;; round++) {
		pid_t parent = getpid(), c = fork();
		if (c < 0)
			return perror("fork"), 2;
		if (c == 0) {
			/* Sent while the parent runs its loop, past its last call. */
			while (atomic_load(spinning) != round)
				;
			kill(parent, SIGUSR1);
			atomic_store(flag, round);
			_exit(0);
		}
		/* Phase 0: no syscall until the child has sent the signal. */
		phase = 0;
		ran_in = -1;
		atomic_store(spinning, round);
		while (atomic_load(flag) != round)
			;
		sigprocmask(SIG_BLOCK, &set, NULL);
		waitpid(c, NULL, 0);
		if (ran_in < 0 || round == ROUNDS)
			break;
		sigprocmask(SIG_UNBLOCK, &set, NULL);
	}
	/* Phase 1: blocked, long enough (about 0.5 s) for rec to stop the
	 * program to deliver a signal it holds. */
	phase = 1;
	volatile unsigned long turns = 0;
	for (unsigned long i = 0; i < 600000000ul; i++)
		turns += i & 3;
	phase = 2;
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	printf("handler ran in phase %d, turns %lu, token %08x\n", (int)ran_in, turns % 1000003, r);
	return 0;
}
