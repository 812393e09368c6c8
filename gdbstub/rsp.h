/* rsp.h: the GDB remote serial protocol transport: packet framing,
 * checksums, acks, escaping, Ctrl-C, and the --listen socket. */
#ifndef REWIND_RSP_H
#define REWIND_RSP_H

#include <stddef.h>
#include <stdint.h>

#define RSP_INTERRUPT (-2)	/* rsp_recv: gdb sent Ctrl-C (0x03) */
#define RSP_TOOLONG (-3)	/* rsp_recv: a whole packet, longer than buf */

struct rsp {
	int in, out;		/* file descriptors (stdin/stdout, or a socket twice) */
	int noack;		/* QStartNoAckMode accepted: no '+'/'-' either way */
	int intr;		/* a Ctrl-C came while waiting for an ack */
	size_t pos, len;	/* unread input is ibuf[pos..len) */
	unsigned char ibuf[4096];
};

void rsp_init(struct rsp *c, int in, int out);

/* Read the next packet's payload into buf: '}' escapes undone, checksum
 * verified, '+' sent unless noack (a bad checksum sends '-', unless noack,
 * and reads again). Stray '+'/'-' and other bytes outside packets are
 * skipped. Returns the payload length with buf NUL-terminated,
 * RSP_INTERRUPT when a 0x03 byte arrives outside a packet, RSP_TOOLONG
 * (acked, read to its end) when the payload does not fit in cap-1 bytes,
 * or -1 at EOF or on a read error. */
int rsp_recv(struct rsp *c, char *buf, size_t cap);

/* Send one packet $data#cs, escaping '$', '#', '}' and '*'. Unless noack,
 * waits for '+' and resends on '-'; a Ctrl-C meanwhile is kept for the
 * next rsp_recv or rsp_poll_interrupt. To accept QStartNoAckMode, send
 * "OK" first and then set noack. Returns 0, or -1 on a write error or EOF. */
int rsp_send(struct rsp *c, const char *data, size_t len);
int rsp_sendf(struct rsp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int rsp_send_str(struct rsp *c, const char *s);

/* Send len bytes of program output as "O<hex>" packets, split so that no
 * packet is large. Only valid while the program runs (before the stop
 * reply to a 'c' or 's'). Returns 0 or -1. */
int rsp_console(struct rsp *c, const void *data, size_t len);

/* Without blocking: has gdb sent a Ctrl-C? Consumes it; any packet that
 * arrives is kept for rsp_recv. Returns 1 for a Ctrl-C, and also when gdb
 * hung up (so the caller stops and then sees -1 from rsp_recv); else 0. */
int rsp_poll_interrupt(struct rsp *c);

/* Write n bytes as 2n lowercase hex digits and a NUL. */
void rsp_hex(char *dst, const void *src, size_t n);
/* Read n bytes from 2n hex digits. Returns 0, or -1 on a non-hex digit. */
int rsp_unhex(void *dst, const char *src, size_t n);

/* Answer qXfer:OBJECT:read:ANNEX:OFF,LEN from the whole object in memory:
 * "m" and the slice when more follows it, else "l" and the (maybe empty)
 * slice. Returns as rsp_send. */
int rsp_send_xfer(struct rsp *c, const void *obj, size_t objlen, uint64_t off, uint64_t len);

/* Listen on spec ("PORT" or "HOST:PORT", HOST a name or address, by
 * default 127.0.0.1; "[v6addr]:PORT" too; port 0 picks a free one), print
 * "gdbstub: listening on HOST:PORT" with the real port to stderr, and
 * accept one connection. Returns its fd, or -1 with a one-line message
 * (no program name) in err. */
int rsp_listen_accept(const char *spec, char *err, size_t errlen);

#endif
