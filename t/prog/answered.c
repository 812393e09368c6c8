/* answered.c: calls rec answers as a kernel without the feature would:
 * memfd_secret (ENOSYS), a userfaultfd made through /dev/userfaultfd
 * (ENOSYS from its ioctl; the device may be closed to the program), and
 * process_madvise on its own memory: MADV_DONTNEED, which would zero it,
 * gets EINVAL as before Linux 6.13, MADV_COLD goes through. Prints the
 * results and the memory, which holds a random token. */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef SYS_memfd_secret
#define SYS_memfd_secret 447
#endif

static void show(const char *what, long rc)
{
	printf("%s = %ld%s%s\n", what, rc, rc < 0 ? " " : "", rc < 0 ? strerror(errno) : "");
}

int main(void)
{
	unsigned tok = 0;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x\n", tok);
	show("memfd_secret", syscall(SYS_memfd_secret, 0));
	int dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		printf("/dev/userfaultfd: closed\n");
	else
		show("USERFAULTFD_IOC_NEW", ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC) < 0 ? -1 : 0);
	unsigned *m = mmap(0, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (int i = 0; i < 4 * 1024; i++)
		m[i] = tok + i;
	int pidfd = syscall(SYS_pidfd_open, getpid(), 0);
	struct iovec iv = { m, 4 * 4096 };
	show("process_madvise MADV_DONTNEED", syscall(SYS_process_madvise, pidfd, &iv, 1,
						    MADV_DONTNEED, 0));
	show("process_madvise MADV_COLD", syscall(SYS_process_madvise, pidfd, &iv, 1, MADV_COLD, 0));
	printf("memory %08x %08x\n", m[0], m[4095]);
	return 0;
}
