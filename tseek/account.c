/* account.c: tseek's account of itself (account.h): progress on stderr
 * while it replays, then a summary of the index and of the stretches
 * left without a checkpoint, with what refused one there. */
#include "account.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NWHY 8		/* distinct reasons told apart in one stretch */
#define SHOWN 10	/* stretches printed; the others are counted */
#define TTY_EVERY 0.2	/* seconds between updates of the line in place */
#define LOG_EVERY 10.0	/* seconds between progress lines elsewhere */

/* A reason a checkpoint was refused, and at how many events. */
struct why {
	const char *what;
	uint64_t n;
};

/* A stretch where a checkpoint was due and none could be taken. */
struct gap {
	uint64_t after;		/* the last checkpoint before it (0: none) */
	uint64_t from;		/* the first event where one was refused */
	uint64_t to;		/* the checkpoint that ended it (0: the end) */
	struct why why[NWHY];
	int nwhy;
	uint64_t other;		/* refusals for reasons past NWHY */
};

struct account {
	int quiet, tty;
	long long every;
	double interval;
	double t0, shown;	/* when tseek started, and showed progress */
	int width;		/* of the line in place, to blank it */
	uint64_t evsize;	/* of the events file */
	uint64_t ev;		/* the last event replayed */
	uint64_t taken, first, last;	/* checkpoints, their events */
	struct gap cur;		/* the stretch open, when open */
	int open;
	double opened;		/* when it opened */
	struct gap *gaps;	/* the stretches worth a line */
	size_t ngaps, cap;
};

struct account *acct_start(const char *dir, int quiet, long long every, double interval)
{
	struct account *a = xmalloc(sizeof *a);
	memset(a, 0, sizeof *a);
	a->quiet = quiet;
	a->tty = isatty(2);
	a->every = every;
	a->interval = interval;
	a->t0 = mono_s();
	a->shown = a->tty ? a->t0 - TTY_EVERY : a->t0;	/* a terminal sees it at once */
	char path[4200];
	struct stat st;
	snprintf(path, sizeof path, "%s/events", dir);
	if (stat(path, &st) == 0)
		a->evsize = st.st_size;
	return a;
}

static void progress(struct account *a, uint64_t off)
{
	double t = mono_s();
	if (a->quiet || t - a->shown < (a->tty ? TTY_EVERY : LOG_EVERY))
		return;
	a->shown = t;
	char line[200];
	int n = snprintf(line, sizeof line, "tseek: event %llu, %llu checkpoints, %.0f%% of the events file, %.0f s",
			 (unsigned long long)a->ev, (unsigned long long)a->taken,
			 a->evsize ? 100.0 * (off < a->evsize ? off : a->evsize) / a->evsize : 0.0,
			 t - a->t0);
	if (a->tty) {
		/* In place: blanks cover the end of a longer line before. */
		fprintf(stderr, "\r%s%*s", line, a->width > n ? a->width - n : 0, "");
		if (n > a->width)
			a->width = n;
	} else {
		fprintf(stderr, "%s\n", line);
	}
}

void acct_event(struct account *a, uint64_t ev, uint64_t off)
{
	a->ev = ev;
	progress(a, off);
}

static void keep(struct account *a)
{
	if (a->ngaps == a->cap)
		a->gaps = xrealloc(a->gaps, (a->cap = a->cap * 2 + 8) * sizeof *a->gaps);
	a->gaps[a->ngaps++] = a->cur;
}

void acct_try(struct account *a, uint64_t ev, const char *why)
{
	if (!why) {
		/* A stretch is worth a line when it held back at least one
		 * checkpoint: it lasted as long as the spacing asked for. */
		if (a->open && (a->every > 0 ? ev - a->cur.from >= (uint64_t)a->every
					     : mono_s() - a->opened >= a->interval)) {
			a->cur.to = ev;
			keep(a);
		}
		a->open = 0;
		if (!a->taken++)
			a->first = ev;
		a->last = ev;
		return;
	}
	if (!a->open) {
		memset(&a->cur, 0, sizeof a->cur);
		a->cur.after = a->last;
		a->cur.from = ev;
		a->opened = mono_s();
		a->open = 1;
	}
	int i = 0;
	while (i < a->cur.nwhy && strcmp(a->cur.why[i].what, why))
		i++;
	if (i == NWHY) {
		a->cur.other++;
		return;
	}
	if (i == a->cur.nwhy)
		a->cur.why[a->cur.nwhy++].what = why;
	a->cur.why[i].n++;
}

static int by_count(const void *x, const void *y)
{
	const struct why *m = x, *n = y;
	return m->n < n->n ? 1 : m->n > n->n ? -1 : 0;
}

/* One line for stretch g: where, and the reasons, the most frequent
 * first. */
static void tell_gap(struct account *a, struct gap *g)
{
	fprintf(stderr, "tseek: ");
	if (g->to && g->after)
		fprintf(stderr, "no checkpoint between events %llu and %llu", (unsigned long long)g->after,
			(unsigned long long)g->to);
	else if (g->to)
		fprintf(stderr, "no checkpoint before event %llu", (unsigned long long)g->to);
	else if (g->after)
		fprintf(stderr, "no checkpoint after event %llu", (unsigned long long)g->after);
	else
		fprintf(stderr, "no checkpoint at all");
	if (g->to)
		fprintf(stderr, " (due from event %llu): ", (unsigned long long)g->from);
	else
		fprintf(stderr, " (due from event %llu to the end, event %llu): ",
			(unsigned long long)g->from, (unsigned long long)a->ev);
	qsort(g->why, g->nwhy, sizeof g->why[0], by_count);
	for (int i = 0; i < g->nwhy; i++)
		fprintf(stderr, "%s%s (at %llu event%s)", i ? ", " : "", g->why[i].what,
			(unsigned long long)g->why[i].n, g->why[i].n == 1 ? "" : "s");
	if (g->other)
		fprintf(stderr, ", other reasons (at %llu events)", (unsigned long long)g->other);
	fputc('\n', stderr);
}

void acct_end(struct account *a, uint64_t end, uint64_t bytes)
{
	a->ev = end;
	if (a->open) {
		a->cur.to = 0;	/* to the end: always worth a line */
		keep(a);
	}
	if (!a->quiet) {
		if (a->tty && a->width)
			fprintf(stderr, "\r%*s\r", a->width, "");
		if (a->taken)
			fprintf(stderr, "tseek: %llu checkpoint%s, events %llu..%llu of %llu, index %llu bytes, %.1f s\n",
				(unsigned long long)a->taken, a->taken == 1 ? "" : "s", (unsigned long long)a->first,
				(unsigned long long)a->last, (unsigned long long)a->ev,
				(unsigned long long)bytes, mono_s() - a->t0);
		else
			fprintf(stderr, "tseek: no checkpoints, %llu events, index %llu bytes, %.1f s\n",
				(unsigned long long)a->ev, (unsigned long long)bytes, mono_s() - a->t0);
		/* The first ones and the last, which says why the end
		 * has none when it has none. */
		for (size_t i = 0; i < a->ngaps; i++) {
			if (i == SHOWN - 1 && a->ngaps > SHOWN)
				fprintf(stderr, "tseek: and %zu more stretches without a checkpoint\n",
					a->ngaps - SHOWN);
			if (i < SHOWN - 1 || i == a->ngaps - 1)
				tell_gap(a, &a->gaps[i]);
		}
	}
	free(a->gaps);
	free(a);
}
