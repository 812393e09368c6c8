/* sys_table.h: the one x86-64 syscall table (Linux 6.18), as an X-macro.
 * Define SYS(nr, name, class, quirk, ret, ...) and include this file; it expands
 * one SYS() per syscall, then undefines SYS and its cell macros. */

/*
 * Columns of SYS(nr, name, class, quirk, ret, arg cells...):
 *   nr     the x86-64 syscall number (rax)
 *   name   the kernel's name for it, without "sys_"
 *   class  how replay treats it (enum sys_class in sys.h): C_EMU answered
 *          from the trace, C_EXEC performed again, C_MMAP, C_EXECVE,
 *          C_EXIT, C_SUSPEND, C_CLONE (performed, new task), C_NOSYS (ENOSYS in both runs), C_UNSUP
 *          (rec stops and names it)
 *   quirk  0 for a call replayed as its class says; else the irregular
 *          replay it needs (enum sys_quirk in sys.h), one function for
 *          each in engine.c: Q_PRCTL (performed when it installs a seccomp
 *          filter or syscall user dispatch, or sets a field of PR_SET_MM), Q_SECCOMP (emulated in strict
 *          mode), Q_TIDADDR (performed, the recorded tid returned),
 *          Q_MREMAP (a range merged in the recording only, moved piece
 *          by piece), Q_RLIMIT (performed when it sets the process's own stack,
 *          data or address space limit), Q_PEERPID (its pid argument made
 *          the replayed copy's), Q_SHM (SysV shared memory attached and
 *          detached as an emulated file), Q_SIGRET (a negative result is no
 *          failure), Q_ALTSTACK (the alternate stack noted for
 *          checkpoints), Q_SIGMASK (waits under a signal mask of its own,
 *          which an interrupting signal must get through), Q_ARCHPRCTL
 *          (ARCH_GET_CPUID answered from the trace), Q_PARTIAL (ENOMEM
 *          after a part of the range was changed: performed)
 *   ret    how the return value reads (enum sys_ret): R_INT, R_HEX
 *          (addresses), R_FD (a new descriptor), R_NONE (never returns)
 *   cells  one per argument, in order; their count is the argument count.
 *          A cell is an argument kind (enum sys_kind) and its parameter,
 *          written with the short macros below.
 *
 * The cells decide which user memory rec saves: an output the kernel
 * writes that no "out" cell describes is replayed wrong without a word.
 * A syscall whose writes cannot be described by the cells is C_UNSUP.
 * Struct sizes are x86-64's: stat 144, statx 256, statfs 120, timespec
 * and timeval 16, itimerval and itimerspec 32, rusage 144, tms 32,
 * utsname 390, sysinfo 112, rlimit 16, kernel sigset 8, kernel sigaction
 * 32, stack_t 24, timex 208, siginfo 128, mq_attr 64, ustat 32,
 * sched_attr 56, cachestat 40, capget data 24 (version 3: two of 12).
 */

#ifndef SYS
#error "sys_table.h: define SYS(nr, name, class, quirk, ret, ...) first"
#endif

/* Cells. Plain kinds take no parameter; the rest take a size in bytes or
 * the index of the argument that holds a length or count. */
#define INT		sys_arg(A_INT, 0)
#define UINT		sys_arg(A_UINT, 0)
#define HEX		sys_arg(A_HEX, 0)
#define OCT		sys_arg(A_OCT, 0)
#define PTR		sys_arg(A_PTR, 0)
#define FD		sys_arg(A_FD, 0)
#define STR		sys_arg(A_STR, 0)
#define IBUF(n)		sys_arg(A_IBUF, n)	/* length in argument n */
#define OBUF(n)		sys_arg(A_OBUF, n)	/* ret bytes, capacity in arg n */
#define OUT(size)	sys_arg(A_OUT, size)
#define IOV_IN(n)	sys_arg(A_IOV_IN, n)	/* count in argument n */
#define IOV_OUT(n)	sys_arg(A_IOV_OUT, n)
#define STRV		sys_arg(A_STRV, 0)
#define SOCKADDR_IN(n)	sys_arg(A_SOCKADDR_IN, n)	/* length in arg n */
#define SOCKADDR_OUT(n)	sys_arg(A_SOCKADDR_OUT, n)	/* socklen_t * in arg n */
#define POLLFD(n)	sys_arg(A_POLLFD, n)	/* count in argument n */
#define FDSET(n)	sys_arg(A_FDSET, n)	/* nfds in argument n */
#define EPEV_OUT	sys_arg(A_EPEV_OUT, 0)
#define OARR(size)	sys_arg(A_OARR, size)	/* ret elements of size bytes */
#define MSGHDR_IN	sys_arg(A_MSGHDR_IN, 0)
#define MSGHDR_OUT	sys_arg(A_MSGHDR_OUT, 0)
#define IOCTL		sys_arg(A_IOCTL, 0)
#define FCNTL		sys_arg(A_FCNTL, 0)
#define PRCTL		sys_arg(A_PRCTL, 0)
#define OFLAGS		sys_arg(A_OFLAGS, 0)
#define ATFLAGS		sys_arg(A_ATFLAGS, 0)
#define PROT		sys_arg(A_PROT, 0)
#define MFLAGS		sys_arg(A_MFLAGS, 0)
#define MADV		sys_arg(A_MADV, 0)
#define SIG		sys_arg(A_SIG, 0)
#define SIGHOW		sys_arg(A_SIGHOW, 0)
#define WHENCE		sys_arg(A_WHENCE, 0)
#define CLOCK		sys_arg(A_CLOCK, 0)
#define ARCHPRCTL	sys_arg(A_ARCHPRCTL, 0)
#define FUTEXOP		sys_arg(A_FUTEXOP, 0)
#define ACCESS		sys_arg(A_ACCESS, 0)
#define PTRACEREQ	sys_arg(A_PTRACE, 0)
#define MMSG_IN		sys_arg(A_MMSG_IN, 0)
#define MMSG_OUT	sys_arg(A_MMSG_OUT, 0)
#define IPCCTL(n)	sys_arg(A_IPCCTL, n)	/* 0 sem, 1 msg, 2 shm */
#define MSGBUF		sys_arg(A_MSGBUF, 0)
#define PAGEVEC(n)	sys_arg(A_PAGEVEC, n)	/* length in argument n */
#define OBITS(n)	sys_arg(A_OBITS, n)	/* bit count in argument n */
#define OSIZE(n)	sys_arg(A_OSIZE, n)	/* size in argument n */
#define KEYCTL		sys_arg(A_KEYCTL, 0)
#define QUOTACTL	sys_arg(A_QUOTACTL, 0)
#define SYSFS		sys_arg(A_SYSFS, 0)
#define OINTS(n)	sys_arg(A_OINTS, n)	/* count in argument n */
#define FHANDLE		sys_arg(A_FHANDLE, 0)
#define CAPHDR		sys_arg(A_CAPHDR, 0)

