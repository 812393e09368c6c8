/* unsharefd.c: the main thread takes a descriptor table of its own
 * (unshare CLONE_FILES, or with an argument close_range with
 * CLOSE_RANGE_UNSHARE) and puts a regular file where a dup of stdout
 * was; the other thread, which keeps the old table, then writes a line
 * with a random token through that number: in its table still stdout. */
#include <fcntl.h>
#include <linux/close_range.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

static int fd;
static pthread_barrier_t swapped, written;

static void *other(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&swapped);
	unsigned tok = 0;
	getrandom(&tok, sizeof tok, 0);
	char line[64];
	int n = snprintf(line, sizeof line, "the other thread writes %08x\n", tok);
	if (write(fd, line, n) != n)
		perror("unsharefd: write");
	pthread_barrier_wait(&written);
	return NULL;
}

int main(int argc, char **argv)
{
	(void)argv;
	fd = dup(1);
	pthread_barrier_init(&swapped, NULL, 2);
	pthread_barrier_init(&written, NULL, 2);
	pthread_t t;
	pthread_create(&t, NULL, other, NULL);
	long rc = argc > 1 ? syscall(SYS_close_range, fd, fd, CLOSE_RANGE_UNSHARE) : unshare(CLONE_FILES);
	close(fd);
	int f = open("regular", O_CREAT | O_RDWR | O_TRUNC, 0600);
	printf("%s = %ld, the file got the same number: %d\n",
	       argc > 1 ? "close_range" : "unshare", rc, f == fd);
	fflush(stdout);
	if (write(f, "x", 1) != 1)
		return 1;
	pthread_barrier_wait(&swapped);
	pthread_barrier_wait(&written);
	pthread_join(t, NULL);
	return 0;
}
