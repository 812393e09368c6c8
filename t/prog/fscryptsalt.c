/* fscryptsalt.c: asks the filesystem of DIR for its encryption salt
 * (FS_IOC_GET_ENCRYPTION_PWSALT, encoded as if it only read, yet the
 * kernel writes 16 bytes: random, made for each new filesystem) and
 * prints it. Usage: fscryptsalt DIR */
#include <errno.h>
#include <fcntl.h>
#include <linux/fscrypt.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned char salt[16];
	memset(salt, 0, sizeof salt);
	int fd = argc == 2 ? open(argv[1], O_RDONLY | O_DIRECTORY) : -1;
	if (fd < 0 || ioctl(fd, FS_IOC_GET_ENCRYPTION_PWSALT, salt) < 0) {
		printf("no salt: %s\n", strerrorname_np(errno));
		return 0;
	}
	printf("salt ");
	for (int i = 0; i < 16; i++)
		printf("%02x", salt[i]);
	printf("\n");
	return 0;
}
