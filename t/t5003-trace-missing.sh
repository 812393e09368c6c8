#!/bin/bash
# t5003-trace-missing.sh: a trace with its events missing or a files/ copy
# damaged is refused with a clear error and exit 125; a files/ copy
# missing is read from the original file.
. "$(dirname "$0")/test-lib.sh"
require_tprog lines

# A copy the user owns, so that files/ holds a hard link to it even
# when the system's files are not the user's to link.
test_expect_success 'record' '
	cp "$T/lines" lines &&
	rec_replay_cmp "$scratch/lines" 3 &&
	ls "$trace/files" >names &&
	test -s names
'
test_expect_success 'replay of a directory that does not exist' '
	timeout 20 replay no-such-dir >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "no-such-dir"
'
test_expect_success 'replay of a trace without events' '
	cp -r "$trace" noev && rm noev/events &&
	timeout 20 replay noev >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "noev/events"
'
test_expect_success 'tdump of a trace without events' '
	timeout 20 tdump noev >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "noev/events"
'
test_expect_success 'replay of an events file that is a directory' '
	cp -r "$trace" evdir && rm evdir/events && mkdir evdir/events &&
	timeout 20 replay evdir >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "evdir/events"
'
test_expect_success 'replay with no latest-trace' '
	timeout 20 replay >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "latest-trace"
'
# rec hardlinks files into files/, or records only their path and hash
# when it cannot (another filesystem): a copy missing from files/ is read
# from the original file, still checked by its hash (t7000 shows the
# original gone too).
test_expect_success 'replay with files/ emptied reads the original files' '
	cp -r "$trace" nofiles && rm -f nofiles/files/* &&
	run_tool replay nofiles >out 2>err &&
	test_cmp_bytes rec.out out &&
	test_cmp_bytes rec.err err
'
test_expect_success 'replay with any one files/ copy missing reads its original' '
	ok=1 &&
	while read -r h; do
		rm -rf miss && cp -r "$trace" miss && rm miss/files/$h &&
		run_tool replay miss >out 2>err
		st=$?
		if [ $st != 0 ] || ! cmp -s rec.out out; then
			echo "without $h: status $st"; cat err; ok=0
		fi
	done <names &&
	test $ok = 1
'
# A copy in files/ may be a hard link to the real file: break the link
# before changing it, or the test would damage the program itself.
test_expect_success 'replay with every files/ copy damaged' '
	cp -r "$trace" damaged && ok=1 &&
	for f in damaged/files/*; do
		cp "$f" "$f.new" && mv "$f.new" "$f" && chmod u+w "$f" &&
		flip_byte "$f" $(($(stat -c %s "$f") / 2)) || ok=0
	done &&
	test "$ok" = 1 &&
	timeout 20 replay damaged >out 2>err
	st=$? &&
	expect_status $st 125 &&
	one_line_error err "damaged/files/[0-9a-f]{16}"
'
test_expect_success 'replay with one files/ copy damaged at its end' '
	ok=1 &&
	while read -r h; do
		rm -rf dmg && cp -r "$trace" dmg &&
		f=dmg/files/$h &&
		cp "$f" "$f.new" && mv "$f.new" "$f" && chmod u+w "$f" &&
		flip_byte "$f" $(($(stat -c %s "$f") - 1)) &&
		timeout 20 replay dmg >out 2>err
		st=$?
		if [ $st != 125 ] || ! one_line_error err "dmg/files/$h"; then
			echo "damaged $h: status $st"; cat err; ok=0
		fi
	done <names &&
	test $ok = 1
'
test_expect_success 'the original program is unharmed' '
	run_tool replay "$trace" >out 2>err &&
	test_cmp_bytes rec.out out &&
	"$scratch/lines" 1 >/dev/null
'
test_done
