/* fanperm.c: fanotify permission events: a child opens a file twice
 * and waits in each open until the parent, reading the events, denies
 * the first and allows the second. Prints the events, the child's
 * results and a random token; "fanotify: unavailable" where the program
 * may not use it (not root). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	unsigned tok = 0;
	getrandom(&tok, sizeof tok, 0);
	char name[32];
	snprintf(name, sizeof name, "guarded-%08x", tok);
	close(open(name, O_CREAT | O_WRONLY, 0644));
	int fa = fanotify_init(FAN_CLASS_CONTENT, O_RDONLY);
	if (fa < 0 || fanotify_mark(fa, FAN_MARK_ADD, FAN_OPEN_PERM, AT_FDCWD, name) < 0) {
		printf("fanotify: unavailable (%s)\n", strerror(errno));
		return 0;
	}
	printf("token %08x\n", tok);
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		for (int i = 0; i < 2; i++) {
			int fd = open(name, O_RDONLY);
			printf("child open %d: %s\n", i, fd < 0 ? strerror(errno) : "allowed");
			fflush(stdout);
		}
		_exit(0);
	}
	char buf[4096] __attribute__((aligned(8)));
	for (int i = 0; i < 2; i++) {
		ssize_t n = read(fa, buf, sizeof buf);
		struct fanotify_event_metadata *m = (void *)buf;
		printf("event %d: %zd bytes, mask %#llx, from the child %d\n", i, n,
		       (unsigned long long)m->mask, m->pid == p);
		struct fanotify_response r = { .fd = m->fd, .response = i ? FAN_ALLOW : FAN_DENY };
		if (write(fa, &r, sizeof r) != sizeof r)
			perror("fanperm: response");
		close(m->fd);
	}
	int st;
	waitpid(p, &st, 0);
	printf("child status %d\n", st);
	unlink(name);
	return 0;
}
