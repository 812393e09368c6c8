/* capnull.c: capget(&hdr, NULL), the version probe libcap makes: the
 * kernel writes its own version into the header and returns 0. Prints
 * the pid, then what each probe got. */
#include <linux/capability.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	printf("pid %d\n", (int)getpid());
	struct __user_cap_header_struct h = { 0, 0 };
	long rc = syscall(SYS_capget, &h, NULL);
	printf("capget(NULL) = %ld, header now %#x\n", rc, h.version);
	h.version = 0x12345;
	rc = syscall(SYS_capget, &h, NULL);
	printf("capget(NULL) = %ld, header now %#x\n", rc, h.version);
	h.version = _LINUX_CAPABILITY_VERSION_1;
	rc = syscall(SYS_capget, &h, NULL);
	printf("capget(NULL) v1 = %ld, header now %#x\n", rc, h.version);
	return 0;
}
