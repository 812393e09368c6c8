#!/bin/bash
# t0010-help.sh: every tool's --help exits 0, prints to stdout and
# explains every option its getopt table and string (or option loop)
# accept; a bad option exits 2 with the one-line usage on stderr.
. "$(dirname "$0")/test-lib.sh"
src=$TEST_DIR/..

# long_opts TOOL: the long options TOOL's source accepts.
long_opts () {
	{
		grep -ho '{ "[a-z][a-z-]*", [a-z_]*_argument' "$src/$1"/*.c | sed 's/{ "\([^"]*\)".*/\1/'
		grep -ho 'strcmp(a, "--[a-z][a-z-]*")' "$src/$1"/*.c | sed 's/.*"--\([^"]*\)".*/\1/'
	} | sort -u
}

# short_opts TOOL: the one-letter options of TOOL's getopt string.
short_opts () {
	grep -ho 'getopt_long(argc, argv, "[^"]*"' "$src/$1"/*.c |
		sed 's/.*"\(.*\)"/\1/' | tr -d ':+' | fold -w1
}

for tool in rec replay tdump tpack tseek gdbstub; do
	test_expect_success "$tool --help exits 0 on stdout" '
		run_tool $tool --help >$tool.help 2>$tool.err &&
		test ! -s $tool.err &&
		head -n 1 $tool.help | grep -q "^usage: $tool " &&
		test $(wc -l <$tool.help) -gt 5
	'
	test_expect_success "$tool --help explains each long option" '
		long_opts $tool >$tool.opts &&
		test -s $tool.opts &&
		while read o; do
			grep -q -- "^ *\(-[a-zA-Z], \)\?--$o\b" $tool.help || echo "--$o"
		done <$tool.opts >$tool.missing &&
		{ test ! -s $tool.missing || { echo "$tool --help lacks:"; cat $tool.missing; false; }; }
	'
	test_expect_success "$tool --help explains each one-letter option" '
		short_opts $tool | while read o; do
			grep -q -- "^ *-$o\b" $tool.help || echo "-$o"
		done >$tool.missing1 &&
		{ test ! -s $tool.missing1 || { echo "$tool --help lacks:"; cat $tool.missing1; false; }; }
	'
	test_expect_success "$tool -h is --help" '
		run_tool $tool -h >$tool.h &&
		cmp $tool.h $tool.help
	'
	test_expect_success "$tool --bogus: status 2, one usage line on stderr" '
		run_tool $tool --bogus >$tool.out 2>$tool.bad; expect_status $? 2 &&
		test ! -s $tool.out &&
		test $(grep -c "^usage: $tool " $tool.bad) = 1 &&
		test $(wc -l <$tool.bad) -le 2
	'
done
test_expect_success 'rec --help names --probe' '
	grep -q -- "--probe" rec.help
'
test_done
