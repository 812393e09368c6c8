/* fmt.h: record-to-text formatting shared by tdump and replay. */
#ifndef REWIND_FMT_H
#define REWIND_FMT_H

#include "sys_names.h"
#include "trace.h"

/* Append rec's detail text to b ("write(1, \"hi\\n\", 3) = 3") and, if js
 * is not NULL, its JSON fields (",\"key\":value...") to js. raw: no
 * decoding, arguments in hex (tdump --raw). Returns the kind word
 * ("syscall", "sysret", "signal", "rdtsc", "rdtscp", "preempt", "start",
 * "task-exit", "exit", "unknown"). */
const char *fmt_event(const struct trace_rec *rec, struct sn_buf *b, struct sn_buf *js, int raw);

/* Append bytes as a C string literal, strace's way: the first max of
 * the n bytes, then "..." after the quote if there is more (or more). */
void fmt_quote(struct sn_buf *b, const uint8_t *p, size_t n, size_t max, int more);

/* Append n bytes as a JSON string literal. */
void js_bytes(struct sn_buf *js, const uint8_t *p, size_t n);

#endif
