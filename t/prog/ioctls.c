/* ioctls.c: ioctl and fcntl requests whose outputs the kernel writes at
 * their argument, old-style (TCGETS, TIOCGWINSZ, FIONREAD, SIOCGIFCONF,
 * VT_OPENQRY...) and encoded (TIOCGPTN), with values that differ run to
 * run, plus F_GET_RW_HINT, F_GETOWN_EX and F_OFD_GETLK. Prints what it
 * got. */
#include <errno.h>
#include <fcntl.h>
#include <linux/vt.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#ifndef F_GET_RW_HINT
#define F_GET_RW_HINT 1035
#define F_SET_RW_HINT 1036
#endif

int main(void)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);

	/* A pty with a random window size. */
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m >= 0 && grantpt(m) == 0 && unlockpt(m) == 0) {
		unsigned n = 99;
		ioctl(m, TIOCGPTN, &n);
		printf("TIOCGPTN ok %d\n", n < 99 ? 1 : 0);
		int s = open(ptsname(m), O_RDWR | O_NOCTTY);
		struct winsize ws = { .ws_row = 10 + r % 50, .ws_col = 20 + r % 70 }, got = { 0 };
		ioctl(s, TIOCSWINSZ, &ws);
		int rc = ioctl(s, TIOCGWINSZ, &got);
		printf("TIOCGWINSZ = %d: %u rows %u cols\n", rc, got.ws_row, got.ws_col);
		struct termios t;
		memset(&t, 0, sizeof t);
		rc = ioctl(s, TCGETS, &t);
		printf("TCGETS = %d: lflag %#x\n", rc, t.c_lflag);
		int q = -1;
		write(m, "abc\n", 4);
		usleep(1000);
		rc = ioctl(s, FIONREAD, &q);
		printf("FIONREAD on the pty = %d: %d\n", rc, q);
		close(s);
		close(m);
	}

	/* A pipe holding a random number of bytes. */
	int p[2];
	pipe(p);
	char buf[256] = { 0 };
	write(p[1], buf, 1 + r % 200);
	int q = -1;
	int rc = ioctl(p[0], FIONREAD, &q);
	printf("FIONREAD = %d: %d\n", rc, q);
	errno = 0;
	rc = ioctl(p[0], 0x54ff, &q);	/* a 'T' request nobody has */
	printf("ioctl 0x54ff = %d errno %d\n", rc, errno);

	/* fcntl: read-write hints, owner, OFD locks. */
	char path[] = "ioctls.XXXXXX";
	int fd = mkstemp(path);
	uint64_t hint = 1 + r % 5, h = 0;
	fcntl(fd, F_SET_RW_HINT, &hint);
	rc = fcntl(fd, F_GET_RW_HINT, &h);
	printf("F_GET_RW_HINT = %d: %llu (set %llu)\n", rc, (unsigned long long)h,
	       (unsigned long long)hint);
	struct f_owner_ex own = { F_OWNER_PID, getpid() }, og = { 0, 0 };
	fcntl(fd, F_SETOWN_EX, &own);
	rc = fcntl(fd, F_GETOWN_EX, &og);
	printf("F_GETOWN_EX = %d: type %d pid %s\n", rc, og.type, og.pid == getpid() ? "mine" : "other");
	struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = r % 1000, .l_len = 10 };
	rc = fcntl(fd, F_OFD_GETLK, &lk);
	printf("F_OFD_GETLK = %d: type %d start %lld\n", rc, lk.l_type, (long long)lk.l_start);
	unlink(path);

	/* Sockets: the interfaces. */
	int sk = socket(AF_INET, SOCK_DGRAM, 0);
	struct ifreq ifr[8];
	struct ifconf ifc = { .ifc_len = sizeof ifr, .ifc_req = ifr };
	rc = ioctl(sk, SIOCGIFCONF, &ifc);
	printf("SIOCGIFCONF = %d: %d bytes, first %s\n", rc, ifc.ifc_len,
	       ifc.ifc_len > 0 ? ifr[0].ifr_name : "-");
	struct ifreq one;
	memset(&one, 0, sizeof one);
	strcpy(one.ifr_name, "lo");
	rc = ioctl(sk, SIOCGIFINDEX, &one);
	printf("SIOCGIFINDEX lo = %d: %d\n", rc, one.ifr_ifindex);
	rc = ioctl(sk, SIOCGIFFLAGS, &one);
	printf("SIOCGIFFLAGS lo = %d: %#x\n", rc, one.ifr_flags & 0xffff);
	unsigned long br[3] = { 0, 0, 0 };	/* BRCTL_GET_VERSION */
	errno = 0;
	rc = ioctl(sk, SIOCGIFBR, br);
	printf("SIOCGIFBR = %d errno %d\n", rc, rc < 0 ? errno : 0);

	/* A virtual terminal, where there is one. */
	int vt = open("/dev/tty0", O_RDONLY | O_NOCTTY);
	if (vt >= 0) {
		int n = -1;
		rc = ioctl(vt, VT_OPENQRY, &n);
		printf("VT_OPENQRY = %d: %d\n", rc, n);
	}
	return 0;
}
