/* sys.c: builds the syscall table from sys_table.h and looks rows up by
 * number or name. */
#include <string.h>

#include "sys.h"

/* The number of arguments given, 0 to 6 (gnu ## drops the comma when
 * there are none). */
#define NARGS(...) NARGS_(0, ##__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0)
#define NARGS_(z, a, b, c, d, e, f, n, ...) n

#define SYS(nr, nm, cls, q, rk, ...) \
	[nr] = { .name = #nm, .class = cls, .quirk = q, .ret = rk, \
		 .nargs = NARGS(__VA_ARGS__), .arg = { __VA_ARGS__ } },

static const struct sys_entry table[SYS_MAX] = {
#include "sys_table.h"
};

const struct sys_entry *sys_lookup(long nr)
{
	if (nr < 0 || nr >= SYS_MAX || !table[nr].name)
		return NULL;
	return &table[nr];
}

const struct sys_entry *sys_row(long nr)
{
	static const struct sys_entry unknown = { .name = "unknown", .class = C_EMU, .ret = R_INT };
	const struct sys_entry *e = sys_lookup(nr);
	return e ? e : &unknown;
}

long sys_number(const char *name)
{
	for (long nr = 0; nr < SYS_MAX; nr++)
		if (table[nr].name && strcmp(table[nr].name, name) == 0)
			return nr;
	return -1;
}
