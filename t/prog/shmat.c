/* shmat.c: SysV shared memory attached, shared and detached: two
 * attachments of one segment alias (one read-only), a child writes
 * through the one it inherited and another child through its own, a
 * segment goes at a fixed address (SHM_RND) and over a mapping
 * (SHM_REMAP), and a touch after shmdt faults. Prints what it reads,
 * which holds a random token. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

static sigjmp_buf jb;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(jb, 1);
}

int main(void)
{
	unsigned tok;
	getrandom(&tok, sizeof tok, 0);
	int id = shmget(IPC_PRIVATE, 8192, IPC_CREAT | 0600);
	char *p = shmat(id, NULL, 0);
	char *q = shmat(id, NULL, SHM_RDONLY);
	if (id < 0 || p == (void *)-1 || q == (void *)-1) {
		perror("shm");
		return 1;
	}
	snprintf(p, 64, "token %08x", tok);
	printf("through the other attachment: %s\n", q);
	if (fork() == 0) {
		snprintf(p + 4096, 64, "child %u", tok % 1000);
		_exit(0);
	}
	wait(NULL);
	if (fork() == 0) {
		char *c = shmat(id, NULL, 0);
		snprintf(c + 100, 64, "second child %u", tok % 77);
		shmdt(c);
		_exit(0);
	}
	wait(NULL);
	printf("children wrote: %s, %s\n", q + 4096, q + 100);
	struct shmid_ds ds;
	shmctl(id, IPC_STAT, &ds);
	printf("attached %lu times, %zu bytes\n", (unsigned long)ds.shm_nattch, ds.shm_segsz);
	char *want = (char *)0x600000001000ul;
	char *f = shmat(id, want + 5, SHM_RND);
	printf("at the rounded address %d: %.14s\n", f == want, f);
	char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *r = shmat(id, m, SHM_REMAP);
	printf("over a mapping %d: %.14s\n", r == m, r);
	if (shmdt(q) || shmdt(f) || shmdt(r))
		perror("shmdt");
	printf("still attached: %.14s\n", p);
	shmdt(p);
	signal(SIGSEGV, on_segv);
	if (!sigsetjmp(jb, 1))
		printf("no fault after shmdt: %d\n", *(volatile char *)p);
	else
		printf("a fault after shmdt\n");
	shmctl(id, IPC_RMID, NULL);
	return 0;
}
