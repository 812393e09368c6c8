#!/bin/bash
# bench/run.sh: `make bench`: times each workload natively, under rec and
# under replay, with syscall buffering and without (REWIND_NO_BUFFER=1),
# in rounds, and prints the medians of each round's ratio to its native
# run with the size of each (buffered) trace's events file.
set -u
: "${REWIND_BIN:?set REWIND_BIN to the directory holding rec and replay}"
: "${REWIND_BPROG:?set REWIND_BPROG to the directory of the bench programs}"
: "${REWIND_TPROG:?set REWIND_TPROG to the directory of the test programs}"
RUNS=${BENCH_RUNS:-3}
bsrc=$(cd "$(dirname "$0")" && pwd)	# the bench sources (the run cds away)
export LC_ALL=C

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rewind-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export REWIND_DIR=$tmp/traces

# secs CMD...: wall time of one run of CMD in seconds (output discarded).
secs () {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1 </dev/null
	local st=$?
	t1=$(date +%s%N)
	if [ $st != 0 ]; then
		echo "bench: $* failed with status $st" >&2
		echo fail
		return
	fi
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }'
}

# median LIST: the middle value of whitespace-separated numbers ("fail"
# when any run failed).
median () {
	case " $* " in *" fail "*) echo fail; return ;; esac
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

ratio () {
	case "$1$2" in *fail*) echo "fail"; return ;; esac
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'
}

# quot A B: A / B as a number (for a median of ratios), or "fail".
quot () {
	case "$1$2" in *fail*) echo "fail"; return ;; esac
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f\n", a / b }'
}

# times_x R: a ratio R printed as a slowdown ("fail" as it is).
times_x () {
	case "$1" in fail) echo fail ;; *) awk -v r="$1" 'BEGIN { printf "%.2fx", r }' ;; esac
}

human () {
	awk -v n="$1" 'BEGIN {
		if (n >= 1048576) printf "%.1f MiB", n / 1048576
		else if (n >= 1024) printf "%.1f KiB", n / 1024
		else printf "%d B", n }'
}

# bench NAME CMD...: one table row. Each round runs CMD natively, under
# rec and replay, and under rec and replay with REWIND_NO_BUFFER=1, in
# turn, and each ratio is taken against the native run of its own round
# (the machine's speed drifts: a slow spell then slows both sides of a
# ratio); the row gives the medians of the rounds' ratios. RUNS rounds,
# or SHORT_RUNS when the first native run takes under half a second,
# where one slow run of three moves a median. The median times
# (buffered) stay in row_nat, row_rec and row_rep for the lines after
# the table.
SHORT_RUNS=${BENCH_SHORT_RUNS:-11}
bench () {
	local name=$1 i rounds=$RUNS n r p rn pn size
	shift
	local nat=() rec=() rep=() qr=() qp=() qrn=() qpn=()
	for ((i = 0; i < rounds; i++)); do
		n=$(secs "$@")
		if ((i == 0)) && [ "$n" != fail ] && awk -v n="$n" 'BEGIN { exit !(n < 0.5) }'; then
			rounds=$SHORT_RUNS
		fi
		rm -rf "$tmp/tr.$name" "$tmp/tr.$name.nb"
		r=$(secs "$REWIND_BIN/rec" -o "$tmp/tr.$name" -- "$@")
		p=$(secs "$REWIND_BIN/replay" "$tmp/tr.$name")
		rn=$(REWIND_NO_BUFFER=1 secs "$REWIND_BIN/rec" -o "$tmp/tr.$name.nb" -- "$@")
		pn=$(REWIND_NO_BUFFER=1 secs "$REWIND_BIN/replay" "$tmp/tr.$name.nb")
		nat+=("$n") rec+=("$r") rep+=("$p")
		qr+=("$(quot "$r" "$n")") qp+=("$(quot "$p" "$n")")
		qrn+=("$(quot "$rn" "$n")") qpn+=("$(quot "$pn" "$n")")
	done
	size=$(stat -c %s "$tmp/tr.$name/events" 2>/dev/null || echo 0)
	printf '%-14s %9ss %9s %9s %9s %9s %12s\n' "$name" "$(median "${nat[@]}")" \
		"$(times_x "$(median "${qr[@]}")")" "$(times_x "$(median "${qp[@]}")")" \
		"$(times_x "$(median "${qrn[@]}")")" "$(times_x "$(median "${qpn[@]}")")" "$(human "$size")"
	row_nat=$(median "${nat[@]}") row_rec=$(median "${rec[@]}") row_rep=$(median "${rep[@]}")
}

