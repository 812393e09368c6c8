/* suspwake.c: waits in rt_sigsuspend (SIGUSR2 blocked there) for the
 * SIGUSR1 its child sends; a test changes that signal in the trace to
 * SIGUSR2, which leaves replay's rt_sigsuspend asleep for good. */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_usr1(int sig)
{
	(void)sig;
}

int main(void)
{
	sigset_t block, during;
	signal(SIGUSR1, on_usr1);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	pid_t c = fork();
	if (!c) {
		usleep(100000);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	sigemptyset(&during);
	sigaddset(&during, SIGUSR2);
	sigsuspend(&during);
	printf("woke\n");
	waitpid(c, NULL, 0);
	return 0;
}
