/* tracedir.c: the trace directory, and the file store (files/) that holds
 * the files the program executed and mapped. */
#include "cpu.h"
#include "hashcache.h"
#include "tsc.h"
#include "rec.h"
#include "tracedir.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void mkdir_p(const char *dir)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", dir);
	for (char *s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		mkdir(buf, 0700);
		*s = '/';
	}
	if (mkdir(buf, 0700) < 0 && errno != EEXIST)
		die(EXIT_TRACE, "%s: %s", dir, strerror(errno));
}

/* Whether path is a directory with nothing in it (errno EEXIST if not). */
static int empty_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int empty = d != NULL;
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	if (d)
		closedir(d);
	errno = EEXIST;
	return empty;
}

/* Make the trace directory: DIR from -o, else the next free NAME-N under
 * trace_home() with latest-trace pointing at it. */
void make_dir(struct recorder *r, const char *opt, const char *prog)
{
	if (opt) {
		if (mkdir(opt, 0700) < 0 && (errno != EEXIST || !empty_dir(opt)))
			die(EXIT_TRACE, "%s: %s", opt, errno == EEXIST ?
			    "exists and is not an empty directory (rec -o takes a new or empty one)" :
			    strerror(errno));
		if (chmod(opt, 0700) < 0)	/* it holds everything the program read */
			die(EXIT_TRACE, "%s: %s", opt, strerror(errno));
		snprintf(r->dir, sizeof r->dir, "%s", opt);
	} else {
		const char *home = trace_home();
		const char *base = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
		mkdir_p(home);
		for (int n = 0;; n++) {
			snprintf(r->dir, sizeof r->dir, "%s/%s-%d", home, base, n);
			if (mkdir(r->dir, 0700) == 0)
				break;
			if (errno != EEXIST)
				die(EXIT_TRACE, "%s: %s", r->dir, strerror(errno));
		}
		char link[4200], tmp[4200];
		snprintf(link, sizeof link, "%s/latest-trace", home);
		snprintf(tmp, sizeof tmp, "%s/.latest-trace.%d", home, getpid());
		unlink(tmp);
		if (symlink(strrchr(r->dir, '/') + 1, tmp) < 0 || rename(tmp, link) < 0)
			warnx_("%s: %s", link, strerror(errno));
	}
	char files[4200];
	snprintf(files, sizeof files, "%s/files", r->dir);
	if (mkdir(files, 0700) < 0)
		die(EXIT_TRACE, "%s: %s", files, strerror(errno));
	if (trace_create(&r->w, r->dir) < 0)
		die(EXIT_TRACE, "%s/events: %s", r->dir, strerror(errno));
	static struct cpu_info cpu;
	const struct cpu_info *c = tsc_table();
	if (!c)
		cpu_read(&cpu);
	if (cpu_save(r->dir, c ? c : &cpu) < 0)
		die(EXIT_TRACE, "%s/cpu: %s", r->dir, strerror(errno));
}

/* rec --keep-failed: where latest-trace pointed before this rec moved it
 * (nothing: "", no link), and the process whose exit may remove the
 * trace (not a child forked before its execve). */
static char old_latest[4200];
static int moves_latest;
static pid_t keeper;

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return (flag == FTW_DP ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT ? -1 : 0;
}

/* At rec's exit: status 0 is a program that exited 0, recorded to its
 * end (rec exits with another status on any failure of its own). Its
 * trace goes, and latest-trace, if this rec moved it and no other rec
 * did since, points where it pointed before. */
static void drop_passed(int status, void *arg)
{
	struct recorder *r = arg;
	if (status != 0 || getpid() != keeper || !r->dir[0])
		return;
	if (nftw(r->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS) < 0) {
		warnx_("%s: cannot remove the trace of a run that passed: %s", r->dir, strerror(errno));
		return;
	}
	if (!moves_latest)
		return;
	char link[4200], tmp[4200], now[4200];
	snprintf(link, sizeof link, "%s/latest-trace", trace_home());
	ssize_t n = readlink(link, now, sizeof now - 1);
	if (n < 0 || (now[n] = 0, strcmp(now, strrchr(r->dir, '/') + 1)))
		return;
	snprintf(tmp, sizeof tmp, "%s/.latest-trace.%d", trace_home(), getpid());
	unlink(tmp);
	if (!old_latest[0])
		unlink(link);
	else if (symlink(old_latest, tmp) < 0 || rename(tmp, link) < 0)
		unlink(tmp);
}

void keep_failed(struct recorder *r, int own_dir)
{
	keeper = getpid();
	moves_latest = !own_dir;
	char link[4200];
	snprintf(link, sizeof link, "%s/latest-trace", trace_home());
	ssize_t n = readlink(link, old_latest, sizeof old_latest - 1);
	old_latest[n > 0 ? n : 0] = 0;
	on_exit(drop_passed, r);
}

