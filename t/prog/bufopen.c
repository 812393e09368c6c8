/* bufopen.c: makes the calls rec's library takes without a stop since it
 * also opens and closes files: read-only opens of files and directories
 * (and ones that fail), close, fcntl flag reads and dups, sigaction that
 * only asks, isatty and TCGETS, readlink, realpath, getcwd, directory
 * streams, the ids, uname and sysinfo; and
 * opens that must stay traced (a FIFO, /dev/null, a file it creates).
 * It prints what they gave, with a clock reading that differs run to run.
 * Usage: bufopen DIR (a scratch directory) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static void on_usr1(int sig)
{
	static const char m[] = "usr1 handled\n";
	(void)sig;
	write(1, m, sizeof m - 1);
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return fprintf(stderr, "usage: bufopen DIR\n"), 2;
	char path[4096], link[4096], fifo[4096];
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(path, sizeof path, "%s/data", argv[1]);
	snprintf(link, sizeof link, "%s/link", argv[1]);
	snprintf(fifo, sizeof fifo, "%s/fifo", argv[1]);
	/* A file whose bytes and a link whose target differ run to run. */
	int w = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	char line[64];
	int n = snprintf(line, sizeof line, "data %ld\n", ts.tv_nsec);
	if (w < 0 || write(w, line, n) != n || close(w) < 0)
		return perror(path), 1;
	char target[64];
	snprintf(target, sizeof target, "target-%ld", ts.tv_nsec % 100000);
	unlink(link);
	unlink(fifo);
	if (symlink(target, link) < 0 || mkfifo(fifo, 0600) < 0)
		return perror("symlink"), 1;

	for (int round = 0; round < 50; round++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		char buf[64] = { 0 };
		ssize_t k = read(fd, buf, sizeof buf - 1);
		int fl = fcntl(fd, F_GETFL), fdfl = fcntl(fd, F_GETFD);
		int d = fcntl(fd, F_DUPFD_CLOEXEC, 10);
		char b2[8] = { 0 };
		ssize_t k2 = pread(d, b2, 4, 0);
		fcntl(d, F_SETFD, 0);
		int nf = open("no-such-file", O_RDONLY);
		int nferr = errno;
		int dir = openat(AT_FDCWD, argv[1], O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
		struct stat st;
		int ds = fstat(dir, &st);
		if (round % 10 == 0)
			printf("round %d: fd %d read %zd %.*s flags %#x fdflags %d dup %d pread %zd %s "
			       "missing %d errno %d dir %d isdir %d\n",
			       round, fd, k, (int)(k > 0 ? k - 1 : 0), buf, fl, fdfl, d, k2, b2, nf,
			       nferr, dir, ds == 0 && S_ISDIR(st.st_mode));
		close(d);
		close(fd);
		close(dir);
	}

	/* A file opened without a stop can be mapped: rec finds it. */
	int fd = open(path, O_RDONLY);
	char *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return perror("mmap"), 1;
	printf("mapped: %.*s", (int)strcspn(m, "\n") + 1, m);
	munmap(m, 4096);
	close(fd);

	char got[256];
	ssize_t r = readlink(link, got, sizeof got);
	printf("readlink: %.*s\n", (int)(r > 0 ? r : 0), got);
	r = readlinkat(AT_FDCWD, path, got, sizeof got);
	printf("readlinkat of a file: %zd %s\n", r, strerror(errno));
	char real[4096];
	char *rp = realpath(link, real);
	printf("realpath of the link: %s %s\n", rp ? "ok" : strerror(errno), strrchr(real, '/'));
	rp = realpath("../.", real);
	printf("realpath of ../.: %s\n", rp && !strcmp(rp, real) ? "ok" : strerror(errno));

	/* Directory streams: the entries of DIR, sorted, and going back. */
	DIR *dp = opendir(argv[1]);
	struct dirent *de;
	char names[16][256];
	long pos[16];
	int ne = 0;
	while (dp && (de = readdir(dp)) && ne < 16) {
		pos[ne] = telldir(dp);
		snprintf(names[ne++], 256, "%s", de->d_name);
	}
	qsort(names, ne, 256, (int (*)(const void *, const void *))strcmp);
	printf("dir:");
	for (int i = 0; i < ne; i++)
		printf(" %s", names[i]);
	seekdir(dp, pos[0]);
	de = readdir(dp);
	int again = 0;
	rewinddir(dp);
	while (readdir(dp))
		again++;
	int dfd = dup(dirfd(dp));
	closedir(dp);
	lseek(dfd, 0, SEEK_SET);
	DIR *d2 = fdopendir(dfd);
	struct dirent ent, *res;
	int viar = 0;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	while (d2 && readdir_r(d2, &ent, &res) == 0 && res)
		viar++;
#pragma GCC diagnostic pop
	printf("; after seekdir %s; again %d, readdir_r %d, cloexec %d\n", de ? "one" : "none",
	       again, viar, fcntl(dfd, F_GETFD));
	closedir(d2);
	errno = 0;
	dp = opendir(path);
	printf("opendir of a file: %s %s\n", dp ? "opened" : "NULL", strerror(errno));

	struct sigaction sa = { 0 }, old;
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	int handled = 0;
	for (int sig = 1; sig < 65; sig++)
		if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == on_usr1)
			handled = sig;
	printf("handler found at %d, flags %#x\n", handled, old.sa_flags);
	raise(SIGUSR1);

	struct termios t;
	int td = open(path, O_RDONLY);
	int tty = isatty(td), tc = ioctl(td, TCGETS, &t);
	printf("isatty(data) %d, TCGETS %d %s\n", tty, tc, strerror(errno));
	close(td);
	struct utsname u;
	struct sysinfo si;
	printf("ids %d %d %d %d, uname %d %s, sysinfo %d\n", getuid(), geteuid(), getgid(),
	       getegid(), uname(&u), u.sysname, sysinfo(&si));

	/* Traced: a FIFO (its open could wait), /dev/null, a created file. */
	int ff = open(fifo, O_RDONLY | O_NONBLOCK);
	int nul = open("/dev/null", O_RDONLY);
	int cr = open(path, O_RDONLY | O_CREAT, 0600);
	printf("fifo %d null %d created %d\n", ff >= 0, nul >= 0, cr >= 0);
	close(ff);
	close(nul);
	close(cr);
	clock_gettime(CLOCK_REALTIME, &ts);
	printf("end %ld\n", ts.tv_nsec);
	return 0;
}
