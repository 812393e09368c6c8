/* fmt.c: turns trace records into text: syscalls strace-style with
 * decoded arguments, and the other kinds, plus JSON fields (tdump(1),
 * replay --to). */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fmt.h"
#include "pos.h"
#include "sys.h"
#include "trace.h"
#include "tsc.h"
#include "util.h"

#define STRMAX 32	/* bytes of a buffer or string shown, as strace -s 32 */
#define LISTMAX 32	/* entries of an array shown */
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static int opt_raw;	/* set for the length of one fmt_event() call */

/* One syscall record with its items sorted by what they describe. */
struct call {
	const struct sys_entry *e;
	struct trace_syscall sc;
	int noreturn;
	struct trace_item arg[6];	/* IT_ARG by argument; len 0 if none */
	struct trace_item emit;
	struct trace_item *mem;		/* IT_MEM, IT_FILE, IT_EMUFILE, IT_FPATCH items in order */
	size_t nmem, memcap;
};

/* Text helpers. */

/* Bytes as a C string literal, strace's way: the first max bytes of
 * n, then "..." after the quote if there is more (or more is set). */
void fmt_quote(struct sn_buf *b, const uint8_t *p, size_t n, size_t max, int more)
{
	size_t shown = n < max ? n : max;

	sn_putc(b, '"');
	for (size_t i = 0; i < shown; i++) {
		unsigned c = p[i];
		switch (c) {
		case '"': sn_puts(b, "\\\""); break;
		case '\\': sn_puts(b, "\\\\"); break;
		case '\n': sn_puts(b, "\\n"); break;
		case '\t': sn_puts(b, "\\t"); break;
		case '\r': sn_puts(b, "\\r"); break;
		case '\v': sn_puts(b, "\\v"); break;
		case '\f': sn_puts(b, "\\f"); break;
		default:
			if (c >= 0x20 && c < 0x7f)
				sn_putc(b, c);
			/* Short octal unless a digit follows and would join it. */
			else if (i + 1 < shown && p[i + 1] >= '0' && p[i + 1] <= '7')
				sn_printf(b, "\\%03o", c);
			else
				sn_printf(b, "\\%o", c);
		}
	}
	sn_putc(b, '"');
	if (more || n > shown)
		sn_puts(b, "...");
}

static void put_ptr(struct sn_buf *b, uint64_t v)
{
	if (v)
		sn_printf(b, "%#llx", (unsigned long long)v);
	else
		sn_puts(b, "NULL");
}

/* An IT_ARG or IT_MEM item's 8-byte header, then its bytes. */
static uint64_t item_head(const struct trace_item *it)
{
	return it->len >= 8 ? get64(it->p) : 0;
}

static const uint8_t *item_data(const struct trace_item *it, size_t *len)
{
	*len = it->len >= 8 ? it->len - 8 : 0;
	return it->p + 8;
}

/* The bytes saved from user memory at addr after the call, if any. */
static const uint8_t *find_mem(const struct call *c, uint64_t addr, size_t *len)
{
	if (!addr)
		return NULL;
	for (size_t i = 0; i < c->nmem; i++)
		if (c->mem[i].tag == IT_MEM && c->mem[i].len >= 8 && item_head(&c->mem[i]) == addr)
			return item_data(&c->mem[i], len);
	return NULL;
}

static int is(const struct call *c, const char *name)
{
	return strcmp(c->e->name, name) == 0;
}

/* Struct decoders for A_OUT and friends. */

static void put_timespec(struct sn_buf *b, const uint8_t *p, const char *sub)
{
	sn_printf(b, "{tv_sec=%lld, tv_%s=%lld}", (long long)get64(p), sub,
		  (long long)get64(p + 8));
}

static void put_devnum(struct sn_buf *b, uint64_t d)
{
	sn_printf(b, "makedev(%#llx, %#llx)",
		  (unsigned long long)(((d >> 8) & 0xfff) | ((d >> 32) & ~0xfffull)),
		  (unsigned long long)((d & 0xff) | ((d >> 12) & ~0xffull)));
}

static void put_stat(struct sn_buf *b, const uint8_t *p)
{
	uint32_t mode = get32(p + 24);

	sn_puts(b, "{st_mode=");
	sn_mode(b, mode);
	if ((mode & 0170000) == 0020000 || (mode & 0170000) == 0060000) {
		sn_puts(b, ", st_rdev=");
		put_devnum(b, get64(p + 40));
	} else {
		sn_printf(b, ", st_size=%lld", (long long)get64(p + 48));
	}
	sn_puts(b, ", ...}");
}

static void put_statx(struct sn_buf *b, const uint8_t *p)
{
	sn_printf(b, "{stx_mask=%#x, stx_mode=", get32(p));
	sn_mode(b, get16(p + 28));
	sn_printf(b, ", stx_size=%llu, ...}", (unsigned long long)get64(p + 40));
}

/* A kernel sigset as strace shows it: [INT TERM]. */
static void put_sigset(struct sn_buf *b, uint64_t set)
{
	char tmp[32];
	struct sn_buf t;
	int sep = 0;

	sn_putc(b, '[');
	for (int s = 1; s <= 64; s++) {
		if (!(set & (1ull << (s - 1))))
			continue;
		sn_init(&t, tmp, sizeof tmp);
		sn_signal(&t, s);
		sn_printf(b, "%s%s", sep ? " " : "", strncmp(tmp, "SIG", 3) ? tmp : tmp + 3);
		sep = 1;
	}
	sn_putc(b, ']');
}

