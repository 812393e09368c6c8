/* bufcalls.c: makes many of the calls rec's library takes without a stop
 * (reads and writes of a regular file and /dev/null, lseek, the stat
 * family, access, clocks, getpid, gettid, getrandom) and prints what they
 * gave, which differs run to run. Modes: (none) all of them; sig: a loop
 * of such calls while an interval timer's SIGALRM counts; fork: a child
 * makes them too; threads: two threads make them; rdrand: a file write
 * whose length rdrand picks; reuse: a pipe takes the number of a closed
 * file, and a posix_spawn child puts a file where the parent has a pipe,
 * and the parent reads the pipe (it must block, traced); short: file
 * writes the kernel takes in part (the buffer runs into a hole) or not
 * at all (EFAULT), whose input rec reads at its stop; logfill: reads of
 * a file of random bytes, five of 300000 bytes and one of 1000000, with
 * no other call between, then a sum of the bytes; lookups: 1000 each of
 * stat, access, open of missing files and readlink of a regular file,
 * which fail (as a compiler's search paths and realpath do), with the
 * clock between.
 * Usage: bufcalls [sig|fork|threads|rdrand|reuse|short|logfill|lookups] */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Writes and reads back a file, and reads the clocks: a sum of it all. */
static uint64_t calls(const char *path, int rounds)
{
	uint64_t h = 1469598103934665603ull;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	int null = open("/dev/null", O_WRONLY);
	if (fd < 0 || null < 0)
		return perror(path), exit(1), 0;
	char line[64];
	for (int i = 0; i < rounds; i++) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		int n = snprintf(line, sizeof line, "%d %ld\n", i, ts.tv_nsec);
		if (write(fd, line, n) != n || write(null, line, n) != n)
			return perror("write"), exit(1), 0;
		h = (h ^ ts.tv_nsec) * 1099511628211ull;
	}
	if (pwrite(fd, "PATCH", 5, 3) != 5)
		return perror("pwrite"), exit(1), 0;
	struct stat st, st2;
	if (fstat(fd, &st) < 0 || lseek(fd, 0, SEEK_SET) != 0)
		return perror("fstat"), exit(1), 0;
	if (stat(path, &st2) < 0 || st2.st_size != st.st_size || access(path, R_OK) < 0 ||
	    lstat("no-such-file", &st2) == 0 || access("no-such-file", F_OK) == 0)
		return perror("stat"), exit(1), 0;
	char buf[512];
	ssize_t k;
	uint64_t total = 0;
	while ((k = read(fd, buf, sizeof buf)) > 0) {
		for (ssize_t i = 0; i < k; i++)
			h = (h ^ (uint8_t)buf[i]) * 1099511628211ull;
		total += k;
	}
	if (pread(fd, buf, 16, 8) != 16 || total != (uint64_t)st.st_size)
		return fprintf(stderr, "read back %llu of %lld\n", (unsigned long long)total,
			       (long long)st.st_size), exit(1), 0;
	struct timeval tv;
	gettimeofday(&tv, NULL);
	uint64_t r = 0;
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return perror("getrandom"), exit(1), 0;
	h ^= r ^ tv.tv_usec ^ (uint64_t)time(NULL) ^ getpid() ^ gettid();
	close(fd);
	close(null);
	unlink(path);
	return h;
}

/* Read one byte of fd, which a child writes after a while. */
static int late_byte(int fd, int wfd)
{
	pid_t pid = fork();
	if (pid == 0) {
		usleep(50000);
		_exit(write(wfd, "x", 1) == 1 ? 0 : 1);
	}
	char c = 0;
	ssize_t n = read(fd, &c, 1);
	waitpid(pid, NULL, 0);
	return n == 1 ? c : -1;
}

static int reuse(void)
{
	uint64_t h = calls("reuse.tmp", 10);
	int fd = open("/dev/zero", O_RDONLY);
	char b[8];
	if (fd < 0 || read(fd, b, sizeof b) != sizeof b)
		return perror("/dev/zero"), 1;
	close(fd);
	int p[2];
	if (pipe(p) < 0)
		return perror("pipe"), 1;
	printf("pipe at %d (was the file's %d): %c\n", p[0], fd, late_byte(p[0], p[1]));
	/* fd 0 a pipe; a spawned child gets a file there (vfork). */
	int q[2];
	if (pipe(q) < 0 || dup2(q[0], 0) < 0)
		return perror("pipe"), 1;
	int f = open("spawn.tmp", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	close(f);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "spawn.tmp", O_RDONLY, 0);
	char *argv[] = { "true", NULL };
	pid_t pid;
	if (posix_spawn(&pid, "/bin/true", &fa, NULL, argv, NULL) != 0)
		return perror("posix_spawn"), 1;
	waitpid(pid, NULL, 0);
	printf("stdin pipe after spawn: %c, sum %016llx\n", late_byte(0, q[1]),
	       (unsigned long long)h);
	return 0;
}

