/* maps.c: parses /proc/PID/maps (see maps.h). */
#include "maps.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* PROCMAP_QUERY's argument (linux/fs.h of Linux 6.11, which older
 * headers lack). */
struct maps_query {
	uint64_t size, query_flags, query_addr;
	uint64_t vma_start, vma_end, vma_flags, vma_page_size, vma_offset, inode;
	uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t vma_name_addr, build_id_addr;
};
#define MAPS_QUERY _IOWR('f', 17, struct maps_query)
#define MQ_READ 0x1
#define MQ_WRITE 0x2
#define MQ_EXEC 0x4
#define MQ_SHARED 0x8
#define MQ_COVERING_OR_NEXT 0x10

/* The maps of one process, read once and given again (maps_keep). */
static struct {
	pid_t pid;
	char *text;	/* NULL until the next maps_open reads them */
	size_t len;
} kept;

void maps_keep(pid_t pid)
{
	maps_drop();
	kept.pid = pid;
}

void maps_drop(void)
{
	free(kept.text);
	kept.text = NULL;
	kept.pid = 0;
}

/* The text of f, whole, into kept (0), or -1. */
static int keep_text(FILE *f)
{
	size_t cap = 0;
	kept.len = 0;
	for (;;) {
		if (kept.len + 4096 > cap)
			kept.text = xrealloc(kept.text, cap = cap ? 2 * cap : 16384);
		size_t n = fread(kept.text + kept.len, 1, cap - kept.len, f);
		kept.len += n;
		if (n == 0)
			return ferror(f) || !kept.len ? -1 : 0;
	}
}

FILE *maps_open(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	if (pid != kept.pid || !pid)
		return fopen(path, "re");
	if (!kept.text) {
		FILE *f = fopen(path, "re");
		if (!f)
			return NULL;
		int k = keep_text(f);
		fclose(f);
		if (k < 0) {
			maps_drop();
			return fopen(path, "re");
		}
	}
	return fmemopen(kept.text, kept.len, "r");
}

int maps_next(FILE *f, struct maps_line *m)
{
	/* A path is at most PATH_MAX (4096) bytes, escaped newlines aside. */
	char line[4400];
	while (fgets(line, sizeof line, f)) {
		int pos = 0;
		size_t len = strlen(line);
		if (len && line[len - 1] != '\n' && !feof(f)) {
			/* Longer than any path: skip the rest of it. */
			int c;
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
		}
		m->name[0] = 0;
		m->deleted = 0;
		unsigned maj = 0, min = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n", &m->lo,
			   &m->hi, m->perm, &m->off, &maj, &min, &m->ino, &pos) < 7)
			continue;
		m->dev = makedev(maj, min);
		if (pos) {
			snprintf(m->name, sizeof m->name, "%s", line + pos);
			m->name[strcspn(m->name, "\n")] = 0;
			char *d = strstr(m->name, " (deleted)");
			if (d && !d[10]) {
				*d = 0;
				m->deleted = 1;
			}
		}
		return 1;
	}
	return 0;
}

/* maps_at by PROCMAP_QUERY: 1 or 0 as it, -1 when the kernel lacks it.
 * The mapping's name too when named is set. */
static int query_at(pid_t pid, uint64_t addr, struct maps_line *m, int named, int next)
{
	static int lacks = -1;
	if (lacks < 0)
		lacks = env_flag("REWIND_NO_PROCMAP_QUERY");
	if (lacks)
		return -1;
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct maps_query q = { .size = sizeof q, .query_addr = addr,
				.query_flags = next ? MQ_COVERING_OR_NEXT : 0 };
	m->name[0] = 0;
	if (named) {
		q.vma_name_addr = (uintptr_t)m->name;
		q.vma_name_size = sizeof m->name;
	}
	int k = ioctl(fd, MAPS_QUERY, &q), e = errno;
	close(fd);
	if (k < 0) {
		if (e == ENOENT)
			return 0;
		if (e == ENOTTY || e == EINVAL)
			lacks = 1;
		return -1;
	}
	m->lo = q.vma_start;
	m->hi = q.vma_end;
	m->off = q.vma_offset;
	m->ino = q.inode;
	m->dev = makedev(q.dev_major, q.dev_minor);
	snprintf(m->perm, sizeof m->perm, "%c%c%c%c", q.vma_flags & MQ_READ ? 'r' : '-',
		 q.vma_flags & MQ_WRITE ? 'w' : '-', q.vma_flags & MQ_EXEC ? 'x' : '-',
		 q.vma_flags & MQ_SHARED ? 's' : 'p');
	m->deleted = 0;
	size_t n = strlen(m->name);
	if (m->ino && n > 10 && !strcmp(m->name + n - 10, " (deleted)")) {
		m->name[n - 10] = 0;	/* as maps_next gives it */
		m->deleted = 1;
	}
	return 1;
}

static int find_at(pid_t pid, uint64_t addr, struct maps_line *m, int named, int next)
{
	int k = query_at(pid, addr, m, named, next);
	if (k >= 0)
		return k;
	FILE *f = maps_open(pid);
	if (!f)
		return -1;
	int found = 0;
	while (!found && maps_next(f, m))
		found = (next || m->lo <= addr) && addr < m->hi;
	fclose(f);
	if (found && !named)
		m->name[0] = 0;
	return found;
}

int maps_at(pid_t pid, uint64_t addr, struct maps_line *m)
{
	return find_at(pid, addr, m, 0, 0);
}

int maps_at_named(pid_t pid, uint64_t addr, struct maps_line *m)
{
	return find_at(pid, addr, m, 1, 0);
}

int maps_from(pid_t pid, uint64_t addr, struct maps_line *m)
{
	return find_at(pid, addr, m, 1, 1);
}
