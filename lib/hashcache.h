/* hashcache.h: the content hash of a file (hash_file) kept across runs in
 * the code cache (codescan.h), so an unchanged compiler or events file is
 * not read and hashed again at every recording, replay and seek. */
#ifndef REWIND_HASHCACHE_H
#define REWIND_HASHCACHE_H

#include <stdint.h>
#include <sys/stat.h>

/* As hash_file(). A regular file of HASH_CACHE_MIN bytes or more is
 * looked up by what names its bytes: device, inode, size, modification
 * and change times (the kernel moves both times at every write; setting
 * the modification time back moves the change time), the change time
 * unless the link count moved (a trace's hard link made or removed),
 * which moves it too. A hash is kept only
 * when those did not move while it was taken, the file is not in memory
 * (tmpfs, memfd), and its modification time is older than the kernel
 * leaves a page dirty (42 s by default): a write through a shared mapping
 * moves the times only at a page's first write fault after it was
 * written back. REWIND_NO_CODE_CACHE=1 turns the cache off: every file
 * is read. */
#define HASH_CACHE_MIN (64u << 10)
int hash_file_known(const char *path, uint64_t *hash, uint64_t *size);
/* A hard link to the file at path was made (rec's files/), which moved
 * its change time: its hash (of the bytes stat'd as before) is kept
 * under the new one, unless its size or its modification time (old
 * enough, as above) moved as well. */
void hash_known_linked(const char *path, const struct stat *before, uint64_t hash);

#endif
