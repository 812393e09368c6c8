/* account.h: tseek's account of itself on stderr: a progress line while
 * it replays, and a closing summary of the index it made, with the
 * stretches of the trace left without a checkpoint and why. */
#ifndef TSEEK_ACCOUNT_H
#define TSEEK_ACCOUNT_H

#include <stdint.h>

struct account;

/* Start the account of a tseek run on the trace in dir. quiet: print
 * nothing (no progress, no summary). every > 0: checkpoints are asked
 * for every that many events, else every interval seconds of replay
 * time; a stretch without one is worth a line when it is longer than
 * that. Progress goes on one line updated in place when stderr is a
 * terminal, else on a line every 10 seconds. */
struct account *acct_start(const char *dir, int quiet, long long every, double interval);
/* Event ev was replayed; off is how far into the events file the
 * reader is (bytes), for the progress line. */
void acct_event(struct account *a, uint64_t ev, uint64_t off);
/* A checkpoint was due after event ev: taken (why NULL), or refused for
 * why (seek_capture()'s phrase). */
void acct_try(struct account *a, uint64_t ev, const char *why);
/* The replay ended at event end (the trace's last): print the summary
 * (checkpoints, the events they cover, the index's size in bytes, the
 * stretches without one) and free a. */
void acct_end(struct account *a, uint64_t end, uint64_t bytes);

#endif
