/* rsp.c: the GDB remote serial protocol transport: framing, checksums,
 * acks, escaping, Ctrl-C detection, and the TCP listener for --listen. */
#include "rsp.h"

#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void rsp_init(struct rsp *c, int in, int out)
{
	memset(c, 0, sizeof *c);
	c->in = in;
	c->out = out;
}

/* Read what is there (blocking) after the unread bytes. Returns the count,
 * 0 at EOF, -1 on error. */
static ssize_t fill(struct rsp *c)
{
	ssize_t n;

	memmove(c->ibuf, c->ibuf + c->pos, c->len - c->pos);
	c->len -= c->pos;
	c->pos = 0;
	do
		n = read(c->in, c->ibuf + c->len, sizeof c->ibuf - c->len);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		c->len += n;
	return n;
}

static int getbyte(struct rsp *c)
{
	if (c->pos == c->len && fill(c) <= 0)
		return -1;
	return c->ibuf[c->pos++];
}

static int put(struct rsp *c, const void *p, size_t n)
{
	while (n > 0) {
		/* send() so that a closed socket gives EPIPE, not SIGPIPE */
		ssize_t w = send(c->out, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == ENOTSOCK)
			w = write(c->out, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p = (const char *)p + w;
		n -= w;
	}
	return 0;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

int rsp_recv(struct rsp *c, char *buf, size_t cap)
{
	if (c->intr) {
		c->intr = 0;
		return RSP_INTERRUPT;
	}
	for (;;) {
		int ch = getbyte(c), hi, lo;
		size_t n = 0;
		unsigned sum = 0;

		if (ch < 0)
			return -1;
		if (ch == 0x03)
			return RSP_INTERRUPT;
		if (ch != '$')
			continue;
		while ((ch = getbyte(c)) != '#') {
			if (ch < 0)
				return -1;
			sum += ch;
			if (ch == '}') {
				if ((ch = getbyte(c)) < 0)
					return -1;
				sum += ch;
				ch ^= 0x20;
			}
			if (n + 1 < cap)
				buf[n] = ch;
			n++;	/* counted on when too long, to skip the rest */
		}
		if ((hi = getbyte(c)) < 0 || (lo = getbyte(c)) < 0)
			return -1;
		if (hexval(hi) >= 0 && hexval(lo) >= 0 &&
		    (unsigned)(hexval(hi) << 4 | hexval(lo)) == (sum & 0xff)) {
			if (!c->noack && put(c, "+", 1) < 0)
				return -1;
			if (n + 1 > cap) {
				buf[0] = '\0';
				return RSP_TOOLONG;
			}
			buf[n] = '\0';
			return n;
		}
		if (!c->noack && put(c, "-", 1) < 0)
			return -1;
	}
}

/* After a send: 0 on '+', 1 on '-' (resend), -1 at EOF or error. */
static int wait_ack(struct rsp *c)
{
	for (;;) {
		switch (getbyte(c)) {
		case '+':
			return 0;
		case '-':
			return 1;
		case -1:
			return -1;
		case 0x03:
			c->intr = 1;
			break;
		case '$':
			/* gdb went on to its next packet: it had ours */
			c->pos--;
			return 0;
		}
	}
}

/* Send $<head><escaped data>#cs; head 0 for none. */
static int send_frame(struct rsp *c, char head, const void *data, size_t len)
{
	const unsigned char *p = data;
	unsigned char *f = malloc(2 * len + 6);
	size_t n = 0;
	unsigned sum = 0;
	int r;

	if (!f)
		return -1;
	f[n++] = '$';
	if (head)
		sum += f[n++] = head;
	for (size_t i = 0; i < len; i++) {
		unsigned char b = p[i];
		if (b == '$' || b == '#' || b == '}' || b == '*') {
			sum += f[n++] = '}';
			b ^= 0x20;
		}
		sum += f[n++] = b;
	}
	n += snprintf((char *)f + n, 4, "#%02x", sum & 0xff);
	while ((r = put(c, f, n)) == 0 && !c->noack && (r = wait_ack(c)) == 1)
		;
	free(f);
	return r;
}

int rsp_send(struct rsp *c, const char *data, size_t len)
{
	return send_frame(c, 0, data, len);
}

int rsp_send_str(struct rsp *c, const char *s)
{
	return send_frame(c, 0, s, strlen(s));
}

int rsp_sendf(struct rsp *c, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n, r;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	r = send_frame(c, 0, s, n);
	free(s);
	return r;
}

int rsp_console(struct rsp *c, const void *data, size_t len)
{
	char hex[2 * 512 + 1];

	for (size_t off = 0; off < len; off += 512) {
		size_t n = len - off < 512 ? len - off : 512;
		rsp_hex(hex, (const char *)data + off, n);
		if (send_frame(c, 'O', hex, 2 * n) < 0)
			return -1;
	}
	return 0;
}

int rsp_poll_interrupt(struct rsp *c)
{
	struct pollfd p = { .fd = c->in, .events = POLLIN };

	if (c->intr) {
		c->intr = 0;
		return 1;
	}
	if (c->len - c->pos < sizeof c->ibuf && poll(&p, 1, 0) > 0 && fill(c) <= 0)
		return 1;
	/* Only bytes before a packet count: 0x03 may be data inside one. */
	while (c->pos < c->len && c->ibuf[c->pos] != '$')
		if (c->ibuf[c->pos++] == 0x03)
			return 1;
	return 0;
}

void rsp_hex(char *dst, const void *src, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *s = src;

	for (size_t i = 0; i < n; i++) {
		*dst++ = digits[s[i] >> 4];
		*dst++ = digits[s[i] & 15];
	}
	*dst = '\0';
}

int rsp_unhex(void *dst, const char *src, size_t n)
{
	unsigned char *d = dst;

	for (size_t i = 0; i < n; i++, src += 2) {
		int hi, lo;
		if ((hi = hexval(src[0])) < 0 || (lo = hexval(src[1])) < 0)
			return -1;
		d[i] = hi << 4 | lo;
	}
	return 0;
}

int rsp_send_xfer(struct rsp *c, const void *obj, size_t objlen, uint64_t off, uint64_t len)
{
	uint64_t n = off < objlen ? objlen - off : 0;

	if (n > len)
		n = len;
	return send_frame(c, off + n < objlen ? 'm' : 'l', (const char *)obj + (n ? off : 0), n);
}

int rsp_listen_accept(const char *spec, char *err, size_t errlen)
{
	char host[256] = "127.0.0.1", name[NI_MAXHOST], serv[NI_MAXSERV], *end;
	const char *port = spec, *colon = strrchr(spec, ':');
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV }, *res, *ai;
	struct sockaddr_storage sa;
	socklen_t salen = sizeof sa;
	int fd = -1, cfd, e = 0, one = 1;

	if (colon) {
		const char *h = spec;
		size_t hl = colon - spec;
		if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']')
			h++, hl -= 2;
		if (hl >= sizeof host)
			goto bad;
		if (hl) {
			memcpy(host, h, hl);
			host[hl] = '\0';
		}
		port = colon + 1;
	}
	if (!isdigit((unsigned char)*port) || strtoul(port, &end, 10) > 65535 || *end)
		goto bad;
	if ((e = getaddrinfo(host, port, &hints, &res)) != 0) {
		snprintf(err, errlen, "cannot resolve %s: %s", host, gai_strerror(e));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
		    bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 1) == 0)
			break;
		e = errno;
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		snprintf(err, errlen, "cannot listen on %s:%s: %s", host, port, strerror(e));
		return -1;
	}
	if (getsockname(fd, (struct sockaddr *)&sa, &salen) < 0 ||
	    getnameinfo((struct sockaddr *)&sa, salen, name, sizeof name, serv, sizeof serv,
			NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		snprintf(err, errlen, "cannot listen on %s:%s: getsockname failed", host, port);
		close(fd);
		return -1;
	}
	if (sa.ss_family == AF_INET6)
		fprintf(stderr, "gdbstub: listening on [%s]:%s\n", name, serv);
	else
		fprintf(stderr, "gdbstub: listening on %s:%s\n", name, serv);
	do
		cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	while (cfd < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (cfd < 0) {
		snprintf(err, errlen, "accept on %s:%s: %s", name, serv, strerror(e));
		return -1;
	}
	/* Small packets both ways: don't let Nagle hold them back. */
	setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return cfd;
bad:
	snprintf(err, errlen, "bad listen address '%s': want PORT or HOST:PORT", spec);
	return -1;
}