/* File descriptors and plain file operations. */
SYS(0,   read,            C_EMU,    0,          R_INT, FD, OBUF(2), UINT)
SYS(1,   write,           C_EMU,    0,          R_INT, FD, IBUF(2), UINT)
SYS(2,   open,            C_EMU,    0,          R_FD,  STR, OFLAGS, OCT)
SYS(3,   close,           C_EMU,    0,          R_INT, FD)
SYS(4,   stat,            C_EMU,    0,          R_INT, STR, OUT(144))
SYS(5,   fstat,           C_EMU,    0,          R_INT, FD, OUT(144))
SYS(6,   lstat,           C_EMU,    0,          R_INT, STR, OUT(144))
SYS(7,   poll,            C_EMU,    0,          R_INT, POLLFD(1), UINT, INT)
SYS(8,   lseek,           C_EMU,    0,          R_INT, FD, INT, WHENCE)
SYS(9,   mmap,            C_MMAP,   0,          R_HEX, PTR, UINT, PROT, MFLAGS, FD, HEX)
SYS(10,  mprotect,        C_EXEC,   Q_PARTIAL,  R_INT, HEX, UINT, PROT)
SYS(11,  munmap,          C_EXEC,   0,          R_INT, HEX, UINT)
SYS(12,  brk,             C_EXEC,   0,          R_HEX, PTR)
SYS(13,  rt_sigaction,    C_EXEC,   0,          R_INT, SIG, PTR, OUT(32), UINT)
SYS(14,  rt_sigprocmask,  C_EXEC,   0,          R_INT, SIGHOW, PTR, OUT(8), UINT)
SYS(15,  rt_sigreturn,    C_EXEC,   Q_SIGRET,   R_HEX)
SYS(16,  ioctl,           C_EMU,    0,          R_INT, FD, IOCTL, HEX)
SYS(17,  pread64,         C_EMU,    0,          R_INT, FD, OBUF(2), UINT, INT)
SYS(18,  pwrite64,        C_EMU,    0,          R_INT, FD, IBUF(2), UINT, INT)
SYS(19,  readv,           C_EMU,    0,          R_INT, FD, IOV_OUT(2), UINT)
SYS(20,  writev,          C_EMU,    0,          R_INT, FD, IOV_IN(2), UINT)
SYS(21,  access,          C_EMU,    0,          R_INT, STR, ACCESS)
SYS(22,  pipe,            C_EMU,    0,          R_INT, OUT(8))
/* select and pselect6 write the time left back into their timeout. */
SYS(23,  select,          C_EMU,    0,          R_INT, INT, FDSET(0), FDSET(0), FDSET(0), OUT(16))
SYS(24,  sched_yield,     C_EMU,    0,          R_INT)
SYS(25,  mremap,          C_EXEC,   Q_MREMAP,   R_HEX, HEX, UINT, UINT, HEX, HEX)
SYS(26,  msync,           C_EMU,    0,          R_INT, HEX, UINT, HEX)
SYS(27,  mincore,         C_EMU,    0,          R_INT, HEX, UINT, PAGEVEC(1))
SYS(28,  madvise,         C_EXEC,   0,          R_INT, HEX, UINT, MADV)
/* shmat maps a segment: replay maps its emulated copy (as for a file
 * mapped shared), and shmdt unmaps that. */
SYS(29,  shmget,          C_EMU,    0,          R_INT, INT, UINT, HEX)
SYS(30,  shmat,           C_MMAP,   Q_SHM,      R_HEX, INT, HEX, HEX)
SYS(31,  shmctl,          C_EMU,    0,          R_INT, INT, IPCCTL(2), PTR)
SYS(32,  dup,             C_EMU,    0,          R_FD,  FD)
SYS(33,  dup2,            C_EMU,    0,          R_FD,  FD, FD)
SYS(34,  pause,           C_EMU,    0,          R_INT)
SYS(35,  nanosleep,       C_EMU,    0,          R_INT, PTR, OUT(16))
SYS(36,  getitimer,       C_EMU,    0,          R_INT, INT, OUT(32))
SYS(37,  alarm,           C_EMU,    0,          R_INT, UINT)
SYS(38,  setitimer,       C_EMU,    0,          R_INT, INT, PTR, OUT(32))
SYS(39,  getpid,          C_EMU,    0,          R_INT)
SYS(40,  sendfile,        C_EMU,    0,          R_INT, FD, FD, OUT(8), UINT)

/* Sockets. */
SYS(41,  socket,          C_EMU,    0,          R_FD,  INT, HEX, INT)
SYS(42,  connect,         C_EMU,    0,          R_INT, FD, SOCKADDR_IN(2), UINT)
SYS(43,  accept,          C_EMU,    0,          R_FD,  FD, SOCKADDR_OUT(2), OUT(4))
SYS(44,  sendto,          C_EMU,    0,          R_INT, FD, IBUF(2), UINT, HEX, SOCKADDR_IN(5), UINT)
SYS(45,  recvfrom,        C_EMU,    0,          R_INT, FD, OBUF(2), UINT, HEX, SOCKADDR_OUT(5), OUT(4))
SYS(46,  sendmsg,         C_EMU,    0,          R_INT, FD, MSGHDR_IN, HEX)
SYS(47,  recvmsg,         C_EMU,    0,          R_INT, FD, MSGHDR_OUT, HEX)
SYS(48,  shutdown,        C_EMU,    0,          R_INT, FD, INT)
SYS(49,  bind,            C_EMU,    0,          R_INT, FD, SOCKADDR_IN(2), UINT)
SYS(50,  listen,          C_EMU,    0,          R_INT, FD, INT)
SYS(51,  getsockname,     C_EMU,    0,          R_INT, FD, SOCKADDR_OUT(2), OUT(4))
SYS(52,  getpeername,     C_EMU,    0,          R_INT, FD, SOCKADDR_OUT(2), OUT(4))
SYS(53,  socketpair,      C_EMU,    0,          R_INT, INT, HEX, INT, OUT(8))
SYS(54,  setsockopt,      C_EMU,    0,          R_INT, FD, INT, INT, IBUF(4), UINT)
/* optval is written up to *optlen after the call, as a sockaddr is. */
SYS(55,  getsockopt,      C_EMU,    0,          R_INT, FD, INT, INT, SOCKADDR_OUT(4), OUT(4))

