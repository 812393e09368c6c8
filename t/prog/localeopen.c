/* localeopen.c: setlocale of C.UTF-8, whose files libc opens through its
 * own __open_nocancel (not the names rec's library defines: bufredir.c
 * sends it to its wrapper: C.UTF-8/ is not there, C.utf8/ is), and a
 * fopen of a file that is not there; then prints a random number with the locale's decimal point, so runs
 * differ. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

int main(void)
{
	unsigned r;
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return 1;
	const char *l = setlocale(LC_ALL, "C.UTF-8");
	FILE *f = fopen("no-such-file", "re");
	printf("locale %s, fopen %s, %u%s%u\n", l ? l : "(none)", f ? "opened" : strerror(errno),
	       r % 1000, localeconv()->decimal_point, r / 1000 % 1000);
	return 0;
}
