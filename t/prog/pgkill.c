/* pgkill.c: signals its own process group, as test programs do to kill
 * themselves and their children: kill(0, SIGUSR1) (caught), then a child
 * is forked and kill(0, SIGABRT) ends both. "stop" stops itself with
 * SIGSTOP and has its child wake it with SIGCONT; "trap" sends SIGTRAP
 * to the group (caught); "disp" prints which of SIGINT, SIGQUIT, SIGHUP
 * it was started with ignored. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_sig(int sig)
{
	got = sig;
}

int main(int argc, char **argv)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);
	fflush(stdout);
	if (argc > 1 && !strcmp(argv[1], "disp")) {
		static const int sigs[] = { SIGINT, SIGQUIT, SIGHUP };
		for (int i = 0; i < 3; i++) {
			struct sigaction sa;
			sigaction(sigs[i], NULL, &sa);
			printf("signal %d %s\n", sigs[i], sa.sa_handler == SIG_IGN ? "ignored" : "default");
		}
		return 0;
	}
	signal(SIGUSR1, on_sig);
	kill(0, SIGUSR1);
	printf("caught %d\n", got);
	if (argc > 1 && !strcmp(argv[1], "trap")) {
		signal(SIGTRAP, on_sig);
		kill(0, SIGTRAP);
		printf("caught %d\n", got);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "stop")) {
		pid_t me = getpid(), c = fork();
		if (c == 0) {
			usleep(100000);
			kill(me, SIGCONT);
			_exit(0);
		}
		raise(SIGSTOP);
		printf("woken\n");
		waitpid(c, NULL, 0);
		return 0;
	}
	pid_t c = fork();
	if (c == 0) {
		pause();
		_exit(1);
	}
	fflush(stdout);
	kill(0, SIGABRT);
	pause();
	return 0;
}