/* Processes. */
SYS(56,  clone,           C_CLONE,  0,          R_INT, HEX, PTR, PTR, PTR, HEX)
SYS(57,  fork,            C_CLONE,  0,          R_INT)
SYS(58,  vfork,           C_CLONE,  0,          R_INT)
SYS(59,  execve,          C_EXECVE, 0,          R_INT, STR, STRV, STRV)
SYS(60,  exit,            C_EXIT,   0,          R_NONE, INT)
SYS(61,  wait4,           C_EMU,    0,          R_INT, INT, OUT(4), HEX, OUT(144))
SYS(62,  kill,            C_EMU,    0,          R_INT, INT, SIG)
SYS(63,  uname,           C_EMU,    0,          R_INT, OUT(390))

/* System V IPC: the *ctl calls write what their command says. */
SYS(64,  semget,          C_EMU,    0,          R_INT, INT, INT, HEX)
SYS(65,  semop,           C_EMU,    0,          R_INT, INT, PTR, UINT)
SYS(66,  semctl,          C_EMU,    0,          R_INT, INT, INT, IPCCTL(0), HEX)
SYS(67,  shmdt,           C_EXEC,   Q_SHM,      R_INT, HEX)
SYS(68,  msgget,          C_EMU,    0,          R_INT, INT, HEX)
SYS(69,  msgsnd,          C_EMU,    0,          R_INT, INT, PTR, UINT, HEX)
SYS(70,  msgrcv,          C_EMU,    0,          R_INT, INT, MSGBUF, UINT, INT, HEX)
SYS(71,  msgctl,          C_EMU,    0,          R_INT, INT, IPCCTL(1), PTR)

/* Files and directories. */
SYS(72,  fcntl,           C_EMU,    0,          R_INT, FD, FCNTL, HEX)
SYS(73,  flock,           C_EMU,    0,          R_INT, FD, INT)
SYS(74,  fsync,           C_EMU,    0,          R_INT, FD)
SYS(75,  fdatasync,       C_EMU,    0,          R_INT, FD)
SYS(76,  truncate,        C_EMU,    0,          R_INT, STR, INT)
SYS(77,  ftruncate,       C_EMU,    0,          R_INT, FD, INT)
SYS(78,  getdents,        C_EMU,    0,          R_INT, FD, OBUF(2), UINT)
SYS(79,  getcwd,          C_EMU,    0,          R_INT, OBUF(1), UINT)
SYS(80,  chdir,           C_EMU,    0,          R_INT, STR)
SYS(81,  fchdir,          C_EMU,    0,          R_INT, FD)
SYS(82,  rename,          C_EMU,    0,          R_INT, STR, STR)
SYS(83,  mkdir,           C_EMU,    0,          R_INT, STR, OCT)
SYS(84,  rmdir,           C_EMU,    0,          R_INT, STR)
SYS(85,  creat,           C_EMU,    0,          R_FD,  STR, OCT)
SYS(86,  link,            C_EMU,    0,          R_INT, STR, STR)
SYS(87,  unlink,          C_EMU,    0,          R_INT, STR)
SYS(88,  symlink,         C_EMU,    0,          R_INT, STR, STR)
SYS(89,  readlink,        C_EMU,    0,          R_INT, STR, OBUF(2), UINT)
SYS(90,  chmod,           C_EMU,    0,          R_INT, STR, OCT)
SYS(91,  fchmod,          C_EMU,    0,          R_INT, FD, OCT)
SYS(92,  chown,           C_EMU,    0,          R_INT, STR, INT, INT)
SYS(93,  fchown,          C_EMU,    0,          R_INT, FD, INT, INT)
SYS(94,  lchown,          C_EMU,    0,          R_INT, STR, INT, INT)
SYS(95,  umask,           C_EMU,    0,          R_INT, OCT)

/* Time, limits, identity. */
SYS(96,  gettimeofday,    C_EMU,    0,          R_INT, OUT(16), OUT(8))
SYS(97,  getrlimit,       C_EMU,    0,          R_INT, INT, OUT(16))
SYS(98,  getrusage,       C_EMU,    0,          R_INT, INT, OUT(144))
SYS(99,  sysinfo,         C_EMU,    0,          R_INT, OUT(112))
SYS(100, times,           C_EMU,    0,          R_INT, OUT(32))
SYS(101, ptrace,          C_EMU,    0,          R_INT, PTRACEREQ, INT, PTR, PTR)	/* rec emulates a subset */
SYS(102, getuid,          C_EMU,    0,          R_INT)
SYS(103, syslog,          C_EMU,    0,          R_INT, INT, OBUF(2), INT)
SYS(104, getgid,          C_EMU,    0,          R_INT)
SYS(105, setuid,          C_EMU,    0,          R_INT, INT)
SYS(106, setgid,          C_EMU,    0,          R_INT, INT)
SYS(107, geteuid,         C_EMU,    0,          R_INT)
SYS(108, getegid,         C_EMU,    0,          R_INT)
SYS(109, setpgid,         C_EMU,    0,          R_INT, INT, INT)
SYS(110, getppid,         C_EMU,    0,          R_INT)
SYS(111, getpgrp,         C_EMU,    0,          R_INT)
SYS(112, setsid,          C_EMU,    0,          R_INT)
SYS(113, setreuid,        C_EMU,    0,          R_INT, INT, INT)
SYS(114, setregid,        C_EMU,    0,          R_INT, INT, INT)
SYS(115, getgroups,       C_EMU,    0,          R_INT, INT, OARR(4))
SYS(116, setgroups,       C_EMU,    0,          R_INT, INT, PTR)
SYS(117, setresuid,       C_EMU,    0,          R_INT, INT, INT, INT)
SYS(118, getresuid,       C_EMU,    0,          R_INT, OUT(4), OUT(4), OUT(4))
SYS(119, setresgid,       C_EMU,    0,          R_INT, INT, INT, INT)
SYS(120, getresgid,       C_EMU,    0,          R_INT, OUT(4), OUT(4), OUT(4))
SYS(121, getpgid,         C_EMU,    0,          R_INT, INT)
SYS(122, setfsuid,        C_EMU,    0,          R_INT, INT)
SYS(123, setfsgid,        C_EMU,    0,          R_INT, INT)
SYS(124, getsid,          C_EMU,    0,          R_INT, INT)
/* capget writes one 12-byte struct for version 1, two for 2 and 3. */
SYS(125, capget,          C_EMU,    0,          R_INT, CAPHDR, OUT(24))
SYS(126, capset,          C_EMU,    0,          R_INT, CAPHDR, PTR)