static int copy_file(const char *src, const char *dst)
{
	char buf[1 << 16];
	int in = open(src, O_RDONLY | O_CLOEXEC), outfd;
	if (in < 0)
		return -1;
	outfd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0500);
	if (outfd < 0) {
		close(in);
		return -1;
	}
	ssize_t n = 0;
	int rc = 0;
	/* Only the data: a hole (a 100 GB sparse file) stays a hole. */
	off_t at = 0, end = lseek(in, 0, SEEK_END);
	while (at < end && (at = lseek(in, at, SEEK_DATA)) >= 0) {
		if (lseek(outfd, at, SEEK_SET) < 0 || lseek(in, at, SEEK_SET) < 0) {
			rc = -1;
			break;
		}
		off_t hole = lseek(in, at, SEEK_HOLE);
		lseek(in, at, SEEK_SET);
		while (at < hole && (n = read(in, buf, sizeof buf)) > 0) {
			if (write_all(outfd, buf, n) < 0) {
				rc = -1;
				break;
			}
			at += n;
		}
		if (n <= 0 || rc < 0)
			break;
	}
	if (n < 0 || (rc == 0 && ftruncate(outfd, end) < 0))
		rc = -1;
	close(in);
	if (close(outfd) < 0)
		rc = -1;
	return rc;
}

/* Whether path reaches the file of st (not deleted, not replaced, not
 * only within another mount namespace). */
static int reaches(const char *path, const struct stat *st)
{
	struct stat ps;
	return st->st_nlink > 0 && stat(path, &ps) == 0 && ps.st_dev == st->st_dev &&
	       ps.st_ino == st->st_ino;
}

/* The bytes of the file of st (open at src, reached from path), named
 * hash, into files/ unless there already: hard-linked from path, or
 * copied when copy is set or path does not reach it. 1 when files/ holds
 * them, 0 when the link failed (another filesystem, EPERM): the file is
 * recorded by path, size and hash only, and tpack copies it in later. */
static int keep_bytes(struct recorder *r, const char *src, const struct stat *st, const char *path,
		      uint64_t hash, int copy)
{
	char blob[4200];
	struct stat bs;
	snprintf(blob, sizeof blob, "%s/files/%016llx", r->dir, (unsigned long long)hash);
	if (lstat(blob, &bs) == 0)
		return 1;
	if (!copy)
		copy = !reaches(path, st);
	if (!copy && link(path, blob) == 0) {
		if (lstat(blob, &bs) < 0 || bs.st_ino != st->st_ino || bs.st_dev != st->st_dev) {
			unlink(blob);	/* path was replaced meanwhile */
			copy = 1;
		} else {
			hash_known_linked(blob, st, hash);
		}
	}
	if (copy && copy_file(src, blob) < 0) {
		int e = errno;
		unlink(blob);	/* a partial copy would be a damaged one */
		die(EXIT_TRACE, "%s: copying %s: %s", blob, path, strerror(e));
	}
	return copy || lstat(blob, &bs) == 0;
}

/* Put the file open at src (a /proc path that reaches it even if deleted)
 * into files/ as cheaply as the file allows (keep_bytes), and add an
 * IT_FILE item for it. A file the program can write to is copied now:
 * its bytes will not be found again. A file kept by path only and met
 * again by a path that does not reach it (an exec inside a mount
 * namespace of a file executed before from outside) is copied then. */
void store_file(struct recorder *r, const char *src, const struct stat *known, const char *path,
		int flags, uint64_t off, int writable)
{
	struct stat st;
	if (known)
		st = *known;
	else if (stat(src, &st) < 0)
		die(EXIT_TRACE, "%s: %s", path, strerror(errno));
	uint64_t hash = 0, size = st.st_size;
	int i;
	for (i = 0; i < r->nfcache; i++)
		if (r->fcache[i].dev == st.st_dev && r->fcache[i].ino == st.st_ino &&
		    r->fcache[i].size == st.st_size &&
		    r->fcache[i].mtime.tv_sec == st.st_mtim.tv_sec &&
		    r->fcache[i].mtime.tv_nsec == st.st_mtim.tv_nsec)
			break;
	if (i < r->nfcache) {
		hash = r->fcache[i].hash;
		if (r->fcache[i].by_path && !reaches(path, &st))
			r->fcache[i].by_path = !keep_bytes(r, src, &st, path, hash, 1);
	} else {
		if (hash_file_known(src, &hash, &size) < 0)
			die(EXIT_TRACE, "%s: %s", path, strerror(errno));
		int kept = keep_bytes(r, src, &st, path, hash, writable);
		if (r->nfcache < 256) {
			r->fcache[r->nfcache].dev = st.st_dev;
			r->fcache[r->nfcache].ino = st.st_ino;
			r->fcache[r->nfcache].size = st.st_size;
			r->fcache[r->nfcache].mtime = st.st_mtim;
			r->fcache[r->nfcache].hash = hash;
			r->fcache[r->nfcache].by_path = !kept;
			r->nfcache++;
		}
	}
	uint64_t hdr[4] = { size, (uint64_t)st.st_mtim.tv_sec * 1000000000ull + st.st_mtim.tv_nsec,
			    hash, off };
	tw_item(&r->w, IT_FILE, flags, hdr, sizeof hdr, path, strlen(path));
}

void store_forget(struct recorder *r, dev_t dev, ino_t ino)
{
	for (int i = 0; i < r->nfcache; i++)
		if (r->fcache[i].dev == dev && r->fcache[i].ino == ino)
			r->fcache[i--] = r->fcache[--r->nfcache];
}
