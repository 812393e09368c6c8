/* hashcache.c: file content hashes kept across runs in the code cache,
 * by the file's identity and times (hashcache.h). */
#include "codescan.h"
#include "hashcache.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HC_VERSION 1

/* An entry per file (device and inode), holding the hash with the
 * size and times it was taken at: one taken again replaces it. */
static void key_of(const struct stat *st, uint64_t key[2])
{
	uint64_t id[3] = { st->st_dev, st->st_ino, HC_VERSION };
	code_hash128(HASH_INIT, id, sizeof id, key);
}

#define HC_WORDS 6
static void entry_of(const struct stat *st, uint64_t hash, uint64_t v[HC_WORDS])
{
	uint64_t e[HC_WORDS] = { st->st_size, st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
				 st->st_ctim.tv_sec, st->st_ctim.tv_nsec, hash };
	memcpy(v, e, sizeof e);
}

static void put(const struct stat *st, uint64_t hash)
{
	uint64_t key[2], v[HC_WORDS];
	key_of(st, key);
	entry_of(st, hash, v);
	code_cache_put("hash", key, HC_VERSION, v, sizeof v);
}

/* Whether the modification time of st is 2 s old or more: a write
 * after it, in whatever tick of a coarse clock, moves it. */
static int settled(const struct stat *st)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	return st->st_mtim.tv_sec + 2 <= now.tv_sec;
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
			entry_of(&st, v[HC_WORDS - 1], want);
			if (same && !memcmp(v, want, sizeof v)) {
				close(fd);
				*hash = v[HC_WORDS - 1];
				*size = st.st_size;
				return 0;
			}
		}
	}
	int rc = hash_fd(fd, hash, size), e = errno;
	if (rc == 0 && known && fstat(fd, &after) == 0 && *size == (uint64_t)st.st_size &&
	    settled(&st)) {
		entry_of(&st, 0, v);
		entry_of(&after, 0, want);
		if (!memcmp(v, want, sizeof v) && st.st_ino == after.st_ino && st.st_dev == after.st_dev)
			put(&st, *hash);
	}
	close(fd);
	errno = e;
	return rc;
}

void hash_known_linked(const char *path, const struct stat *before, uint64_t hash)
{
	struct stat st;
	/* Its change time is new, but a write after would move the
	 * modification time, 2 s old or more, as well. */
	if (stat(path, &st) == 0 && st.st_dev == before->st_dev && st.st_ino == before->st_ino &&
	    st.st_size == before->st_size && st.st_size >= HASH_CACHE_MIN &&
	    st.st_mtim.tv_sec == before->st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == before->st_mtim.tv_nsec && settled(before))
		put(&st, hash);
}
