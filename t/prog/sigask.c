/* sigask.c: rt_sigaction made raw, as posix_spawn's child makes it (not
 * through libc's sigaction): asks for every signal's action, sets a
 * handler for some with sets that ask nothing back, raises them, and
 * prints what it asked and what ran with a random token. With "thread",
 * a second thread sets SIGUSR2's handler and main raises it once the
 * thread said so, the thread still alive. Then posix_spawn of /bin/true
 * (its child resets every handler the same raw way). */
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define SA_RESTORER 0x04000000

struct kact {		/* the kernel's struct sigaction */
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

static volatile int ran[65];
static int told[2], held[2];

static void on_sig(int sig)
{
	ran[sig]++;
}

void restorer(void);
__asm__(".text\n.globl restorer\nrestorer:\n\tmov $15, %eax\n\tsyscall\n");

static long act(int sig, const struct kact *k, struct kact *old)
{
	return syscall(SYS_rt_sigaction, sig, k, old, 8);
}

static void *setter(void *arg)
{
	(void)arg;
	struct kact k = { on_sig, SA_RESTORER, restorer, 0 };
	char c = act(SIGUSR2, &k, NULL) == 0 ? 'y' : 'n';
	if (write(told[1], &c, 1) != 1 || read(held[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

int main(int argc, char **argv)
{
	uint64_t tok;
	if (getrandom(&tok, sizeof tok, 0) != sizeof tok)
		return 1;
	unsigned long sum = 0;
	int asked = 0;
	for (int sig = 1; sig <= 64; sig++) {
		struct kact o;
		memset(&o, 0xa5, sizeof o);
		if (act(sig, NULL, &o) == 0) {
			asked++;
			sum = sum * 31 + (uintptr_t)o.handler + o.flags + o.mask;
		}
	}
	struct kact k = { on_sig, SA_RESTORER, restorer, 0 };
	int sigs[] = { SIGUSR1, SIGHUP, SIGWINCH, SIGRTMIN + 3 };
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		if (act(sigs[i], &k, NULL) != 0 || raise(sigs[i]) != 0)
			return 2;
	struct kact back;
	if (act(SIGHUP, NULL, &back) != 0 || back.handler != on_sig)
		return 3;
	/* Bad ones the kernel refuses, the same way each time. */
	long bad = act(SIGKILL, &k, NULL) + act(65, NULL, &back) + act(SIGUSR1, (void *)8, NULL);
	if (argc > 1 && !strcmp(argv[1], "thread")) {
		pthread_t t;
		char c;
		if (pipe(told) || pipe(held) || pthread_create(&t, NULL, setter, NULL) ||
		    read(told[0], &c, 1) != 1 || c != 'y' || raise(SIGUSR2) != 0 || write(held[1], &c, 1) != 1 ||
		    pthread_join(t, NULL))
			return 4;
	}
	pid_t pid;
	char *args[] = { "true", NULL };
	int st = -1;
	if (posix_spawn(&pid, "/bin/true", NULL, NULL, args, environ) != 0 || waitpid(pid, &st, 0) != pid)
		return 5;
	printf("token %016llx asked %d sum %lx bad %ld ran", (unsigned long long)tok, asked, sum, bad);
	for (int sig = 1; sig <= 64; sig++)
		if (ran[sig])
			printf(" %d:%d", sig, ran[sig]);
	printf(" spawned %d\n", st);
	return 0;
}
