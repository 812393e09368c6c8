/* shm.c: a parent and its forked child share a file in /dev/shm (a named
 * semaphore and a shm_open page): the child writes a random token there
 * and posts, the parent waits and prints what the child wrote. */
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	char name[64];
	unsigned r = 0;
	getrandom(&r, sizeof r, 0);
	snprintf(name, sizeof name, "/rewind-shm-%d", (int)getpid());
	sem_t *s = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
	int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
	if (s == SEM_FAILED || fd < 0 || ftruncate(fd, 4096) < 0)
		return perror("shm"), 1;
	unsigned *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED)
		return perror("mmap"), 1;
	sem_unlink(name);
	shm_unlink(name);
	pid_t pid = fork();
	if (pid == 0) {
		page[0] = r * 2654435761u;
		sem_post(s);
		_exit(0);
	}
	sem_wait(s);
	printf("token %08x, the child wrote %08x\n", r, page[0]);
	int st;
	waitpid(pid, &st, 0);
	return WEXITSTATUS(st);
}
