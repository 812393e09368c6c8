/* suspwake.c: waits in rt_sigsuspend (SIGUSR2 blocked there) for the
 * SIGUSR1 its child sends once it sees the parent asleep; a test changes
 * that signal in the trace to SIGUSR2, which leaves replay's
 * rt_sigsuspend asleep for good. The child ends only when the parent
 * woke (a pipe): its end (and SIGCHLD, which would end a replayed
 * rt_sigsuspend too) never comes before the parent's wake-up in a
 * recording, whatever the timing. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Is process pid asleep? Until the parent sleeps in rt_sigsuspend it
 * only runs (or waits for rec) between its fork and that call. */
static int asleep(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

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
	int woke[2];
	if (pipe(woke) < 0)
		return 1;
	pid_t c = fork();
	if (!c) {
		/* Sent while the parent sleeps in rt_sigsuspend, never
		 * before (it would return at once: another record). */
		char b;
		close(woke[1]);
		while (!asleep(getppid()))
			usleep(1000);
		kill(getppid(), SIGUSR1);
		_exit(read(woke[0], &b, 1) == 1 ? 0 : 1);
	}
	close(woke[0]);
	sigemptyset(&during);
	sigaddset(&during, SIGUSR2);
	sigsuspend(&during);
	printf("woke\n");
	fflush(stdout);
	if (write(woke[1], "w", 1) != 1)
		return 1;
	waitpid(c, NULL, 0);
	return 0;
}
