/* codescan.h: what the code patchers (tsc.c, count.c) share: where a
 * mapping's code is and where decoding may start (ELF section headers,
 * .eh_frame_hdr), the tracee's executable file mappings, and a cache on
 * disk of what was derived from a file's code. */
#ifndef REWIND_CODESCAN_H
#define REWIND_CODESCAN_H

#include <stddef.h>
#include <stdint.h>
#include "pt.h"

/* A mapping being scanned, and the files its bytes may come from. */
struct codescan {
	struct pt_proc *p;
	uint64_t lo, hi;	/* the range, in the tracee */
	uint64_t off;		/* its file offset, when it maps a file */
	const char *files[2];	/* candidates for that file (NULL: none) */
	int shared;		/* a MAP_SHARED mapping: never written */
	/* Puts back the bytes another patcher changed in what was read of
	 * process key's memory, before it is compared with the file (NULL:
	 * none). */
	void (*unpatch)(uint32_t key, uint64_t addr, uint8_t *buf, size_t len);
	uint32_t key;
};

/* Where decoding may start in a mapping of n bytes: the executable
 * sections (offsets [from, to) into the mapping), and known instruction
 * starts in them (sorted), which are the functions' first instructions
 * that .eh_frame_hdr lists for unwinding. */
struct code {
	uint64_t *r;		/* from, to pairs */
	int nr;
	uint64_t *anchor;
	size_t nanchor;
	int landing;		/* the file has exception landing pads
				   (.gcc_except_table): targets no branch names */
	uint64_t strtab[4][2];	/* the file's string tables (offset, size) */
	int nstrtab;		/* how many; -1: more than that */
};

/* A mapping's bytes, as code_bytes() found them. */
struct codebytes {
	const uint8_t *bytes;	/* the mapping's n bytes */
	size_t n;
	uint64_t key;		/* the file's identity and offset, or 0 (no file) */
	int file;		/* 1: bytes come from a file that fits */
	uint8_t *img, *buf;	/* what to free */
	size_t size;
};

/* The bytes of sc's mapping and its code: from the first candidate file
 * that is an x86-64 ELF file whose code at the mapping's offset is the
 * mapping's, else (when files_only is 0) read from the tracee, decoded
 * from its start. Returns 0, or -1 (nothing to decode). Free both with
 * code_done(). */
int code_bytes(const struct codescan *sc, int files_only, struct code *c, struct codebytes *cb);
void code_done(struct code *c, struct codebytes *cb);

/* Call fn(sc, arg) for each executable file mapping of p (after an
 * execve; exe is the file executed, used when the path /proc shows cannot
 * be opened). The vDSO and anonymous code are left out. */
void code_each_exec(struct pt_proc *p, const char *exe, void (*fn)(struct codescan *, void *),
		    void *arg);

/* Whether any of [lo, hi) is executable in p; *shared: any is shared. */
int code_exec_in(struct pt_proc *p, uint64_t lo, uint64_t hi, int *shared);

int code_cmp64(const void *a, const void *b);

/* A 128-bit hash of n bytes at p, seeded with seed (not cryptographic;
 * four lanes at a time, several times faster than hash_update()). */
void code_hash128(uint64_t seed, const void *p, size_t n, uint64_t out[2]);

/* The patchers' cache on disk of what they derived from code, so a file
 * is decoded once, not at every start: entries in
 * ${XDG_CACHE_HOME:-$HOME/.cache}/rewind, named by what and key, which
 * the caller makes a hash of everything the payload was derived from
 * (so an entry cannot be stale, only missing). An entry holds a header
 * (magic, version, key, length) and a checksum over it and the payload;
 * one that does not match in every way is not used.
 * code_cache_map returns 0 with the payload mapped from the file (no
 * copy) at *buf (*len bytes), until code_cache_unmap(), -1 when there is
 * none, -2 when there is one but it is damaged (the caller rebuilds it
 * and puts it again), -3 when there is no cache (turned off, or no
 * directory for it). Entries are replaced by rename, never written in
 * place, so what is mapped stays as it was checked (a file cut short by
 * hand meanwhile would fault). code_cache_put writes an entry atomically
 * (a temporary file renamed over it); a failure is silent (the cache is
 * only an accelerator). REWIND_NO_CODE_CACHE=1 turns both off. */
int code_cache_map(const char *what, const uint64_t key[2], uint32_t version, const uint8_t **buf,
		   size_t *len);
void code_cache_unmap(const uint8_t *buf, size_t len);
void code_cache_put(const char *what, const uint64_t key[2], uint32_t version, const void *buf,
		    size_t len);

#endif
