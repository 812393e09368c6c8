#!/bin/bash
# t2202-count-cache-damage.sh: a damaged entry of the patch-list cache
# (lib/codescan.h) is never trusted: rec says it was damaged (in the
# REWIND_COUNT_SITES file), patches what a cold cache patches, and puts
# the entry back byte for byte as it was made. Damage: a flipped payload
# byte, a flipped header byte, a cut, a byte more, an empty file, another
# entry's bytes under this entry's name.
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
export REWIND_COUNT=1 REWIND_NO_COUNT= XDG_CACHE_HOME=$scratch/cache
unset REWIND_NO_CODE_CACHE
C=$scratch/cache/rewind

sites () {
	grep "^site " "$1" | cut -d" " -f3-
}

# damaged HOW: damage the largest entry HOW (a shell command on $e),
# record, and check the look-up said damaged, the sites are the cold
# ones, the entry is whole again and replay matches.
damaged () {
	e=$(ls -S "$C"/count-* | head -1) &&
	cp "$e" good &&
	eval "$1" &&
	! cmp -s good "$e" &&
	rm -f log && REWIND_COUNT_SITES=$scratch/log rec_prog "$T/counting" 100 &&
	check_status rec.status 0 &&
	test "$(grep -c "^cache .* damaged$" log)" = 1 &&
	grep -q "^cache ${e##*/count-} damaged$" log &&
	sites log >s && cmp cold.sites s &&
	cmp good "$e" &&
	replay_cmp
}

test_expect_success 'a cold run makes the entries' '
	REWIND_COUNT_SITES=$scratch/cold rec_prog "$T/counting" 100 &&
	check_status rec.status 0 && replay_cmp &&
	sites cold >cold.sites &&
	test "$(ls "$C"/count-* | wc -l)" -gt 1
'
test_expect_success 'a flipped payload byte' '
	damaged "flip_byte \"\$e\" \$((\$(stat -c %s \"\$e\") - 3))"
'
test_expect_success 'a flipped header byte (the version)' '
	damaged "flip_byte \"\$e\" 8"
'
test_expect_success 'a flipped checksum byte' '
	damaged "flip_byte \"\$e\" 50"
'
test_expect_success 'cut short' '
	damaged "truncate -s -16 \"\$e\""
'
test_expect_success 'a byte more' '
	damaged "printf x >>\"\$e\""
'
test_expect_success 'empty' '
	damaged ": >\"\$e\""
'
test_expect_success 'another entry under its name' '
	damaged "cp \"\$(ls -S \"\$C\"/count-* | tail -1)\" \"\$e\""
'
test_expect_success 'no temporary file is left' '
	! ls "$C" | grep -v "^count-[0-9a-f]\{32\}$"
'
test_expect_success 'no cache directory can be made: rec counts all the same' '
	: >notadir &&
	rm -f log && XDG_CACHE_HOME=$scratch/notadir REWIND_COUNT_SITES=$scratch/log \
		rec_prog "$T/counting" 100 &&
	check_status rec.status 0 && replay_cmp &&
	! grep -q "^cache " log &&
	sites log >s && cmp cold.sites s
'
test_done
