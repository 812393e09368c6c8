/* cap.c: turns the syscall table's argument kinds into the memory a call
 * reads (inputs) and writes (outputs), for rec to save and replay to check
 * and restore. Requests whose outputs depend on a command (ioctl, fcntl,
 * prctl) are decoded here. */
#include "cap.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ERESTART_RESTARTBLOCK 516

int cap_is_restart(int64_t ret)
{
	return ret == -ERESTARTSYS || ret == -ERESTARTNOINTR || ret == -ERESTARTNOHAND ||
	       ret == -ERESTART_RESTARTBLOCK;
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
			b = scratch(CAP_STRV_MAX);
			for (int k = 0; len < CAP_STRV_MAX - 1; k++) {
				uint64_t sp;
				if (pt_read(p, v + 8 * k, &sp, 8) != 8 || !sp)
					break;
				n = pt_read_str(p, sp, (char *)b + len, CAP_STRV_MAX - len);
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

static void out(struct pt_proc *p, uint64_t addr, size_t n,
		void (*fn)(void *, uint64_t, const void *, size_t), void *ctx)
{
	if (!addr || !n)
		return;
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

static size_t ioctl_out_size(uint64_t req)
{
	unsigned dir = (req >> 30) & 3, size = (req >> 16) & 0x3fff;
	if (dir & 2)		/* _IOC_READ: the kernel writes size bytes */
		return size;
	switch (req) {
	case 0x5401: return 36;	/* TCGETS: kernel struct termios */
	case 0x5405: return 18;	/* TCGETA */
	case 0x540f: return 4;	/* TIOCGPGRP */
	case 0x5411: return 4;	/* TIOCOUTQ */
	case 0x5413: return 8;	/* TIOCGWINSZ */
	case 0x5415: return 4;	/* TIOCMGET */
	case 0x541b: return 4;	/* FIONREAD */
	case 0x5424: return 4;	/* TIOCGETD */
	case 0x5429: return 4;	/* TIOCGSID */
	}
	return 0;
}

void cap_outputs(struct pt_proc *p, const struct sys_entry *e, const uint64_t a[6], int64_t ret,
		 void (*fn)(void *ctx, uint64_t addr, const void *data, size_t len), void *ctx)
{
	/* Structs are saved even after EINTR or a restart (nanosleep's
	 * remaining time); saving bytes the kernel did not write is harmless,
	 * since replay writes back the very same bytes. */
	int ok = ret >= 0, soft = ok || ret == -EINTR || cap_is_restart(ret);
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
			uint32_t l = 0;
			if (!soft || !v || !a[sys_param(c)] ||
			    pt_read(p, a[sys_param(c)], &l, 4) != 4)
				break;
			out(p, v, l < 256 ? l : 256, fn, ctx);
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
		case A_MSGHDR_OUT: {
			uint8_t m[56];
			if (!ok || pt_read(p, v, m, sizeof m) != sizeof m)
				break;
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
			out_iov(p, iov, iovlen, ret, fn, ctx);
			break;
		}
		case A_IOCTL:
			if (ok)
				out(p, a[2], ioctl_out_size(v), fn, ctx);
			break;
		case A_FCNTL:
			if (ok && (v == 5 || v == 36))	/* F_GETLK, F_OFD_GETLK */
				out(p, a[2], 32, fn, ctx);
			else if (ok && v == 16)		/* F_GETOWN_EX */
				out(p, a[2], 8, fn, ctx);
			break;
		case A_PRCTL:
			if (ok && v == 16)		/* PR_GET_NAME */
				out(p, a[1], 16, fn, ctx);
			else if (ok && (v == 2 || v == 37))	/* PDEATHSIG, CHILD_SUBREAPER */
				out(p, a[1], 4, fn, ctx);
			else if (ok && v == 40)		/* PR_GET_TID_ADDRESS */
				out(p, a[1], 8, fn, ctx);
			break;
		default:
			break;
		}
	}
}
