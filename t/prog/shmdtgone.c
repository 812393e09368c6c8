/* shmdtgone.c: shmdt after munmap took the attachment, or its first
 * page: the kernel fails the first (nothing of the segment is left) and
 * detaches what is left of the second (the piece at its offset from
 * the address). Prints the pid and the results. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

int main(void)
{
	printf("pid %d\n", (int)getpid());
	int id = shmget(IPC_PRIVATE, 8192, IPC_CREAT | 0600);
	char *p = shmat(id, NULL, 0);
	p[0] = 4;
	shmctl(id, IPC_RMID, NULL);
	printf("munmap %d\n", munmap(p, 8192));
	errno = 0;
	int r = shmdt(p);
	printf("shmdt all gone %d %s\n", r, strerror(errno));
	id = shmget(IPC_PRIVATE, 3 * 4096, IPC_CREAT | 0600);
	char *q = shmat(id, NULL, 0);
	q[4096] = 5;
	shmctl(id, IPC_RMID, NULL);
	printf("munmap first page %d\n", munmap(q, 4096));
	errno = 0;
	r = shmdt(q);
	printf("shmdt the rest %d %s\n", r, strerror(errno));
	/* Detached: the pages are free for a mapping of exactly there. */
	char *m = mmap(q + 4096, 2 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
		       -1, 0);
	printf("mapped again %d\n", m == q + 4096);
	return 0;
}
