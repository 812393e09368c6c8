/* vsyscall.c: time() through the legacy vsyscall page, as very old
 * static binaries call it. Prints the pid first, then the time. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	long (*vtime)(long *) = (long (*)(long *))0xffffffffff600400ul;
	long t = vtime(NULL);
	printf("vsyscall time %ld\n", t);
	return 0;
}
