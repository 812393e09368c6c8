/* sockjunk.c: AF_UNIX calls (bind, connect, sendto) whose sockaddr_un
 * is the full 110 bytes, the bytes after the path's NUL left as they
 * were: stale stack, as glibc's nscd client passes it. The stale bytes
 * come from the calls just made (the preloaded library's own frames,
 * which differ between rec and replay) mixed with the pid and the time,
 * so they differ from run to run; the kernel never reads them. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Bytes the stack held below the caller's frame, mixed with salt. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
static __attribute__((noinline)) void stale(unsigned char *out, size_t n, unsigned salt)
{
	volatile unsigned char junk[16384];
	for (size_t i = 0; i < n; i++)
		out[i] = (unsigned char)(salt >> (i % 4 * 8)) ^ 0x5a;
	for (size_t i = 0; i < sizeof junk; i++)
		out[i % n] ^= junk[i];
}

/* Buffered calls first, so that their frames are what stale() finds. */
static void churn(void)
{
	struct stat st;
	struct timespec ts;
	stat("/", &st);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	getppid();
	stat("/nonexistent/sockjunk", &st);
}

static socklen_t junk_addr(struct sockaddr_un *sa, const char *path)
{
	churn();
	stale((unsigned char *)sa, sizeof *sa, (unsigned)getpid() * 2654435761u ^ (unsigned)time(NULL));
	sa->sun_family = AF_UNIX;
	size_t n = strlen(path);
	memcpy(sa->sun_path, path, n + 1);
	if (n + 2 < sizeof sa->sun_path && !sa->sun_path[n + 1])
		sa->sun_path[n + 1] = 'J';	/* surely something past the NUL */
	return sizeof *sa;
}

static void say(const char *what, int r)
{
	printf("%s: %d %s\n", what, r, r < 0 ? strerror(errno) : "ok");
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa;
	socklen_t len;
	int s;
	if (argc > 1 && !strcmp(argv[1], "path")) {
		/* Stale bytes in the path itself: the kernel reads them, and
		 * replay must tell where they differ. */
		unsigned char b[4];
		churn();
		stale(b, sizeof b, 0);
		char path[64];
		snprintf(path, sizeof path, "/nonexistent/sj-%02x%02x%02x%02x", b[0], b[1], b[2], b[3]);
		s = socket(AF_UNIX, SOCK_STREAM, 0);
		len = junk_addr(&sa, path);
		say("connect", connect(s, (struct sockaddr *)&sa, len));
		return 0;
	}
	unlink("sj.stream");
	unlink("sj.dgram");

	s = socket(AF_UNIX, SOCK_STREAM, 0);
	len = junk_addr(&sa, "/nonexistent/sockjunk.sock");
	say("connect to a missing socket", connect(s, (struct sockaddr *)&sa, len));
	close(s);

	int l = socket(AF_UNIX, SOCK_STREAM, 0);
	len = junk_addr(&sa, "sj.stream");
	say("bind", bind(l, (struct sockaddr *)&sa, len));
	say("listen", listen(l, 1));
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	len = junk_addr(&sa, "sj.stream");
	say("connect", connect(s, (struct sockaddr *)&sa, len));
	close(s);
	close(l);

	int d = socket(AF_UNIX, SOCK_DGRAM, 0);
	len = junk_addr(&sa, "sj.dgram");
	say("bind dgram", bind(d, (struct sockaddr *)&sa, len));
	s = socket(AF_UNIX, SOCK_DGRAM, 0);
	len = junk_addr(&sa, "sj.dgram");
	say("sendto", (int)sendto(s, "ping", 4, 0, (struct sockaddr *)&sa, len));
	char b[8] = "";
	say("recv", (int)recv(d, b, sizeof b - 1, 0));
	printf("got %s\n", b);

	/* An abstract name is all addrlen bytes: none of them is stale. */
	len = junk_addr(&sa, "");
	memcpy(sa.sun_path + 1, "sockjunk-abstract", 17);
	len = offsetof(struct sockaddr_un, sun_path) + 18;
	say("sendto abstract", (int)sendto(s, "x", 1, 0, (struct sockaddr *)&sa, len));
	unlink("sj.stream");
	unlink("sj.dgram");
	return 0;
}
