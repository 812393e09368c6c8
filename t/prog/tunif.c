/* tunif.c: in a network namespace of its own, makes a tap device
 * (TUNSETIFF, which writes the name the kernel chose back) and reads its
 * flags (TUNGETIFF, encoded as reading an unsigned int, yet writing a
 * whole struct ifreq). Prints a random token, the name and the flags;
 * "skip: WHY" where the kernel or the user cannot. */
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>

int main(void)
{
	unsigned token;
	if (getrandom(&token, sizeof token, 0) != sizeof token)
		return 2;
	printf("token %08x\n", token);
	int fd;
	if (unshare(CLONE_NEWNET) < 0 || (fd = open("/dev/net/tun", O_RDWR)) < 0) {
		printf("skip: %s\n", strerror(errno));
		return 0;
	}
	struct ifreq ifr;
	memset(&ifr, 0, sizeof ifr);
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	strcpy(ifr.ifr_name, "rw%d");
	if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
		printf("skip: TUNSETIFF: %s\n", strerror(errno));
		return 0;
	}
	printf("name %s\n", ifr.ifr_name);
	memset(&ifr, 0xa5, sizeof ifr);
	if (ioctl(fd, TUNGETIFF, &ifr) < 0)
		return 3;
	printf("name %.16s flags %#x\n", ifr.ifr_name, ifr.ifr_flags & 0xffff);
	return 0;
}
