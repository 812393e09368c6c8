/* compute-sig.c: writes its pid to the file argv[1], then computes with no
 * syscall until SIGUSR1 or SIGINT arrives; prints the signal, the turns done
 * (mod 1000003) and a random token. Exits 2 if none came (16 s here). */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

static volatile sig_atomic_t got, hits;

static void on_signal(int sig)
{
	got = sig;
	hits++;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: compute-sig PIDFILE\n");
		return 2;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	unsigned r = 0;
	getrandom(&r, sizeof r, 0);
	/* Written whole under a temporary name, so a reader never sees half
	 * a pid. */
	char tmp[4096], buf[32];
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return perror(tmp), 2;
	int n = snprintf(buf, sizeof buf, "%d\n", (int)getpid());
	if (write(fd, buf, n) != n || close(fd) || rename(tmp, argv[1]))
		return perror(argv[1]), 2;

	unsigned long turns = 0;
	while (!got && turns < 40000000000ul)	/* no syscall in here */
		turns++;
	if (!got) {
		printf("no signal\n");
		return 2;
	}
	printf("%s after %lu turns (mod 1000003), signals %d, token %08x\n",
	       got == SIGINT ? "SIGINT" : got == SIGUSR1 ? "SIGUSR1" : "other",
	       turns % 1000003, (int)hits, r);
	return 0;
}
