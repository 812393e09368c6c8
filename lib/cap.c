/* cap.c: turns the syscall table's argument kinds into the memory a call
 * reads (inputs) and writes (outputs), for rec to save and replay to check
 * and restore. Requests whose outputs depend on a command (ioctl, fcntl,
 * prctl) are decoded here. */
#include "cap.h"
#include "util.h"

#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/sem.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>

#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ERESTART_RESTARTBLOCK 516

int cap_is_restart(int64_t ret)
{
	return ret == -ERESTARTSYS || ret == -ERESTARTNOINTR || ret == -ERESTARTNOHAND ||
	       ret == -ERESTART_RESTARTBLOCK;
}

int cap_sure_sigaction(struct pt_proc *p, long nr, const uint64_t a[6])
{
	int sig = (int)a[0];
	uint64_t act[4];	/* the kernel's: handler, flags, restorer, mask */
	return nr == SYS_rt_sigaction && sig >= 1 && sig <= 64 && sig != SIGKILL && sig != SIGSTOP &&
	       a[1] && !a[2] && a[3] == 8 && pt_read(p, a[1], act, sizeof act) == sizeof act;
}

/* Tracee memory read a page (to its end) at a time: the strings of an
 * argv or envp mostly lie one after another, and a read of each string
 * and each pointer would cost a syscall each. */
struct window {
	uint64_t lo;
	size_t n;
	uint8_t b[4096];
};

/* Points *at to addr's bytes in w, read anew (to the end of addr's page)
 * when w does not hold addr; returns how many w holds from there. */
static size_t win_get(struct pt_proc *p, struct window *w, uint64_t addr, const uint8_t **at)
{
	if (addr < w->lo || addr >= w->lo + w->n) {
		ssize_t k = pt_read(p, addr, w->b, 4096 - (addr & 4095));
		w->lo = addr;
		w->n = k > 0 ? (size_t)k : 0;
	}
	*at = w->b + (addr - w->lo);
	return w->lo + w->n - addr;
}

/* A reusable scratch buffer. */
static uint8_t *scratch(size_t n)
{
	static uint8_t *buf;
	static size_t cap;
	if (n > cap) {
		cap = n < 65536 ? 65536 : n;
		buf = xrealloc(buf, cap);
	}
	return buf;
}

/* Gather up to max bytes of an iovec array; *full gets the total length. */
size_t cap_gather_iov(struct pt_proc *p, uint64_t iov, uint64_t cnt, uint8_t *out, size_t max,
			 uint64_t *full)
{
	size_t got = 0;
	*full = 0;
	if (cnt > 1024)
		cnt = 1024;
	for (uint64_t i = 0; i < cnt; i++) {
		struct iovec v;
		if (pt_read(p, iov + 16 * i, &v, sizeof v) != sizeof v)
			break;
		*full += v.iov_len;
		if (got < max && v.iov_len) {
			size_t n = v.iov_len < max - got ? v.iov_len : max - got;
			ssize_t k = pt_read(p, (uint64_t)v.iov_base, out + got, n);
			if (k > 0)
				got += k;
		}
	}
	return got;
}

ssize_t cap_sent(struct pt_proc *p, long nr, const uint64_t a[6], uint8_t *buf, size_t n)
{
	uint64_t full;
	if (nr == SYS_write || nr == SYS_pwrite64 || nr == SYS_sendto)
		return pt_read(p, a[1], buf, n);
	if (nr == SYS_writev || nr == SYS_pwritev || nr == SYS_pwritev2)
		return cap_gather_iov(p, a[1], a[2], buf, n, &full);
	return -1;
}

void cap_inputs(struct pt_proc *p, const struct sys_entry *e, const uint64_t a[6],
		void (*fn)(void *ctx, int arg, uint64_t full, const void *data, size_t len),
		void *ctx)
{
	for (int i = 0; i < e->nargs; i++) {
		uint32_t c = e->arg[i];
		uint64_t v = a[i], full;
		uint8_t *b;
		ssize_t n;
		if (!v && sys_kind(c) != A_IBUF)
			continue;
		switch (sys_kind(c)) {
		case A_STR:
			b = scratch(CAP_STR_MAX);
			n = pt_read_str(p, v, (char *)b, CAP_STR_MAX);
			if (n >= 0)
				fn(ctx, i, n, b, n);
			break;
		case A_IBUF:
			full = a[sys_param(c)];
			n = full < TRACE_ARG_PREFIX ? full : TRACE_ARG_PREFIX;
			b = scratch(n);
			if (n > 0 && (n = pt_read(p, v, b, n)) < 0)
				n = 0;
			fn(ctx, i, full, b, n);
			break;
		case A_IOV_IN:
			b = scratch(TRACE_ARG_PREFIX);
			n = cap_gather_iov(p, v, a[sys_param(c)], b, TRACE_ARG_PREFIX, &full);
			fn(ctx, i, full, b, n);
			break;
		case A_SOCKADDR_IN:
			full = a[sys_param(c)];
			n = full < 128 ? full : 128;
			b = scratch(n);
			if ((n = pt_read(p, v, b, n)) > 0)
				fn(ctx, i, full, b, n);
			break;
		case A_STRV: {
			size_t len = 0;
			struct window pw = { 0, 0, { 0 } }, sw = { 0, 0, { 0 } };
			b = scratch(CAP_STRV_MAX);
			for (int k = 0; len < CAP_STRV_MAX - 1; k++) {
				uint64_t sp;
				const uint8_t *at;
				if (win_get(p, &pw, v + 8 * k, &at) >= 8)
					memcpy(&sp, at, 8);
				else if (pt_read(p, v + 8 * k, &sp, 8) != 8)
					break;
				if (!sp)
					break;
				size_t room = CAP_STRV_MAX - len, have = win_get(p, &sw, sp, &at);
				const uint8_t *z = have ? memchr(at, 0, have < room ? have : room) : NULL;
				if (z) {
					n = z - at;
					memcpy(b + len, at, n + 1);
				} else {
					n = pt_read_str(p, sp, (char *)b + len, room);
				}
				if (n < 0)
					break;
				len += n + 1;
			}
			fn(ctx, i, len, b, len);
			break;
		}
		default:
			break;
		}
	}
}

