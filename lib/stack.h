/* stack.h: call stacks of a stopped tracee: libunwind walks the frames,
 * libdw names the source file and line where debug info exists. */
#ifndef REWIND_STACK_H
#define REWIND_STACK_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>
#include "sys_names.h"

/* One frame; frame 0 is where the thread stopped, the others are
 * return addresses. */
struct stack_frame {
	uint64_t pc;
	char func[256];		/* "" when no symbol covers pc */
	uint64_t off;		/* pc - the start of func */
	char obj[512];		/* the file mapped at pc, "" if none */
	uint64_t vaddr;		/* pc as an address in obj (for addr2line), 0 if unknown */
	char src[512];		/* the source file, "" without debug info */
	int line;
};

#define STACK_MAX 64

/* Start the unwinder (once: it keeps its caches between stops). Dies on
 * failure. */
void stack_init(void);

/* Tell the unwinder that replay filled the len bytes at addr with the
 * bytes of file from offset off on (the program mapped path, as
 * recorded): /proc/PID/maps shows such a mapping anonymous. With len
 * 0, only that file (the trace's copy of an executable) stands for
 * path. */
void stack_note_map(uint64_t addr, uint64_t len, const char *file, const char *path,
		    uint64_t off);

/* Walk the stack of thread pid, which must be in a ptrace stop with
 * registers *regs, into f[0..max-1]. Returns the number of frames (0 if
 * even the first could not be read). */
int stack_walk(pid_t pid, const struct user_regs_struct *regs, struct stack_frame *f, int max);

/* Append the frames as text, one line each ("  #1 0x... bar+0x1c
 * (/path/prog) at prog.c:12\n"; "?? (/path/prog+0xVADDR)" without a
 * symbol), to b. */
void stack_text(struct sn_buf *b, const struct stack_frame *f, int n);

/* Append the frames as a JSON array of objects {"pc","func","off",
 * "object","vaddr","file","line"} to js (null when unknown). */
void stack_json(struct sn_buf *js, const struct stack_frame *f, int n);

#endif
