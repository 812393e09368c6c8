/* ignwait.c: SIGUSR2 ignored, a child sends it every 20 ms while the
 * parent waits in rt_sigtimedwait (for nothing) and epoll_wait (on no
 * descriptor), 300 ms each: natively neither is interrupted, since the
 * kernel discards an ignored signal. Prints what each returned and a
 * random token. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	unsigned token = 0;
	getrandom(&token, sizeof token, 0);
	signal(SIGUSR2, SIG_IGN);
	pid_t parent = getpid(), child = fork();
	if (child == 0) {
		struct timespec ts = { 0, 20000000 };
		for (;;) {
			kill(parent, SIGUSR2);
			nanosleep(&ts, NULL);
		}
	}
	struct timespec wait = { 0, 300000000 };
	sigset_t none;
	sigemptyset(&none);
	errno = 0;
	long r = syscall(SYS_rt_sigtimedwait, &none, NULL, &wait, 8);
	printf("rt_sigtimedwait: %ld %s\n", r, r < 0 ? strerrorname_np(errno) : "");
	int ep = epoll_create1(0);
	struct epoll_event ev;
	errno = 0;
	r = epoll_wait(ep, &ev, 1, 300);
	printf("epoll_wait: %ld %s\n", r, r < 0 ? strerrorname_np(errno) : "");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("token %u\n", token);
	return 0;
}