/* Writes of random bytes that end in an unmapped page, and of NULL,
 * between whole ones; prints what they returned and the file. */
static int short_writes(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || munmap(m + ps, ps) < 0 || getrandom(m + ps - 64, 64, 0) != 64)
		return perror("short"), 1;
	int fd = open("short.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600);
	void *volatile null = NULL;	/* not a constant the compiler objects to */
	for (int i = 0; i < 4; i++) {
		ssize_t part = write(fd, m + ps - 8 * (i + 1), 100);
		ssize_t none = write(fd, null, 10);
		ssize_t whole = write(fd, m + ps - 64, 64);
		printf("%zd %zd %zd\n", part, none, whole);
	}
	unsigned char b[512];
	ssize_t n = pread(fd, b, sizeof b, 0);
	for (ssize_t i = 0; i < n; i++)
		printf("%02x", b[i]);
	printf("\n");
	return 0;
}

static int logfill(void)
{
	static unsigned char b[2800000];
	if (getrandom(b, 256, 0) != 256)
		return perror("getrandom"), 1;
	for (size_t i = 256; i < sizeof b; i++)
		b[i] = b[i - 256] * 31 + (unsigned char)i;
	int fd = open("fill.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || pwrite(fd, b, sizeof b, 0) != (ssize_t)sizeof b)
		return perror("fill.tmp"), 1;
	memset(b, 0, sizeof b);
	size_t got = 0;
	for (int i = 0; i < 6; i++) {
		ssize_t n = read(fd, b + got, i < 5 ? 300000 : 1000000);
		if (n <= 0)
			return perror("read"), 1;
		got += n;
	}
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < got; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	printf("read %zu, sum %016llx\n", got, (unsigned long long)h);
	return 0;
}

static int lookups(void)
{
	int fd = open("here.tmp", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return perror("here.tmp"), 1;
	close(fd);
	uint64_t h = 1469598103934665603ull;
	int failed = 0;
	for (int i = 0; i < 1000; i++) {
		char name[32], link[64];
		struct stat st;
		struct timespec ts;
		snprintf(name, sizeof name, "no-such-%d", i);
		failed += stat(name, &st) < 0;
		failed += access(name, R_OK) < 0;
		failed += open(name, O_RDONLY) < 0;
		failed += readlink("here.tmp", link, sizeof link) < 0;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		h = (h ^ (uint64_t)ts.tv_nsec) * 1099511628211ull;
	}
	printf("%d failed, clocks %016llx\n", failed, (unsigned long long)h);
	return 0;
}

static volatile sig_atomic_t ticks;

static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

static void *thread(void *arg)
{
	return (void *)(uintptr_t)calls(arg, 300);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (!strcmp(mode, "sig")) {
		signal(SIGALRM, on_alarm);
		struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
		setitimer(ITIMER_REAL, &it, NULL);
		long n = 0;
		struct timespec ts;
		while (ticks < 5) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			n++;
		}
		printf("%ld calls until 5 ticks, last %ld\n", n, ts.tv_nsec);
		return 0;
	}
	if (!strcmp(mode, "fork")) {
		pid_t pid = fork();
		if (pid == 0) {
			printf("child %016llx\n", (unsigned long long)calls("child.tmp", 500));
			return 0;
		}
		int st;
		waitpid(pid, &st, 0);
		printf("parent %016llx, child status %d\n", (unsigned long long)calls("parent.tmp", 500),
		       WEXITSTATUS(st));
		return 0;
	}
	if (!strcmp(mode, "threads")) {
		pthread_t t;
		void *r;
		pthread_create(&t, NULL, thread, "thread.tmp");
		uint64_t mine = calls("main.tmp", 300);
		pthread_join(t, &r);
		printf("main %016llx thread %016llx\n", (unsigned long long)mine,
		       (unsigned long long)(uintptr_t)r);
		return 0;
	}
	if (!strcmp(mode, "reuse"))
		return reuse();
	if (!strcmp(mode, "short"))
		return short_writes();
	if (!strcmp(mode, "logfill"))
		return logfill();
	if (!strcmp(mode, "lookups"))
		return lookups();
	if (!strcmp(mode, "rdrand")) {
		unsigned long long v = 0;
		__asm__ volatile("1: rdrand %0; jnc 1b" : "=r"(v));
		int fd = open("rd.tmp", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		char buf[64] = { 0 };
		for (int i = 0; i < 10; i++)
			if (write(fd, buf, 1 + (i == 5 ? v % 32 : 0)) < 0)
				return perror("write"), 1;
		printf("wrote with %llu\n", v % 32);
		return 0;
	}
	printf("%016llx\n", (unsigned long long)calls("data.tmp", 2000));
	return 0;
}
