/* tty.c: the terminal, handed to the program's process group as a shell
 * hands it to a job, and job control (^Z). */
#include "events.h"
#include "rec.h"
#include "tty.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static void tty_back(void)
{
	if (R.tty_fd >= 0)
		tcsetpgrp(R.tty_fd, getpgrp());
}

/* Give the terminal to the program's process group pgid when rec's group
 * has it: ^C and ^Z then reach the program, as without rec. */
void tty_give(pid_t pgid)
{
	for (int fd = 0; fd <= 2; fd++)
		if (isatty(fd) && tcgetpgrp(fd) == getpgrp()) {
			signal(SIGTTOU, SIG_IGN);	/* to write and take it back */
			if (tcsetpgrp(fd, pgid) == 0) {
				R.tty_fd = fd;
				atexit(tty_back);
			}
			return;
		}
}

/* The program stopped for the terminal (^Z, or a read or write from the
 * background) with signal sig: rec stops the same way, as the job the
 * shell sees, the terminal back with its group. When continued (fg or
 * bg), it continues the program, giving it the terminal again if rec's
 * group has it. */
void job_stop(int sig)
{
	if (R.tty_fd < 0)
		return;
	flush_or_die();
	tcsetpgrp(R.tty_fd, getpgrp());
	raise(sig);		/* returns at SIGCONT */
	if (tcgetpgrp(R.tty_fd) == getpgrp())
		tcsetpgrp(R.tty_fd, R.pgid);
	kill(-R.pgid, SIGCONT);
}
