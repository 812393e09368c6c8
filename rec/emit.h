/* emit.h: the bytes a call sends to rec's stdout or stderr, kept in the
 * trace so that replay prints them again. */
#ifndef REWIND_REC_EMIT_H
#define REWIND_REC_EMIT_H

#include "rec.h"

/* 1 or 2 when the program's fd is rec's stdout or stderr, else 0. */
int out_kind(uint64_t fd);

/* 1 or 2 when the call cur enters sends data to rec's stdout or stderr. */
int out_call(long nr, const uint64_t a[6]);

/* Bytes a write-family call sent to rec's stdout or stderr (k, as
 * out_call said at its entry: the file the kernel writes to is the one
 * the descriptor named then), kept so that replay can print them again. */
void emit_writes(long nr, const uint64_t a[6], int64_t ret, int k);

#endif