head -c $((64 << 20)) /dev/urandom >src.bin

# A small project for make -j2: twelve C files and a link.
mkdir -p proj
for i in $(seq 1 12); do
	printf '#include <stdio.h>\n#include <string.h>\nint f%d(const char *s) { return (int)strlen(s) * %d; }\n' \
		"$i" "$i" >proj/f$i.c
done
{ echo 'int main(void) { return 0; }'; } >proj/main.c
printf 'OBJ = $(patsubst %%.c,%%.o,$(wildcard *.c))\napp: $(OBJ)\n\t$(CC) -o $@ $(OBJ)\n' >proj/Makefile
printf '#!/bin/sh\nrm -f %s/proj/*.o %s/proj/app\nexec make -s -j2 -C %s/proj\n' "$tmp" "$tmp" "$tmp" >mk.sh
printf '#!/bin/sh\nfind /usr/include -name "*.h" | xargs grep -c define\n' >fg.sh
chmod +x mk.sh fg.sh

printf '%-14s %10s %9s %9s %9s %9s %12s\n' workload native rec replay "rec(nb)" "replay(nb)" events
# The compute loops run a known number of turns, each passing its back
# edge once: the edges counted below.
ncompute=450000000 nshort=650000000
# Counting is the default, lazily: a process with no thread and no
# timer, as this loop, is never patched and costs nothing to count.
bench compute "$REWIND_BPROG/compute" $ncompute
comp_rec=$row_rec comp_rep=$row_rep
# The compute loop counted, patched at its exec (REWIND_COUNT_EAGER=1).
# Its back edge is a 2-byte jg, moved to its trampoline with the cmp
# before it.
REWIND_COUNT_EAGER=1 bench compute-counted "$REWIND_BPROG/compute" $ncompute
compc_rec=$row_rec compc_rep=$row_rep
# A tighter loop closed by a 2-byte jnz (shortloop.c: a multiply and an
# add a turn), uncounted and counted from its exec as above.
bench short-loop "$REWIND_BPROG/shortloop" $nshort
short_rec=$row_rec short_rep=$row_rep
REWIND_COUNT_EAGER=1 bench short-counted "$REWIND_BPROG/shortloop" $nshort
shortc_rec=$row_rec shortc_rep=$row_rep
bench writes-100k "$REWIND_BPROG/writes"
bench copy-64MiB "$REWIND_BPROG/copy" "$tmp/src.bin" "$tmp/dst.bin"
bench python-pass /usr/bin/python3 -c pass
# Start-up uncounted (REWIND_NO_COUNT=1): what counting costs a start
# is the difference (issue 21's goal: within 1.10x).
REWIND_NO_COUNT=1 bench python-nocount /usr/bin/python3 -c pass
printf 'int f(int x) { return x * 3; }\n' >one.c
bench gcc-c gcc -c -o one.o one.c
REWIND_NO_COUNT=1 bench gcc-c-nocount gcc -c -o one.o one.c
bench make-j2 "$tmp/mk.sh"
bench find-grep "$tmp/fg.sh"
bench spin-wait "$REWIND_BPROG/spin"
bench threads "$REWIND_BPROG/threads"
# 100 threads created and joined one by one while another thread loops
# on buffered calls (t/prog/handoff.c, rr's thread_open_race).
bench handoff "$REWIND_TPROG/handoff" 100
# A reservation of 1 TiB, ten pages of it used: costs what is used.
# Its spinning thread runs beside main on the second core natively,
# while rec runs one thread at a time; the row pinned to one core (all
# three runs alike) shows what the reservation itself costs.
bench reserve-1TiB "$REWIND_BPROG/reserve"
if command -v taskset >/dev/null 2>&1; then
	bench reserve-1cpu taskset -c 0 "$REWIND_BPROG/reserve"