/* Signals. */
SYS(127, rt_sigpending,   C_EMU,    0,          R_INT, OUT(8), UINT)
SYS(128, rt_sigtimedwait, C_EMU,    0,          R_INT, PTR, OUT(128), PTR, UINT)
SYS(129, rt_sigqueueinfo, C_EMU,    0,          R_INT, INT, SIG, PTR)
SYS(130, rt_sigsuspend,   C_SUSPEND, 0,          R_INT, PTR, UINT)
SYS(131, sigaltstack,     C_EXEC,   Q_ALTSTACK, R_INT, PTR, OUT(24))

SYS(132, utime,           C_EMU,    0,          R_INT, STR, PTR)
SYS(133, mknod,           C_EMU,    0,          R_INT, STR, OCT, HEX)
SYS(134, uselib,          C_NOSYS,  0,          R_INT, STR)	/* as without CONFIG_USELIB */
/* personality changes the layout of later mmaps and execs. */
SYS(135, personality,     C_EXEC,   0,          R_HEX, HEX)
SYS(136, ustat,           C_EMU,    0,          R_INT, HEX, OUT(32))
SYS(137, statfs,          C_EMU,    0,          R_INT, STR, OUT(120))
SYS(138, fstatfs,         C_EMU,    0,          R_INT, FD, OUT(120))
SYS(139, sysfs,           C_EMU,    0,          R_INT, INT, HEX, SYSFS)
SYS(140, getpriority,     C_EMU,    0,          R_INT, INT, INT)
SYS(141, setpriority,     C_EMU,    0,          R_INT, INT, INT, INT)
SYS(142, sched_setparam,  C_EMU,    0,          R_INT, INT, PTR)
SYS(143, sched_getparam,  C_EMU,    0,          R_INT, INT, OUT(4))
SYS(144, sched_setscheduler, C_EMU, 0,          R_INT, INT, INT, PTR)
SYS(145, sched_getscheduler, C_EMU, 0,          R_INT, INT)
SYS(146, sched_get_priority_max, C_EMU, 0,          R_INT, INT)
SYS(147, sched_get_priority_min, C_EMU, 0,          R_INT, INT)
SYS(148, sched_rr_get_interval, C_EMU, 0,          R_INT, INT, OUT(16))
SYS(149, mlock,           C_EMU,    0,          R_INT, HEX, UINT)
SYS(150, munlock,         C_EMU,    0,          R_INT, HEX, UINT)
SYS(151, mlockall,        C_EMU,    0,          R_INT, HEX)
SYS(152, munlockall,      C_EMU,    0,          R_INT)
SYS(153, vhangup,         C_EMU,    0,          R_INT)
SYS(154, modify_ldt,      C_EXEC,   0,          R_INT, INT, OBUF(2), UINT)
SYS(155, pivot_root,      C_EMU,    0,          R_INT, STR, STR)
SYS(156, _sysctl,         C_EMU,    0,          R_INT, PTR)	/* gone since 5.5: ENOSYS */
SYS(157, prctl,           C_EMU,    Q_PRCTL,    R_INT, PRCTL, HEX, HEX, HEX, HEX)
SYS(158, arch_prctl,      C_EXEC,   Q_ARCHPRCTL, R_INT, ARCHPRCTL, HEX)
SYS(159, adjtimex,        C_EMU,    0,          R_INT, OUT(208))
SYS(160, setrlimit,       C_EMU,    Q_RLIMIT,   R_INT, INT, PTR)
SYS(161, chroot,          C_EMU,    0,          R_INT, STR)
SYS(162, sync,            C_EMU,    0,          R_INT)
SYS(163, acct,            C_EMU,    0,          R_INT, STR)
SYS(164, settimeofday,    C_EMU,    0,          R_INT, PTR, PTR)
SYS(165, mount,           C_EMU,    0,          R_INT, STR, STR, STR, HEX, PTR)
SYS(166, umount2,         C_EMU,    0,          R_INT, STR, HEX)
SYS(167, swapon,          C_EMU,    0,          R_INT, STR, HEX)
SYS(168, swapoff,         C_EMU,    0,          R_INT, STR)
SYS(169, reboot,          C_EMU,    0,          R_INT, HEX, HEX, HEX, PTR)
SYS(170, sethostname,     C_EMU,    0,          R_INT, IBUF(1), UINT)
SYS(171, setdomainname,   C_EMU,    0,          R_INT, IBUF(1), UINT)
/* iopl and ioperm grant port I/O instructions, which replay cannot
 * answer: ENOSYS, as without CONFIG_X86_IOPL_IOPERM. */
SYS(172, iopl,            C_NOSYS,  0,          R_INT, UINT)
SYS(173, ioperm,          C_NOSYS,  0,          R_INT, HEX, UINT, INT)
SYS(174, create_module,   C_EMU,    0,          R_INT)	/* 174-185: not implemented */
SYS(175, init_module,     C_EMU,    0,          R_INT, PTR, UINT, STR)
SYS(176, delete_module,   C_EMU,    0,          R_INT, STR, HEX)
SYS(177, get_kernel_syms, C_EMU,    0,          R_INT)
SYS(178, query_module,    C_EMU,    0,          R_INT)
SYS(179, quotactl,        C_EMU,    0,          R_INT, QUOTACTL, STR, INT, PTR)
SYS(180, nfsservctl,      C_EMU,    0,          R_INT)
SYS(181, getpmsg,         C_EMU,    0,          R_INT)
SYS(182, putpmsg,         C_EMU,    0,          R_INT)
SYS(183, afs_syscall,     C_EMU,    0,          R_INT)
SYS(184, tuxcall,         C_EMU,    0,          R_INT)
SYS(185, security,        C_EMU,    0,          R_INT)
SYS(186, gettid,          C_EMU,    0,          R_INT)
SYS(187, readahead,       C_EMU,    0,          R_INT, FD, INT, UINT)

