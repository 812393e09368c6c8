#!/bin/bash
# t2201-count-cache.sh: the decoded patch lists (count-*) and the
# patches made whole for a place (images, cimg-*: lib/countimg.h) are
# cached on disk (lib/codescan.h) and patching is the same whether the
# cache was cold or warm, in rec and in replay. REWIND_COUNT_SITES names
# a file that gets each patched site (process, place, trampoline,
# lengths) and each look-up: "cache" lines for patch lists, "image"
# lines for images (hit, miss, damaged; kept: from earlier in the run).
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
export REWIND_NO_COUNT= XDG_CACHE_HOME=$scratch/cache
unset REWIND_NO_CODE_CACHE

# sites FILE: FILE's sites without the process (a number rec picks).
sites () {
	grep "^site " "$1" | cut -d" " -f3-
}

# rec_log LOG PROG ARGS...: rec_prog with the sites in LOG; rec must exit 0.
rec_log () {
	local log=$1
	shift
	REWIND_COUNT_SITES=$scratch/$log rec_prog "$@" &&
	check_status "$scratch/rec.status" 0
}

test_expect_success 'cold: every look-up misses, the entries are written' '
	rec_log cold.rec "$T/counting" 100 &&
	grep -q "^cache .* miss$" cold.rec &&
	! grep "^cache .* hit$" cold.rec &&
	test "$(sites cold.rec | wc -l)" -gt 100 &&
	ls "$XDG_CACHE_HOME"/rewind/count-* >entries &&
	test "$(wc -l <entries)" = "$(grep -c "^cache " cold.rec)" &&
	! grep "^image .* hit$" cold.rec &&
	ls "$XDG_CACHE_HOME"/rewind/cimg-* >images &&
	test "$(wc -l <images)" = "$(grep -c "^image .* miss$" cold.rec)"
'
# own LOG: LOG names one mapping as rewind's preloaded library (none
# when REWIND_NO_BUFFER=1 keeps it out), and no site is inside it.
own () {
	local want=1
	case "${REWIND_NO_BUFFER:-0}" in ""|0) ;; *) want=0 ;; esac
	test "$(grep -c "^map .* own " "$1")" = $want &&
	# Addresses as 16 hex digits compare as strings.
	awk 'function w(x) { x = sprintf("%16s", x); gsub(/ /, "0", x); return x }
	     $1 == "map" && $5 == "own" { lo = w($3); hi = w($4) }
	     $1 == "site" { a[NR] = w($3) }
	     END { for (i in a) if (a[i] >= lo && a[i] < hi) exit 1 }' "$1"
}

test_expect_success 'rewind'"'"'s preloaded library is left alone' '
	own cold.rec
'
# warm LOG: every look-up in LOG found its image, none missed.
warm () {
	grep -q "^image .* hit$" "$1" &&
	! grep "^image .* miss$" "$1" && ! grep "^cache .* miss$" "$1"
}

test_expect_success 'replay with the cache now warm patches as rec did cold' '
	REWIND_COUNT_SITES=$scratch/cold.play replay_cmp &&
	warm cold.play &&
	grep "^site " cold.rec >a && grep "^site " cold.play >b && cmp a b
'
test_expect_success 'warm: every look-up hits, the same sites are patched' '
	rec_log warm.rec "$T/counting" 100 &&
	warm warm.rec &&
	sites cold.rec >cold.sites && sites warm.rec >warm.sites &&
	cmp cold.sites warm.sites && own warm.rec
'
test_expect_success 'replay with a cold cache patches as rec did warm' '
	XDG_CACHE_HOME=$scratch/cache2 REWIND_COUNT_SITES=$scratch/warm.play replay_cmp &&
	grep -q "^cache .* miss$" warm.play &&
	! grep "^cache .* hit$" warm.play && ! grep "^image .* hit$" warm.play &&
	grep "^site " warm.rec >a && grep "^site " warm.play >b && cmp a b &&
	ls "$scratch"/cache2/rewind/count-* "$scratch"/cache2/rewind/cimg-* >/dev/null
'
test_expect_success 'REWIND_NO_CODE_CACHE=1: no cache used or made' '
	REWIND_NO_CODE_CACHE=1 XDG_CACHE_HOME=$scratch/cache3 rec_log none.rec "$T/counting" 100 &&
	REWIND_NO_CODE_CACHE=1 XDG_CACHE_HOME=$scratch/cache3 replay_cmp &&
	! grep -q "^cache " none.rec && ! grep "^image " none.rec | grep -v " off$" &&
	test ! -e "$scratch/cache3/rewind" &&
	sites none.rec >none.sites && cmp cold.sites none.sites
'
test_expect_success 'without XDG_CACHE_HOME the cache is in ~/.cache/rewind' '
	(unset XDG_CACHE_HOME && rec_prog "$T/counting" 100) &&
	ls "$HOME"/.cache/rewind/count-* >/dev/null
'
test_expect_success 'a relative XDG_CACHE_HOME is ignored (the XDG rule)' '
	mkdir -p rel && (cd rel && XDG_CACHE_HOME=relcache run_tool rec -o "$scratch/reltrace" \
		-- "$T/counting" 100 >/dev/null 2>&1) &&
	test ! -e rel/relcache
'
test_expect_success 'a changed code byte makes a new entry (the key is the content)' '
	cp "$T/counting" counting2 &&
	off=$(readelf -lW counting2 | awk "\$1 == \"LOAD\" && \$8 == \"E\" { print \$2, \$5 }") &&
	set -- $off && end=$(( $1 + $2 )) &&
	test $((end % 4096)) -ne 0 &&
	test "$(od -An -tx1 -j$end -N1 counting2 | tr -d " ")" = 00 &&
	printf "\\001" | dd of=counting2 bs=1 seek=$end conv=notrunc 2>/dev/null &&
	rec_log changed.rec "$scratch/counting2" 100 && replay_cmp &&
	test "$(grep -c "^cache .* miss$" changed.rec)" = 1 &&
	ls "$XDG_CACHE_HOME"/rewind/count-* | wc -l >n &&
	test "$(cat n)" = $(( $(wc -l <entries) + 1 ))
'
test_done
