#!/bin/bash
# t1163-native-setsid.sh: the process group and session a program sees.
# Started from a shell without job control, a program leads no group and
# setsid() works (every daemon calls it); rec made it lead a group of its
# own, so setsid() failed with EPERM. Now, when rec leads no group
# either, the program is put in a group rec makes for it (led by a
# process that only holds it): it leads none, as natively, and its
# kill(0, sig) reaches neither rec nor the shell. When rec leads its
# group (a shell's job), the program leads one, as natively.
. "$(dirname "$0")/test-lib.sh"
require_tprog native
command -v setsid >/dev/null 2>&1 || skip_all "no setsid(1)"

test_expect_success 'setsid, setpgid, getpgrp, getsid as natively' '
	native_cmp "$T/native" setsid &&
	grep -q "^setsid ok$" rec.out
'
# In a group of their own led by a shell that catches the signals, so
# that kill 0 natively reaches no test shell.
in_group () {
	setsid -w bash -c 'trap : TERM INT; "$@"; echo status $?' sh "$@" </dev/null 2>/dev/null
}
for c in 'kill 0; echo survived' 'kill -INT 0; echo survived'; do
	test_expect_success "sh -c '$c' as natively, rec finishes the trace" '
		in_group sh -c "$c" >nat.out &&
		in_group rec -o "$scratch/trace.k" -- sh -c "$c" >rec.all &&
		test_cmp_bytes nat.out rec.all &&
		sed "\$d" rec.all >rec.out && : >rec.err &&
		sed -n "\$s/^status //p" rec.all >rec.status &&
		replay_cmp "$scratch/trace.k" &&
		rm -rf "$scratch/trace.k"
	'
done
test_expect_success 'rec leading its group: the program leads its own' '
	setsid -w rec -o "$scratch/trace.l" -- "$T/native" setsid >out 2>/dev/null </dev/null &&
	grep -q "^leader yes$" out &&
	grep -q "^setsid Operation not permitted$" out
'
test_done
