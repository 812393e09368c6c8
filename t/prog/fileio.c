/* fileio.c: file and directory I/O in the working directory (open, read,
 * write, pread, lseek, stat, fstat, lstat, readlink, readdir) and a pipe,
 * on contents made from random bytes, so output differs on every run. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	unsigned char r[8];
	char tok[17], buf[256], cwd[4096];
	if (getrandom(r, sizeof r, 0) != sizeof r)
		return perror("getrandom"), 1;
	for (int i = 0; i < 8; i++)
		sprintf(tok + 2 * i, "%02x", r[i]);

	if (!getcwd(cwd, sizeof cwd))
		return perror("getcwd"), 1;
	printf("cwd %s\n", cwd);
	if (mkdir("d", 0755) < 0)
		return perror("mkdir d"), 1;
	int fd = open("d/f1", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		return perror("open d/f1"), 1;
	int n = snprintf(buf, sizeof buf, "first line %s\nsecond line\n", tok);
	if (write(fd, buf, n) != n)
		return perror("write"), 1;
	close(fd);

	fd = open("d/f1", O_RDWR);
	memset(buf, 0, sizeof buf);
	ssize_t got = read(fd, buf, sizeof buf - 1);
	printf("read %zd: %s", got, buf);
	memset(buf, 0, sizeof buf);
	got = pread(fd, buf, 8, 11);
	printf("pread %zd: %s\n", got, buf);
	off_t end = lseek(fd, 0, SEEK_END);
	n = snprintf(buf, sizeof buf, "appended %c%c\n", tok[0], tok[1]);
	write(fd, buf, n);
	struct stat st;
	fstat(fd, &st);
	printf("end %lld size %lld mode %o ino-low %lu mtime-ns %ld\n", (long long)end,
	       (long long)st.st_size, st.st_mode & 07777, (unsigned long)(st.st_ino & 0xff),
	       st.st_mtim.tv_nsec);
	close(fd);

	fd = open(tok, O_CREAT | O_WRONLY, 0600);
	close(fd);
	rename(tok, "d/renamed");
	symlink("f1", "d/link");
	struct stat sl, sf;
	if (lstat("d/link", &sl) < 0 || stat("d/link", &sf) < 0)
		return perror("stat d/link"), 1;
	n = readlink("d/link", buf, sizeof buf - 1);
	buf[n < 0 ? 0 : n] = 0;
	printf("link -> %s lstat-link %d stat-size %lld\n", buf, S_ISLNK(sl.st_mode),
	       (long long)sf.st_size);

	DIR *d = opendir("d");
	struct dirent *de;
	char *names[16];
	int nn = 0;
	while ((de = readdir(d)) && nn < 16)
		names[nn++] = strdup(de->d_name);
	closedir(d);
	qsort(names, nn, sizeof *names, cmp);
	for (int i = 0; i < nn; i++)
		printf("entry %s\n", names[i]);

	int p[2];
	if (pipe(p) < 0)
		return perror("pipe"), 1;
	write(p[1], tok, 16);
	memset(buf, 0, sizeof buf);
	got = read(p[0], buf, sizeof buf);
	printf("pipe %zd %s\n", got, buf);
	close(p[0]);
	close(p[1]);

	unlink("d/f1");
	unlink("d/link");
	unlink("d/renamed");
	printf("rmdir %d\n", rmdir("d"));
	fprintf(stderr, "done %s\n", tok);
	return 0;
}