static void put_rlimit(struct sn_buf *b, const uint8_t *p)
{
	for (int i = 0; i < 2; i++) {
		uint64_t v = get64(p + 8 * i);
		sn_puts(b, i ? ", rlim_max=" : "{rlim_cur=");
		if (v == ~0ull)
			sn_puts(b, "RLIM64_INFINITY");
		else
			sn_printf(b, "%llu", (unsigned long long)v);
	}
	sn_putc(b, '}');
}

/* The kernel's struct sigaction: handler, flags, restorer, mask. */
static void put_sigaction(struct sn_buf *b, const uint8_t *p)
{
	uint64_t h = get64(p);

	if (h <= 1)
		sn_printf(b, "{sa_handler=%s, sa_mask=", h ? "SIG_IGN" : "SIG_DFL");
	else
		sn_printf(b, "{sa_handler=%#llx, sa_mask=", (unsigned long long)h);
	put_sigset(b, get64(p + 24));
	sn_printf(b, ", sa_flags=%#llx}", (unsigned long long)get64(p + 8));
}

static void put_wstatus(struct sn_buf *b, uint32_t st)
{
	if (st == 0xffff) {	/* a stopped child continued (WCONTINUED) */
		sn_puts(b, "[{WIFCONTINUED(s)}]");
	} else if ((st & 0x7f) == 0) {
		sn_printf(b, "[{WIFEXITED(s) && WEXITSTATUS(s) == %u}]", (st >> 8) & 0xff);
	} else if ((st & 0xff) == 0x7f) {
		sn_puts(b, "[{WIFSTOPPED(s) && WSTOPSIG(s) == ");
		sn_signal(b, (st >> 8) & 0xff);
		if (st >> 16)	/* a ptrace event stop, as a tracer sees it */
			sn_printf(b, "} | %u << 16]", st >> 16);
		else
			sn_puts(b, "}]");
	} else {
		sn_puts(b, "[{WIFSIGNALED(s) && WTERMSIG(s) == ");
		sn_signal(b, st & 0x7f);
		sn_puts(b, st & 0x80 ? " && WCOREDUMP(s)}]" : "}]");
	}
}

static void put_sockaddr(struct sn_buf *b, const uint8_t *p, size_t n)
{
	unsigned fam;
	char a[64];

	if (n < 2) {
		sn_puts(b, "{...}");
		return;
	}
	fam = get16(p);
	sn_puts(b, "{sa_family=");
	sn_family(b, fam);
	if (fam == 1 && n > 2) {
		/* An abstract name starts with a NUL; strace shows it as @. */
		const uint8_t *path = p + 2;
		size_t len = n - 2;
		sn_puts(b, ", sun_path=");
		if (path[0] == 0) {
			sn_putc(b, '@');
			path++, len--;
		} else {
			len = strnlen((const char *)path, len);
		}
		fmt_quote(b, path, len, 108, 0);
	} else if (fam == 2 && n >= 8) {
		inet_ntop(AF_INET, p + 4, a, sizeof a);
		sn_printf(b, ", sin_port=htons(%u), sin_addr=inet_addr(\"%s\")",
			  (p[2] << 8) | p[3], a);
	} else if (fam == 10 && n >= 24) {
		inet_ntop(AF_INET6, p + 8, a, sizeof a);
		sn_printf(b, ", sin6_port=htons(%u), sin6_addr=\"%s\"", (p[2] << 8) | p[3], a);
	} else if (fam == 16 && n >= 12) {
		sn_printf(b, ", nl_pid=%u, nl_groups=%#x", get32(p + 4), get32(p + 8));
	} else {
		sn_puts(b, ", ...");
	}
	sn_putc(b, '}');
}

/* An A_OUT struct of len bytes, decoded for the calls whose output
 * matters most, {...} for the rest. */
static void put_out(struct sn_buf *b, const struct call *c, const uint8_t *p, size_t len)
{
	const char *n = c->e->name;

	if (len >= 256 && is(c, "statx"))
		put_statx(b, p);
	else if (len >= 144 && strstr(n, "stat") && !strstr(n, "statfs"))
		put_stat(b, p);
	else if (len == 16 && (is(c, "gettimeofday") || is(c, "select")))
		put_timespec(b, p, "usec");
	else if (len == 16 && (is(c, "getrlimit") || is(c, "prlimit64")))
		put_rlimit(b, p);
	else if (len == 32 && is(c, "rt_sigaction"))
		put_sigaction(b, p);
	else if (len == 16)
		put_timespec(b, p, "nsec");
	else if (len == 8 && (is(c, "pipe") || is(c, "pipe2") || is(c, "socketpair")))
		sn_printf(b, "[%d, %d]", (int)get32(p), (int)get32(p + 4));
	else if (len == 8 && (is(c, "rt_sigprocmask") || is(c, "rt_sigpending")))
		put_sigset(b, get64(p));
	else if (len == 8)
		sn_printf(b, "[%lld]", (long long)get64(p));
	else if (len == 4 && is(c, "wait4"))
		put_wstatus(b, get32(p));
	else if (len == 4)
		sn_printf(b, "[%d]", (int)get32(p));
	else if (len == 390 && is(c, "uname"))
		sn_printf(b, "{sysname=\"%.65s\", nodename=\"%.65s\", ...}", p, p + 65);
	else
		sn_puts(b, "{...}");
}

