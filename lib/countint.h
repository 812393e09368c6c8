/* countint.h: what count.c, counttrap.c and countsnap.c share: the
 * processes counting follows, their patched places and their threads'
 * slots. Not for the rest of rewind (count.h is). */
#ifndef REWIND_COUNTINT_H
#define REWIND_COUNTINT_H

#include <stddef.h>
#include <stdint.h>

struct csite {
	uint64_t at;		/* first patched byte (first moved instruction) */
	uint64_t tramp;		/* its trampoline */
	uint16_t tlen;		/* the trampoline's length */
	uint16_t zero;		/* offset of the count trap's int3 in it */
	uint8_t len;		/* bytes patched */
	uint8_t live;		/* the flags are saved around the count */
	uint8_t orig[31];	/* what they were */
};

struct cthread {
	uint32_t tid;
	uint64_t slot;		/* its slot value while another holds the slot */
};

/* Where a run of sites is: the code they patch and their trampolines.
 * Only a filter for the calls that unmap or map over memory: every
 * site is inside a region (a dropped site may leave its region behind),
 * so a range that touches no region touches no site. */
struct cregion {
	uint64_t lo, hi;	/* code */
	uint64_t tlo, thi;	/* trampolines */
};

/* An executable mapping counting saw (patch_mapping), and for a process
 * counted lazily the file it maps, to patch it from at activate(). */
struct cseen {
	uint64_t lo, hi, off;
	int file;		/* index in cproc.files; -1: none */
};

/* A file a lazily counted process mapped: its path (rec: the file's,
 * replay: its copy in the trace) and what it was when mapped. */
struct cfile {
	char *path;
	uint64_t id[4];		/* dev, ino, size, mtime (ns); all 0: no stat */
};

/* One process (its id as recorded). */
struct cproc {
	uint32_t key;
	int ok;			/* its data page is mapped */
	uint32_t owner;		/* the thread whose value the slot holds (0: none) */
	struct csite *s;
	int n, cap;
	struct cregion *r;
	int nr;
	struct cthread *t;
	int nt;
	struct cseen *seen;	/* the executable mappings patch_mapping() saw */
	int nseen;
	struct cfile *files;	/* what they map, while pending */
	int nfiles;
	int traced;		/* a tracer in the tree traces it (count_traced):
				   its code is not patched, nor what it execs,
				   so that its tracer sees the program's own */
	int pending;		/* counted lazily and not patched yet: its
				   executable mappings are only seen, and
				   patched at its first thread or timer */
	int due;		/* pending, and its first thread or timer came
				   while another thread ran: patched at the
				   next call end when none does */
	int activating;		/* patching what it has seen (activate()) */
	char *exe;		/* what it execed (code_each_exec) */
};

/* Process key's state (made when make is set and there is none; NULL
 * otherwise): procs may move when one is made. */
struct cproc *cnt_proc(uint32_t key, int make);
/* Thread tid of c (made with a new thread's slot value if new). */
struct cthread *cnt_thread(struct cproc *c, uint32_t tid);
void cnt_push_site(struct cproc *c, const struct csite *s);
/* c's regions made again from its sites. */
void cnt_regions_make(struct cproc *c);
/* Forget the files c kept (lazily counted, not patched yet). */
void cnt_files_free(struct cproc *c);
/* The site of c whose trampoline holds rip, or NULL. */
const struct csite *cnt_site_at(const struct cproc *c, uint64_t rip);

#endif