size_t cap_sockaddr_len(const uint8_t *sa, size_t n, uint64_t addrlen)
{
	size_t m = addrlen < n ? addrlen : n, path = offsetof(struct sockaddr_un, sun_path);
	if (m < sizeof(sa_family_t))
		return m;
	sa_family_t fam;
	memcpy(&fam, sa, sizeof fam);
	size_t want = m;
	if (fam == AF_UNIX && m > path && sa[path])	/* a path, not an abstract name */
		want = path + strnlen((const char *)sa + path, m - path) + 1;
	else if (fam == AF_INET)
		want = sizeof(struct sockaddr_in);
	else if (fam == AF_INET6)
		want = sizeof(struct sockaddr_in6);
	return want < m ? want : m;
}

static int ranges_only;	/* cap_output_ranges: no contents read */

static void out(struct pt_proc *p, uint64_t addr, size_t n,
		void (*fn)(void *, uint64_t, const void *, size_t), void *ctx)
{
	if (!addr || !n)
		return;
	if (ranges_only) {
		fn(ctx, addr, NULL, n);
		return;
	}
	uint8_t *b = scratch(n);
	ssize_t k = pt_read(p, addr, b, n);
	if (k > 0)
		fn(ctx, addr, b, k);
}

/* The first left bytes of an iovec array of cnt entries. */
static void out_iov(struct pt_proc *p, uint64_t iov, uint64_t cnt, uint64_t left,
		    void (*fn)(void *, uint64_t, const void *, size_t), void *ctx)
{
	for (uint64_t k = 0; k < cnt && k < 1024 && left; k++) {
		struct iovec io;
		if (pt_read(p, iov + 16 * k, &io, sizeof io) != sizeof io)
			break;
		uint64_t len = io.iov_len < left ? io.iov_len : left;
		out(p, (uint64_t)io.iov_base, len, fn, ctx);
		left -= len;
	}
}

/* What the kernel writes at arg for a request: SPECIAL says a decoder
 * below knows; REFUSE that rec cannot say (it stops if the call succeeds). */
#define SPECIAL (-1)
#define REFUSE (-2)
struct cmd_out {
	uint32_t cmd;
	int32_t out;
};

/* ioctl requests of the old style: no _IOC direction and size, so the
 * encoding cannot tell what they write (and a few whose encoding says
 * less than the kernel writes). The types in old_types are those
 * of such requests; a request of another type without a direction is
 * taken for _IO() (nothing written). */