static void put_signo(struct sn_buf *b, uint64_t v)
{
	sn_signal(b, (int)v);
}

/* The kinds that are a constant's name or a set of flags. */
static void (*const namers[])(struct sn_buf *, uint64_t) = {
	[A_IOCTL] = sn_ioctl, [A_FCNTL] = sn_fcntl, [A_PRCTL] = sn_prctl,
	[A_OFLAGS] = sn_oflags, [A_ATFLAGS] = sn_atflags, [A_PROT] = sn_prot,
	[A_MFLAGS] = sn_mflags, [A_MADV] = sn_madv, [A_SIG] = put_signo,
	[A_SIGHOW] = sn_sighow, [A_WHENCE] = sn_whence, [A_CLOCK] = sn_clock,
	[A_ARCHPRCTL] = sn_archprctl, [A_FUTEXOP] = sn_futexop,
	[A_ACCESS] = sn_access, [A_PTRACE] = sn_ptrace,
};

/* One argument, as its table cell says. */
static void put_arg(struct sn_buf *b, const struct call *c, int i)
{
	uint32_t cell = c->e->arg[i];
	uint64_t v = c->sc.args[i];
	int64_t ret = c->sc.ret;
	const struct trace_item *ai = c->arg[i].len ? &c->arg[i] : NULL;
	const uint8_t *p;
	size_t n;

	if (sys_kind(cell) == A_ATFLAGS && is(c, "faccessat2")) {
		sn_atflags_access(b, v);
		return;
	}
	if (sys_kind(cell) < NELEM(namers) && namers[sys_kind(cell)]) {
		namers[sys_kind(cell)](b, v);
		return;
	}
	switch (sys_kind(cell)) {
	case A_INT:
		sn_printf(b, "%lld", (long long)v);
		return;
	case A_UINT:
		sn_printf(b, "%llu", (unsigned long long)v);
		return;
	case A_OCT:
		sn_printf(b, "%#llo", (unsigned long long)v);
		return;
	case A_FD:
		if ((int)v == -100)
			sn_puts(b, "AT_FDCWD");
		else
			sn_printf(b, "%d", (int)v);
		return;
	case A_STR:
		if (!ai)
			break;
		p = item_data(ai, &n);
		fmt_quote(b, p, strnlen((const char *)p, n), 4096, item_head(ai) > n);
		return;
	case A_IBUF:
		if (ai) {
			p = item_data(ai, &n);
			fmt_quote(b, p, n, STRMAX, item_head(ai) > n);
			return;
		}
		if (c->emit.len) {
			fmt_quote(b, c->emit.p, c->emit.len, STRMAX, 0);
			return;
		}
		break;
	case A_OBUF:
		if (ret < 0 || !v)
			break;
		if (ret == 0) {
			sn_puts(b, "\"\"");
			return;
		}
		if (!(p = find_mem(c, v, &n)))
			break;
		if (n > (uint64_t)ret)
			n = ret;
		if (is(c, "getdents64") || is(c, "getdents")) {
			/* Count the entries by their d_reclen chain. */
			size_t k = 0, off = 0;
			while (off + 18 <= n && get16(p + off + 16) > 0)
				off += get16(p + off + 16), k++;
			sn_printf(b, "%#llx /* %zu entries */", (unsigned long long)v, k);
			return;
		}
		fmt_quote(b, p, n, STRMAX, (uint64_t)ret > n);
		return;
	case A_OUT:
		if (!(p = find_mem(c, v, &n)))
			break;
		put_out(b, c, p, n);
		return;
	case A_IOV_IN:
		if (!ai)
			break;
		p = item_data(ai, &n);
		sn_putc(b, '[');
		fmt_quote(b, p, n, STRMAX, item_head(ai) > n);
		sn_putc(b, ']');
		return;
	case A_IOV_OUT: {
		/* The buffers the iovecs point to, in order, up to ret. */
		uint8_t tmp[STRMAX];
		size_t got = 0, total = 0;
		if (ret < 0)
			break;
		for (size_t k = 0; k < c->nmem; k++) {
			const struct trace_item *m = &c->mem[k];
			if (m->tag != IT_MEM)
				continue;
			p = item_data(m, &n);
			total += n;
			for (size_t j = 0; j < n && got < sizeof tmp; j++)
				tmp[got++] = p[j];
		}
		sn_putc(b, '[');
		fmt_quote(b, tmp, got, STRMAX, total > got);
		sn_putc(b, ']');
		return;
	}
	case A_STRV: {
		size_t count = 0, off = 0, len;
		if (!ai)
			break;
		p = item_data(ai, &n);
		for (size_t j = 0; j < n; j++)
			count += p[j] == 0;
		/* The second string array of a call is its environment. */
		if (i > 0 && sys_kind(c->e->arg[i - 1]) == A_STRV) {
			sn_printf(b, "[/* %zu vars */]", count);
			return;
		}
		sn_putc(b, '[');
		for (size_t k = 0; k < count && off < n; k++) {
			if (k == LISTMAX) {
				sn_puts(b, ", ...");
				break;
			}
			len = strnlen((const char *)p + off, n - off);
			if (k)
				sn_puts(b, ", ");
			fmt_quote(b, p + off, len, STRMAX, 0);
			off += len + 1;
		}
		sn_putc(b, ']');
		return;
	}
	case A_SOCKADDR_IN:
		if (!ai)
			break;
		p = item_data(ai, &n);
		put_sockaddr(b, p, n);
		return;
	case A_SOCKADDR_OUT:
		if (!(p = find_mem(c, v, &n)))
			break;
		if (is(c, "getsockopt") && n == 4)
			sn_printf(b, "[%d]", (int)get32(p));
		else if (is(c, "getsockopt"))
			fmt_quote(b, p, n, STRMAX, 0);
		else
			put_sockaddr(b, p, n);
		return;
	case A_POLLFD:
		if (!(p = find_mem(c, v, &n)))
			break;
		sn_putc(b, '[');
		for (size_t k = 0; k + 8 <= n; k += 8) {
			if (k == 8 * LISTMAX) {
				sn_puts(b, ", ...");
				break;
			}
			sn_printf(b, "%s{fd=%d, events=", k ? ", " : "", (int)get32(p + k));
			sn_pollev(b, get16(p + k + 4));
			if (get16(p + k + 6)) {
				sn_puts(b, ", revents=");
				sn_pollev(b, get16(p + k + 6));
			}
			sn_putc(b, '}');
		}
		sn_putc(b, ']');
		return;
	case A_FDSET: {
		uint64_t nfds = c->sc.args[sys_param(cell)];
		int sep = 0;
		if (!(p = find_mem(c, v, &n)))
			break;
		sn_putc(b, '[');
		for (uint64_t fd = 0; fd < nfds && fd / 8 < n; fd++)
			if (p[fd / 8] & (1u << (fd % 8))) {
				sn_printf(b, "%s%llu", sep ? " " : "", (unsigned long long)fd);
				sep = 1;
			}
		sn_putc(b, ']');
		return;
	}
	case A_EPEV_OUT:
		if (ret <= 0 || !(p = find_mem(c, v, &n)))
			break;
		sn_putc(b, '[');
		for (size_t k = 0; k + 12 <= n && k < 12 * (uint64_t)ret; k += 12) {
			if (k == 12 * LISTMAX) {
				sn_puts(b, ", ...");
				break;
			}
			sn_puts(b, k ? ", {events=" : "{events=");
			sn_epollev(b, get32(p + k));
			sn_printf(b, ", data=%#llx}", (unsigned long long)get64(p + k + 4));
		}
		sn_putc(b, ']');
		return;
	case A_MSGHDR_OUT:
		if (!(p = find_mem(c, v, &n)) || n < 56)
			break;
		sn_printf(b, "{msg_namelen=%u, msg_iovlen=%llu, msg_controllen=%llu, msg_flags=%#x}",
			  get32(p + 8), (unsigned long long)get64(p + 24),
			  (unsigned long long)get64(p + 40), get32(p + 48));
		return;
	case A_HEX:
		sn_printf(b, "%#llx", (unsigned long long)v);
		return;
	default:
		break;
	}
	/* Nothing recorded to show (a failed call, NULL, or an unknown
	 * kind): the pointer or number itself. */
	put_ptr(b, v);
}

