/* maps.c: parses /proc/PID/maps (see maps.h). */
#include "maps.h"

#include <inttypes.h>
#include <string.h>
#include <sys/sysmacros.h>

FILE *maps_open(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	return fopen(path, "re");
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
