/* writes.c: bench workload of many small syscalls: 100,000 writes of 32
 * bytes to /dev/null. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	int fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return perror("/dev/null"), 1;
	static const char msg[32] = "0123456789abcdef0123456789abcde\n";
	for (long i = 0; i < n; i++)
		if (write(fd, msg, sizeof msg) != sizeof msg)
			return perror("write"), 1;
	return 0;
}