static void put_ret(struct sn_buf *b, const struct call *c)
{
	int64_t ret = c->sc.ret;

	if (c->noreturn || c->e->ret == R_NONE) {
		sn_puts(b, "?");
	} else if (opt_raw) {
		sn_printf(b, "%lld", (long long)ret);
	} else if (ret < 0 && ret >= -4095) {
		const char *text = errno_text(-ret);
		/* A restart code means the call did not finish here. */
		sn_puts(b, -ret >= 512 && -ret <= 516 ? "? " : "-1 ");
		sn_errno(b, -ret);
		if (text)
			sn_printf(b, " (%s)", text);
	} else if (c->e->ret == R_HEX) {
		sn_printf(b, "%#llx", (unsigned long long)ret);
	} else {
		sn_printf(b, "%lld", (long long)ret);
	}
}

/* Bytes as a JSON string: valid UTF-8 passes through, control
 * characters are escaped, and bytes that are not UTF-8 become U+FFFD,
 * so that every line parses. */
void js_bytes(struct sn_buf *js, const uint8_t *p, size_t n)
{
	sn_putc(js, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned c = p[i];
		size_t k = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : 0;
		if (c == '"' || c == '\\') {
			sn_putc(js, '\\');
			sn_putc(js, c);
		} else if (c == '\n') {
			sn_puts(js, "\\n");
		} else if (c < 0x20 || c == 0x7f) {
			sn_printf(js, "\\u%04x", c);
		} else if (c < 0x80) {
			sn_putc(js, c);
		} else {
			size_t j = 1;
			while (k && j <= k && i + j < n && (p[i + j] & 0xc0) == 0x80)
				j++;
			if (k && j == k + 1) {
				for (j = 0; j <= k; j++)
					sn_putc(js, p[i + j]);
				i += k;
			} else {
				sn_puts(js, "\\ufffd");
			}
		}
	}
	sn_putc(js, '"');
}

