#!/bin/bash
# t2202-count-cache-damage.sh: a damaged entry of the code cache
# (lib/codescan.h), a patch list (count-*) or an image (cimg-*,
# lib/countimg.h), is never trusted: rec says it was damaged (in the
# REWIND_COUNT_SITES file), patches what a cold cache patches, and puts
# the entry back byte for byte as it was made. Damage: a flipped payload
# byte, a flipped header byte, a cut, a byte more, an empty file, another
# entry's bytes under this entry's name.
. "$(dirname "$0")/test-lib.sh"
require_tprog counting
export REWIND_NO_COUNT= XDG_CACHE_HOME=$scratch/cache
unset REWIND_NO_CODE_CACHE
C=$scratch/cache/rewind

# sites FILE: FILE's sites without the process (a number rec picks) and
# without their trampolines' addresses: where those land depends on the
# mappings when the patching is done (one CI run's cold recording put
# them 8 MiB lower, below a thread's stack, as a patch put off until
# after that stack was mapped would; the sites themselves were the same).
sites () {
	grep "^site " "$1" | cut -d" " -f3,5-
}

# damaged KIND HOW: damage the largest entry of KIND (count: a patch
# list, cimg: an image) HOW (a shell command on $e), record, and check
# the look-up said damaged, the sites are the cold ones, the entry is
# whole again and replay matches. A patch list is looked up only when
# the image is missing: the images go first.
damaged () {
	local word=cache
	test $1 = cimg && word=image
	test $1 = count && rm -f "$C"/cimg-*
	e=$(ls -S "$C"/$1-* | head -1) &&
	cp "$e" good &&
	eval "$2" &&
	! cmp -s good "$e" &&
	rm -f log && REWIND_COUNT_SITES=$scratch/log rec_prog "$T/counting" 100 &&
	check_status rec.status 0 &&
	test "$(grep -c "^$word .* damaged$" log)" = 1 &&
	grep -q "^$word ${e##*/$1-} damaged$" log &&
	sites log >s && cmp cold.sites s &&
	cmp good "$e" &&
	replay_cmp
}

test_expect_success 'a cold run makes the entries' '
	REWIND_COUNT_SITES=$scratch/cold rec_prog "$T/counting" 100 &&
	check_status rec.status 0 && replay_cmp &&
	sites cold >cold.sites &&
	test "$(ls "$C"/count-* | wc -l)" -gt 1 &&
	test "$(ls "$C"/cimg-* | wc -l)" -gt 1
'
test_expect_success 'patch list: a flipped payload byte' '
	damaged count "flip_byte \"\$e\" \$((\$(stat -c %s \"\$e\") - 3))"
'
test_expect_success 'patch list: a flipped header byte (the version)' '
	damaged count "flip_byte \"\$e\" 8"
'
test_expect_success 'patch list: a flipped checksum byte' '
	damaged count "flip_byte \"\$e\" 50"
'
test_expect_success 'patch list: cut short' '
	damaged count "truncate -s -16 \"\$e\""
'
test_expect_success 'patch list: a byte more' '
	damaged count "printf x >>\"\$e\""
'
test_expect_success 'patch list: empty' '
	damaged count ": >\"\$e\""
'
test_expect_success 'patch list: another entry under its name' '
	damaged count "cp \"\$(ls -S \"\$C\"/count-* | tail -1)\" \"\$e\""
'
test_expect_success 'image: a flipped payload byte' '
	damaged cimg "flip_byte \"\$e\" \$((\$(stat -c %s \"\$e\") - 3))"
'
test_expect_success 'image: a flipped header byte (the version)' '
	damaged cimg "flip_byte \"\$e\" 8"
'
test_expect_success 'image: a flipped checksum byte' '
	damaged cimg "flip_byte \"\$e\" 50"
'
test_expect_success 'image: cut short' '
	damaged cimg "truncate -s -16 \"\$e\""
'
test_expect_success 'image: a byte more' '
	damaged cimg "printf x >>\"\$e\""
'
test_expect_success 'image: empty' '
	damaged cimg ": >\"\$e\""
'
test_expect_success 'image: another entry under its name' '
	damaged cimg "cp \"\$(ls -S \"\$C\"/cimg-* | tail -1)\" \"\$e\""
'
test_expect_success 'no temporary file is left' '
	! ls "$C" | grep -v "^\(count\|cimg\|hash\)-[0-9a-f]\{32\}$"
'
test_expect_success 'no cache directory can be made: rec counts all the same' '
	: >notadir &&
	rm -f log && XDG_CACHE_HOME=$scratch/notadir REWIND_COUNT_SITES=$scratch/log \
		rec_prog "$T/counting" 100 &&
	check_status rec.status 0 && replay_cmp &&
	! grep -q "^cache " log && ! grep "^image " log | grep -v " off$" &&
	sites log >s && cmp cold.sites s
'
test_done