static const struct cmd_out old_ioctls[] = {
	/* FIBMAP, FIGETBSZ */
	{ 0x0001, 4 }, { 0x0002, 4 },
	/* HDIO_GETGEO, HDIO_GET_32BIT, HDIO_GET_IDENTITY */
	{ 0x0301, 16 }, { 0x0309, 8 }, { 0x030d, 512 },
	/* Block devices: BLKROSET, BLKROGET ... BLKROTATIONAL, BLKZEROOUT */
	{ 0x125d, 0 }, { 0x125e, 4 }, { 0x125f, 0 }, { 0x1260, 8 }, { 0x1261, 0 },
	{ 0x1262, 0 }, { 0x1263, 8 }, { 0x1264, 0 }, { 0x1265, 8 }, { 0x1266, 0 },
	{ 0x1267, 2 }, { 0x1268, 4 }, { 0x1269, 0 }, { 0x1277, 0 }, { 0x1278, 4 },
	{ 0x1279, 4 }, { 0x127a, 4 }, { 0x127b, 4 }, { 0x127c, 4 }, { 0x127d, 0 },
	{ 0x127e, 2 }, { 0x127f, 0 },
	/* SCSI generic: SG_GET_TIMEOUT, SG_SET_TIMEOUT, SG_GET_VERSION_NUM */
	{ 0x2201, 0 }, { 0x2202, 0 }, { 0x2282, 4 },
	/* Consoles (linux/kd.h): KIOCSOUND, KDMKTONE, KDGETLED, KDSETLED,
	 * KDGKBTYPE, KDADDIO ... KDDISABIO, KDSETMODE, KDGETMODE, KDMAPDISP,
	 * KDUNMAPDISP, GIO_SCRNMAP, PIO_SCRNMAP, KDGKBMODE, KDSKBMODE,
	 * KDGKBENT, KDSKBENT, KDGKBSENT, KDSKBSENT, KDGKBDIACR, KDSKBDIACR,
	 * KDGETKEYCODE, KDSETKEYCODE, KDSIGACCEPT, KDKBDREP, GIO_FONT,
	 * PIO_FONT, KDGKBMETA, KDSKBMETA, KDGKBLED, KDSKBLED, GIO_UNISCRNMAP,
	 * PIO_UNISCRNMAP, GIO_CMAP, PIO_CMAP */
	{ 0x4b2f, 0 }, { 0x4b30, 0 }, { 0x4b31, 1 }, { 0x4b32, 0 }, { 0x4b33, 1 },
	{ 0x4b34, 0 }, { 0x4b35, 0 }, { 0x4b36, 0 }, { 0x4b37, 0 }, { 0x4b3a, 0 },
	{ 0x4b3b, 4 }, { 0x4b3c, 0 }, { 0x4b3d, 0 }, { 0x4b40, 256 }, { 0x4b41, 0 },
	{ 0x4b44, 4 }, { 0x4b45, 0 }, { 0x4b46, 4 }, { 0x4b47, 0 }, { 0x4b48, 513 },
	{ 0x4b49, 0 }, { 0x4b4a, 772 }, { 0x4b4b, 0 }, { 0x4b4c, 8 }, { 0x4b4d, 0 },
	{ 0x4b4e, 0 }, { 0x4b52, 8 }, { 0x4b60, 8192 }, { 0x4b61, 0 }, { 0x4b62, 4 },
	{ 0x4b63, 0 }, { 0x4b64, 1 }, { 0x4b65, 0 }, { 0x4b69, 512 }, { 0x4b6a, 0 },
	{ 0x4b70, 48 }, { 0x4b71, 0 },
	/* Loop devices: LOOP_SET_FD ... LOOP_CONFIGURE, LOOP_CTL_* */
	{ 0x4c00, 0 }, { 0x4c01, 0 }, { 0x4c02, 0 }, { 0x4c03, 168 }, { 0x4c04, 0 },
	{ 0x4c05, 232 }, { 0x4c06, 0 }, { 0x4c07, 0 }, { 0x4c08, 0 }, { 0x4c09, 0 },
	{ 0x4c0a, 0 }, { 0x4c80, 0 }, { 0x4c81, 0 }, { 0x4c82, 0 },
	/* CD-ROMs (the common requests): CDROMPAUSE, CDROMRESUME,
	 * CDROMREADTOCHDR, CDROMREADTOCENTRY, CDROMSTOP, CDROMSTART,
	 * CDROMEJECT, CDROMSUBCHNL, CDROM_GET_MCN, CDROMRESET, CDROMCLOSETRAY,
	 * CDROM_SET_OPTIONS ... CDROM_GET_CAPABILITY */
	{ 0x5301, 0 }, { 0x5302, 0 }, { 0x5305, 2 }, { 0x5306, 12 }, { 0x5307, 0 },
	{ 0x5308, 0 }, { 0x5309, 0 }, { 0x530b, 16 }, { 0x5311, 14 }, { 0x5312, 0 },
	{ 0x5319, 0 }, { 0x5320, 0 }, { 0x5321, 0 }, { 0x5322, 0 }, { 0x5323, 0 },
	{ 0x5325, 0 }, { 0x5326, 0 }, { 0x5327, 0 }, { 0x5328, 0 }, { 0x5329, 0 },
	{ 0x5331, 0 },
	/* Terminals (asm-generic/ioctls.h): TCGETS ... FIOQSIZE */
	{ 0x5401, 36 }, { 0x5402, 0 }, { 0x5403, 0 }, { 0x5404, 0 }, { 0x5405, 18 },
	{ 0x5406, 0 }, { 0x5407, 0 }, { 0x5408, 0 }, { 0x5409, 0 }, { 0x540a, 0 },
	{ 0x540b, 0 }, { 0x540c, 0 }, { 0x540d, 0 }, { 0x540e, 0 }, { 0x540f, 4 },
	{ 0x5410, 0 }, { 0x5411, 4 }, { 0x5412, 0 }, { 0x5413, 8 }, { 0x5414, 0 },
	{ 0x5415, 4 }, { 0x5416, 0 }, { 0x5417, 0 }, { 0x5418, 0 }, { 0x5419, 4 },
	{ 0x541a, 0 }, { 0x541b, 4 }, { 0x541c, 1 }, { 0x541d, 0 }, { 0x541e, 72 },
	{ 0x541f, 0 }, { 0x5420, 0 }, { 0x5421, 0 }, { 0x5422, 0 }, { 0x5423, 0 },
	{ 0x5424, 4 }, { 0x5425, 0 }, { 0x5427, 0 }, { 0x5428, 0 }, { 0x5429, 4 },
	{ 0x542e, 32 }, { 0x542f, 32 }, { 0x5437, 0 }, { 0x5441, 0 }, { 0x5450, 0 },
	{ 0x5451, 0 }, { 0x5452, 0 }, { 0x5453, 0 }, { 0x5454, 4 }, { 0x5455, 0 },
	{ 0x5456, 36 }, { 0x5457, 0 }, { 0x5459, 4 }, { 0x545b, 0 }, { 0x545c, 0 },
	{ 0x545d, 80 }, { 0x5460, 8 },
	/* Virtual terminals (linux/vt.h): VT_OPENQRY ... VT_SETACTIVATE */
	{ 0x5600, 4 }, { 0x5601, 8 }, { 0x5602, 0 }, { 0x5603, 6 }, { 0x5604, 0 },
	{ 0x5605, 0 }, { 0x5606, 0 }, { 0x5607, 0 }, { 0x5608, 0 }, { 0x5609, 0 },
	{ 0x560a, 0 }, { 0x560b, 0 }, { 0x560c, 0 }, { 0x560d, 2 }, { 0x560e, 28 },
	{ 0x560f, 0 },
	/* Sockets (linux/sockios.h): FIOSETOWN ... SIOCGSTAMPNS; the
	 * interface requests write their struct ifreq (40 bytes) back. */
	{ 0x8901, 0 }, { 0x8902, 0 }, { 0x8903, 4 }, { 0x8904, 4 }, { 0x8905, 4 },
	{ 0x8906, 16 }, { 0x8907, 16 },
	{ 0x890b, 0 }, { 0x890c, 0 }, { 0x890d, 0 }, { 0x8910, 40 }, { 0x8911, 0 },
	{ 0x8912, SPECIAL }, { 0x8913, 40 }, { 0x8914, 0 }, { 0x8915, 40 }, { 0x8916, 0 },
	{ 0x8917, 40 }, { 0x8918, 0 }, { 0x8919, 40 }, { 0x891a, 0 }, { 0x891b, 40 },
	{ 0x891c, 0 }, { 0x891d, 40 }, { 0x891e, 0 }, { 0x891f, 40 }, { 0x8920, 0 },
	{ 0x8921, 40 }, { 0x8922, 0 }, { 0x8923, 0 }, { 0x8924, 0 }, { 0x8925, 40 },
	{ 0x8926, 0 }, { 0x8927, 40 }, { 0x8929, 40 }, { 0x8930, 0 }, { 0x8931, 0 },
	{ 0x8932, 0 }, { 0x8933, 40 }, { 0x8934, 0 }, { 0x8935, 40 }, { 0x8936, 0 },
	{ 0x8937, 0 }, { 0x8938, 40 }, { 0x8940, SPECIAL }, { 0x8941, 0 }, { 0x8942, 40 },
	{ 0x8943, 0 }, { 0x8946, SPECIAL }, { 0x8947, 40 }, { 0x8948, 40 }, { 0x8949, 0 },
	{ 0x894b, 4 }, { 0x894c, 0 }, { 0x8953, 0 }, { 0x8954, 68 }, { 0x8955, 0 },
	{ 0x8960, 0 }, { 0x8961, 68 }, { 0x8962, 0 }, { 0x8970, 40 }, { 0x8971, 0 },
	{ 0x8990, 0 }, { 0x8991, 0 }, { 0x8992, 0 }, { 0x8995, 0 },
	/* Bridges: SIOCBRADDBR, SIOCBRDELBR, SIOCBRADDIF, SIOCBRDELIF */
	{ 0x89a0, 0 }, { 0x89a1, 0 }, { 0x89a2, 0 }, { 0x89a3, 0 },
	/* Wireless: SIOCGIWNAME (the name is in the struct iwreq) */
	{ 0x8b01, 32 },
	/* Encoded _IOW, yet the kernel writes back: TUNSETIFF (the name it
	 * chose for "tun%d" into the struct ifreq) */
	{ 0x400454ca, 40 },
	/* Encoded _IOR of an unsigned int, yet the kernel writes a whole
	 * struct ifreq: TUNGETIFF */
	{ 0x800454d2, 40 },
	/* Encoded _IOW, yet the kernel writes (fscrypt's first ioctls):
	 * FS_IOC_GET_ENCRYPTION_PWSALT (16 bytes of salt),
	 * FS_IOC_GET_ENCRYPTION_POLICY (a struct fscrypt_policy_v1) */
	{ 0x40106614, 16 }, { 0x400c6615, 12 },
};
static const uint8_t old_types[] = { 0x00, 0x03, 0x12, 0x22, 0x4b, 0x4c, 0x53, 0x54, 0x56,
				     0x89, 0x8b };

