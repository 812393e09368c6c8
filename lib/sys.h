/* sys.h: the one x86-64 syscall table's types and lookup.
 * The rows live in sys_table.h; rec's filter, replay and tdump all read them
 * through this header. */
#ifndef REWIND_SYS_H
#define REWIND_SYS_H

#include <stdint.h>

/* How replay treats a syscall (column "class" of sys_table.h). */
enum sys_class {
	C_EMU = 1,	/* emulated: replay skips it, answers from the trace */
	C_EXEC,		/* executed: shapes the process; replay performs it
			   and checks the result (emulated if it failed) */
	C_MMAP,		/* mmap: performed at the recorded address; file
			   contents come from the trace's files/ */
	C_EXECVE,	/* execve/execveat: performed on the trace's copy
			   of the new executable */
	C_EXIT,		/* exit, exit_group: performed, never returns */
	C_SUSPEND,	/* rt_sigsuspend: performed with the recorded
			   signal made pending first */
	C_CLONE,	/* clone, fork, vfork, clone3: performed; the new
			   thread or process is recorded and replayed too */
	C_NOSYS,	/* the seccomp filter answers ENOSYS in both runs */
	C_UNSUP,	/* not supported yet: rec stops and names it */
};

/* A call whose replay its class alone does not say (column "quirk" of
 * sys_table.h; 0 for the others). engine.c has one function a quirk,
 * which sys_finish() asks at fixed points of the call's replay. */
enum sys_quirk {
	Q_PRCTL = 1,	/* prctl: performed (C_EXEC) when it installs a seccomp
			   filter or syscall user dispatch, whose SIGSYS must
			   come again, or sets a field of PR_SET_MM */
	Q_SECCOMP,	/* seccomp: strict mode is emulated (rec answered it) */
	Q_RLIMIT,	/* setrlimit, prlimit64: performed when they set the
			   process's own RLIMIT_STACK, _DATA or _AS, which
			   shape its address space */
	Q_PEERPID,	/* process_vm_writev: performed on the replay of the
			   process its pid argument names */
	Q_SHM,		/* shmat, shmdt: the segment is an emulated file,
			   mapped and unmapped */
	Q_SIGRET,	/* rt_sigreturn: a negative result is no failure */
	Q_ALTSTACK,	/* sigaltstack: the new stack is noted for checkpoints */
	Q_SIGMASK,	/* ppoll, pselect6, epoll_pwait(2): wait under a signal
			   mask of their own; interrupted, they are replayed
			   as rt_sigsuspend with it */
	Q_TIDADDR,	/* set_tid_address: performed (the kernel clears the
			   word at the thread's end), the recorded tid
			   returned */
	Q_MREMAP,	/* mremap: a range merged in the recording and not in
			   replay is moved piece by piece */
	Q_ARCHPRCTL,	/* arch_prctl: ARCH_GET_CPUID answered from the trace
			   (CPUID faults for rewind alone) */
	Q_PARTIAL,	/* mprotect, pkey_mprotect: ENOMEM (a hole in the
			   range) comes after the pages before the hole were
			   changed: performed all the same */
};

/* Argument kinds. A table cell is sys_arg(kind, param); the param is a
 * size in bytes or the index (0-5) of another argument, as each kind says.
 * The kind says both how tdump prints the argument and which user memory
 * rec must save. "out" kinds are saved after the call when it succeeded,
 * "in" kinds are saved before replay checks them. */
