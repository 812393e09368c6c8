/* tty.h: the terminal, handed to the program's process group as a shell
 * hands it to a job, and job control (^Z). */
#ifndef REWIND_REC_TTY_H
#define REWIND_REC_TTY_H

#include "rec.h"

/* Give the terminal to the program's process group pgid when rec's group
 * has it: ^C and ^Z then reach the program, as without rec. */
void tty_give(pid_t pgid);

/* The program stopped for the terminal (^Z, or a read or write from the
 * background) with signal sig: rec stops the same way, as the job the
 * shell sees, the terminal back with its group. When continued (fg or
 * bg), it continues the program, giving it the terminal again if rec's
 * group has it. */
void job_stop(int sig);

#endif
