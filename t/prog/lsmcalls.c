/* lsmcalls.c: lsm_list_modules (asked the size first: E2BIG), then
 * lsm_get_self_attr the same way, and getxattrat of an attribute set on
 * a file made here: prints each answer, what they wrote, and a random
 * token. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

static const char *err(long r)
{
	return r < 0 ? strerrorname_np(errno) : "";
}

int main(void)
{
	unsigned token = 0;
	getrandom(&token, sizeof token, 0);
	uint64_t ids[32];
	uint32_t size = 0;
	errno = 0;
	long r = syscall(461, ids, &size, 0);	/* lsm_list_modules */
	printf("lsm_list_modules, size 0: %ld %s size %u\n", r, err(r), size);
	size = sizeof ids;
	memset(ids, 0, sizeof ids);
	errno = 0;
	r = syscall(461, ids, &size, 0);
	printf("lsm_list_modules: %ld %s size %u ids", r, err(r), size);
	for (long i = 0; i < r && i < 32; i++)
		printf(" %llu", (unsigned long long)ids[i]);
	printf("\n");
	static uint8_t ctx[4096];
	size = 0;
	errno = 0;
	r = syscall(459, 100 /* LSM_ATTR_CURRENT */, ctx, &size, 0);	/* lsm_get_self_attr */
	printf("lsm_get_self_attr, size 0: %ld %s size %u\n", r, err(r), size);
	size = sizeof ctx;
	errno = 0;
	r = syscall(459, 100, ctx, &size, 0);
	printf("lsm_get_self_attr: %ld %s size %u\n", r, err(r), r > 0 ? size : 0);
	int fd = open("lsmcalls.file", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	char value[32];
	int n = snprintf(value, sizeof value, "v%u", token);
	if (fd < 0 || fsetxattr(fd, "user.rewind", value, n, 0) < 0) {
		printf("getxattrat: no user xattrs here\n");
	} else {
		char got[64] = "";
		struct { uint64_t value; uint32_t size, flags; } args = { (uintptr_t)got, sizeof got, 0 };
		errno = 0;
		r = syscall(464, AT_FDCWD, "lsmcalls.file", 0, "user.rewind", &args, sizeof args);
		printf("getxattrat: %ld %s %.*s\n", r, err(r), r > 0 ? (int)r : 0, got);
	}
	unlink("lsmcalls.file");
	printf("token %u\n", token);
	return 0;
}
