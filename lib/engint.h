/* engint.h: what the engine's files share: engine.c (the event loop),
 * engsys.c (one syscall), engproc.c (exec, clone, mappings), engtask.c
 * (its threads and stops), cursor.c (its place in the trace), inject.c
 * (injected calls) and engsnap.c (copies of a stopped replay); no other
 * file includes it. */
#ifndef REWIND_ENGINT_H
#define REWIND_ENGINT_H

#include "engine.h"

/* The slot in e->tasks of live thread rtid, or -1. */
static inline int find_task(struct engine *e, uint32_t rtid)
{
	for (int i = 0; i < e->ntasks; i++)
		if (e->tasks[i].rtid == rtid && e->tasks[i].state != ET_GONE)
			return i;
	return -1;
}

/* The thread the engine runs now. */
static inline struct eng_task *cur_task(struct engine *e)
{
	return &e->tasks[e->ti];
}

/* The engine's fields of the current thread (its pt_proc, stop, pending
 * signal...) into its slot of e->tasks, and back. */
void eng_save_cur(struct engine *e);
void eng_load_cur(struct engine *e);

/* Kill and reap every thread and process of the replay still there. */
void eng_kill_all(struct engine *e);

/* engtask.c */

#define PS_INTR 100	/* the SIGSTOP we sent to interrupt the tracee */

/* The pointer arguments of the call at event ev that point elsewhere
 * than in the trace (sys_enter): an IT_MEM item at a recorded pointer
 * (the output cap_outputs saved there) goes to the replayed one. */
struct eng_moved {
	uint64_t ev;
	int n;
	uint64_t from[6], to[6];
};
extern struct eng_moved eng_moved;

/* Stop the replay: kill every thread and die, saying at which event and
 * how the replay parted from the recording (fmt: what was expected and
 * what came). */
