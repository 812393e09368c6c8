/* bufredir.c: libc's syscall stubs that librewind-buf.so names in its
 * header made to jump to its wrappers, checked first (see bufredir.h). */
#include "bufabi.h"
#include "bufredir.h"
#include "count.h"

#include <stddef.h>
#include <string.h>

/* Where in b (16 bytes) the jmp goes when b is a syscall stub of call
 * nr as glibc builds them, else -1: mov $nr, %eax (after mov %ecx, %r10d
 * for a fourth argument), syscall, and the test of its result. The jmp
 * takes the place of the mov alone, five bytes, so no instruction
 * boundary is inside it (where a debugger could put an int3); only the
 * fall-through reaches the syscall after it. */
static int stub_at(const uint8_t *b, uint32_t nr)
{
	static const uint8_t test64[] = { 0x48, 0x3d, 0x00, 0xf0, 0xff, 0xff },
			     test32[] = { 0x3d, 0x00, 0xf0, 0xff, 0xff };
	int i = b[0] == 0x41 && b[1] == 0x89 && b[2] == 0xca ? 3 : 0;
	uint32_t v;
	memcpy(&v, b + i + 1, 4);
	if (b[i] != 0xb8 || v != nr || b[i + 5] != 0x0f || b[i + 6] != 0x05)
		return -1;
	return !memcmp(b + i + 7, test64, sizeof test64) || !memcmp(b + i + 7, test32, sizeof test32) ? i
													  : -1;
}

/* glibc 2.36's __open_nocancel as built for x86-64 (Debian 12), up to
 * the test of its call's result: openat(AT_FDCWD, file, flags), with the
 * mode from its variadic argument when the flags need one (the branches
 * there, whose offsets 0x100 stands for, are not followed). It has no
 * stub of its own: the jmp takes the place of its first instruction
 * (sub $0x58, %rsp) and the first byte of the next, so the function is
 * entered only at its start, where a call comes in. Only a thread
 * stopped on those four bytes at the call that readies the buffer (at
 * the process's start, from the library's constructor) would come back
 * into the jmp. */
static const uint16_t open_nocancel[] = {
	0x48, 0x83, 0xec, 0x58, 0x41, 0x89, 0xf2, 0x48, 0x89, 0x54, 0x24, 0x30, 0x64, 0x48,
	0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00, 0x48, 0x89, 0x44, 0x24, 0x18, 0x31, 0xc0,
	0x41, 0x83, 0xe2, 0x40, 0x75, 0x100, 0x89, 0xf0, 0x25, 0x00, 0x00, 0x41, 0x00, 0x3d,
	0x00, 0x00, 0x41, 0x00, 0x74, 0x100, 0x89, 0xf2, 0xb8, 0x01, 0x01, 0x00, 0x00, 0x48,
	0x89, 0xfe, 0xbf, 0x9c, 0xff, 0xff, 0xff, 0x0f, 0x05, 0x48, 0x3d, 0x00, 0xf0, 0xff, 0xff
};

static int open_nocancel_at(const uint8_t *b, size_t n)
{
	size_t k = sizeof open_nocancel / sizeof open_nocancel[0];
	if (n < k)
		return 0;
	for (size_t i = 0; i < k; i++)
		if (open_nocancel[i] < 0x100 && b[i] != open_nocancel[i])
			return 0;
	return 1;
}

/* Whether w (8 bytes) is the start of one of the library's wrappers
 * (rwbuf.c's WRAP: lea impl(%rip), %rax; jmp wrap_common, near or short). */
static int is_wrapper(const uint8_t *w)
{
	return w[0] == 0x48 && w[1] == 0x8d && w[2] == 0x05 && (w[7] == 0xe9 || w[7] == 0xeb);
}

int buf_redirect(struct pt_proc *p, uint32_t key)
{
	struct buf_redirect r[BUF_NREDIRECT];
	if (pt_read(p, BUF_HDR + offsetof(struct buf_hdr, redirect), r, sizeof r) != sizeof r)
		return 0;
	int n = 0;
	for (int i = 0; i < BUF_NREDIRECT; i++) {
		uint8_t b[80], w[8], jmp[5] = { 0xe9 };
		int k;
		ssize_t got = r[i].at && r[i].to ? pt_read(p, r[i].at, b, sizeof b) : -1;
		if (got < 16 || pt_read(p, r[i].to, w, sizeof w) != sizeof w)
			continue;
		/* The program's own bytes, not a debugger's int3s. */
		count_own_bytes(key, r[i].at, b, got);
		count_own_bytes(key, r[i].to, w, sizeof w);
		k = r[i].nr == SYS_openat && open_nocancel_at(b, got) ? 0 : stub_at(b, r[i].nr);
		if (k < 0 || !is_wrapper(w))
			continue;
		int64_t rel = (int64_t)(r[i].to - (r[i].at + k + 5));
		int32_t rel32 = (int32_t)rel;
		if (rel != rel32)
			continue;
		memcpy(jmp + 1, &rel32, 4);
		if (pt_write(p, r[i].at + k, jmp, sizeof jmp) == 0)
			n++;
	}
	return n;
}
