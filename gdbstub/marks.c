/* marks.c: checkpoints, forks of the replay at known positions: the
 * periodic ones a forward replay leaves behind (thinned towards the past)
 * and gdb's monitor checkpoints. Going back starts from the best one. */
#include "tlpriv.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXMARKS 64		/* periodic and stop checkpoints kept */
#define MARK_EVERY 0.05		/* seconds of forward replay between checkpoints */

/* Seconds between checkpoints: MARK_EVERY, or REWIND_MARK_EVERY (tests
 * make checkpoints fall everywhere with a tiny value, as a loaded machine
 * does now and then). */
static double mark_every(void)
{
	static double v = -1;
	if (v < 0) {
		const char *s = getenv("REWIND_MARK_EVERY");
		v = s && atof(s) > 0 ? atof(s) : MARK_EVERY;
	}
	return v;
}

void mark_drop(struct timeline *t, int i)
{
	eng_snap_free(&t->marks[i].snap);
	tlpos_free(&t->marks[i].pos);
	memmove(&t->marks[i], &t->marks[i + 1], (t->nmarks - i - 1) * sizeof t->marks[0]);
	t->nmarks--;
}

/* Fork the replay, with no debug register armed while it runs the fork. */
int mark_snap(struct timeline *t, struct eng_snap *s)
{
	watch_disarm(&t->w);
	if (watch_still_armed(&t->w))
		return -1;	/* its copy would fault where the recording did not */
	tl_flush(t);
	return eng_snap(&t->e, s);
}

/* Add m to the checkpoints, thinning the automatic ones. */
static void mark_keep(struct timeline *t, const struct mark *m)
{
	if (t->nmarks == t->capmarks) {
		t->capmarks = t->capmarks ? 2 * t->capmarks : 32;
		t->marks = xrealloc(t->marks, t->capmarks * sizeof *t->marks);
	}
	t->marks[t->nmarks++] = *m;
	t->last_mark = mono_s();
	/* Keep at most MAXMARKS automatic ones: drop every second of the
	 * older half, so that checkpoints thin out towards the past. */
	int autos = 0;
	for (int i = 0; i < t->nmarks; i++)
		autos += t->marks[i].id == 0;
	if (autos > MAXMARKS) {
		int seen = 0;
		for (int i = 1; i < t->nmarks && seen < MAXMARKS / 2; i++)
			if (t->marks[i].id == 0 && seen++ % 2 == 0)
				mark_drop(t, i--);
	}
}

int mark_add(struct timeline *t, int id)
{
	for (int i = 0; i < t->nmarks; i++)
		if (tlpos_eq(&t->marks[i].pos, &t->here)) {
			if (id && !t->marks[i].id)
				t->marks[i].id = id;
			return t->marks[i].id;
		}
	struct mark m = { 0 };
	if (mark_snap(t, &m.snap) < 0)
		return -1;
	tlpos_set(&m.pos, &t->here, t->here.n);
	m.id = id;
	mark_keep(t, &m);
	return id;
}

void mark_maybe(struct timeline *t)
{
	if (mono_s() - t->last_mark > mark_every())
		mark_add(t, 0);
}

/* The latest checkpoint at or before p, or -1. */
int mark_best(struct timeline *t, const struct tl_pos *p)
{
	int best = -1;
	for (int i = 0; i < t->nmarks; i++)
		if (tlpos_le(&t->marks[i].pos, p) && (best < 0 || tlpos_later(&t->marks[i].pos, &t->marks[best].pos)))
			best = i;
	return best;
}

void mark_restore(struct timeline *t, int i)
{
	eng_restore(&t->e, &t->marks[i].snap);
	watch_reset(&t->w);
	t->ins.n = 0;	/* checkpoints are made without int3s */
	t->seen = t->e.made;
	eng_ready(&t->e);
	if (tl_mine(t))
		t->ran = t->e.tasks[t->e.ti].rtid;
	tlpos_set(&t->here, &t->marks[i].pos, t->marks[i].pos.n);
}

/* Now and then on a long move, a checkpoint: here plus m (merged into
 * here's last move when they are one move; a move made in two parts is
 * the same move). */
void mark_mid(struct timeline *t, const struct move *m)
{
	if (mono_s() - t->last_mark <= mark_every() || m->kind == MV_MATCH)
		return;
	struct tl_pos *h = &t->here;
	struct move *last = h->n ? &h->mv[h->n - 1] : NULL;
	if (last && move_same(last, m)) {
		uint64_t keep = last->n;
		last->n += m->n;
		mark_add(t, 0);
		last->n = keep;
	} else {
		tlpos_push(h, m);
		mark_add(t, 0);
		h->n--;
	}
}

int tl_checkpoint(struct timeline *t)
{
	int id = ++t->nextid;
	int got = mark_add(t, id);
	if (got < 0) {
		snprintf(t->msg, sizeof t->msg, "%s", tl_at_end(t) ? "no checkpoint at the end of history: the program is exiting; go back first"
			 : t->e.pending_sig || t->e.raised ? "cannot make a checkpoint here (a signal is being delivered); step first"
			 : "cannot make a checkpoint here (a thread is where no copy can be made: a vfork or execve under way, or on its way out); step or continue first");
		t->nextid--;
		return -1;
	}
	if (got != id)
		t->nextid--;
	return got;
}

long tl_mark_kib(struct timeline *t)
{
	long total = 0;
	for (int i = 0; i < t->nmarks; i++) {
		char path[64], line[256];
		snprintf(path, sizeof path, "/proc/%d/smaps_rollup", t->marks[i].snap.pid);
		FILE *f = fopen(path, "re");
		long kb;
		while (f && fgets(line, sizeof line, f))
			if (sscanf(line, "Pss: %ld kB", &kb) == 1)
				total += kb;
		if (f)
			fclose(f);
	}
	return total;
}

int tl_restart(struct timeline *t, int id)
{
	for (int i = 0; i < t->nmarks; i++)
		if (t->marks[i].id == id && id > 0) {
			mark_restore(t, i);
			t->nhits = 0;
			return 0;
		}
	snprintf(t->msg, sizeof t->msg, "no checkpoint %d", id);
	return -1;
}
