/* mapped.h: memory a call maps or refills from a file (mmap of a file,
 * SysV shared memory, madvise and mremap), saved for replay. */
#ifndef REWIND_REC_MAPPED_H
#define REWIND_REC_MAPPED_H

#include "rec.h"

/* madvise(MADV_DONTNEED) and a growing mremap refill private file
 * mappings from the file. Replay's copies of those mappings are
 * anonymous, so save what the pages hold now as kernel output. */
void file_pages(uint64_t lo, uint64_t hi, int anon);

/* cur attached a SysV shared memory segment at addr (shmat): replay
 * emulates it as it does a file mapped shared (one copy, which every
 * attachment in any process maps). Its bytes now go in as the file's,
 * read from the mapping; the segment's own dev and inode name it. */
void shm_attached(uint64_t addr, int writable);

/* cur mapped the file open at descriptor a[4] (an mmap's arguments a,
 * not MAP_ANONYMOUS): the file into the store (files/), or as a file
 * replay emulates when it is shared and writable. */
void file_mapped(const uint64_t a[6]);

#endif
