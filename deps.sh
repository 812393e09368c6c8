#!/bin/sh
# deps.sh: makes sure the build's libraries, and the tools the tests use,
# are present; on Debian as root it installs what is missing.
pkgs=""
pkg-config --exists libseccomp 2>/dev/null || pkgs="$pkgs libseccomp-dev"
pkg-config --exists libzstd 2>/dev/null || pkgs="$pkgs libzstd-dev"
pkg-config --exists libunwind-ptrace 2>/dev/null || pkgs="$pkgs libunwind-dev"
pkg-config --exists libdw 2>/dev/null || pkgs="$pkgs libdw-dev"
[ -f /usr/include/Zydis/Zydis.h ] || pkgs="$pkgs libzydis-dev"
command -v pkg-config >/dev/null 2>&1 || pkgs="$pkgs pkg-config"
command -v prove >/dev/null 2>&1 || pkgs="$pkgs perl"
command -v cc >/dev/null 2>&1 || pkgs="$pkgs gcc"
# The sanitizer builds and the -fsanitize=address test programs.
command -v cc >/dev/null 2>&1 && case $(cc -print-file-name=libasan.so) in
/*) ;;
*) pkgs="$pkgs libasan8" ;;
esac
[ -x /usr/bin/python3 ] || pkgs="$pkgs python3"
command -v gdb >/dev/null 2>&1 || pkgs="$pkgs gdb"
command -v strace >/dev/null 2>&1 || pkgs="$pkgs strace"
command -v zstd >/dev/null 2>&1 || pkgs="$pkgs zstd"
[ -z "$pkgs" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps.sh: installing:$pkgs" >&2
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs; } >&2 ||
		{ echo "deps.sh: apt-get install$pkgs failed" >&2; exit 1; }
	exit 0
fi
echo "deps.sh: missing:$pkgs; install them (Debian: apt-get install$pkgs)" >&2
exit 1
