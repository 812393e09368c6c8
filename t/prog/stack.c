/* stack.c: main -> foo -> bar -> write, with a number that differs run to
 * run, so replay --stack has known frames (and source lines) to show. */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

static __attribute__((noinline, noipa)) void bar(unsigned v)
{
	char buf[32];
	int n = snprintf(buf, sizeof buf, "stack %u\n", v);
	write(1, buf, n); /* WRITE */
}

static __attribute__((noinline, noipa)) void foo(unsigned v)
{
	bar(v ^ 1);
	getppid(); /* the call after bar returns, so bar is not a tail call */
}

int main(void)
{
	unsigned v = 0;
	if (getrandom(&v, sizeof v, 0) != sizeof v)
		return 1;
	foo(v);
	return 0;
}