/* Extended attributes: the get and list calls with size 0 return the
 * size needed and write nothing. */
SYS(188, setxattr,        C_EMU,    0,          R_INT, STR, STR, IBUF(3), UINT, HEX)
SYS(189, lsetxattr,       C_EMU,    0,          R_INT, STR, STR, IBUF(3), UINT, HEX)
SYS(190, fsetxattr,       C_EMU,    0,          R_INT, FD, STR, IBUF(3), UINT, HEX)
SYS(191, getxattr,        C_EMU,    0,          R_INT, STR, STR, OBUF(3), UINT)
SYS(192, lgetxattr,       C_EMU,    0,          R_INT, STR, STR, OBUF(3), UINT)
SYS(193, fgetxattr,       C_EMU,    0,          R_INT, FD, STR, OBUF(3), UINT)
SYS(194, listxattr,       C_EMU,    0,          R_INT, STR, OBUF(2), UINT)
SYS(195, llistxattr,      C_EMU,    0,          R_INT, STR, OBUF(2), UINT)
SYS(196, flistxattr,      C_EMU,    0,          R_INT, FD, OBUF(2), UINT)
SYS(197, removexattr,     C_EMU,    0,          R_INT, STR, STR)
SYS(198, lremovexattr,    C_EMU,    0,          R_INT, STR, STR)
SYS(199, fremovexattr,    C_EMU,    0,          R_INT, FD, STR)

SYS(200, tkill,           C_EMU,    0,          R_INT, INT, SIG)
SYS(201, time,            C_EMU,    0,          R_INT, OUT(8))
/* futex: what it writes (LOCK_PI's owner word, WAKE_OP's uaddr2)
 * depends on the op; rec reads the FUTEXOP cell. */
SYS(202, futex,           C_EMU,    0,          R_INT, PTR, FUTEXOP, UINT, PTR, PTR, UINT)
SYS(203, sched_setaffinity, C_EMU,  0,          R_INT, INT, UINT, PTR)
SYS(204, sched_getaffinity, C_EMU,  0,          R_INT, INT, UINT, OBUF(1))
/* set_thread_area sets a GDT TLS entry (performed again; it writes the
 * entry number it chose into the struct user_desc). */
SYS(205, set_thread_area, C_EXEC,   0,          R_INT, OUT(16))
/* Linux AIO: ENOSYS, as without CONFIG_AIO (its completions come from
 * the kernel at any time). */
SYS(206, io_setup,        C_NOSYS,  0,          R_INT, UINT, PTR)
SYS(207, io_destroy,      C_NOSYS,  0,          R_INT, HEX)
SYS(208, io_getevents,    C_NOSYS,  0,          R_INT, HEX, INT, INT, PTR, PTR)
SYS(209, io_submit,       C_NOSYS,  0,          R_INT, HEX, INT, PTR)
SYS(210, io_cancel,       C_NOSYS,  0,          R_INT, HEX, PTR, PTR)
SYS(211, get_thread_area, C_EMU,    0,          R_INT, OUT(16))
SYS(212, lookup_dcookie,  C_EMU,    0,          R_INT, HEX, PTR, UINT)	/* gone: ENOSYS */
SYS(213, epoll_create,    C_EMU,    0,          R_FD,  INT)
SYS(214, epoll_ctl_old,   C_EMU,    0,          R_INT)	/* not implemented */
SYS(215, epoll_wait_old,  C_EMU,    0,          R_INT)	/* not implemented */
/* remap_file_pages works on shared mappings only, which replay maps
 * shared too (a file's emulated copy): performed again. */
SYS(216, remap_file_pages, C_EXEC,  0,          R_INT, HEX, UINT, PROT, UINT, HEX)
SYS(217, getdents64,      C_EMU,    0,          R_INT, FD, OBUF(2), UINT)
/* set_tid_address moves the word the kernel clears at the thread's end. */
SYS(218, set_tid_address, C_EXEC,   Q_TIDADDR,  R_INT, PTR)
SYS(219, restart_syscall, C_EMU,    0,          R_INT)
SYS(220, semtimedop,      C_EMU,    0,          R_INT, INT, PTR, UINT, PTR)
SYS(221, fadvise64,       C_EMU,    0,          R_INT, FD, INT, UINT, INT)