/* _IOWR requests whose struct leads to more output than its size says:
 * FS_IOC_FIEMAP, FIDEDUPERANGE, FS_IOC_GETFSMAP, PROCMAP_QUERY. */
enum { FIEMAP = 0xc020660b, DEDUPE = 0xc0189436, GETFSMAP = 0xc0c0583b, PROCMAP = 0xc0686611 };

/* Bytes the ioctl req writes at its argument: SPECIAL, REFUSE, or a size. */
static int ioctl_out_size(uint64_t req)
{
	req = (uint32_t)req;	/* the kernel's cmd is an unsigned int */
	unsigned dir = (req >> 30) & 3, size = (req >> 16) & 0x3fff, type = (req >> 8) & 0xff;
	if (req == FIEMAP || req == DEDUPE || req == GETFSMAP || req == PROCMAP)
		return SPECIAL;
	for (size_t i = 0; i < sizeof old_ioctls / sizeof *old_ioctls; i++)
		if (old_ioctls[i].cmd == (uint32_t)req)
			return old_ioctls[i].out;
	if (dir & 2)		/* _IOC_READ: the kernel writes size bytes */
		return size;
	if (dir || size || !memchr(old_types, type, sizeof old_types))
		return 0;	/* _IOW, or _IO of a type with no old requests */
	return REFUSE;
}

/* fcntl commands and what they write at their argument. */
static const struct cmd_out fcntls[] = {
	{ 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 }, { 4, 0 },
	{ 5, 32 },			/* F_GETLK: struct flock */
	{ 6, 0 }, { 7, 0 }, { 8, 0 }, { 9, 0 }, { 10, 0 }, { 11, 0 }, { 15, 0 },
	{ 16, 8 },			/* F_GETOWN_EX: struct f_owner_ex */
	{ 17, 8 },			/* F_GETOWNER_UIDS: two uid_t */
	{ 36, 32 },			/* F_OFD_GETLK */
	{ 37, 0 }, { 38, 0 },
	{ 1024, 0 }, { 1025, 0 }, { 1026, 0 }, { 1027, 0 }, { 1028, 0 }, { 1029, 0 },
	{ 1030, 0 }, { 1031, 0 }, { 1032, 0 }, { 1033, 0 }, { 1034, 0 },
	{ 1035, 8 },			/* F_GET_RW_HINT: u64 */
	{ 1036, 0 },
	{ 1037, 8 },			/* F_GET_FILE_RW_HINT */
	{ 1038, 0 },
};

static int fcntl_out_size(uint64_t cmd)
{
	cmd = (uint32_t)cmd;	/* the kernel's cmd is an unsigned int */
	for (size_t i = 0; i < sizeof fcntls / sizeof *fcntls; i++)
		if (fcntls[i].cmd == cmd)
			return fcntls[i].out;
	return REFUSE;
}

/* prctl options that write at arg2 (the others only return a value). */
static const struct cmd_out prctls[] = {
	{ 2, 4 },	/* PR_GET_PDEATHSIG */
	{ 5, 4 },	/* PR_GET_UNALIGN */
	{ 9, 4 },	/* PR_GET_FPEMU */
	{ 11, 4 },	/* PR_GET_FPEXC */
	{ 16, 16 },	/* PR_GET_NAME */
	{ 19, 4 },	/* PR_GET_ENDIAN */
	{ 25, 4 },	/* PR_GET_TSC */
	{ 37, 4 },	/* PR_GET_CHILD_SUBREAPER */
	{ 40, 8 },	/* PR_GET_TID_ADDRESS */
	{ 74, 8 },	/* PR_GET_SHADOW_STACK_STATUS */
};

