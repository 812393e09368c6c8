/* mainexit.c: N child processes (argv[1], default 40), in each of which
 * the first thread ends by pthread_exit while a second thread joins it
 * and then prints a random token (rr's main_thread_exit, once a child).
 * The join waits for the kernel to clear the first thread's id at its
 * end; the parent prints each child's status. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_t first;

static void *joiner(void *arg)
{
	int i = (int)(intptr_t)arg;
	unsigned token = 0;
	if (pthread_join(first, NULL) != 0)
		return perror("pthread_join"), exit(2), NULL;
	if (getrandom(&token, sizeof token, 0) != sizeof token)
		return perror("getrandom"), exit(2), NULL;
	printf("child %d joined its first thread, token %08x\n", i, token);
	fflush(stdout);
	exit(0);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 40;
	setvbuf(stdout, NULL, _IONBF, 0);
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0)
			return perror("fork"), 1;
		if (pid == 0) {
			pthread_t t;
			first = pthread_self();
			if (pthread_create(&t, NULL, joiner, (void *)(intptr_t)i) != 0)
				return perror("pthread_create"), 2;
			pthread_exit(NULL);
		}
		int st;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			return printf("child %d ended with status 0x%x\n", i, st), 1;
	}
	printf("%d children ended\n", n);
	return 0;
}