/* Timers and clocks. */
SYS(222, timer_create,    C_EMU,    0,          R_INT, CLOCK, PTR, OUT(4))
SYS(223, timer_settime,   C_EMU,    0,          R_INT, INT, HEX, PTR, OUT(32))
SYS(224, timer_gettime,   C_EMU,    0,          R_INT, INT, OUT(32))
SYS(225, timer_getoverrun, C_EMU,   0,          R_INT, INT)
SYS(226, timer_delete,    C_EMU,    0,          R_INT, INT)
SYS(227, clock_settime,   C_EMU,    0,          R_INT, CLOCK, PTR)
SYS(228, clock_gettime,   C_EMU,    0,          R_INT, CLOCK, OUT(16))
SYS(229, clock_getres,    C_EMU,    0,          R_INT, CLOCK, OUT(16))
SYS(230, clock_nanosleep, C_EMU,    0,          R_INT, CLOCK, HEX, PTR, OUT(16))
SYS(231, exit_group,      C_EXIT,   0,          R_NONE, INT)
SYS(232, epoll_wait,      C_EMU,    0,          R_INT, FD, EPEV_OUT, INT, INT)
SYS(233, epoll_ctl,       C_EMU,    0,          R_INT, FD, INT, FD, PTR)
SYS(234, tgkill,          C_EMU,    0,          R_INT, INT, INT, SIG)
SYS(235, utimes,          C_EMU,    0,          R_INT, STR, PTR)
SYS(236, vserver,         C_EMU,    0,          R_INT)	/* not implemented */
SYS(237, mbind,           C_EMU,    0,          R_INT, HEX, UINT, INT, PTR, UINT, HEX)
SYS(238, set_mempolicy,   C_EMU,    0,          R_INT, INT, PTR, UINT)
SYS(239, get_mempolicy,   C_EMU,    0,          R_INT, OUT(4), OBITS(2), UINT, HEX, HEX)
SYS(240, mq_open,         C_EMU,    0,          R_FD,  STR, OFLAGS, OCT, PTR)
SYS(241, mq_unlink,       C_EMU,    0,          R_INT, STR)
SYS(242, mq_timedsend,    C_EMU,    0,          R_INT, FD, IBUF(2), UINT, UINT, PTR)
SYS(243, mq_timedreceive, C_EMU,    0,          R_INT, FD, OBUF(2), UINT, OUT(4), PTR)
SYS(244, mq_notify,       C_EMU,    0,          R_INT, FD, PTR)
SYS(245, mq_getsetattr,   C_EMU,    0,          R_INT, FD, PTR, OUT(64))
SYS(246, kexec_load,      C_EMU,    0,          R_INT, HEX, UINT, PTR, HEX)
SYS(247, waitid,          C_EMU,    0,          R_INT, INT, INT, OUT(128), HEX, OUT(144))
SYS(248, add_key,         C_EMU,    0,          R_INT, STR, STR, IBUF(3), UINT, INT)
SYS(249, request_key,     C_EMU,    0,          R_INT, STR, STR, STR, INT)
SYS(250, keyctl,          C_EMU,    0,          R_INT, KEYCTL, HEX, HEX, HEX, HEX)
SYS(251, ioprio_set,      C_EMU,    0,          R_INT, INT, INT, INT)
SYS(252, ioprio_get,      C_EMU,    0,          R_INT, INT, INT)
SYS(253, inotify_init,    C_EMU,    0,          R_FD)
SYS(254, inotify_add_watch, C_EMU,  0,          R_INT, FD, STR, HEX)
SYS(255, inotify_rm_watch, C_EMU,   0,          R_INT, FD, INT)
SYS(256, migrate_pages,   C_EMU,    0,          R_INT, INT, UINT, PTR, PTR)

/* The *at family. */
SYS(257, openat,          C_EMU,    0,          R_FD,  FD, STR, OFLAGS, OCT)
SYS(258, mkdirat,         C_EMU,    0,          R_INT, FD, STR, OCT)
SYS(259, mknodat,         C_EMU,    0,          R_INT, FD, STR, OCT, HEX)
SYS(260, fchownat,        C_EMU,    0,          R_INT, FD, STR, INT, INT, ATFLAGS)
SYS(261, futimesat,       C_EMU,    0,          R_INT, FD, STR, PTR)
SYS(262, newfstatat,      C_EMU,    0,          R_INT, FD, STR, OUT(144), ATFLAGS)
SYS(263, unlinkat,        C_EMU,    0,          R_INT, FD, STR, ATFLAGS)
SYS(264, renameat,        C_EMU,    0,          R_INT, FD, STR, FD, STR)
SYS(265, linkat,          C_EMU,    0,          R_INT, FD, STR, FD, STR, ATFLAGS)
SYS(266, symlinkat,       C_EMU,    0,          R_INT, STR, FD, STR)
SYS(267, readlinkat,      C_EMU,    0,          R_INT, FD, STR, OBUF(3), UINT)
SYS(268, fchmodat,        C_EMU,    0,          R_INT, FD, STR, OCT)
SYS(269, faccessat,       C_EMU,    0,          R_INT, FD, STR, ACCESS)
SYS(270, pselect6,        C_EMU,    Q_SIGMASK,  R_INT, INT, FDSET(0), FDSET(0), FDSET(0), OUT(16), PTR)
SYS(271, ppoll,           C_EMU,    Q_SIGMASK,  R_INT, POLLFD(1), UINT, OUT(16), PTR, UINT)
SYS(272, unshare,         C_EMU,    0,          R_INT, HEX)
SYS(273, set_robust_list, C_EMU,    0,          R_INT, PTR, UINT)
SYS(274, get_robust_list, C_EMU,    0,          R_INT, INT, OUT(8), OUT(8))
/* splice and copy_file_range move the offsets they are given. */
SYS(275, splice,          C_EMU,    0,          R_INT, FD, OUT(8), FD, OUT(8), UINT, HEX)
SYS(276, tee,             C_EMU,    0,          R_INT, FD, FD, UINT, HEX)
SYS(277, sync_file_range, C_EMU,    0,          R_INT, FD, INT, INT, HEX)
/* vmsplice from a pipe fills the iovecs; into one it leaves them as
 * they are (saving them again is harmless; rec refuses it into stdout). */
SYS(278, vmsplice,        C_EMU,    0,          R_INT, FD, IOV_OUT(2), UINT, HEX)
SYS(279, move_pages,      C_EMU,    0,          R_INT, INT, UINT, PTR, PTR, OINTS(1), HEX)
SYS(280, utimensat,       C_EMU,    0,          R_INT, FD, STR, PTR, ATFLAGS)
SYS(281, epoll_pwait,     C_EMU,    Q_SIGMASK,  R_INT, FD, EPEV_OUT, INT, INT, PTR, UINT)
SYS(282, signalfd,        C_EMU,    0,          R_FD,  FD, PTR, UINT)
SYS(283, timerfd_create,  C_EMU,    0,          R_FD,  CLOCK, HEX)
SYS(284, eventfd,         C_EMU,    0,          R_FD,  UINT)
SYS(285, fallocate,       C_EMU,    0,          R_INT, FD, HEX, INT, INT)
SYS(286, timerfd_settime, C_EMU,    0,          R_INT, FD, HEX, PTR, OUT(32))
SYS(287, timerfd_gettime, C_EMU,    0,          R_INT, FD, OUT(32))
SYS(288, accept4,         C_EMU,    0,          R_FD,  FD, SOCKADDR_OUT(2), OUT(4), HEX)
SYS(289, signalfd4,       C_EMU,    0,          R_FD,  FD, PTR, UINT, HEX)
SYS(290, eventfd2,        C_EMU,    0,          R_FD,  UINT, HEX)
SYS(291, epoll_create1,   C_EMU,    0,          R_FD,  HEX)
SYS(292, dup3,            C_EMU,    0,          R_FD,  FD, FD, OFLAGS)
SYS(293, pipe2,           C_EMU,    0,          R_INT, OUT(8), OFLAGS)
SYS(294, inotify_init1,   C_EMU,    0,          R_FD,  HEX)
SYS(295, preadv,          C_EMU,    0,          R_INT, FD, IOV_OUT(2), UINT, INT, INT)
SYS(296, pwritev,         C_EMU,    0,          R_INT, FD, IOV_IN(2), UINT, INT, INT)
SYS(297, rt_tgsigqueueinfo, C_EMU,  0,          R_INT, INT, INT, SIG, PTR)
/* perf_event_open: counters are read from its fd (recorded); rec
 * refuses to map it. */
