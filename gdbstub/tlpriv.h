/* tlpriv.h: what the timeline's files (tlbase.c, int3.c, gaps.c,
 * resume.c, marks.c, count.c, moves.c, forward.c, reverse.c, timeline.c) share among
 * themselves; the rest of gdbstub sees only timeline.h. */
#ifndef REWIND_TLPRIV_H
#define REWIND_TLPRIV_H

#include "timeline.h"

#define COUNT_CHUNK 20000	/* executions counted between checkpoints */
#define PERF_END 2		/* cookie: the count that ends a move */
#define EFLAGS_RF 0x10000	/* resume flag: set by the kernel after some traps */

/* ---- positions, stop sets and hits (tlbase.c) ---- */

/* Append move m to p. */
void tlpos_push(struct tl_pos *p, const struct move *m);
/* Make dst src's event and first n moves. */
void tlpos_set(struct tl_pos *dst, const struct tl_pos *src, int n);
void tlpos_free(struct tl_pos *p);
/* Is a at or before b on the way b is reached? Positions whose moves
 * went different ways are not compared (0). */
int tlpos_le(const struct tl_pos *a, const struct tl_pos *b);
int tlpos_eq(const struct tl_pos *a, const struct tl_pos *b);
/* Of two positions on one way, is a the later? */
int tlpos_later(const struct tl_pos *a, const struct tl_pos *b);
/* Are a and b moves of one kind through the same set or place (their
 * lengths aside)? */
int move_same(const struct move *a, const struct move *b);
int stopset_eq(const struct stopset *a, const struct stopset *b);
/* d = a plus those of b (may be NULL) not in a, as room allows. */
void stopset_union(struct stopset *d, const struct stopset *a, const struct stopset *b);
/* Is a one of s's int3 breakpoints? */
int stopset_has_bp(const struct stopset *s, uint64_t a);
/* Record a hit of the search at here plus pre (if given) plus m. */
void hit_add(struct timeline *t, const struct move *pre, const struct move *m, const struct why *w);

/* ---- threads and the end of history (tlbase.c) ---- */

/* Does the thread that runs now belong to the debugged process? */
int tl_mine(struct timeline *t);
/* Where the thread that runs now is, if it is the debugged process's;
 * else 0. */
uint64_t tl_rip_now(struct timeline *t);
/* Registers of the thread that runs now, as the program sees them. */
void tl_regs(struct timeline *t, struct user_regs_struct *r);
/* Is the replay at the end of the debugged process's history? */
int tl_at_end(struct timeline *t);

/* ---- the stub's int3s in the program's code (int3.c) ---- */

/* Make the int3s in the debugged process those of s, but none at rip. */
void int3_sync(struct timeline *t, const struct stopset *s, uint64_t rip);
/* After an event: forget the int3s the program's own bytes replaced, and
 * take those out of a process just forked from the debugged one. */
void int3_recheck(struct timeline *t);

/* ---- stretches set, not re-executed (gaps.c) ---- */

/* Remember the event just replayed if it preempted a thread of the
 * debugged process without re-executing its stretch (for tl_gaps). */
void gap_note(struct timeline *t);

/* ---- one resume with breakpoints and watchpoints armed (resume.c) ---- */

/* What stopped a resume. */
struct trapinfo {
	int res;		/* ENG_*; 0 is a failure (t->msg) */
	int arrived;		/* rip is where a step landed or an int3 hit */
	int perf;		/* a kernel count (MV_COUNT) reached its end */
	uint64_t cookie;	/* which count (its perf sig_data) */
	uint64_t rip;
	int nw;			/* watchpoints that fired */
	uint64_t waddr[TL_MAXWP];
	int wlen[TL_MAXWP], wtype[TL_MAXWP];
};

/* Resume once (step or continue) with s armed; fills *ti. */
void tl_resume(struct timeline *t, const struct stopset *s, int step, struct trapinfo *ti);
/* Did the stop belong to set s? Fills *w with why, if given. */
int tl_stop_of(const struct stopset *s, const struct trapinfo *ti, struct why *w);

/* ---- checkpoints (marks.c) ---- */

/* Fork the replay into s, with nothing of the stub's armed or in its
 * code. Returns -1 if no copy can be made here. */
int mark_snap(struct timeline *t, struct eng_snap *s);
/* Make a checkpoint here (or reuse the one here) with user id id (0 for
 * an automatic one); returns its id, or -1. */
int mark_add(struct timeline *t, int id);
void mark_drop(struct timeline *t, int i);
/* A periodic checkpoint, if one is due. */
void mark_maybe(struct timeline *t);
/* On a long move, a checkpoint now and then: here plus m. */
void mark_mid(struct timeline *t, const struct move *m);
/* The latest checkpoint at or before p, or -1. */
int mark_best(struct timeline *t, const struct tl_pos *p);
/* Bring the replay back to checkpoint i. */
void mark_restore(struct timeline *t, int i);

/* ---- forward moves (moves.c) ---- */

/* A search backwards records the stops of the user's set it passes. */
struct scan {
	const struct stopset *u;
	int final;		/* the stop that ends the move is the target */
};

/* A hash of the writable memory of the thread that runs now. */
uint64_t tl_mem_hash(struct timeline *t);
/* Are registers and memory those of MATCH move m? */
int tl_state_is(struct timeline *t, const struct move *m);
/* Replay forwards from here to p, which lies ahead on here's way; with
 * sc, record sc's stops on the way. Returns 0 or -1 (t->msg). */
int tl_advance(struct timeline *t, const struct tl_pos *p, const struct scan *sc);
/* Bring the replay to p: from here if p lies ahead on its way, else from
 * the latest checkpoint before p. Returns 0 or -1 (t->msg). */
int tl_go_to(struct timeline *t, const struct tl_pos *p);
/* Append m to here, merging it with the moves before where they are one. */
void tl_append(struct timeline *t, const struct move *m);

/* ---- counted moves (count.c) ---- */

/* Count what COUNT move m counts, signalling at every period-th with
 * cookie (watch.h). Returns a handle, or -1 with t->msg. */
int count_move(struct timeline *t, const struct move *m, uint64_t period, uint64_t cookie);
/* Make COUNT move m from here, its first done units made; with sc,
 * record sc's stops on the way. Returns 0 or -1. */
int count_make(struct timeline *t, const struct move *m, uint64_t done, const struct scan *sc);
/* Count the hits of watchpoint wm in the thread that runs now (closing
 * fd first); u gets the set to arm beside it. Returns the count or -1. */
int count_watch(struct timeline *t, const struct move *wm, struct stopset *u,
		const struct scan *sc, int fd);

#endif
