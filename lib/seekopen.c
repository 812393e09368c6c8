/* seekopen.c: opening a replay at an event from the nearest of tseek's
 * checkpoints (eng_open_at). It sits above seek.c and the engine: nothing
 * of the engine calls into seek.c. */
#include "engine.h"
#include "seek.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

uint64_t eng_open_at(struct engine *e, const char *dir, uint64_t ev)
{
	eng_open(e, dir);
	struct seek_entry *ents = NULL;
	char why[4600];
	int n = seek_index(dir, &ents, why, sizeof why);
	if (n < 0) {
		warnx_("%s; replaying from the start", why);
		return 0;
	}
	int best = -1;
	for (int i = 0; i < n; i++)
		if (ents[i].event > 1 && ents[i].event <= ev &&
		    (best < 0 || ents[i].event > ents[best].event))
			best = i;
	uint64_t at = 0;
	if (best >= 0) {
		/* Start the program the normal way, then make it the
		 * checkpoint's process. */
		if (eng_resume(e, 0) != ENG_EVENT || e->cur.event != 1)
			snprintf(why, sizeof why, "%s: the program did not start at event 1", e->dir);
		else if (seek_apply(e, dir, &ents[best], why, sizeof why) == 0)
			at = ents[best].event;
		if (!at) {
			warnx_("%s; replaying from the start", why);
			eng_close(e);
			eng_open(e, dir);
		}
	}
	free(ents);
	return at;
}
