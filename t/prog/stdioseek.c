/* stdioseek.c: stdio on a file of its own: fprintf, fflush, fseek, ftell,
 * fread, fstat of its fileno and fclose, which reach libc's own lseek,
 * fstat and close (not the names rec's library defines: bufredir.c sends
 * them to its wrappers). Prints what it read back, which differs from
 * run to run (getrandom's bytes are in it).
 * Usage: stdioseek [FILE] (default stdioseek.tmp, in the current directory) */
#include <stdint.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "stdioseek.tmp";
	unsigned char r[16];
	if (getrandom(r, sizeof r, 0) != sizeof r)
		return 1;
	FILE *f = fopen(path, "w+");
	if (!f)
		return 1;
	for (int i = 0; i < 256; i++)
		fprintf(f, "%03d %02x\n", i, r[i % 16] ^ i);
	fflush(f);
	uint64_t h = 1469598103934665603ull;
	char b[8];
	for (int i = 0; i < 200; i++) {
		long at = (long)((i * 37) % 255) * 7;
		if (fseek(f, at, SEEK_SET) != 0 || fread(b, 1, sizeof b, f) != sizeof b)
			return 1;
		for (size_t k = 0; k < sizeof b; k++)
			h = (h ^ (unsigned char)b[k]) * 1099511628211ull;
		h ^= (uint64_t)ftell(f);
	}
	struct stat st;
	if (fstat(fileno(f), &st) != 0 || fclose(f) != 0)
		return 1;
	FILE *g = fopen(path, "r");
	char line[32];
	int n = 0;
	while (g && fgets(line, sizeof line, g))
		n++;
	if (!g || fclose(g) != 0)
		return 1;
	printf("size %lld, %d lines, sum %016llx, first %02x%02x\n", (long long)st.st_size, n,
	       (unsigned long long)h, r[0], r[1]);
	return 0;
}