SYS(298, perf_event_open, C_EMU,    0,          R_FD,  PTR, INT, INT, FD, HEX)
/* recvmmsg writes the time left back into its timeout. */
SYS(299, recvmmsg,        C_EMU,    0,          R_INT, FD, MMSG_OUT, UINT, HEX, OUT(16))
SYS(300, fanotify_init,   C_EMU,    0,          R_FD,  HEX, HEX)
SYS(301, fanotify_mark,   C_EMU,    0,          R_INT, FD, HEX, HEX, FD, STR)
SYS(302, prlimit64,       C_EMU,    Q_RLIMIT,   R_INT, INT, INT, PTR, OUT(16))
/* name_to_handle_at writes a handle whose size the caller's struct says. */
SYS(303, name_to_handle_at, C_EMU,  0,          R_INT, FD, STR, FHANDLE, PTR, ATFLAGS)
SYS(304, open_by_handle_at, C_EMU,  0,          R_FD,  FD, PTR, OFLAGS)
SYS(305, clock_adjtime,   C_EMU,    0,          R_INT, CLOCK, OUT(208))
SYS(306, syncfs,          C_EMU,    0,          R_INT, FD)
SYS(307, sendmmsg,        C_EMU,    0,          R_INT, FD, MMSG_IN, UINT, HEX)
SYS(308, setns,           C_EMU,    0,          R_INT, FD, HEX)
SYS(309, getcpu,          C_EMU,    0,          R_INT, OUT(4), OUT(4), PTR)
/* process_vm_readv fills the local iovecs with ret bytes. */
SYS(310, process_vm_readv, C_EMU,   0,          R_INT, INT, IOV_OUT(2), UINT, PTR, UINT, HEX)
/* process_vm_writev is performed again into the same process of the tree
 * (rec refuses one outside it). */
SYS(311, process_vm_writev, C_EXEC, Q_PEERPID,  R_INT, INT, IOV_IN(2), UINT, PTR, UINT, HEX)
SYS(312, kcmp,            C_EMU,    0,          R_INT, INT, INT, INT, HEX, HEX)
SYS(313, finit_module,    C_EMU,    0,          R_INT, FD, STR, HEX)
SYS(314, sched_setattr,   C_EMU,    0,          R_INT, INT, PTR, HEX)
/* sched_getattr writes size bytes (zeros past its 56) and returns 0. */
SYS(315, sched_getattr,   C_EMU,    0,          R_INT, INT, OSIZE(2), UINT, HEX)
SYS(316, renameat2,       C_EMU,    0,          R_INT, FD, STR, FD, STR, HEX)
/* The program's own filters stack on rewind's: performed in both runs,
 * they act the same (prctl(PR_SET_SECCOMP) too). */
SYS(317, seccomp,         C_EXEC,   Q_SECCOMP,  R_INT, UINT, HEX, PTR)
SYS(318, getrandom,       C_EMU,    0,          R_INT, OBUF(1), UINT, HEX)
SYS(319, memfd_create,    C_EMU,    0,          R_FD,  STR, HEX)
SYS(320, kexec_file_load, C_EMU,    0,          R_INT, FD, FD, UINT, STR, HEX)
SYS(321, bpf,             C_NOSYS,  0,          R_INT, INT, PTR, UINT)	/* as without CONFIG_BPF_SYSCALL */
SYS(322, execveat,        C_EXECVE, 0,          R_INT, FD, STR, STRV, STRV, ATFLAGS)
SYS(323, userfaultfd,     C_NOSYS,  0,          R_FD,  HEX)	/* as without CONFIG_USERFAULTFD */
SYS(324, membarrier,      C_EMU,    0,          R_INT, INT, HEX, INT)
SYS(325, mlock2,          C_EMU,    0,          R_INT, HEX, UINT, HEX)
SYS(326, copy_file_range, C_EMU,    0,          R_INT, FD, OUT(8), FD, OUT(8), UINT, HEX)
SYS(327, preadv2,         C_EMU,    0,          R_INT, FD, IOV_OUT(2), UINT, INT, INT, HEX)
SYS(328, pwritev2,        C_EMU,    0,          R_INT, FD, IOV_IN(2), UINT, INT, INT, HEX)
/* Protection keys: pkey_alloc sets the thread's PKRU register. */
SYS(329, pkey_mprotect,   C_EXEC,   Q_PARTIAL,  R_INT, HEX, UINT, PROT, INT)
SYS(330, pkey_alloc,      C_EXEC,   0,          R_INT, HEX, HEX)
SYS(331, pkey_free,       C_EXEC,   0,          R_INT, INT)
SYS(332, statx,           C_EMU,    0,          R_INT, FD, STR, ATFLAGS, HEX, OUT(256))
SYS(333, io_pgetevents,   C_NOSYS,  0,          R_INT, HEX, INT, INT, PTR, PTR, PTR)
SYS(334, rseq,            C_NOSYS,  0,          R_INT, PTR, UINT, HEX, HEX)

/* 335-423 are unused on x86-64 (the numbers were kept for y2038 calls
 * on 32-bit machines); 424 on is shared by all architectures. */