void eng_diverge(struct engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* Whether a thread's end (wait status got) is the recorded one (want):
 * a death by the same signal is, with a core dumped or not (whether the
 * kernel writes one depends on limits and files replay does not make
 * again: an RLIMIT_CORE the program raised is answered, not set). */
int eng_same_end(int want, int got);
/* The name of syscall nr (syscall_NR when the table lacks it). The
 * result may be static. */
const char *eng_sysname(long nr);
/* Make slot i of e->tasks the current thread, saving the one before. */
void eng_switch_task(struct engine *e, int i);
/* A new slot in e->tasks for thread rtid of process rtgid (recorded
 * ids), replayed by pid; returns its index. */
int eng_add_task(struct engine *e, uint32_t rtid, uint32_t rtgid, pid_t pid);
/* Between events: drop the slots of gone threads (but the current one)
 * once they are most of e->tasks, so that a program that makes and ends
 * threads one after another costs replay what its live ones do. */
void eng_drop_gone(struct engine *e);
/* Wait for the next stop that matters, passing over signals sent from
 * outside the replay (a Ctrl-C aimed at the terminal's process group):
 * those happened in some other run, not in the recorded one. */
int eng_wait_stop(struct engine *e, int *st);
/* Stop k with wait status st (from eng_wait_stop) as words for a
 * message. The result is static. */
const char *eng_describe_stop(struct engine *e, int k, int st);
/* Check that the stop the tracee came to is the one the event expects. */
void eng_expect(struct engine *e, int k, int want, const char *expected);
/* The current thread set its alternate signal stack from the stack_t at
 * ss: note it for checkpoints (no call reads it back without changing
 * the thread). */
void eng_note_altstack(struct engine *e, uint64_t ss);
/* Write the record's IT_MEM items into the tracee, and its IT_FPATCH
 * items into the emulated files. */
void eng_apply_mem(struct engine *e, const struct trace_rec *rec);

/* engproc.c */

/* Whether another thread of t's process is inside an execve whose end
 * is still to come. */
int eng_sibling_execs(struct engine *e, const struct eng_task *t);
/* Run a syscall the tracee is stopped at the entry of, to its exit. */
void eng_run_call(struct engine *e, struct user_regs_struct *r);
/* Fill a mapping replay made anonymous (by the mmap sc) with the
 * recorded file's bytes, or map the file's copy there instead. */
void eng_fill_map(struct engine *e, const struct trace_syscall *sc, uint64_t addr, uint64_t len,
		  const struct trace_item *it);
/* A private mapping made on replay's copy of a file by the program's
 * own call: its path below the red zone, the bytes it covered, replay's
 * descriptor of the copy. */
struct map_direct {
	int fd;
	uint64_t sp;
	size_t plen;
	uint8_t save[64];
};
/* Whether the private file mapping sc of the file of item it is made on
 * replay's copy straight away (the whole mapping within the file's pages,
 * 64 KiB or more): then the call, at its entry (registers r), has been
 * made an openat of the copy, which eng_map_direct_end, at that call's
 * exit, maps by an injected mmap and closes: four stops fewer than the
 * anonymous mapping eng_fill_map replaces. */
int eng_map_direct(struct engine *e, const struct trace_syscall *sc, const struct trace_item *it,
		   struct user_regs_struct *r, struct map_direct *d);
/* The rest of it, at the openat's exit (registers r): r->rax is then the
 * mmap's result, as the call made as the program's would have it. */
void eng_map_direct_end(struct engine *e, const struct trace_syscall *sc, const struct trace_item *it,
			struct user_regs_struct *r, struct map_direct *d);
/* Make [sc->ret, + len) anonymous, private and of sc's protection, by a
 * call injected at the syscall-exit stop of sc (an mmap). */
void eng_map_anon(struct engine *e, const struct trace_syscall *sc, uint64_t len);
/* Tell e->mapped that [addr, addr + len) maps the file of item it. */
void eng_note_map(struct engine *e, uint64_t addr, uint64_t len, const struct trace_item *it);
/* Whether the private file mapping sc (MAP_FIXED) of the file of item it
 * lies in one mapping of replay's copy of that file, at the same offset,
 * whose pages are all the file's (none copied on write): made again, it
 * would change nothing but their protection, which an mprotect does
 * without the three injected calls (REWIND_NO_MAP_SAME=1: it is made
 * again). So the dynamic loader maps a library's segments over its first
 * mapping of the whole file. */
int eng_map_same(struct engine *e, const struct trace_syscall *sc, const struct trace_item *it);
/* Tell e->mapped that the program of the exec record e->cur is about to
 * run from path, and its interpreter maybe from the trace's copy. */
void eng_note_exec(struct engine *e, const char *path);
/* Perform the mmap e->cur (registers r at its seccomp stop, arguments
 * a) on replay's copy of the file it maps (items fi, IT_FILE, and ei,
 * IT_EMUFILE): the copy is opened in the program through /proc, mapped,
 * and closed, by injected calls. Every mapping of the file then shares
 * the copy's pages, as they shared the file's. */
void eng_map_emulated(struct engine *e, const struct trace_syscall *sc, struct user_regs_struct *r,
			 uint64_t a[6], const struct trace_item *fi, const struct trace_item *ei);
/* Replay a successful shmat (registers r at its seccomp stop, r0 to give
 * back) or shmdt: the segment is emulated as a file mapped shared, its
 * copy mapped where the kernel attached it, and unmapped at shmdt. */
void eng_replay_shm(struct engine *e, const struct trace_syscall *sc, struct user_regs_struct *r,
		       struct user_regs_struct *r0);
/* The file to execve for the exec record e->cur: the trace's copy of the
 * executable (into e->exe). The kernel loads the ELF interpreter from the
 * path the executable names; when the file there is no longer the
 * recorded one but the trace holds a copy (tpack), a copy of the
 * executable is made whose PT_INTERP names a short link to it, in a
 * directory *tmp that the caller removes after the exec. */
const char *eng_exec_file(struct engine *e, char *tmp, size_t tmplen);
/* Remove what eng_exec_file() made, once the kernel has mapped it. */
void eng_exec_done(const char *tmp);
/* After execve: check the interpreter the kernel mapped, then put back
 * the recorded stack and registers. moved: it came from the trace. */
void eng_finish_exec(struct engine *e, int moved);
/* The first execve: start the tracee on the trace's copy of the
 * executable, with the recorded arguments and environment, padded so that
 * its stack is at least as deep as the recorded one. */
void eng_spawn(struct engine *e, const struct trace_syscall *sc);
/* Perform the clone-like call the current thread is at the entry of:
 * the new thread or process joins the tasks under the recorded id sc->ret
 * (the kernel gives it another one) and waits at its first stop. The
 * parent waits at its syscall-exit stop; a vfork parent stays in the
 * kernel until its child execs or exits. */
void eng_clone_start(struct engine *e, const struct trace_syscall *sc);
/* The end of a clone-like call: its syscall-exit stop (reached in
 * eng_clone_start(), but by a vfork parent only once its child has execed or
 * exited), where the program sees the recorded id. */
void eng_clone_finish(struct engine *e, const struct trace_syscall *sc,
			 struct user_regs_struct *r);

/* engsys.c */

/* Replay the syscall event e->cur, whose entry stop k the current thread
 * came to: the whole call, or only its entry when the record says that
 * the call ended later (eng_replay_sysret). */
void eng_replay_syscall(struct engine *e, int k);
/* The end of the current thread's call whose entry came earlier: the
 * entry and this record make the whole call in e->cur. */
void eng_replay_sysret(struct engine *e);

/* cursor.c */

/* Make the next event e->cur (the one read ahead, when held). Dies at
 * the end of the stream. */
void eng_load_next(struct engine *e);
/* The event after e->cur, read ahead (e->ahead); at the end of the
 * stream NULL if soft, else dies. */
const struct trace_rec *eng_peek_next(struct engine *e, int soft);
/* Find the item of rec with tag and flags (-1: any) into *it. Returns 1,
 * or 0 when rec has none. */
int eng_find_item(const struct trace_rec *rec, int tag, int flags, struct trace_item *it);
/* Kill the tracee and die naming the corrupt record e->cur and what. */
void eng_bad_record(struct engine *e, const char *what) __attribute__((noreturn));
/* The path of the file that IT_FILE item it names, its bytes checked to
 * be the recorded ones (real: only the file at its recorded path will
 * do). Dies naming the file when none is. The result is static. */
const char *eng_blob_path(struct engine *e, const struct trace_item *it, int real);
/* The signal of the next event of thread tid, when that event is a
 * signal (other threads' events may come first), else 0. */
int eng_next_signal_of(struct engine *e, uint32_t tid);

/* inject.c */


#endif
