#!/bin/bash
# t1120-tree-stop-new.sh: a SIGSTOP sent to a child before it first ran
# stops it (rec holds such a signal for the child's next call and raises
# it there itself, which looked like rec's own preemption SIGSTOP: it was
# dropped, and the parent's waitpid(WUNTRACED) hung rec).
. "$(dirname "$0")/test-lib.sh"
require_tprog stopnew

test_expect_success 'native output differs (token)' '
	differs_natively "$T/stopnew"
'
test_expect_success 'the child stops, continues and exits, and replays' '
	rec_replay_cmp "$T/stopnew" &&
	grep -q "^stopped 1 by 19" rec.out &&
	grep -q "^continued 1" rec.out &&
	grep -q "^exited 1 with" rec.out
'
test_done