SYS(424, pidfd_send_signal, C_EMU,  0,          R_INT, FD, SIG, PTR, HEX)
SYS(425, io_uring_setup,  C_NOSYS,  0,          R_FD,  UINT, PTR)
SYS(426, io_uring_enter,  C_NOSYS,  0,          R_INT, FD, UINT, UINT, HEX, PTR, UINT)
SYS(427, io_uring_register, C_NOSYS, 0,          R_INT, FD, UINT, PTR, UINT)
SYS(428, open_tree,       C_EMU,    0,          R_FD,  FD, STR, HEX)
SYS(429, move_mount,      C_EMU,    0,          R_INT, FD, STR, FD, STR, HEX)
SYS(430, fsopen,          C_EMU,    0,          R_FD,  STR, HEX)
SYS(431, fsconfig,        C_EMU,    0,          R_INT, FD, UINT, STR, PTR, INT)
SYS(432, fsmount,         C_EMU,    0,          R_FD,  FD, HEX, HEX)
SYS(433, fspick,          C_EMU,    0,          R_FD,  FD, STR, HEX)
SYS(434, pidfd_open,      C_EMU,    0,          R_FD,  INT, HEX)
SYS(435, clone3,          C_CLONE,  0,          R_INT, PTR, UINT)
SYS(436, close_range,     C_EMU,    0,          R_INT, UINT, UINT, HEX)
SYS(437, openat2,         C_EMU,    0,          R_FD,  FD, STR, PTR, UINT)
SYS(438, pidfd_getfd,     C_EMU,    0,          R_FD,  FD, INT, HEX)
SYS(439, faccessat2,      C_EMU,    0,          R_INT, FD, STR, ACCESS, ATFLAGS)
SYS(440, process_madvise, C_EMU,    0,          R_INT, FD, PTR, UINT, MADV, HEX)
SYS(441, epoll_pwait2,    C_EMU,    Q_SIGMASK,  R_INT, FD, EPEV_OUT, INT, PTR, PTR, UINT)
SYS(442, mount_setattr,   C_EMU,    0,          R_INT, FD, STR, HEX, PTR, UINT)
SYS(443, quotactl_fd,     C_EMU,    0,          R_INT, FD, QUOTACTL, INT, PTR)
SYS(444, landlock_create_ruleset, C_EMU, 0,          R_FD, PTR, UINT, HEX)
SYS(445, landlock_add_rule, C_EMU,  0,          R_INT, FD, INT, PTR, HEX)
SYS(446, landlock_restrict_self, C_EMU, 0,          R_INT, FD, HEX)
/* memfd_secret: ENOSYS, as without CONFIG_SECRETMEM (rec cannot read
 * what the program keeps in it, nor replay map it). */
SYS(447, memfd_secret,    C_NOSYS,  0,          R_FD,  HEX)
SYS(448, process_mrelease, C_EMU,   0,          R_INT, FD, HEX)
SYS(449, futex_waitv,     C_EMU,    0,          R_INT, PTR, UINT, HEX, PTR, CLOCK)
SYS(450, set_mempolicy_home_node, C_EMU, 0,          R_INT, HEX, UINT, UINT, HEX)
SYS(451, cachestat,       C_EMU,    0,          R_INT, FD, PTR, OUT(40), HEX)
SYS(452, fchmodat2,       C_EMU,    0,          R_INT, FD, STR, OCT, ATFLAGS)
SYS(453, map_shadow_stack, C_NOSYS, 0,          R_HEX, HEX, UINT, HEX)	/* as without shadow stacks */
SYS(454, futex_wake,      C_EMU,    0,          R_INT, PTR, HEX, INT, HEX)
SYS(455, futex_wait,      C_EMU,    0,          R_INT, PTR, HEX, HEX, HEX, PTR, CLOCK)
SYS(456, futex_requeue,   C_EMU,    0,          R_INT, PTR, HEX, INT, INT)
/* statmount fills bufsize bytes and returns 0; the lsm calls, which
 * write a blob of a size they write, get ENOSYS. */
SYS(457, statmount,       C_EMU,    0,          R_INT, PTR, OSIZE(2), UINT, HEX)
SYS(458, listmount,       C_EMU,    0,          R_INT, PTR, OARR(8), UINT, HEX)
SYS(459, lsm_get_self_attr, C_EMU, 0,            R_INT, UINT, PTR, OUT(4), HEX)	/* ctx: cap.c */
SYS(460, lsm_set_self_attr, C_EMU,  0,          R_INT, UINT, PTR, UINT, HEX)
SYS(461, lsm_list_modules, C_EMU, 0,             R_INT, OARR(8), OUT(4), HEX)
SYS(462, mseal,           C_EXEC,   0,          R_INT, HEX, UINT, HEX)
SYS(463, setxattrat,      C_EMU,    0,          R_INT, FD, STR, ATFLAGS, STR, PTR, UINT)
/* getxattrat's value buffer is inside its struct xattr_args: ENOSYS. */
SYS(464, getxattrat,      C_EMU,    0,          R_INT, FD, STR, ATFLAGS, STR, PTR, UINT)	/* value: cap.c */
SYS(465, listxattrat,     C_EMU,    0,          R_INT, FD, STR, ATFLAGS, OBUF(4), UINT)
SYS(466, removexattrat,   C_EMU,    0,          R_INT, FD, STR, ATFLAGS, STR)
SYS(467, open_tree_attr,  C_EMU,    0,          R_FD,  FD, STR, HEX, PTR, UINT)
/* Added in 6.17; file_getattr writes usize bytes (zeros past its struct). */
SYS(468, file_getattr,    C_EMU,    0,          R_INT, FD, STR, OSIZE(3), UINT, ATFLAGS)
SYS(469, file_setattr,    C_EMU,    0,          R_INT, FD, STR, PTR, UINT, ATFLAGS)

#undef SYS
#undef INT
#undef UINT
#undef HEX
#undef OCT
#undef PTR
#undef FD
#undef STR
#undef IBUF
#undef OBUF
#undef OUT
#undef IOV_IN
#undef IOV_OUT
#undef STRV
#undef SOCKADDR_IN
#undef SOCKADDR_OUT
#undef POLLFD
#undef FDSET
#undef EPEV_OUT
#undef OARR
#undef MSGHDR_IN
#undef MSGHDR_OUT
#undef IOCTL
#undef FCNTL
#undef PRCTL
#undef OFLAGS
#undef ATFLAGS
#undef PROT
#undef MFLAGS
#undef MADV
#undef SIG
#undef SIGHOW
#undef WHENCE
#undef CLOCK
#undef ARCHPRCTL
#undef FUTEXOP
#undef ACCESS
#undef PTRACEREQ
#undef MMSG_IN
#undef MMSG_OUT
#undef IPCCTL
#undef MSGBUF
#undef PAGEVEC
#undef OBITS
#undef OSIZE
#undef KEYCTL
#undef QUOTACTL
#undef SYSFS
#undef OINTS
#undef FHANDLE
#undef CAPHDR
