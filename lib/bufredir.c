/* bufredir.c: libc's syscall stubs that librewind-buf.so names in its
 * header made to jump to its wrappers, checked first (see bufredir.h). */
#include "bufabi.h"
#include "bufredir.h"

#include <stddef.h>
#include <string.h>

/* Whether b (16 bytes) is a syscall stub of call nr as glibc builds
 * them: mov $nr, %eax (xor %eax, %eax for 0), after mov %ecx, %r10d for
 * a fourth argument, then syscall and the test of its result. Only the
 * fall-through from the syscall reaches that test, so a jmp over the
 * stub's first five bytes leaves no instruction cut that is ever run. */
static int is_stub(const uint8_t *b, uint32_t nr)
{
	static const uint8_t test64[] = { 0x48, 0x3d, 0x00, 0xf0, 0xff, 0xff },
			     test32[] = { 0x3d, 0x00, 0xf0, 0xff, 0xff };
	int i = 0;
	uint32_t v;
	if (b[0] == 0x41 && b[1] == 0x89 && b[2] == 0xca)
		i = 3;
	if (b[i] == 0xb8) {
		memcpy(&v, b + i + 1, 4);
		if (v != nr)
			return 0;
		i += 5;
	} else if (nr == 0 && b[i] == 0x31 && b[i + 1] == 0xc0) {
		i += 2;
	} else {
		return 0;
	}
	if (b[i] != 0x0f || b[i + 1] != 0x05)
		return 0;
	i += 2;
	return !memcmp(b + i, test64, sizeof test64) || !memcmp(b + i, test32, sizeof test32);
}

/* Whether w (8 bytes) is the start of one of the library's wrappers
 * (rwbuf.c's WRAP: lea impl(%rip), %rax; jmp wrap_common, near or short). */
static int is_wrapper(const uint8_t *w)
{
	return w[0] == 0x48 && w[1] == 0x8d && w[2] == 0x05 && (w[7] == 0xe9 || w[7] == 0xeb);
}

int buf_redirect(struct pt_proc *p)
{
	struct buf_redirect r[BUF_NREDIRECT];
	if (pt_read(p, BUF_HDR + offsetof(struct buf_hdr, redirect), r, sizeof r) != sizeof r)
		return 0;
	int n = 0;
	for (int i = 0; i < BUF_NREDIRECT; i++) {
		uint8_t b[16], w[8], jmp[5] = { 0xe9 };
		int64_t rel = (int64_t)(r[i].to - (r[i].at + 5));
		int32_t rel32 = (int32_t)rel;
		if (!r[i].at || !r[i].to || rel != rel32 || pt_read(p, r[i].at, b, sizeof b) != sizeof b ||
		    !is_stub(b, r[i].nr) || pt_read(p, r[i].to, w, sizeof w) != sizeof w || !is_wrapper(w))
			continue;
		memcpy(jmp + 1, &rel32, 4);
		if (pt_write(p, r[i].at, jmp, sizeof jmp) == 0)
			n++;
	}
	return n;
}