/* The files an execve or mmap brought in (IT_FILE items). */
static void put_files(struct sn_buf *b, struct sn_buf *js, const struct call *c)
{
	int first = 1;

	for (size_t k = 0; k < c->nmem; k++) {
		const struct trace_item *it = &c->mem[k];
		const char *what = it->flags & IF_EXE ? "exe" : it->flags & IF_INTERP ? "interp" : "file";
		size_t plen;
		if (it->tag != IT_FILE || it->len < 32)
			continue;
		plen = it->len - 32;
		sn_printf(b, " %s=", what);
		fmt_quote(b, it->p + 32, plen, 4096, 0);
		sn_printf(b, " size=%llu hash=%016llx", (unsigned long long)get64(it->p),
			  (unsigned long long)get64(it->p + 16));
		if (it->flags & IF_MAP)
			sn_printf(b, " offset=%llu", (unsigned long long)get64(it->p + 24));
		if (!js)
			continue;
		sn_puts(js, first ? ",\"files\":[" : ",");
		first = 0;
		sn_printf(js, "{\"role\":\"%s\",\"path\":", what);
		js_bytes(js, it->p + 32, plen);
		sn_printf(js, ",\"size\":%llu,\"hash\":\"%016llx\"}", (unsigned long long)get64(it->p),
			  (unsigned long long)get64(it->p + 16));
	}
	if (js && !first)
		sn_putc(js, ']');
	/* Files replay emulates: this mapping maps replay's copy; the call
	 * changed the copy (its new size, and bytes at an offset). */
	first = 1;
	for (size_t k = 0; k < c->nmem; k++) {
		const struct trace_item *it = &c->mem[k];
		if (it->tag == IT_EMUFILE && it->len >= 20) {
			sn_puts(b, " emulated");
			if (js)
				sn_puts(js, ",\"emulated\":true");
		}
		if (it->tag != IT_FPATCH || it->len < 32)
			continue;
		unsigned long long size = get64(it->p + 16), at = get64(it->p + 24), len = it->len - 32;
		sn_printf(b, " patch(size=%llu, %llu bytes at %llu)", size, len, at);
		if (!js)
			continue;
		sn_puts(js, first ? ",\"patches\":[" : ",");
		first = 0;
		sn_printf(js, "{\"size\":%llu,\"offset\":%llu,\"len\":%llu}", size, at, len);
	}
	if (js && !first)
		sn_putc(js, ']');
}

/* Record printers: each fills the detail text b and, for --json, the
 * extra keys js (",\"key\":value..."). They return the KIND word. */

static const char *show_syscall(const struct trace_rec *rec, struct sn_buf *b, struct sn_buf *js)
{
	static struct call c;
	static struct sys_entry unknown;
	static char uname[32];
	struct trace_item it;
	size_t off = trace_fixed_size(TR_SYSCALL);

	memset(c.arg, 0, sizeof c.arg);
	memset(&c.emit, 0, sizeof c.emit);
	c.nmem = 0;
	trace_syscall(rec, &c.sc);
	c.noreturn = rec->flags & TRF_NORETURN;
	c.e = sys_lookup(c.sc.nr);
	if (!c.e || opt_raw) {
		/* No row, or no decoding: every argument in hex. */
		const struct sys_entry *e = c.e;
		if (!e)
			snprintf(uname, sizeof uname, "syscall_%d", c.sc.nr);
		unknown.name = e ? e->name : uname;
		unknown.nargs = e ? e->nargs : 6;
		unknown.ret = e ? e->ret : R_INT;
		for (int i = 0; i < 6; i++)
			unknown.arg[i] = sys_arg(A_HEX, 0);
		c.e = &unknown;
	}
	struct trace_item task = { 0 };
	while (trace_item(rec, &off, &it) > 0) {
		if (it.tag == IT_TASK)
			task = it;
		if (it.tag == IT_ARG && it.flags < 6)
			c.arg[it.flags] = it;
		else if (it.tag == IT_EMIT)
			c.emit = it;
		else if (it.tag == IT_MEM || it.tag == IT_FILE || it.tag == IT_EMUFILE || it.tag == IT_FPATCH) {
			if (c.nmem == c.memcap) {
				c.memcap = c.memcap ? 2 * c.memcap : 64;
				c.mem = xrealloc(c.mem, c.memcap * sizeof *c.mem);
			}
			c.mem[c.nmem++] = it;
		}
	}

	sn_printf(b, "%s(", c.e->name);
	for (int i = 0; i < c.e->nargs; i++) {
		if (i)
			sn_puts(b, ", ");
		put_arg(b, &c, i);
	}
	if (rec->flags & TRF_ENTRY) {
		sn_puts(b, ") ...");
		if (js)
			sn_printf(js, ",\"name\":\"%s\",\"nr\":%d,\"entry\":true", c.e->name, c.sc.nr);
		return "syscall";
	}
	sn_puts(b, ") = ");
	put_ret(b, &c);
	if (js) {
		int64_t ret = c.sc.ret;
		const char *en = ret < 0 && ret >= -4095 ? errno_name(-ret) : NULL;
		sn_printf(js, ",\"name\":\"%s\",\"nr\":%d,\"args\":[", c.e->name, c.sc.nr);
		for (int i = 0; i < c.e->nargs; i++)
			sn_printf(js, "%s%lld", i ? "," : "", (long long)c.sc.args[i]);
		if (c.noreturn)
			sn_puts(js, "],\"ret\":null");
		else
			sn_printf(js, "],\"ret\":%lld", (long long)ret);
		if (en)
			sn_printf(js, ",\"errno\":\"%s\"", en);
		else
			sn_puts(js, ",\"errno\":null");
		if (rec->flags & TRF_BUFFERED)
			sn_puts(js, ",\"buffered\":true");
		if (rec->flags & TRF_ATENTRY)
			sn_puts(js, ",\"at_entry\":true");
	}
	if (!opt_raw)
		put_files(b, js, &c);
	if (task.len >= 8) {
		uint32_t tid = get32(task.p), pid = get32(task.p + 4);
		if (tid == pid)
			sn_printf(b, " (new process %u)", pid);
		else
			sn_printf(b, " (new thread of process %u)", pid);
	}
	struct trace_item pit;
	size_t poff = trace_fixed_size(rec->kind);
	while (trace_item(rec, &poff, &pit) > 0)
		if (pit.tag == IT_PATCHED) {
			sn_puts(b, " (its code patched for counting now)");
			if (js)
				sn_puts(js, ",\"patched\":true");
		}
	/* In JSON only: a text line ends where scripts expect it to. */
	uint64_t count;
	if (js && trace_count(rec, &count) == 0)
		sn_printf(js, ",\"count\":%llu", (unsigned long long)count);
	return "syscall";
}

