/* umountmap.c: mounts a tmpfs, maps a file of it shared, writes through
 * the mapping, unmaps and closes it, and unmounts the tmpfs: prints each
 * answer and a random token. Without root the mount fails first. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	unsigned token = 0;
	getrandom(&token, sizeof token, 0);
	mkdir("umountmap.d", 0700);
	errno = 0;
	int r = mount("none", "umountmap.d", "tmpfs", 0, "size=1m");
	printf("mount: %d %s\n", r, r ? strerrorname_np(errno) : "");
	if (r == 0) {
		int fd = open("umountmap.d/f", O_RDWR | O_CREAT, 0600);
		char *p = MAP_FAILED;
		if (fd >= 0 && ftruncate(fd, 4096) == 0)
			p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p != MAP_FAILED) {
			snprintf(p, 64, "token %u", token);
			munmap(p, 4096);
		}
		close(fd);
		errno = 0;
		r = umount("umountmap.d");
		printf("umount: %d %s\n", r, r ? strerrorname_np(errno) : "");
		if (r)
			umount2("umountmap.d", MNT_DETACH);
	}
	rmdir("umountmap.d");
	printf("token %u\n", token);
	return 0;
}
