/* lines.c: writes N lines (default 5), each with a random token, one
 * write(2) per line; with "mix" the odd lines go to stderr.
 * Usage: lines [N [mix]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;
	int mix = argc > 2 && !strcmp(argv[2], "mix");
	for (int i = 0; i < n; i++) {
		unsigned r;
		char buf[64];
		getrandom(&r, sizeof r, 0);
		int len = snprintf(buf, sizeof buf, "line %d %08x\n", i, r);
		write(mix && (i & 1) ? 2 : 1, buf, len);
	}
	return 0;
}
