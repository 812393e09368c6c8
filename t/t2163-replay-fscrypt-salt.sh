#!/bin/bash
# t2163-replay-fscrypt-salt.sh: FS_IOC_GET_ENCRYPTION_PWSALT is encoded
# _IOW, yet the kernel writes the filesystem's 16-byte salt: rec saves
# it (LTP's statx05 diverged in replay). Root: an ext4 image made with
# encryption on, mounted through a loop device, which this test makes
# and removes (skipped where it cannot).
. "$(dirname "$0")/test-lib.sh"
require_tprog fscryptsalt

if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null &&
   dd if=/dev/zero of=img bs=1M count=8 2>/dev/null &&
   mkfs.ext4 -q -O encrypt img 2>/dev/null && mkdir mnt &&
   mount -o loop img mnt 2>/dev/null; then
	test_set_prereq FSCRYPT
fi

test_expect_success FSCRYPT 'the salt the kernel wrote replays byte for byte' '
	rec_replay_cmp "$T/fscryptsalt" "$scratch/mnt" &&
	cat rec.out &&
	grep -Eq "^salt [0-9a-f]{32}$" rec.out &&
	! grep -q "^salt 0{32}$" rec.out
'
test_expect_success FSCRYPT 'unmount' '
	umount "$scratch/mnt"
'
test_done
