/* stop.h: one stop of a thread, sent to what handles it (a syscall entry
 * or exit, a signal, an exec, a new thread, an end). */
#ifndef REWIND_REC_STOP_H
#define REWIND_REC_STOP_H

#include "rec.h"

/* Handle one stop (wait status st) of cur. */
void handle(int st);

#endif
