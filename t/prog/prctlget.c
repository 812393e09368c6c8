/* prctlget.c: prctl's PR_GET_* answers written through a pointer, and
 * PR_SET_MM: PR_SET_MM_MAP_SIZE writes the size of its struct; setting
 * a field needs CAP_SYS_RESOURCE (EPERM here unless root; performed
 * again in replay when it succeeded). Prints the pid and the answers. */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(void)
{
	printf("pid %d\n", (int)getpid());
	int v = -1, r;
	r = prctl(PR_GET_PDEATHSIG, &v);
	printf("PR_GET_PDEATHSIG %d %d\n", r, v);
	char name[16] = "";
	r = prctl(PR_GET_NAME, name);
	printf("PR_GET_NAME %d %s\n", r, name);
	unsigned long ta = 9;
	r = prctl(PR_GET_TID_ADDRESS, &ta);
	printf("PR_GET_TID_ADDRESS %d %d\n", r, ta != 9);
	int ch = 9;
	r = prctl(PR_GET_CHILD_SUBREAPER, &ch);
	printf("PR_GET_CHILD_SUBREAPER %d %d\n", r, ch);
	unsigned int sz = 0;
	r = prctl(PR_SET_MM, PR_SET_MM_MAP_SIZE, &sz, 0, 0);
	printf("PR_SET_MM_MAP_SIZE %d %u\n", r, sz);
	void *brk = sbrk(0);
	r = prctl(PR_SET_MM, PR_SET_MM_BRK, brk, 0, 0);
	printf("PR_SET_MM_BRK %d, brk %s\n", r, sbrk(0) == brk ? "same" : "moved");
	return 0;
}
