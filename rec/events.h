/* events.h: the records rec writes into the trace's events file, in the
 * order replay meets them, and the end of recording. */
#ifndef REWIND_REC_EVENTS_H
#define REWIND_REC_EVENTS_H

#include "rec.h"

/* Write out what is buffered of the events file, or die. */
void flush_or_die(void);

/* Stop recording: keep what was recorded (a record still being built is
 * left out, so the trace ends before it), end the program, say why
 * (printf-like) and exit with status. */
void __attribute__((noreturn, format(printf, 2, 3))) stop_recording(int status,
								    const char *fmt, ...);

/* A cap_inputs callback: an IT_ARG item into the writer ctx. */
void item_arg(void *ctx, int arg, uint64_t full, const void *data, size_t len);

/* A cap_outputs callback: an IT_MEM item into the writer ctx, or (NULL)
 * of the record being built. */
void item_mem(void *ctx, uint64_t addr, const void *data, size_t len);

/* Start a record of the current task, after the entries of syscalls
 * that began before it. */
void begin(int kind, int flags);

/* Save tracee memory [from, to) as an IT_MEM item of the current record. */
void save_mem(uint64_t from, uint64_t to);

/* The trace directory being written. */
const char *rec_dir(void);

/* Write the entries of syscalls still in the kernel that began before
 * seq as TRF_ENTRY records, oldest first: a record of another thread
 * comes after them. */
void flush_entries(uint64_t before);

/* A record of kind (TR_EXIT, TR_TASKEXIT) for cur, with wait status st. */
void record_exit(int kind, int st);

/* The recorded program ended with wait status st: close the trace, kill
 * what it left running, and exit as it did. */
void __attribute__((noreturn)) finish(int st);

/* The first record (TR_START): the time, the first thread, the cwd,
 * the CPU, the buffer ABI and --chaos's seed. */
void record_start(void);

#endif
