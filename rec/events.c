/* events.c: the records rec writes into the trace's events file, in the
 * order replay meets them, and the end of recording. */
#include "bufabi.h"
#include "count.h"
#include "cpu.h"
#include "events.h"
#include "rec.h"
#include "tsc.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void flush_or_die(void)
{
	if (tw_flush(&R.w) < 0)
		die(EXIT_TRACE, "%s/events: write failed: %s", R.dir, strerror(errno));
}

void stop_recording(int status, const char *fmt, ...)
{
	char msg[4600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	flush_or_die();
	for (int i = 0; i < R.ntasks; i++)
		kill(R.tasks[i]->p.pid, SIGKILL);
	die(status, "%s", msg);
}

const char *rec_dir(void)
{
	return R.dir;
}

void item_arg(void *ctx, int arg, uint64_t full, const void *data, size_t len)
{
	tw_item(ctx, IT_ARG, arg, &full, 8, data, len);
}

void item_mem(void *ctx, uint64_t addr, const void *data, size_t len)
{
	tw_item(ctx ? ctx : &R.w, IT_MEM, 0, &addr, 8, data, len);
}

/* Write the entries of syscalls still in the kernel that began before
 * seq as TRF_ENTRY records, oldest first: a record of another thread
 * comes after them. */
void flush_entries(uint64_t before)
{
	for (;;) {
		struct task *o = NULL;
		for (int i = 0; i < R.ntasks; i++)
			if (R.tasks[i]->open && R.tasks[i]->seq < before &&
			    (!o || R.tasks[i]->seq < o->seq))
				o = R.tasks[i];
		if (!o)
			return;
		o->open = 0;
		tw_begin(&R.w, TR_SYSCALL, TRF_ENTRY | o->atentry, R.event++, o->p.pid);
		tw_put(&R.w, o->stage.buf, o->stage.len);
		tw_end(&R.w);
	}
}

/* Start a record of the current task, after the entries of syscalls
 * that began before it. */
void begin(int kind, int flags)
{
	flush_entries(UINT64_MAX);
	tw_begin(&R.w, kind, flags, R.event++, cur->p.pid);
}

/* Save tracee memory [from, to) as an IT_MEM item of the current record. */
void save_mem(uint64_t from, uint64_t to)
{
	uint8_t *buf = xmalloc(to - from);
	ssize_t n = pt_read(&cur->p, from, buf, to - from);
	if (n > 0)
		tw_item(&R.w, IT_MEM, 0, &from, 8, buf, n);
	free(buf);
}

void record_exit(int kind, int st)
{
	begin(kind, 0);
	tw_put32(&R.w, st);
	tw_put32(&R.w, 0);
	tw_end(&R.w);
}

static int exit_code(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void __attribute__((noreturn)) finish(int st)
{
	record_exit(TR_EXIT, st);
	if (tw_close(&R.w) < 0)
		die(EXIT_TRACE, "%s/events: write failed: %s", R.dir, strerror(errno));
	for (int i = 0; i < R.ntasks; i++)	/* what the program left running */
		kill(R.tasks[i]->p.pid, SIGKILL);
	long patched, uncounted;
	count_stats(&patched, &uncounted);
	if (R.count && getenv("REWIND_COUNT_STATS"))
		fprintf(stderr, "rec: counting: %ld edges patched, %ld found but left uncounted\n",
			patched, uncounted);
	exit(exit_code(st));
}

void record_start(void)
{
	begin(TR_START, 0);
	tw_put64(&R.w, clock_ns(CLOCK_REALTIME));
	tw_put32(&R.w, cur->p.pid);
	tw_put32(&R.w, R.tsc_way);	/* how rdtsc was made to stop */
	char cwd[4096] = "";
	if (!getcwd(cwd, sizeof cwd))
		strcpy(cwd, "?");
	tw_item(&R.w, IT_CWD, 0, NULL, 0, cwd, strlen(cwd));
	char cpu[8192];
	cpu_desc(cpu, sizeof cpu);
	tw_item(&R.w, IT_CPU, 0, NULL, 0, cpu, strlen(cpu));
	uint32_t abi = BUF_ABI;
	tw_item(&R.w, IT_BUFABI, 0, &abi, 4, NULL, 0);
	uint64_t sigs[2] = { R.sig_ign, R.sig_mask };
	tw_item(&R.w, IT_SIGS, 0, sigs, 16, NULL, 0);
	uint32_t filter = pt_untraced_queries ? 1 : 0;
	if (filter)
		tw_item(&R.w, IT_FILTER, 0, &filter, 4, NULL, 0);
	uint32_t counted[2] = { R.count, count_lazy() };
	tw_item(&R.w, IT_COUNT, 0, counted, 8, NULL, 0);
	if (R.chaos)
		tw_item(&R.w, IT_CHAOS, 0, &R.seed, 8, NULL, 0);
	tw_end(&R.w);
}
