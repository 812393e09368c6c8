/* kcalls.c: calls whose outputs depend on a command or a length, each
 * with an answer that differs run to run: SysV semaphores, message
 * queues and shared memory (semctl, msgctl, msgrcv, shmctl), mincore,
 * get_mempolicy, sched_getattr, sysfs, keyctl, quotactl, modify_ldt,
 * sendmmsg and recvmmsg, a software perf counter, name_to_handle_at,
 * vmsplice; bpf gets ENOSYS under
 * rec. Prints what it got. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/quota.h>
#include <sys/random.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void show(const char *what, long rc)
{
	printf("%s = %ld", what, rc);
	if (rc < 0)
		printf(" errno %d", errno);
	printf("\n");
}

int main(void)
{
	unsigned r;
	getrandom(&r, sizeof r, 0);
	printf("token %08x\n", r);

	/* Semaphores: values set at random, read back one by one and all. */
	int sem = semget(IPC_PRIVATE, 3, IPC_CREAT | 0600);
	unsigned short vals[3] = { r % 100, (r >> 8) % 100, (r >> 16) % 100 }, got[3] = { 0 };
	semctl(sem, 0, SETALL, vals);
	semctl(sem, 1, SETVAL, (int)(r % 77));
	printf("GETVAL %d\n", semctl(sem, 1, GETVAL));
	show("GETALL", semctl(sem, 0, GETALL, got));
	printf("sems %u %u %u\n", got[0], got[1], got[2]);
	struct semid_ds sds;
	memset(&sds, 0, sizeof sds);
	show("sem IPC_STAT", semctl(sem, 0, IPC_STAT, &sds));
	printf("nsems %lu ctime %ld\n", (unsigned long)sds.sem_nsems, (long)sds.sem_ctime);
	struct seminfo si;
	show("SEM_INFO", semctl(sem, 0, SEM_INFO, &si) >= 0);
	printf("semmsl %d\n", si.semmsl);
	semctl(sem, 0, IPC_RMID);

	/* A message queue. */
	int mq = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	struct { long type; char text[64]; } msg = { 1 + r % 9, "" }, in;
	int len = snprintf(msg.text, sizeof msg.text, "hello %u", r);
	msgsnd(mq, &msg, len + 1, 0);
	memset(&in, 0, sizeof in);
	show("msgrcv", msgrcv(mq, &in, sizeof in.text, 0, 0));
	printf("type %ld text %s\n", in.type, in.text);
	struct msqid_ds mds;
	memset(&mds, 0, sizeof mds);
	show("msg IPC_STAT", msgctl(mq, IPC_STAT, &mds));
	printf("rtime %ld lrpid %s\n", (long)mds.msg_rtime, mds.msg_lrpid == getpid() ? "mine" : "other");
	msgctl(mq, IPC_RMID, NULL);

	/* Shared memory: only its bookkeeping (shmat is another matter). */
	int shm = shmget(IPC_PRIVATE, 4096 * (1 + r % 4), IPC_CREAT | 0600);
	struct shmid_ds hds;
	memset(&hds, 0, sizeof hds);
	show("shm IPC_STAT", shmctl(shm, IPC_STAT, &hds));
	printf("segsz %zu cpid %s\n", hds.shm_segsz, hds.shm_cpid == getpid() ? "mine" : "other");
	shmctl(shm, IPC_RMID, NULL);

	/* mincore: which pages of a mapping are in. */
	size_t pages = 4 + r % 8;
	char *m = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (size_t i = 0; i < pages; i += 2)
		m[i * 4096] = 1;
	unsigned char vec[16];
	memset(vec, 7, sizeof vec);
	show("mincore", syscall(SYS_mincore, m, pages * 4096, vec));
	printf("in:");
	for (size_t i = 0; i < pages; i++)
		printf(" %d", vec[i] & 1);
	printf("\n");

	int mode = -1;
	unsigned long mask[2] = { ~0ul, ~0ul };
	show("get_mempolicy", syscall(SYS_get_mempolicy, &mode, mask, 128, 0, 0));
	printf("mode %d mask %#lx\n", mode, mask[0]);

	uint32_t attr[16];
	memset(attr, 0xff, sizeof attr);
	show("sched_getattr", syscall(SYS_sched_getattr, 0, attr, 56, 0));
	printf("size %u policy %u\n", attr[0], attr[1]);

	char fsname[64];
	memset(fsname, 'x', sizeof fsname);
	show("sysfs(2, 0)", syscall(SYS_sysfs, 2, 0, fsname));
	printf("first fs %.20s\n", fsname);
	show("sysfs(3)", syscall(SYS_sysfs, 3));

	char kd[128] = "";
	long key = syscall(SYS_add_key, "user", "kcalls", &r, sizeof r, -2 /* session */);
	if (key >= 0) {
		unsigned back = 0;
		long n = syscall(SYS_keyctl, 11 /* READ */, key, &back, sizeof back);
		printf("keyctl READ = %ld: %s\n", n, back == r ? "the token" : "other");
		n = syscall(SYS_keyctl, 6 /* DESCRIBE */, key, kd, sizeof kd);
		printf("keyctl DESCRIBE = %s\n", n > 0 ? strchr(kd, ';') ? "ok" : kd : "failed");
		syscall(SYS_keyctl, 3 /* REVOKE */, key);
	} else {
		printf("add_key errno %d\n", errno);
	}

	struct if_dqinfo dqi;
	show("quotactl Q_GETINFO", quotactl(QCMD(Q_GETINFO, USRQUOTA), "/dev/null", 0, (caddr_t)&dqi));

	char ldt[64];
	memset(ldt, 0x5a, sizeof ldt);
	show("modify_ldt read", syscall(SYS_modify_ldt, 0, ldt, sizeof ldt));

	/* The handle of a new file (its inode differs run to run). */
	char tmp[] = "kcalls.XXXXXX";
	close(mkstemp(tmp));
	struct { struct file_handle fh; unsigned char b[128]; } h;
	int mid = -1;
	h.fh.handle_bytes = 0;
	show("name_to_handle_at, no room", name_to_handle_at(AT_FDCWD, tmp, &h.fh, &mid, 0));
	printf("needs %u bytes\n", h.fh.handle_bytes);
	long hr = name_to_handle_at(AT_FDCWD, tmp, &h.fh, &mid, 0);
	printf("name_to_handle_at = %ld: type %d, mount %s, handle ", hr, h.fh.handle_type,
	       mid > 0 ? "set" : "unset");
	for (unsigned i = 0; hr == 0 && i < h.fh.handle_bytes && i < 128; i++)
		printf("%02x", h.fh.f_handle[i]);
	printf("\n");
	unlink(tmp);

	/* vmsplice into a pipe and back out of it. */
	int vp[2];
	pipe(vp);
	char vin[32], vout[32] = "";
	int vn = snprintf(vin, sizeof vin, "spliced %u", r) + 1;
	struct iovec vi = { vin, vn }, vo = { vout, sizeof vout };
	show("vmsplice in", vmsplice(vp[1], &vi, 1, 0));
	show("vmsplice out", vmsplice(vp[0], &vo, 1, 0));
	printf("vmspliced '%s'\n", vout);

	/* A software counter read through its file descriptor. */
	struct perf_event_attr pa;
	memset(&pa, 0, sizeof pa);
	pa.size = sizeof pa;
	pa.type = PERF_TYPE_SOFTWARE;
	pa.config = PERF_COUNT_SW_TASK_CLOCK;
	pa.disabled = 1;
	int pfd = syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0);
	if (pfd >= 0) {
		uint64_t id = 0, count = 0;
		ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0);
		for (volatile int i = 0; i < 100000; i++)
			;
		ioctl(pfd, PERF_EVENT_IOC_DISABLE, 0);
		ioctl(pfd, PERF_EVENT_IOC_ID, &id);
		long n = read(pfd, &count, sizeof count);
		printf("perf task-clock: read %ld, id %s, ns %llu\n", n, id ? "set" : "zero",
		       (unsigned long long)count);
		close(pfd);
	} else {
		printf("perf_event_open errno %d\n", errno);
	}
	show("bpf", syscall(SYS_bpf, 0, NULL, 0));

	/* sendmmsg and recvmmsg over a socket pair. */
	int sv[2];
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	char a[32], b[32], ra[32] = "", rb[32] = "";
	snprintf(a, sizeof a, "one %u", r);
	snprintf(b, sizeof b, "two %u", r * 7);
	struct iovec iov[2] = { { a, strlen(a) + 1 }, { b, strlen(b) + 1 } };
	struct mmsghdr out[2];
	memset(out, 0, sizeof out);
	out[0].msg_hdr.msg_iov = &iov[0];
	out[0].msg_hdr.msg_iovlen = 1;
	out[1].msg_hdr.msg_iov = &iov[1];
	out[1].msg_hdr.msg_iovlen = 1;
	show("sendmmsg", sendmmsg(sv[0], out, 2, 0));
	printf("sent %u %u\n", out[0].msg_len, out[1].msg_len);
	struct iovec riov[2] = { { ra, sizeof ra }, { rb, sizeof rb } };
	struct mmsghdr inm[2];
	memset(inm, 0, sizeof inm);
	inm[0].msg_hdr.msg_iov = &riov[0];
	inm[0].msg_hdr.msg_iovlen = 1;
	inm[1].msg_hdr.msg_iov = &riov[1];
	inm[1].msg_hdr.msg_iovlen = 1;
	struct timespec to = { 1, 0 };
	show("recvmmsg", recvmmsg(sv[1], inm, 2, 0, &to));
	printf("got %u '%s' %u '%s'\n", inm[0].msg_len, ra, inm[1].msg_len, rb);
	return 0;
}