fi
# Threaded compute: xz with two threads on 4 MiB, half text and half
# random bytes; preempted every timeslice (its input is 4.0 MiB).
if command -v xz >/dev/null 2>&1; then
	{ head -c $((2 << 20)) "$(command -v xz)" /usr/lib/x86_64-linux-gnu/*.so* 2>/dev/null |
		head -c $((2 << 20)); head -c $((2 << 20)) /dev/urandom; } >xz.in
	# Counted (the default): preemptions are points, their memory not
	# in the trace (issue 21's goal: events file <= 4 MiB); uncounted
	# (REWIND_NO_COUNT=1), each preemption keeps the memory written.
	bench xz-T2-4MiB xz -T2 -c xz.in
	REWIND_NO_COUNT=1 bench xz-T2-nocount xz -T2 -c xz.in
else
	echo "bench: no xz; threaded compute not measured"
fi

# What a counted edge costs: the counted row's time over the uncounted
# one's, per edge the loop ran (its turns; start-up's few thousand
# edges and the patching at exec are left in), in cycles at the nominal
# "cpu MHz" of /proc/cpuinfo (not the clock the loop ran at). And how
# many edges python3 -c pass has patched, at its exec and lazily
# (REWIND_COUNT_STATS: rec's count of the sites it patched).
mhz=$(awk -F: '/^cpu MHz/ { printf "%d", $2; exit }' /proc/cpuinfo)
# cycles BASE COUNTED EDGES: (COUNTED - BASE) seconds / EDGES, in cycles.
cycles () {
	case "$1$2" in *fail*) echo fail; return ;; esac
	awk -v a="$1" -v b="$2" -v e="$3" -v m="${mhz:-0}" 'BEGIN { printf "%.2f", (b - a) / e * m * 1e6 }'
}
# pyedges [VAR=VALUE...]: "PATCHED UNCOUNTED" for python3 -c pass counted.
pyedges () {
	rm -rf "$tmp/tr.pyedges"
	env REWIND_COUNT_STATS=1 "$@" "$REWIND_BIN/rec" -o "$tmp/tr.pyedges" -- \
		/usr/bin/python3 -c pass 2>&1 >/dev/null </dev/null |
		sed -n 's/^rec: counting: \([0-9]*\) edges patched, \([0-9]*\) found.*/\1 \2/p'
}
read -r pye pyeu < <(pyedges REWIND_COUNT_EAGER=1)
read -r pyl _ < <(pyedges)
echo
printf 'counted edges (cycles at the nominal %s MHz of /proc/cpuinfo)\n' "${mhz:-?}"
printf '%-38s %9s %9s\n' what rec replay
printf '%-38s %9s %9s\n' "cycles a counted edge, compute" "$(cycles "$comp_rec" "$compc_rec" $ncompute)" \
	"$(cycles "$comp_rep" "$compc_rep" $ncompute)"
printf '%-38s %9s %9s\n' "cycles a counted edge, short-loop" "$(cycles "$short_rec" "$shortc_rec" $nshort)" \
	"$(cycles "$short_rep" "$shortc_rep" $nshort)"
printf '%-38s %9s\n' "python3 -c pass: edges patched, eager" "${pye:-fail}"
printf '%-38s %9s\n' "  found but left uncounted" "${pyeu:-fail}"
printf '%-38s %9s\n' "python3 -c pass: edges patched, lazy" "${pyl:-fail}"
rm -rf "$tmp/tr.pyedges"