static const char *show_start(const struct trace_rec *rec, struct sn_buf *b, struct sn_buf *js)
{
	uint64_t ns = get64(rec->p);
	size_t off = trace_fixed_size(TR_START);
	struct trace_item it;

	while (trace_item(rec, &off, &it) > 0) {
		if (it.tag == IT_BUFABI && it.len >= 4) {
			sn_printf(b, "%sbuf-abi=%u", b->len ? " " : "", get32(it.p));
			if (js)
				sn_printf(js, ",\"buf_abi\":%u", get32(it.p));
		}
		if (it.tag == IT_FILTER && it.len >= 4) {
			sn_printf(b, "%suntraced=%u", b->len ? " " : "", get32(it.p));
			if (js)
				sn_printf(js, ",\"untraced\":%u", get32(it.p));
		}
		if (it.tag == IT_CHAOS && it.len >= 8) {
			sn_printf(b, "%schaos=%llu", b->len ? " " : "", (unsigned long long)get64(it.p));
			if (js)
				sn_printf(js, ",\"chaos\":%llu", (unsigned long long)get64(it.p));
		}
		if (it.tag == IT_COUNT && it.len >= 4) {
			int lz = it.len >= 8 && get32(it.p) && get32(it.p + 4);
			sn_printf(b, "%scounted=%u%s", b->len ? " " : "", get32(it.p), lz ? " lazily" : "");
			if (js)
				sn_printf(js, ",\"counted\":%u,\"lazily\":%s", get32(it.p), lz ? "true" : "false");
		}
		if (it.tag != IT_CWD && it.tag != IT_CPU)
			continue;
		if (it.tag == IT_CWD) {
			sn_puts(b, "cwd=");
			fmt_quote(b, it.p, it.len, 4096, 0);
		}
		if (js) {
			sn_printf(js, ",\"%s\":", it.tag == IT_CWD ? "cwd" : "cpu");
			js_bytes(js, it.p, it.len);
		}
	}
	if (b->len)
		sn_putc(b, ' ');
	if (opt_raw) {
		sn_printf(b, "time=%llu", (unsigned long long)ns);
	} else {
		time_t s = ns / 1000000000;
		struct tm tm;
		char ts[64];
		gmtime_r(&s, &tm);
		strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
		sn_printf(b, "time=%s.%09lluZ", ts, (unsigned long long)(ns % 1000000000));
	}
	/* How rdtsc was made to stop: said only when not the kernel's trap;
	 * CPUID only when it faulted, or its answers are the cpu file's. */
	uint32_t how = rec->size >= 16 ? get32(rec->p + 12) : 0;
	uint32_t tsc = how > 0xffff ? how : how & ~(TSC_CPUID | TSC_CPUID_TABLE);
	const char *cpuid = how > 0xffff ? "native" : how & TSC_CPUID ? "faulted" :
			    how & TSC_CPUID_TABLE ? "table" : "native";
	if (tsc)
		sn_printf(b, " rdtsc=%s", tsc == 1 ? "patched" : "unknown");
	if (strcmp(cpuid, "native"))
		sn_printf(b, " cpuid=%s", cpuid);
	if (js)
		sn_printf(js, ",\"pid\":%u,\"time\":%llu,\"rdtsc\":\"%s\",\"cpuid\":\"%s\"",
			  get32(rec->p + 8), (unsigned long long)ns,
			  tsc == 0 ? "trap" : tsc == 1 ? "patched" : "unknown", cpuid);
	return "start";
}

static const char *show_signal(const struct trace_rec *rec, struct sn_buf *b, struct sn_buf *js)
{
	const uint8_t *si = rec->p + 8;
	int signo = get32(rec->p), async = get32(rec->p + 4) & TRS_ASYNC;
	int code = (int)get32(si + 8);
	int fault = signo == SIGSEGV || signo == SIGBUS || signo == SIGILL ||
		    signo == SIGFPE || signo == SIGTRAP;

	if (opt_raw)
		sn_printf(b, "%d", signo);
	else
		sn_signal(b, signo);
	sn_printf(b, " si_code=%d", code);
	/* The union after si_code: a fault address, or who sent it. */
	if (fault && code > 0)
		sn_printf(b, " addr=%#llx", (unsigned long long)get64(si + 16));
	else if (code <= 0 || signo == SIGCHLD)
		sn_printf(b, " si_pid=%u si_uid=%u", get32(si + 16), get32(si + 20));
	if (async)
		sn_puts(b, " async");
	uint64_t count;
	int counted = trace_count(rec, &count) == 0;
	if (counted)
		sn_printf(b, " count=%llu", (unsigned long long)count);
	if (js) {
		const char *name = signal_name(signo);
		sn_printf(js, ",\"signo\":%d,\"name\":", signo);
		sn_printf(js, name ? "\"%s\"" : "null", name);
		sn_printf(js, ",\"code\":%d,\"async\":%s", code, async ? "true" : "false");
		if (fault && code > 0)
			sn_printf(js, ",\"addr\":%llu", (unsigned long long)get64(si + 16));
		if (counted)
			sn_printf(js, ",\"count\":%llu", (unsigned long long)count);
	}
	return "signal";
}