/* Commands of semctl (param 0), msgctl (1) and shmctl (2) that write a
 * struct at the argument after the command (IPC_64 masked off). */
static int ipc_out_size(int which, uint64_t cmd)
{
	static const struct cmd_out t[3][5] = {
		{ { 2, 104 }, { 3, 40 }, { 18, 104 }, { 19, 40 }, { 20, 104 } },
		{ { 2, 120 }, { 3, 32 }, { 11, 120 }, { 12, 32 }, { 13, 120 } },
		{ { 2, 112 }, { 3, 72 }, { 13, 112 }, { 14, 48 }, { 15, 112 } },
	};
	cmd = (uint32_t)cmd;	/* an int to the kernel */
	if (which == 0 && (cmd & ~0x100ull) == 13)
		return SPECIAL;	/* GETALL */
	for (int i = 0; i < 5; i++)
		if (t[which][i].cmd == (cmd & ~0x100ull))
			return t[which][i].out;
	return 0;
}

/* quotactl subcommands (cmd >> 8) and what they write at addr. */
static int quotactl_out_size(uint64_t cmd)
{
	static const struct cmd_out t[] = {
		{ 0x800001, 0 }, { 0x800002, 0 }, { 0x800003, 0 },
		{ 0x800004, 4 },	/* Q_GETFMT */
		{ 0x800005, 24 },	/* Q_GETINFO: struct if_dqinfo */
		{ 0x800006, 0 },
		{ 0x800007, 72 },	/* Q_GETQUOTA: struct if_dqblk */
		{ 0x800008, 0 },
		{ 0x800009, 72 },	/* Q_GETNEXTQUOTA */
		{ 0x5801, 0 }, { 0x5802, 0 },
		{ 0x5803, 112 },	/* Q_XGETQUOTA: struct fs_disk_quota */
		{ 0x5804, 0 }, { 0x5806, 0 }, { 0x5807, 0 },
		{ 0x5809, 112 },	/* Q_XGETNEXTQUOTA */
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		if (t[i].cmd == (uint32_t)cmd >> 8)
			return t[i].out;
	return REFUSE;
}

/* A struct msghdr at v after a call that received len bytes into it. */
static void out_msghdr(struct pt_proc *p, uint64_t v, uint64_t len,
		       void (*fn)(void *, uint64_t, const void *, size_t), void *ctx)
{
	uint8_t m[56];
	if (pt_read(p, v, m, sizeof m) != sizeof m)
		return;
	out(p, v, sizeof m, fn, ctx);
	uint64_t name, iov, iovlen, ctl, ctllen;
	uint32_t namelen;
	memcpy(&name, m, 8);
	memcpy(&namelen, m + 8, 4);
	memcpy(&iov, m + 16, 8);
	memcpy(&iovlen, m + 24, 8);
	memcpy(&ctl, m + 32, 8);
	memcpy(&ctllen, m + 40, 8);
	out(p, name, namelen < 256 ? namelen : 256, fn, ctx);
	out(p, ctl, ctllen < 65536 ? ctllen : 65536, fn, ctx);
	out_iov(p, iov, iovlen, len, fn, ctx);
}

/* SIOCETHTOOL: the bytes the kernel writes at ifr_data for the command
 * there (its first u32), read after the call (sizes in the struct are
 * the kernel's answer then), or -1 for a command not known here. */
static int64_t ethtool_out_size(struct pt_proc *p, uint64_t data)
{
	uint32_t h[3];
	uint64_t mask;
	if (pt_read(p, data, h, sizeof h) != sizeof h)
		return 0;	/* the kernel could not read it either */
	switch (h[0]) {
	case 0x07: case 0x0a: case 0x14: case 0x16: case 0x18: case 0x1e:
	case 0x21: case 0x23: case 0x25: case 0x27: case 0x2b:
		return 8;	/* GMSGLVL, GLINK, G*CSUM, GSG, GTSO, GUFO, GGSO,
				   GFLAGS, GPFLAGS, GGRO: struct ethtool_value */
	case 0x01: return 44;	/* GSET: struct ethtool_cmd */
	case 0x03: return 196;	/* GDRVINFO */
	case 0x05: return 20;	/* GWOL */
	case 0x0e: return 92;	/* GCOALESCE */
	case 0x10: return 36;	/* GRINGPARAM */
	case 0x12: return 16;	/* GPAUSEPARAM */
	case 0x3c: return 36;	/* GCHANNELS */
	case 0x41: return 44;	/* GET_TS_INFO */
	case 0x42: return 44;	/* GMODULEINFO */
	case 0x44: return 40;	/* GEEE */
	case 0x1b:		/* GSTRINGS: len strings of 32 */
		return 12 + 32 * (int64_t)(h[2] < 65536 ? h[2] : 65536);
	case 0x20:		/* GPERMADDR: size bytes */
		return 8 + (h[1] < 4096 ? h[1] : 4096);
	case 0x3a:		/* GFEATURES: size blocks of 16 */
		return 8 + 16 * (int64_t)(h[1] < 4096 ? h[1] : 4096);
	case 0x37:		/* GSSET_INFO: a u32 per set bit of the mask */
		if (pt_read(p, data + 8, &mask, 8) != 8)
			return 16;
		return 16 + 4 * __builtin_popcountll(mask);
	case 0x29:		/* GRXFH: the hash options, all of struct
				   ethtool_rxnfc with FLOW_RSS in flow_type */
		return h[1] & 0x20000000 ? 192 : 16;
	case 0x2d: case 0x2e: case 0x2f:
		return 192;	/* GRXRINGS, GRXCLSRLCNT, GRXCLSRULE */
	case 0x30: {		/* GRXCLSRLALL: and rule_cnt locations at 188 */
		if (pt_read(p, data + 184, &h[2], 4) != 4)
			return 192;
		int64_t n = 188 + 4 * (int64_t)(h[2] < 65536 ? h[2] : 65536);
		return n > 192 ? n : 192;
	}
	case 0x4c:		/* GLINKSETTINGS: 3 masks of nwords (a negative
				   nwords answers the size handshake) */
		return 48 + ((int8_t)(h[2] >> 24) > 0 ? 12 * (int8_t)(h[2] >> 24) : 0);
	}
	return -1;
}

/* The ioctls whose outputs a pointer in their argument leads to. */
static void out_special_ioctl(struct pt_proc *p, uint64_t req, uint64_t arg,
			      void (*fn)(void *, uint64_t, const void *, size_t), void *ctx)
{
	uint64_t w[3], q[13];
	uint32_t n[2];
	if (req == 0x8946 && pt_read(p, arg + 16, w, 8) == 8) {
		/* SIOCETHTOOL: struct ifreq's ifr_data leads to the command's
		 * struct */
		int64_t n = ethtool_out_size(p, w[0]);
		if (n > 0)
			out(p, w[0], n, fn, ctx);
	} else if (req == 0x8912) {	/* SIOCGIFCONF: struct ifconf, its buffer */
		out(p, arg, 16, fn, ctx);
		if (pt_read(p, arg, w, 16) == 16)
			out(p, w[1], (uint32_t)w[0] < 65536 ? (uint32_t)w[0] : 65536, fn, ctx);
	} else if (req == 0x8940 && pt_read(p, arg, w, sizeof w) == sizeof w && w[0] == 1) {
		/* SIOCGIFBR, BRCTL_GET_BRIDGES: an int a bridge */
		out(p, w[1], w[2] < 1024 ? 4 * w[2] : 4096, fn, ctx);
	} else if (req == FIEMAP && pt_read(p, arg + 20, n, 8) == 8) {
		/* struct fiemap (32 bytes), then fm_mapped_extents extents
		 * of 56 (no more than fm_extent_count asked for) */
		uint32_t k = n[0] < n[1] ? n[0] : n[1];
		out(p, arg, 32 + 56ull * (k < 65536 ? k : 65536), fn, ctx);
	} else if (req == DEDUPE && pt_read(p, arg + 16, n, 2) == 2) {
		/* struct file_dedupe_range (24), dest_count infos of 32 */
		out(p, arg, 24 + 32ull * (uint16_t)n[0], fn, ctx);
	} else if (req == GETFSMAP && pt_read(p, arg + 8, n, 8) == 8) {
		/* struct fsmap_head (192), fmh_entries records of 64 (no
		 * more than fmh_count) */
		uint32_t k = n[0] ? (n[1] < n[0] ? n[1] : n[0]) : 0;
		out(p, arg, 192 + 64ull * (k < 65536 ? k : 65536), fn, ctx);
	} else if (req == PROCMAP && pt_read(p, arg, q, sizeof q) == sizeof q) {
		/* struct procmap_query (its size field's bytes, at most 104),
		 * the VMA's name and build id at the addresses it holds */
		uint32_t name = q[10], id = q[10] >> 32;
		out(p, arg, q[0] < 104 ? q[0] : 104, fn, ctx);
		if (q[0] >= 104) {
			out(p, q[11], name < 4096 ? name : 4096, fn, ctx);
			out(p, q[12], id < 256 ? id : 256, fn, ctx);
		}
	}
}

/* How many semaphores set id holds (for semctl GETALL), asked of the
 * kernel from here; the most a set may hold if that fails. */
static uint64_t sem_count(uint64_t id)
{
	struct semid_ds ds;
	if (semctl((int)id, 0, IPC_STAT, &ds) == 0)
		return ds.sem_nsems;
	return 32000;
}

/* keyctl: the commands that fill a buffer return the full length, which
 * may pass the buffer's. */
static void out_keyctl(struct pt_proc *p, const uint64_t a[6], int64_t ret,
		       void (*fn)(void *, uint64_t, const void *, size_t), void *ctx)
{
	uint64_t buf = 0, cap = 0;
	uint32_t len = 0;
	switch ((uint32_t)a[0]) {	/* keyctl's option is an int */
	case 6: case 11: case 17: case 23:	/* DESCRIBE, READ, GET_SECURITY, DH_COMPUTE */
		buf = a[2], cap = a[3];
		break;
	case 31:				/* CAPABILITIES */
		buf = a[1], cap = a[2];
		break;
	case 24:				/* PKEY_QUERY */
		out(p, a[4], 56, fn, ctx);
		return;
	case 25: case 26: case 27:		/* PKEY_ENCRYPT, DECRYPT, SIGN */
		pt_read(p, a[1] + 8, &len, 4);
		buf = a[4], cap = len;
		break;
	default:
		return;
	}
	out(p, buf, (uint64_t)ret < cap ? (uint64_t)ret : cap, fn, ctx);
}

/* setsockopt(a) that replaces a netfilter table (iptables' and
 * ip6tables' IPT_SO_SET_REPLACE, arptables' ARPT_SO_SET_REPLACE,
 * ebtables' EBT_SO_SET_ENTRIES): the kernel writes the old table's
 * counters, 16 bytes each, through the pointer its struct holds after
 * num_counters. */
static void out_xt_counters(struct pt_proc *p, const uint64_t a[6],
			    void (*fn)(void *ctx, uint64_t addr, const void *data, size_t len), void *ctx)
{
	uint64_t at, ptr;
	uint32_t n;
	if ((a[1] == SOL_IP || a[1] == SOL_IPV6) && a[2] == 64)
		at = 84;	/* struct ipt_replace, ip6t_replace */
	else if (a[1] == SOL_IP && a[2] == 96)
		at = 68;	/* struct arpt_replace */
	else if (a[1] == SOL_IP && a[2] == 128)
		at = 96;	/* struct ebt_replace */
	else
		return;
	uint64_t pat = (at + 4 + 7) & ~7ull;
	if (a[4] >= pat + 8 && pt_read(p, a[3] + at, &n, 4) == 4 && pt_read(p, a[3] + pat, &ptr, 8) == 8 &&
	    ptr && n)
		out(p, ptr, 16ull * (n < (1u << 22) ? n : (1u << 22)), fn, ctx);
}

void cap_output_ranges(struct pt_proc *p, const struct sys_entry *e, const uint64_t a[6],
		       void (*fn)(void *ctx, uint64_t addr, const void *data, size_t len), void *ctx)
{
	ranges_only = 1;
	cap_outputs(p, e, a, INT64_MAX, fn, ctx);
	ranges_only = 0;
}

const char *cap_unknown(struct pt_proc *p, const struct sys_entry *e, const uint64_t a[6], int64_t ret)
{
	static char why[96];
	uint64_t data;
	uint32_t cmd;
	if (ret < 0)
		return NULL;	/* the kernel refused it: it wrote nothing */
	for (int i = 0; i < e->nargs; i++) {
		uint64_t v = a[i];
		int k = sys_kind(e->arg[i]);
		if (k == A_IOCTL && ioctl_out_size(v) == REFUSE)
			snprintf(why, sizeof why, "ioctl request %#x", (unsigned)v);
		else if (k == A_IOCTL && (uint32_t)v == 0x8946 && i + 1 < e->nargs &&
			 pt_read(p, a[i + 1] + 16, &data, 8) == 8 && ethtool_out_size(p, data) < 0 &&
			 pt_read(p, data, &cmd, 4) == 4)
			snprintf(why, sizeof why, "ioctl SIOCETHTOOL command %#x", cmd);
		else if (k == A_FCNTL && fcntl_out_size(v) == REFUSE)
			snprintf(why, sizeof why, "fcntl command %u", (unsigned)v);
		else if (k == A_PRCTL && (uint32_t)v == 35 && (a[1] == 13 || a[1] == 14))
			snprintf(why, sizeof why, "prctl PR_SET_MM %s (a descriptor of the executable)",
				 a[1] == 13 ? "PR_SET_MM_EXE_FILE" : "PR_SET_MM_MAP");
		else if (k == A_QUOTACTL && quotactl_out_size(v) == REFUSE)
			snprintf(why, sizeof why, "quotactl command %#llx", (unsigned long long)v);
		else
			continue;
		return why;
	}
	return NULL;
}

const char *cap_refusal(const struct sys_entry *e, const uint64_t a[6])
{
	if (!strcmp(e->name, "seccomp") && (uint32_t)a[0] == 1 && (a[1] & 8))
		return "a seccomp filter with a user notification listener";
	return NULL;
}

void cap_outputs(struct pt_proc *p, const struct sys_entry *e, const uint64_t a[6], int64_t ret,
		 void (*fn)(void *ctx, uint64_t addr, const void *data, size_t len), void *ctx)
{
	/* Structs are saved even after EINTR or a restart (nanosleep's
	 * remaining time); saving bytes the kernel did not write is harmless,
	 * since replay writes back the very same bytes. */
	int ok = ret >= 0, soft = ok || ret == -EINTR || cap_is_restart(ret);
	/* getsockopt may write optlen, and some of optval, and fail after
	 * (NETLINK_LIST_MEMBERSHIPS writes the length it needs, then EFAULT
	 * for an optval it could not fill; SO_PEERSEC and SO_PEERGROUPS the
	 * length before ERANGE): both are saved whatever its result. */
	if (e == sys_row(SYS_getsockopt))
		soft = 1;
	/* The attr of sched_setattr and perf_event_open gets the size the
	 * kernel knows when the program's is one it does not (E2BIG); the
	 * LSM calls' *size the size they would need. */
	if (ret == -E2BIG && e == sys_row(SYS_sched_setattr))
		out(p, a[1], 4, fn, ctx);
	else if (ret == -E2BIG && e == sys_row(SYS_perf_event_open) && a[0])
		out(p, a[0] + 4, 4, fn, ctx);
	else if (ret == -E2BIG && (e == sys_row(459) || e == sys_row(461)))	/* lsm_get_self_attr, lsm_list_modules */
		out(p, a[e == sys_row(461) ? 1 : 2], 4, fn, ctx);
	uint32_t len;
	if (ok && e == sys_row(459) && a[1] && pt_read(p, a[2], &len, 4) == 4)
		out(p, a[1], len, fn, ctx);	/* lsm_get_self_attr's contexts: *size bytes */
	uint64_t xa[2];	/* getxattrat's struct xattr_args: value, size and flags */
	if (ok && e == sys_row(464) && a[4] && a[5] >= 16 && pt_read(p, a[4], xa, 16) == 16 && xa[0])
		out(p, xa[0], (uint64_t)ret < (uint32_t)xa[1] ? (uint64_t)ret : (uint32_t)xa[1], fn, ctx);
	for (int i = 0; i < e->nargs; i++) {
		uint32_t c = e->arg[i];
		uint64_t v = a[i];
		switch (sys_kind(c)) {
		case A_OBUF:
			if (ok)
				out(p, v, (uint64_t)ret < a[sys_param(c)] ? (uint64_t)ret : a[sys_param(c)],
				    fn, ctx);
			break;
		case A_FUTEXOP:
			/* FUTEX_WAKE_OP writes *uaddr2; the PI ops write *uaddr. */
			if ((v & 127) == 5)
				out(p, a[4], 4, fn, ctx);
			else if (((v & 127) >= 6 && (v & 127) <= 8) || ((v & 127) >= 11 && (v & 127) <= 13))
				out(p, a[0], 4, fn, ctx);
			break;
		case A_OUT:
			if (soft)
				out(p, v, sys_param(c), fn, ctx);
			break;
		case A_IOV_OUT:
			if (ok)
				out_iov(p, v, a[sys_param(c)], ret, fn, ctx);
			break;
		case A_SOCKADDR_OUT: {
			/* A sockaddr, or getsockopt's value, as long as the
			 * kernel says (a netfilter table's entries: KiBs). */
			uint32_t l = 0, cap = e == sys_row(SYS_getsockopt) ? 1u << 24 : 256;
			if (!soft || !v || !a[sys_param(c)] ||
			    pt_read(p, a[sys_param(c)], &l, 4) != 4)
				break;
			out(p, v, l < cap ? l : cap, fn, ctx);
			break;
		}
		case A_POLLFD:
			if (soft)
				out(p, v, 8 * (a[sys_param(c)] & 0xffff), fn, ctx);
			break;
		case A_FDSET:
			if (soft)
				out(p, v, ((a[sys_param(c)] & 0xffff) + 63) / 64 * 8, fn, ctx);
			break;
		case A_EPEV_OUT:
		case A_OARR:
			if (ok)
				out(p, v, ret * (sys_kind(c) == A_OARR ? sys_param(c) : 12), fn, ctx);
			break;
		case A_MSGHDR_OUT:
			if (ok)
				out_msghdr(p, v, ret, fn, ctx);
			break;
		case A_MMSG_OUT:
			/* Each mmsghdr is a msghdr and the u32 bytes received. */
			for (int64_t k = 0; ok && k < ret && k < 1024; k++) {
				uint32_t len = 0;
				if (pt_read(p, v + 64 * k + 56, &len, 4) != 4)
					break;
				out_msghdr(p, v + 64 * k, len, fn, ctx);
				out(p, v + 64 * k + 56, 4, fn, ctx);
			}
			break;
		case A_MMSG_IN:
			for (int64_t k = 0; ok && k < ret && k < 1024; k++)
				out(p, v + 64 * k + 56, 4, fn, ctx);
			break;
		case A_IOCTL: {
			int n = ok ? ioctl_out_size(v) : 0;
			if (n > 0)
				out(p, a[2], n, fn, ctx);
			else if (n == SPECIAL)
				out_special_ioctl(p, v, a[2], fn, ctx);
			break;
		}
		case A_FCNTL: {
			int n = ok ? fcntl_out_size(v) : 0;
			if (n > 0)
				out(p, a[2], n, fn, ctx);
			break;
		}
		case A_PRCTL:
			v = (uint32_t)v;	/* the option is an int to the kernel */
			for (size_t k = 0; ok && k < sizeof prctls / sizeof *prctls; k++)
				if (prctls[k].cmd == v)
					out(p, a[1], prctls[k].out, fn, ctx);
			if (ok && v == 0x41555856)	/* PR_GET_AUXV */
				out(p, a[1], (uint64_t)ret < a[2] ? (uint64_t)ret : a[2], fn, ctx);
			else if (ok && v == 62 && a[1] == 0)	/* PR_SCHED_CORE_GET */
				out(p, a[4], 8, fn, ctx);
			else if (ok && v == 35 && a[1] == 15)	/* PR_SET_MM_MAP_SIZE */
				out(p, a[2], 4, fn, ctx);
			break;
		case A_IPCCTL: {
			/* The struct goes at the argument after the command. */
			int n = ok && i < 5 ? ipc_out_size(sys_param(c), v) : 0;
			if (n > 0)
				out(p, a[i + 1], n, fn, ctx);
			else if (n == SPECIAL)	/* GETALL: a u16 a semaphore */
				out(p, a[i + 1], 2 * sem_count(a[0]), fn, ctx);
			break;
		}
		case A_MSGBUF:		/* msgrcv: long mtype, then ret bytes */
			if (ok)
				out(p, v, 8 + ret, fn, ctx);
			break;
		case A_PAGEVEC:		/* mincore: a byte a page */
			if (ok)
				out(p, v, (a[sys_param(c)] + 4095) / 4096, fn, ctx);
			break;
		case A_OBITS: {		/* get_mempolicy's node mask, in longs */
			uint64_t bits = a[sys_param(c)], n = bits ? (bits - 1 + 63) / 64 * 8 : 0;
			if (ok)
				out(p, v, n < 4096 ? n : 4096, fn, ctx);
			break;
		}
		case A_OSIZE:
			if (ok)
				out(p, v, a[sys_param(c)] < 65536 ? a[sys_param(c)] : 65536, fn, ctx);
			break;
		case A_KEYCTL:
			if (ok)
				out_keyctl(p, a, ret, fn, ctx);
			break;
		case A_QUOTACTL: {
			int n = ok ? quotactl_out_size(v) : 0;
			if (n > 0)
				out(p, a[3], n, fn, ctx);
			break;
		}
		case A_OINTS:
			if (ok)
				out(p, v, 4 * (a[sys_param(c)] < 16384 ? a[sys_param(c)] : 16384), fn, ctx);
			break;
		case A_FHANDLE: {	/* handle_bytes, handle_type, f_handle[] */
			uint32_t n = 0;
			if ((ok || ret == -EOVERFLOW) && pt_read(p, v, &n, 4) == 4)
				out(p, v, ok ? 8 + (n < 128 ? n : 128) : 4, fn, ctx);
			if (ok)	/* AT_HANDLE_MNT_ID_UNIQUE: a u64 */
				out(p, a[i + 1], a[4] & 1 ? 8 : 4, fn, ctx);
			break;
		}
		case A_CAPHDR:
			/* A version refused: the kernel writes its own, and
			 * fails, or with no data pointer (the version probe,
			 * capget(&hdr, NULL)) returns 0. */
			if (ret == -EINVAL || (ret == 0 && i + 1 < e->nargs && !a[i + 1]))
				out(p, v, 4, fn, ctx);
			break;
		case A_SYSFS:		/* sysfs(2, index, buf): a name */
			if (ok && a[0] == 2) {
				char name[256];
				ssize_t n = pt_read_str(p, v, name, sizeof name);
				if (n >= 0)
					out(p, v, n + 1, fn, ctx);
			}
			break;
		default:
			break;
		}
	}
	if (ok && e == sys_row(SYS_setsockopt))
		out_xt_counters(p, a, fn, ctx);
}