# A real build: make -j2 of the tools of a copy of this project (one run
# each: it is long), with the events file, the peak memory of rec and of
# replay themselves (VmHWM, sampled; not the program's), and seeking to
# its last event with and without tseek's index.
# peak CMD...: runs CMD (output discarded); prints its seconds and its
# own VmHWM in KiB.
peak () {
	local t0 t1 h=0 v pid
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1 </dev/null &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		v=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
		[ -n "$v" ] && h=$v
		sleep 0.2
	done
	wait "$pid" || { echo "fail 0"; return; }
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" -v h="$h" 'BEGIN { printf "%.4f %d\n", (b - a) / 1e9, h }'
}
mkdir -p build-src
cp -r "$bsrc/../lib" "$bsrc/../rec" "$bsrc/../replay" "$bsrc/../tdump" "$bsrc/../tpack" \
	"$bsrc/../gdbstub" "$bsrc/../tseek" "$bsrc/../buf" "$bsrc/../Makefile" "$bsrc/../deps.sh" \
	build-src/
tools="bx/bin/rec bx/bin/replay bx/bin/tdump bx/bin/tpack bx/bin/gdbstub bx/bin/tseek"
printf '#!/bin/sh\nrm -rf %s/build-src/bx\nexec make -s -j2 -C %s/build-src O=bx %s\n' \
	"$tmp" "$tmp" "$tools" >build.sh