enum sys_kind {
	A_NONE = 0,
	A_INT,		/* signed decimal */
	A_UINT,		/* unsigned decimal (sizes, counts) */
	A_HEX,		/* hex number (flags with no decoder, masks) */
	A_OCT,		/* octal (modes) */
	A_PTR,		/* pointer whose contents are not recorded */
	A_FD,		/* file descriptor, AT_FDCWD shown by name */
	A_STR,		/* in: NUL-terminated string (paths, names) */
	A_IBUF,		/* in: buffer whose length is argument param */
	A_OBUF,		/* out: buffer filled with ret bytes; param is the
			   argument holding its capacity */
	A_OUT,		/* out: struct of param bytes */
	A_IOV_IN,	/* in: struct iovec array, count in argument param */
	A_IOV_OUT,	/* out: iovec array filled up to ret bytes, count in
			   argument param */
	A_STRV,		/* in: NULL-terminated array of strings (argv) */
	A_SOCKADDR_IN,	/* in: sockaddr, length in argument param */
	A_SOCKADDR_OUT,	/* out: sockaddr, socklen_t* in argument param */
	A_POLLFD,	/* in/out: struct pollfd array, count in arg param */
	A_FDSET,	/* in/out: fd_set, nfds in argument param */
	A_EPEV_OUT,	/* out: ret struct epoll_event (12 bytes each) */
	A_OARR,		/* out: ret elements of param bytes each */
	A_MSGHDR_IN,	/* in: struct msghdr (sendmsg) */
	A_MSGHDR_OUT,	/* out: struct msghdr and what it points to */
	A_IOCTL,	/* ioctl request; outputs depend on it */
	A_FCNTL,	/* fcntl command; outputs depend on it */
	A_PRCTL,	/* prctl option; outputs depend on it */
	A_OFLAGS,	/* open flags O_* */
	A_ATFLAGS,	/* AT_* flags */
	A_PROT,		/* PROT_* */
	A_MFLAGS,	/* MAP_* */
	A_MADV,		/* MADV_* */
	A_SIG,		/* signal number */
	A_SIGHOW,	/* SIG_BLOCK, SIG_UNBLOCK, SIG_SETMASK */
	A_WHENCE,	/* SEEK_* */
	A_CLOCK,	/* CLOCK_* */
	A_ARCHPRCTL,	/* ARCH_* code */
	A_FUTEXOP,	/* FUTEX_* op */
	A_ACCESS,	/* F_OK, R_OK, W_OK, X_OK */
	A_PTRACE,	/* ptrace request PTRACE_* */
	A_MMSG_IN,	/* in: struct mmsghdr array (sendmmsg; the kernel
			   writes the msg_len of ret of them) */
	A_MMSG_OUT,	/* out: struct mmsghdr array, ret of them filled */
	A_IPCCTL,	/* semctl/msgctl/shmctl command (param 0, 1, 2);
			   the struct it writes follows it */
	A_MSGBUF,	/* out: msgrcv's long mtype and ret bytes */
	A_PAGEVEC,	/* out: a byte a page of the length in arg param */
	A_OBITS,	/* out: bit mask of arg param bits, in longs */
	A_OSIZE,	/* out: as many bytes as argument param says */
	A_KEYCTL,	/* keyctl command; outputs depend on it */
	A_QUOTACTL,	/* quotactl command; writes at argument 3 */
	A_SYSFS,	/* out: sysfs(2)'s file system name */
	A_OINTS,	/* out: as many 4-byte ints as argument param says */
	A_FHANDLE,	/* out: name_to_handle_at's struct file_handle, and
			   the mount id after it (an int, or a u64 with
			   AT_HANDLE_MNT_ID_UNIQUE) */
	A_CAPHDR,	/* in/out: capget and capset's header, whose u32
			   version the kernel overwrites with its own when it
			   refuses the one given (EINVAL) */
};
#define sys_arg(kind, param) ((uint32_t)(kind) | ((uint32_t)(param) << 8))
#define sys_kind(cell) ((enum sys_kind)((cell) & 0xff))
#define sys_param(cell) ((cell) >> 8)

/* Return value kinds. */
enum sys_ret { R_INT = 0, R_HEX, R_FD, R_NONE };

struct sys_entry {
	const char *name;	/* NULL for a number with no syscall */
	uint8_t class;		/* enum sys_class */
	uint8_t quirk;		/* enum sys_quirk, or 0 */
	uint8_t nargs;
	uint8_t ret;		/* enum sys_ret */
	uint32_t arg[6];	/* sys_arg() cells */
};

#define SYS_MAX 512

/* The table row for syscall nr, or NULL if nr is unknown. */
const struct sys_entry *sys_lookup(long nr);

/* The row of syscall nr; for a number the table does not have (negative,
 * past the table, x32's), a C_EMU row with no arguments: such a call gets
 * ENOSYS from the kernel, and rec records it like any other. */
const struct sys_entry *sys_row(long nr);

/* The syscall number of name, or -1. */
long sys_number(const char *name);

#endif
