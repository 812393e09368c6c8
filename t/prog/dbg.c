/* dbg.c: a program to debug backwards: a linked list of random length and
 * values, a SIGUSR1 handler, and bug() overwriting one node's next pointer,
 * which the gdb tests hunt; noinline keeps real calls to finish and step into. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

struct node {
	long val;
	struct node *next;
};

static struct node pool[32];
static struct node *head;
static int used;
static struct node *last;
volatile long total;

static __attribute__((noinline, noipa)) long square(long x)
{
	long y = x * x;
	return y;
}

static __attribute__((noinline, noipa)) void push(long v)
{
	struct node *n = &pool[used++];
	n->val = v;
	n->next = head;
	head = n;
}

static __attribute__((noinline, noipa)) void bug(int k)
{
	struct node *n = head;
	for (int i = 0; i < k && n->next; i++)
		n = n->next;
	n->next = (struct node *)(uintptr_t)0xdead; /* BUG */
}

static void handler(int sig)
{
	total += sig * 1000; /* HANDLER */
}

int main(void)
{
	unsigned seed;
	getrandom(&seed, sizeof seed, 0);
	int len = 5 + seed % 10;
	for (int i = 0; i < len; i++)
		push(rand_r(&seed) % 100);
	signal(SIGUSR1, handler);
	raise(SIGUSR1);
	for (int i = 0; i < len; i++)
		total += square(i); /* LOOP */
	bug(seed % 3);
	long s = 0;
	for (last = head; last->next != (struct node *)(uintptr_t)0xdead; last = last->next)
		s += last->val;
	printf("seed %u len %d total %ld sum %ld\n", seed, len, total, s);
	return 0;
}