static const char *show_rdtsc(const struct trace_rec *rec, struct sn_buf *b, struct sn_buf *js)
{
	uint64_t rip = get64(rec->p), tsc = get64(rec->p + 8);
	uint32_t aux = get32(rec->p + 16), insn = get32(rec->p + 20);

	sn_printf(b, "%#llx", (unsigned long long)tsc);
	if (insn == 1)
		sn_printf(b, " aux=%#x", aux);
	sn_printf(b, " at %#llx", (unsigned long long)rip);
	if (js)
		sn_printf(js, ",\"tsc\":%llu,\"rip\":%llu,\"aux\":%u", (unsigned long long)tsc,
			  (unsigned long long)rip, aux);
	/* The trap's signal, blocked again and its action set back. */
	struct trace_item it;
	size_t off = trace_fixed_size(rec->kind);
	while (trace_item(rec, &off, &it) > 0)
		if (it.tag == IT_TRAPACT && it.len >= 8) {
			uint32_t sig = get32(it.p), how = get32(it.p + 4);
			const char *name = signal_name((int)sig);
			sn_printf(b, " (%s:%s%s%s)", name ? name : "?",
				  how & 1 ? " blocked again" : "", how == 3 ? "," : "",
				  how & 2 ? " its action set back" : "");
			if (js)
				sn_printf(js, ",\"trap_signal\":%u,\"reblocked\":%s,\"action_back\":%s", sig,
					  how & 1 ? "true" : "false", how & 2 ? "true" : "false");
		}
	return insn == 1 ? "rdtscp" : "rdtsc";
}

static const char *show_cpuid(const struct trace_rec *rec, struct sn_buf *b, struct sn_buf *js)
{
	uint64_t rip = get64(rec->p);
	uint32_t v[6];
	for (int i = 0; i < 6; i++)
		v[i] = get32(rec->p + 8 + 4 * i);

	sn_printf(b, "0x%x/0x%x = eax=0x%x ebx=0x%x ecx=0x%x edx=0x%x at %#llx", v[0], v[1], v[2],
		  v[3], v[4], v[5], (unsigned long long)rip);
	if (js)
		sn_printf(js, ",\"leaf\":%u,\"subleaf\":%u,\"eax\":%u,\"ebx\":%u,\"ecx\":%u,"
			  "\"edx\":%u,\"rip\":%llu", v[0], v[1], v[2], v[3], v[4], v[5],
			  (unsigned long long)rip);
	return "cpuid";
}

static const char *show_exit(const struct trace_rec *rec, struct sn_buf *b, struct sn_buf *js)
{
	uint32_t st = get32(rec->p);

	if (opt_raw) {
		sn_printf(b, "wstatus=%#x", st);
	} else if ((st & 0x7f) == 0) {
		sn_printf(b, "status %u", (st >> 8) & 0xff);
	} else {
		sn_puts(b, "signal ");
		sn_signal(b, st & 0x7f);
		if (st & 0x80)
			sn_puts(b, " core");
	}
	if (js) {
		sn_printf(js, ",\"wstatus\":%u", st);
		if ((st & 0x7f) == 0)
			sn_printf(js, ",\"status\":%u,\"signal\":null", (st >> 8) & 0xff);
		else if (signal_name(st & 0x7f))
			sn_printf(js, ",\"status\":null,\"signal\":\"%s\"", signal_name(st & 0x7f));
		else
			sn_printf(js, ",\"status\":null,\"signal\":%u", st & 0x7f);
	}
	return "exit";
}

/* Entries of syscalls whose end (TR_SYSRET) is still to come, by
 * thread, so that the end prints as the whole call. */
static struct { uint32_t tid; uint8_t *p; size_t len; } pend[64];

static void remember_entry(const struct trace_rec *rec)
{
	int k = -1;
	for (int i = 0; i < 64 && k < 0; i++)
		if (pend[i].p && pend[i].tid == rec->tid)
			k = i;
	for (int i = 0; i < 64 && k < 0; i++)
		if (!pend[i].p)
			k = i;
	if (k < 0)
		k = rec->tid % 64;	/* more threads in calls than slots */
	free(pend[k].p);
	pend[k].tid = rec->tid;
	pend[k].p = xmalloc(rec->size);
	memcpy(pend[k].p, rec->p, rec->size);
	pend[k].len = rec->size;
}

/* The end of a syscall: shown as the whole call when its entry was seen,
 * else by name and result. */
