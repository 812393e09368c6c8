/* hashcache.c: file content hashes kept across runs in the code cache,
 * by the file's identity and times (hashcache.h). */
#include "codescan.h"
#include "hashcache.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#define HC_VERSION 2

/* An entry per file (device and inode), holding the hash with the
 * size, times and link count it was taken at: one taken again replaces
 * it. */
static void key_of(const struct stat *st, uint64_t key[2])
{
	uint64_t id[3] = { st->st_dev, st->st_ino, HC_VERSION };
	code_hash128(HASH_INIT, id, sizeof id, key);
}

#define HC_WORDS 7
enum { HC_SIZE, HC_MTIME, HC_MTIME_NS, HC_CTIME, HC_CTIME_NS, HC_NLINK, HC_HASH };
static void entry_of(const struct stat *st, uint64_t hash, uint64_t v[HC_WORDS])
{
	uint64_t e[HC_WORDS] = { st->st_size, st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
				 st->st_ctim.tv_sec, st->st_ctim.tv_nsec, st->st_nlink, hash };
	memcpy(v, e, sizeof e);
}

/* Whether entry v still names the bytes of the file now as want: the
 * same size and modification time, and the same change time unless the
 * link count moved, which moves the change time alone. rec's hard link
 * into a trace's files/ makes one, and so does removing that trace:
 * taken as a write, each recording after an `rm -rf` of the last trace
 * would read and hash cc1 (33 MB) again. A write in place that keeps
 * the size and sets the modification time back, with the link count
 * moving too, goes unseen. */
static int same_bytes(const uint64_t v[HC_WORDS], const uint64_t want[HC_WORDS])
{
	return !memcmp(v, want, HC_CTIME * sizeof *v) &&
	       (!memcmp(v + HC_CTIME, want + HC_CTIME, 2 * sizeof *v) || v[HC_NLINK] != want[HC_NLINK]);
}

static void put(const struct stat *st, uint64_t hash)
{
	uint64_t key[2], v[HC_WORDS];
	key_of(st, key);
	entry_of(st, hash, v);
	code_cache_put("hash", key, HC_VERSION, v, sizeof v);
}

/* Seconds a modification time must be old for a hash to be kept. A
 * write through a shared mapping moves the file's times only at a page's
 * first write fault after it was last written back: writes to pages
 * still dirty from before do not. So the time must be older than the
 * kernel leaves a page dirty (vm.dirty_expire_centisecs, then two passes
 * of the flusher, vm.dirty_writeback_centisecs, and 2 s for a coarse
 * clock: 42 s by default), for the writes after it to have come through
 * a fault that moved the time. */
static long settle_s(void)
{
	static long s;
	if (!s) {
		long expire = 3000, every = 500;
		FILE *f = fopen("/proc/sys/vm/dirty_expire_centisecs", "re");
		if (f && fscanf(f, "%ld", &expire) != 1)
			expire = 3000;
		if (f)
			fclose(f);
		f = fopen("/proc/sys/vm/dirty_writeback_centisecs", "re");
		if (f && fscanf(f, "%ld", &every) != 1)
			every = 500;
		if (f)
			fclose(f);
		/* No periodic flush (0), or odd values: nothing is kept. */
		s = expire < 0 || expire > 8640000 || every <= 0 || every > 8640000 ?
			    LONG_MAX / 4 : 2 + (expire + 2 * every) / 100;
	}
	return s;
}

/* Whether a hash of the file of st may be kept: its modification time
 * settled (above), and not in memory-backed filesystems (tmpfs, a memfd,
 * hugetlbfs, ramfs), whose mapped writes never move it. */
static int settled(int fd, const struct stat *st)
{
	struct statfs sf;
	time_t now = clock_ns(CLOCK_REALTIME) / 1000000000u;
	return st->st_mtim.tv_sec + settle_s() <= now && fstatfs(fd, &sf) == 0 &&
	       sf.f_type != TMPFS_MAGIC && sf.f_type != HUGETLBFS_MAGIC && sf.f_type != RAMFS_MAGIC;
}

int hash_file_known(const char *path, uint64_t *hash, uint64_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st, after;
	uint64_t key[2], v[HC_WORDS], want[HC_WORDS];
	int known = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= HASH_CACHE_MIN;
	if (known) {
		key_of(&st, key);
		const uint8_t *b;
		size_t len;
		if (code_cache_map("hash", key, HC_VERSION, &b, &len) == 0) {
			int same = len == sizeof v;
			if (same)
				memcpy(v, b, sizeof v);
			code_cache_unmap(b, len);
			entry_of(&st, v[HC_HASH], want);
			if (same && same_bytes(v, want)) {
				close(fd);
				*hash = v[HC_HASH];
				if (memcmp(v, want, sizeof v))
					put(&st, *hash);	/* at the new change time */
				*size = st.st_size;
				return 0;
			}
		}
	}
	int rc = hash_fd(fd, hash, size), e = errno;
	if (rc == 0 && known && fstat(fd, &after) == 0 && *size == (uint64_t)st.st_size &&
	    settled(fd, &st)) {
		entry_of(&st, 0, v);
		entry_of(&after, 0, want);
		if (!memcmp(v, want, sizeof v))	/* no write while it was read */
			put(&st, *hash);
	}
	close(fd);
	errno = e;
	return rc;
}

void hash_known_linked(const char *path, const struct stat *before, uint64_t hash)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	/* Its change time is new, but a write after would move the
	 * modification time, settled, as well. */
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == before->st_dev &&
	    st.st_ino == before->st_ino && st.st_size == before->st_size &&
	    st.st_size >= HASH_CACHE_MIN && st.st_mtim.tv_sec == before->st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == before->st_mtim.tv_nsec && settled(fd, before))
		put(&st, hash);
	if (fd >= 0)
		close(fd);
}