chmod +x build.sh
nat=$(secs "$tmp/build.sh")
rm -rf "$tmp/tr.build"
read -r rt rh < <(peak "$REWIND_BIN/rec" -o "$tmp/tr.build" -- "$tmp/build.sh")
read -r pt ph < <(peak "$REWIND_BIN/replay" "$tmp/tr.build")
last=$("$REWIND_BIN/tdump" "$tmp/tr.build" | awk '$3 == "syscall" { e = $1 } END { print e }')
plain=$(secs "$REWIND_BIN/replay" --to "$last" "$tmp/tr.build")
ts=$(secs "$REWIND_BIN/tseek" "$tmp/tr.build")
seek=$(secs "$REWIND_BIN/replay" --to "$last" "$tmp/tr.build")
# Stops per task: the events rec stopped a thread for (all but the
# syscall buffer's calls), against every call (what each was a stop
# before buffering, REWIND_NO_BUFFER=1).
read -r ntask nstop ncall < <("$REWIND_BIN/tdump" --json "$tmp/tr.build" | awk '
	/"kind":"(task-)?exit"/ { t++ }
	/"kind":"syscall"/ { c++ }
	!/"buffered":true/ { s++ }
	END { print t + 0, s + 0, c + 0 }')
echo
printf 'a real build (make -j2 of this project'"'"'s tools: %ss natively, %s processes)\n' "$nat" \
	"$("$REWIND_BIN/tdump" "$tmp/tr.build" | awk '$3 == "task-exit" { n++ } END { print n + 0 }')"
printf '%-38s %9s\n' what value
printf '%-38s %9s\n' "rec" "$(ratio "$rt" "$nat")"
printf '%-38s %9s\n' "replay" "$(ratio "$pt" "$nat")"
printf '%-38s %9s\n' "events file" "$(human "$(stat -c %s "$tmp/tr.build/events" 2>/dev/null || echo 0)")"
printf '%-38s %9s\n' "rec's peak memory" "$(human $((rh * 1024)))"
printf '%-38s %9s\n' "replay's peak memory" "$(human $((ph * 1024)))"
printf '%-38s %9ss\n' "replay --to the last event, no index" "$plain"
printf '%-38s %9ss\n' "tseek" "$ts"
printf '%-38s %9ss\n' "replay --to the last event, index" "$seek"
printf '%-38s %9s\n' "index on disk" "$(human "$(du -sb "$tmp/tr.build/seek" 2>/dev/null | cut -f1)")"
printf '%-38s %9s\n' "stops a task (every call a stop)" \
	"$(awk -v s="$nstop" -v c="$ncall" -v t="$ntask" 'BEGIN { if (t) printf "%.0f (%.0f)", s / t, c / t }')"
rm -rf "$tmp/tr.build" build-src

# A web server: python3's http.server handler serving 2,000 requests to a
# client outside the recording, then exiting (bench/web/): rec and replay
# against its native run, the events file, rec's and replay's peak memory,
# and tseek's index against the events file and its time against
# replay's (one run each).
NWEB=2000
mkdir -p web/root
seq 1 2000 >web/root/page.txt
for i in 1 2 3 4 5 6 7 8; do echo "$i" >"web/root/f$i"; done
# client: fetch.py in the background, waiting for the server's port.
client () {
	rm -f "$tmp/web/port"
	python3 "$bsrc/web/fetch.py" "$NWEB" "$tmp/web/port" >/dev/null 2>&1 &
}
# Times by secs, peaks by peak (which samples every 0.2 s) in runs of
# their own.
cd web/root || exit 1
serve=(python3 "$bsrc/web/serve.py" "$NWEB" "$tmp/web/port")
client
wnat=$(secs "${serve[@]}")
wait
client
read -r _ wnh < <(peak "${serve[@]}")
wait
rm -rf "$tmp/tr.web" "$tmp/tr.web2"
client
wrt=$(secs "$REWIND_BIN/rec" -o "$tmp/tr.web" -- "${serve[@]}")
wait
client
read -r _ wrh < <(peak "$REWIND_BIN/rec" -o "$tmp/tr.web2" -- "${serve[@]}")
wait
cd "$tmp" || exit 1
rm -rf "$tmp/tr.web2"
wpt=$(secs "$REWIND_BIN/replay" "$tmp/tr.web")
read -r _ wph < <(peak "$REWIND_BIN/replay" "$tmp/tr.web")
wts=$(secs "$REWIND_BIN/tseek" "$tmp/tr.web")
wev=$(stat -c %s "$tmp/tr.web/events" 2>/dev/null || echo 0)
wix=$(du -sb "$tmp/tr.web/seek" 2>/dev/null | cut -f1)
echo
printf 'a web server (python3 http.server handler, %s requests: %ss natively)\n' "$NWEB" "$wnat"
printf '%-38s %9s\n' what value
printf '%-38s %9s\n' "rec" "$(ratio "$wrt" "$wnat")"
printf '%-38s %9s\n' "replay" "$(ratio "$wpt" "$wnat")"
printf '%-38s %9s\n' "events file" "$(human "$wev")"
printf '%-38s %9s\n' "the server's peak memory, natively" "$(human $((wnh * 1024)))"
printf '%-38s %9s\n' "rec's peak memory" "$(human $((wrh * 1024)))"
printf '%-38s %9s\n' "replay's peak memory" "$(human $((wph * 1024)))"
printf '%-38s %9ss\n' "tseek" "$wts"
printf '%-38s %9s\n' "tseek against replay" "$(ratio "$wts" "$wpt")"
printf '%-38s %9s\n' "index on disk" "$(human "${wix:-0}")"
printf '%-38s %9s\n' "index / (2 events file + server peak)" \
	"$(ratio "${wix:-0}" "$((2 * wev + wnh * 1024))")"
rm -rf "$tmp/tr.web" web

# Signal timing: t/prog/profsig.c's 2 ms interval timer (ITIMER_REAL)
# while it computes about 0.5 s with no syscall: how often its handler runs natively, under rec
# (counted, the default: patched at its setitimer, each signal delivered
# at a point), uncounted (REWIND_NO_COUNT=1: signals preempt where they
# come, the state recorded) and with REWIND_HOLD_SIGNALS=1, and whether replay prints the same bytes (the
# handler ran at the same places).
hits () { sed -n 's/^hits \([0-9]*\) .*/\1/p' "$1"; }
"$REWIND_TPROG/profsig" 2000 real >sig.nat 2>/dev/null
rm -rf "$tmp/tr.sig" "$tmp/tr.sigh" "$tmp/tr.sigc"
REWIND_NO_COUNT=1 "$REWIND_BIN/rec" -o "$tmp/tr.sig" -- "$REWIND_TPROG/profsig" 2000 real >sig.rec 2>/dev/null
"$REWIND_BIN/rec" -o "$tmp/tr.sigc" -- "$REWIND_TPROG/profsig" 2000 real >sig.cnt 2>/dev/null
REWIND_HOLD_SIGNALS=1 "$REWIND_BIN/rec" -o "$tmp/tr.sigh" -- "$REWIND_TPROG/profsig" 2000 real >sig.hold 2>/dev/null
"$REWIND_BIN/replay" "$tmp/tr.sig" >sig.rep 2>/dev/null
"$REWIND_BIN/replay" "$tmp/tr.sigc" >sig.crep 2>/dev/null
same=no
cmp -s sig.rec sig.rep && cmp -s sig.cnt sig.crep && same=yes
echo
printf 'signal timing (profsig.c real: a 2 ms timer, about 0.5 s of compute)\n'
printf '%-38s %9s\n' what value
printf '%-38s %9s\n' "handler runs natively" "$(hits sig.nat)"
printf '%-38s %9s\n' "under rec (counted)" "$(hits sig.cnt)"
printf '%-38s %9s\n' "under rec, REWIND_NO_COUNT=1" "$(hits sig.rec)"
printf '%-38s %9s\n' "under rec, REWIND_HOLD_SIGNALS=1" "$(hits sig.hold)"
printf '%-38s %9s\n' "replay prints the same bytes (both)" "$same"
printf '%-38s %9s\n' "events file" "$(human "$(stat -c %s "$tmp/tr.sig/events" 2>/dev/null || echo 0)")"

# Seeking: ticks.c computes for about 10 s with a write every 10 ms; the
# time of replay --to its last event from the start and from tseek's
# nearest checkpoint, the index's size, and tseek's own time (one run
# each: these are long).
rm -rf "$tmp/tr.ticks"
"$REWIND_BIN/rec" -o "$tmp/tr.ticks" -- "$REWIND_BPROG/ticks" >/dev/null 2>&1
last=$("$REWIND_BIN/tdump" "$tmp/tr.ticks" | awk '$3 == "syscall" { e = $1 } END { print e }')
nat=$(secs "$REWIND_BPROG/ticks")
plain=$(secs "$REWIND_BIN/replay" --to "$last" "$tmp/tr.ticks")
ts=$(secs "$REWIND_BIN/tseek" "$tmp/tr.ticks")
seek=$(secs "$REWIND_BIN/replay" --to "$last" "$tmp/tr.ticks")
size=$(du -sb "$tmp/tr.ticks/seek" 2>/dev/null | cut -f1)
ncp=$("$REWIND_BIN/tseek" --list "$tmp/tr.ticks" 2>/dev/null | grep -c ' seek/cp-')
echo
printf 'seeking (ticks.c: %ss natively, a write every 10 ms; replay --to %s, the last event)\n' "$nat" "$last"
printf '%-38s %9s\n' what value
printf '%-38s %9ss\n' "replay --to, no index" "$plain"
printf '%-38s %9ss\n' "replay --to, with the index" "$seek"
printf '%-38s %9s\n' "speed-up" "$(ratio "$plain" "$seek")"
printf '%-38s %9ss\n' "tseek (default --interval 1)" "$ts"
printf '%-38s %9s\n' "index on disk ($ncp checkpoints)" "$(human "${size:-0}")"

# Seeking in a threaded trace: tticks.c's four threads compute and hand
# over with sched_yield; checkpoints copy every thread.
rm -rf "$tmp/tr.tticks"
"$REWIND_BIN/rec" -o "$tmp/tr.tticks" -- "$REWIND_BPROG/tticks" >/dev/null 2>&1
last=$("$REWIND_BIN/tdump" "$tmp/tr.tticks" | awk '$3 == "syscall" { e = $1 } END { print e }')
nat=$(secs "$REWIND_BPROG/tticks")
plain=$(secs "$REWIND_BIN/replay" --to "$last" "$tmp/tr.tticks")
ts=$(secs "$REWIND_BIN/tseek" "$tmp/tr.tticks")
seek=$(secs "$REWIND_BIN/replay" --to "$last" "$tmp/tr.tticks")
ncp=$("$REWIND_BIN/tseek" --list "$tmp/tr.tticks" 2>/dev/null | grep -c ' seek/cp-')
echo
printf 'seeking in a threaded trace (tticks.c: %ss natively, 4 threads; replay --to %s, the last event)\n' "$nat" "$last"
printf '%-38s %9s\n' what value
printf '%-38s %9ss\n' "replay --to, no index" "$plain"
printf '%-38s %9ss\n' "replay --to, with the index" "$seek"
printf '%-38s %9s\n' "speed-up" "$(ratio "$plain" "$seek")"
printf '%-38s %9ss\n' "tseek ($ncp checkpoints)" "$ts"

# Reverse execution in gdb: watched.c computes for about a second without a
# syscall and writes `watched` every 100000 iterations; gdb runs to the end,
# watches it and goes backwards. Times are for one gdb command each.
command -v gdb >/dev/null 2>&1 || { echo "bench: no gdb; reverse execution not measured"; exit 0; }
nat=$(median "$(secs "$REWIND_BPROG/watched")" "$(secs "$REWIND_BPROG/watched")" "$(secs "$REWIND_BPROG/watched")")
rm -rf "$tmp/tr.watched"
"$REWIND_BIN/rec" -o "$tmp/tr.watched" -- "$REWIND_BPROG/watched" >/dev/null 2>&1
line=$(grep -n 'return 0;' "$bsrc/prog/watched.c" 2>/dev/null | cut -d: -f1)
# rev.gdb MODE: the session, with the stub's REWIND_NO_DEBUGREGS=MODE (1:
# watchpoints by page protection and counts by stops, as on a machine
# whose debug registers never fire).
revgdb () {
	cat <<GDB
set pagination off
python import time
python def t(name, f): t0 = time.time(); gdb.execute(f, to_string=True); print("T %s %.3f" % (name, time.time() - t0))
target remote | env REWIND_NO_DEBUGREGS=$1 $REWIND_BIN/gdbstub $tmp/tr.watched
break watched.c:${line:-22}
python t("continue to the end", "continue")
watch -l watched
python t("reverse-continue to the last write", "reverse-continue")
python t("reverse-continue to the write before", "reverse-continue")
python t("reverse-continue once more", "reverse-continue")
python t("reverse-stepi at a write", "reverse-stepi")
python t("reverse-stepi again", "reverse-stepi")
python t("stepi", "stepi")
python t("reverse-stepi back", "reverse-stepi")
python t("continue (to the next write)", "continue")
monitor stats
GDB
}
echo
printf 'reverse execution in gdb (watched.c: %ss natively, %s writes, no syscalls)\n' "$nat" 4000
printf '%-38s %9s %9s %12s %9s\n' command "dregs s" "x native" "no-dregs s" "x dregs"
for mode in 0 1; do
	revgdb $mode >rev.$mode.gdb
	timeout 900 gdb -batch -nx -x rev.$mode.gdb "$REWIND_BPROG/watched" >rev.$mode.out 2>&1
done
grep -h '^T ' rev.0.out | while read -r tag rest; do
	name=${rest% *}; s=${rest##* }
	p=$(grep -F "T $name " rev.1.out | head -n 1); p=${p##* }
	printf '%-38s %9s %9s %12s %9s\n' "$name" "$s" "$(ratio "$s" "$nat")" "${p:-fail}" "$(ratio "${p:-fail}" "$s")"
done
for mode in 0 1; do
	grep -h '^checkpoints' rev.$mode.out | sed 's/^/live /'
done

# Preempted stretches in gdb: spin.c (a spinner, state repeating, and main
# computing between writes) and tcompute.c (two threads computing, state
# never repeating), each continued to its last line with a breakpoint
# there and back: with the stretches re-executed to find the preemptions'
# places (the default for an uncounted trace: REWIND_NO_COUNT=1), with
# their states set (REWIND_NO_REEXEC=1), and re-executed to the software
# count of a trace recorded counted (the default).
echo
printf 'preempted stretches in gdb (continue to the end with a breakpoint set, and back)\n'
printf '%-16s %9s %9s %10s %9s %10s %9s\n' workload preempts "set s" "re-exec s" "given up" \
	"counted s" "given up"
# pre_gdb TRACE MODE OUT: the session on TRACE with REWIND_NO_REEXEC=MODE.
pre_gdb () {
	cat >pre.gdb <<GDB
set pagination off
python import time
python t0 = time.time()
target remote | env REWIND_NO_REEXEC=$2 $REWIND_BIN/gdbstub $1
break $p.c:$line
continue
reverse-continue
python print("T %.3f" % (time.time() - t0))
GDB
	timeout 900 gdb -batch -nx -x pre.gdb "$REWIND_BPROG/$p" >"$3" 2>&1
}
# given_up OUT: how many stretches the session gave up (the forward line
# names the first and how many more).
given_up () {
	local gave
	gave=$(grep -m 1 'not found again' "$1" | sed 's/.*(and \([0-9]*\) more such.*/\1/')
	case $gave in "") echo 0 ;; *[!0-9]*) echo 1 ;; *) echo $((gave + 1)) ;; esac
}
for p in spin tcompute; do
	rm -rf "$tmp/tr.pre.$p" "$tmp/tr.cnt.$p"
	REWIND_NO_COUNT=1 "$REWIND_BIN/rec" -o "$tmp/tr.pre.$p" -- "$REWIND_BPROG/$p" >/dev/null 2>&1
	# The same recorded with the software count (the default): gdbstub
	# runs each preempted thread to its count before searching.
	REWIND_NO_COUNT= "$REWIND_BIN/rec" -o "$tmp/tr.cnt.$p" -- "$REWIND_BPROG/$p" \
		>/dev/null 2>&1
	npre=$("$REWIND_BIN/tdump" "$tmp/tr.pre.$p" | grep -c ' preempt ')
	line=$(grep -n 'printf("%llu' "$bsrc/prog/$p.c" | cut -d: -f1)
	pre_gdb "$tmp/tr.pre.$p" 1 pre.1.out
	pre_gdb "$tmp/tr.pre.$p" 0 pre.0.out
	pre_gdb "$tmp/tr.cnt.$p" 0 pre.c.out
	printf '%-16s %9s %9s %10s %9s %10s %9s\n' "$p.c" "$npre" "$(sed -n 's/^T //p' pre.1.out)" \
		"$(sed -n 's/^T //p' pre.0.out)" "$(given_up pre.0.out)" \
		"$(sed -n 's/^T //p' pre.c.out)" "$(given_up pre.c.out)"
