/* files.c: finds and checks the bytes of the files a trace depends on,
 * by size and content hash, and copies them into a trace (see files.h
 * and rewind-trace(5), THE FILES DIRECTORY). */
#include "files.h"
#include "hashcache.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int files_ref(const struct trace_item *it, struct files_ref *f)
{
	if (it->len < 32 || it->len - 32 >= sizeof f->path)
		return -1;
	f->flags = it->flags;
	f->size = get64(it->p);
	f->mtime = (int64_t)get64(it->p + 8);
	f->hash = get64(it->p + 16);
	f->off = get64(it->p + 24);
	memcpy(f->path, it->p + 32, it->len - 32);
	f->path[it->len - 32] = 0;
	return 0;
}

void files_blob(char *buf, size_t len, const char *dir, uint64_t hash)
{
	snprintf(buf, len, "%s/files/%016llx", dir, (unsigned long long)hash);
}

/* The hashes this process took, by the file's identity and times: a
 * replay maps the same libraries into every process it starts, and a
 * file whose inode, size, modification and change times are as they were
 * is not hashed again (rec's store_file keeps the same within a
 * recording). Files under 1 MiB, which hashcache.c does not keep across
 * runs, are most of them. */
static struct seen {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
	uint64_t hash;
} seen[256];
static int nseen, next_seen;

static int seen_same(const struct seen *v, const struct stat *st)
{
	return v->dev == st->st_dev && v->ino == st->st_ino && v->size == st->st_size &&
	       v->mtime.tv_sec == st->st_mtim.tv_sec && v->mtime.tv_nsec == st->st_mtim.tv_nsec &&
	       v->ctime.tv_sec == st->st_ctim.tv_sec && v->ctime.tv_nsec == st->st_ctim.tv_nsec;
}

/* The hash of the file at path, whose stat is st (size: what was read). */
static int hash_seen(const char *path, const struct stat *st, uint64_t *h, uint64_t *size)
{
	for (int i = 0; i < nseen; i++)
		if (seen_same(&seen[i], st)) {
			*h = seen[i].hash;
			*size = st->st_size;
			return 0;
		}
	if (hash_file_known(path, h, size) < 0)
		return -1;
	struct stat after;
	if (*size == (uint64_t)st->st_size && stat(path, &after) == 0 && after.st_dev == st->st_dev &&
	    after.st_ino == st->st_ino) {
		struct seen v = { st->st_dev, st->st_ino, st->st_size, st->st_mtim, st->st_ctim, *h };
		if (seen_same(&v, &after)) {	/* no change while it was read */
			seen[next_seen] = v;
			next_seen = (next_seen + 1) % 256;
			if (nseen < 256)
				nseen++;
		}
	}
	return 0;
}

int files_same(const char *path, const struct files_ref *f, const char **why)
{
	struct stat st;
	uint64_t h, size;
	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		return 1;
	}
	if ((uint64_t)st.st_size != f->size) {
		*why = "size differs";
		return 1;
	}
	if (hash_seen(path, &st, &h, &size) < 0)
		return -1;
	if (size != f->size || h != f->hash) {
		*why = size != f->size ? "size differs" : "hash differs";
		return 1;
	}
	return 0;
}

int files_copy(const char *src, const char *dst, const struct files_ref *f, const char **why)
{
	/* Whole 8-byte words go to the hash, as in hash_file(). */
	static uint8_t buf[1 << 20];
	int in = open(src, O_RDONLY | O_CLOEXEC), out = -1, rc = -1, e = 0;
	if (in < 0)
		return -1;
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0500);
	if (out < 0)
		goto done;
	uint64_t h = HASH_INIT, total = 0;
	size_t have = 0;
	for (;;) {
		ssize_t n = read(in, buf + have, sizeof buf - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto done;
		have += n;
		total += n;
		if (n == 0 || have == sizeof buf) {
			h = hash_update(h, buf, have);
			if (write_all(out, buf, have) < 0)
				goto done;
			have = 0;
			if (n == 0)
				break;
		}
	}
	if (fsync(out) < 0)
		goto done;
	rc = 0;
	/* A large file hashes by pieces (hash_file): the copy's is that. */
	if (total == f->size && total > HASH_PIECES_MIN && hash_file(dst, &h, &total) < 0)
		goto done;
	else if (total <= HASH_PIECES_MIN)
		h = hash_final(h, total);
	if (total != f->size || h != f->hash) {
		*why = total != f->size ? "size differs" : "hash differs";
		rc = 1;
	}
done:
	e = errno;
	close(in);
	if (out >= 0 && close(out) < 0 && rc == 0) {
		e = errno;
		rc = -1;
	}
	if (rc != 0 && out >= 0)
		unlink(dst);
	errno = e;
	return rc;
}