static const char *show_sysret(const struct trace_rec *rec, struct sn_buf *b, struct sn_buf *js)
{
	size_t fixed = trace_fixed_size(TR_SYSRET), sfixed = trace_fixed_size(TR_SYSCALL);
	int32_t nr = (int32_t)get32(rec->p);
	int64_t ret = (int64_t)get64(rec->p + 8);
	for (int i = 0; i < 64; i++) {
		if (pend[i].tid != rec->tid || !pend[i].p || pend[i].len < sfixed ||
		    (int32_t)get32(pend[i].p) != nr)
			continue;
		size_t n = pend[i].len + rec->size - fixed;
		uint8_t *p = xmalloc(n);
		memcpy(p, pend[i].p, pend[i].len);
		memcpy(p + 56, &ret, 8);
		memcpy(p + pend[i].len, rec->p + fixed, rec->size - fixed);
		struct trace_rec whole = *rec;
		whole.kind = TR_SYSCALL;
		whole.flags = 0;
		whole.size = n;
		whole.p = p;
		show_syscall(&whole, b, js);
		free(p);
		free(pend[i].p);
		pend[i].p = NULL;
		pend[i].tid = 0;
		return "sysret";
	}
	static struct call c;
	c.e = sys_lookup(nr);
	if (!c.e) {
		sn_printf(b, "syscall_%d = %lld", nr, (long long)ret);
		return "sysret";
	}
	c.sc.ret = ret;
	c.noreturn = 0;
	sn_printf(b, "%s = ", c.e->name);
	put_ret(b, &c);
	if (js)
		sn_printf(js, ",\"name\":\"%s\",\"nr\":%d,\"ret\":%lld", c.e->name, nr, (long long)ret);
	return "sysret";
}

static const char *show_preempt(const struct trace_rec *rec, struct sn_buf *b, struct sn_buf *js)
{
	uint64_t rip = trace_preempt_rip(rec);
	size_t off = trace_fixed_size(TR_PREEMPT);
	struct trace_item it;
	uint64_t mem = 0, count = 0;
	int counted = 0;
	while (trace_item(rec, &off, &it) > 0)
		if (it.tag == IT_COUNT && it.len >= 8) {
			counted = 1;
			count = get64(it.p);
		} else if (it.tag == IT_HASHES)
			for (uint32_t k = 0; k + 24 <= it.len; k += 24)
				if (get64(it.p + k + 16) != POS_ZERO)	/* runs of empty pages are not read */
					mem += get64(it.p + k + 8);
	int ran = trace_preempt_ran(rec), point = trace_preempt_point(rec);
	int since = get64(rec->p + 8) & TRP_SINCE;
	sn_printf(b, "at %#llx (%s: registers, %llu KiB of memory hashed%s)", (unsigned long long)rip,
		  point ? "point: replay runs the thread to it" :
		  ran ? "replay sets its state, gdbstub runs the thread to it" :
		  "not re-executed: replay sets its state", (unsigned long long)mem / 1024,
		  since ? ", what changed since the last" : "");
	if (counted)
		sn_printf(b, " count=%llu", (unsigned long long)count);
	if (js)
		sn_printf(js, ",\"rip\":%llu,\"ran\":%s,\"point\":%s", (unsigned long long)rip,
			  ran ? "true" : "false", point ? "true" : "false");
	if (js && counted)
		sn_printf(js, ",\"count\":%llu", (unsigned long long)count);
	return "preempt";
}

/* The process of each thread that clone-like calls made, to give each
 * event's process id (a thread not seen made is its own process). */
static struct { uint32_t tid, pid; } *procs;
static size_t nprocs;

static uint32_t pid_of(uint32_t tid)
{
	for (size_t i = nprocs; i-- > 0;)
		if (procs[i].tid == tid)
			return procs[i].pid;
	return tid;
}

static void note_task(const struct trace_rec *rec)
{
	size_t off = trace_fixed_size(rec->kind);
	struct trace_item it;
	while (trace_item(rec, &off, &it) > 0)
		if (it.tag == IT_TASK && it.len >= 8) {
			procs = xrealloc(procs, (nprocs + 1) * sizeof *procs);
			procs[nprocs].tid = get32(it.p);
			procs[nprocs++].pid = get32(it.p + 4);
		}
}

const char *fmt_event(const struct trace_rec *rec, struct sn_buf *b, struct sn_buf *js, int raw)
{
	opt_raw = raw;
	if (rec->kind == TR_SYSCALL || rec->kind == TR_SYSRET)
		note_task(rec);
	if (js && rec->kind != TR_START)	/* the start record has its own */
		sn_printf(js, ",\"pid\":%u", pid_of(rec->tid));
	switch (rec->kind) {
	case TR_SYSCALL:
		if (rec->flags & TRF_ENTRY && rec->size >= trace_fixed_size(TR_SYSCALL))
			remember_entry(rec);
		if (rec->flags & TRF_JOINED) {
			show_syscall(rec, b, js);
			return "sysret";
		}
		return show_syscall(rec, b, js);
	case TR_SYSRET:
		return show_sysret(rec, b, js);
	case TR_PREEMPT:
		return show_preempt(rec, b, js);
	case TR_TASKEXIT:
		show_exit(rec, b, js);
		return "task-exit";
	case TR_START:
		return show_start(rec, b, js);
	case TR_SIGNAL:
		return show_signal(rec, b, js);
	case TR_RDTSC:
		return show_rdtsc(rec, b, js);
	case TR_CPUID:
		return show_cpuid(rec, b, js);
	case TR_EXIT:
		return show_exit(rec, b, js);
	}
	/* A kind newer than this tool: say so and go on. */
	sn_printf(b, "kind=%u size=%u", rec->kind, rec->size);
	return "unknown";
}