done
# Why a preemption in a counting loop is not found by counting: a
# hardware breakpoint that counts the loop's turns without stopping still
# takes a debug exception at each (dbhit.c).
printf 'counting a loop by a hardware breakpoint: %s\n' "$("$REWIND_BPROG/dbhit" 100000)"
# Reverse execution in a threaded program: threads.c (4 threads, 80,000
# writes under a mutex); gdb runs to the end, then goes back to the
# breakpoint's hits. Checkpoints copy every thread.
rm -rf "$tmp/tr.threads"
"$REWIND_BIN/rec" -o "$tmp/tr.threads" -- "$REWIND_BPROG/threads" >/dev/null 2>&1
line=$(grep -n 'total++;' "$(dirname "$0")/prog/threads.c" 2>/dev/null | cut -d: -f1)
cat >thr.gdb <<GDB
set pagination off
python import time
python def t(name, f): t0 = time.time(); gdb.execute(f, to_string=True); print("T %s %.3f" % (name, time.time() - t0))
target remote | $REWIND_BIN/gdbstub $tmp/tr.threads
python t("continue to the end", "continue")
break threads.c:${line:-21}
python t("reverse-continue to the last hit", "reverse-continue")
python t("reverse-continue to the hit before", "reverse-continue")
python t("reverse-continue once more", "reverse-continue")
python t("reverse-stepi", "reverse-stepi")
python t("reverse-stepi again", "reverse-stepi")
monitor stats
GDB
timeout 900 gdb -batch -nx -x thr.gdb "$REWIND_BPROG/threads" >thr.out 2>&1
echo
printf 'reverse execution in a threaded program (threads.c: 4 threads, 80,000 writes)\n'
printf '%-38s %9s\n' command seconds
grep -h '^T ' thr.out | while read -r tag rest; do
	printf '%-38s %9s\n' "${rest% *}" "${rest##* }"
done
grep -h '^checkpoints' thr.out | sed 's/^/live /'
