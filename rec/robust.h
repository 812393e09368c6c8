/* robust.h: the marks the kernel makes through robust futex lists when
 * threads end, recorded for replay to write. */
#ifndef REWIND_REC_ROBUST_H
#define REWIND_REC_ROBUST_H

#include "rec.h"

/* The futex words the kernel marked (FUTEX_OWNER_DIED) through the
 * robust list of cur, a thread that just ended, as IT_MEM items of the
 * record being built: its live siblings see them, and replay's kernel,
 * which knows the thread by another id than the one in the words, would
 * not mark them. Read through a sibling (the memory is theirs now). */
void robust_marks(void);

/* The marks (FUTEX_OWNER_DIED) the kernel makes through the robust lists
 * of the threads of process tgid when it ends, as IT_MEM items into w.
 * Read while it still lives; replay writes them through cur, before the
 * end: so where tgid is another process, only the words in memory cur
 * shares with it (a process-shared mutex), where cur sees them. */
void process_robust_marks(pid_t tgid, struct trace_writer *w);

/* cur is at the entry of exit_group, or of exit as its process's last
 * thread: the marks the kernel is about to make through the robust lists
 * of the threads that end, as IT_MEM items of the call's record. No
 * sibling outlives them to show the marks afterwards (robust_marks), yet
 * the words may be in memory shared with other processes (a
 * process-shared mutex): replay writes them before the call. */
void exit_robust_marks(long nr);

/* cur is at the entry of a kill, tkill, tgkill or pidfd_send_signal
 * (arguments a) that may send SIGKILL to a process of the tree: the
 * marks its end makes, as IT_MEM items of the call's record (staged in
 * w). Replay writes them as the call's outputs: the program learns of
 * the end (wait4) after it. */
void kill_robust_marks(long nr, const uint64_t *a, struct trace_writer *w);

#endif
