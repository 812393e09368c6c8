/* xtables.c: in a network namespace of its own, reads the iptables nat
 * table (getsockopt: its info, then its entries, KiBs long) and puts it
 * back whole (setsockopt IPT_SO_SET_REPLACE), which writes the old
 * table's counters through a pointer inside the struct it passes. Prints
 * a random token, the entries' bytes summed and the counters' bytes
 * summed; "skip: WHY" where the kernel or the user cannot. */
#include <errno.h>
#include <netinet/in.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>

static unsigned sum(const void *p, size_t n)
{
	const unsigned char *b = p;
	unsigned s = 0;
	for (size_t i = 0; i < n; i++)
		s = s * 31 + b[i];
	return s;
}

int main(void)
{
	unsigned token;
	if (getrandom(&token, sizeof token, 0) != sizeof token)
		return 2;
	printf("token %08x\n", token);
	if (unshare(CLONE_NEWNET) < 0) {
		printf("skip: unshare: %s\n", strerror(errno));
		return 0;
	}
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0) {
		printf("skip: socket: %s\n", strerror(errno));
		return 0;
	}
	struct ipt_getinfo info = { .name = "nat" };
	socklen_t len = sizeof info;
	if (getsockopt(fd, SOL_IP, IPT_SO_GET_INFO, &info, &len) < 0) {
		printf("skip: IPT_SO_GET_INFO: %s\n", strerror(errno));
		return 0;
	}
	socklen_t elen = sizeof(struct ipt_get_entries) + info.size;
	struct ipt_get_entries *e = calloc(1, elen);
	strcpy(e->name, "nat");
	e->size = info.size;
	if (getsockopt(fd, SOL_IP, IPT_SO_GET_ENTRIES, e, &elen) < 0) {
		printf("IPT_SO_GET_ENTRIES: %s\n", strerror(errno));
		return 1;
	}
	printf("%u entries, %u bytes, summed %08x\n", info.num_entries, info.size,
	       sum(e->entrytable, info.size));
	size_t rlen = sizeof(struct ipt_replace) + info.size;
	struct ipt_replace *r = calloc(1, rlen);
	strcpy(r->name, "nat");
	r->valid_hooks = info.valid_hooks;
	r->num_entries = info.num_entries;
	r->size = info.size;
	memcpy(r->hook_entry, info.hook_entry, sizeof r->hook_entry);
	memcpy(r->underflow, info.underflow, sizeof r->underflow);
	r->num_counters = info.num_entries;
	size_t clen = sizeof(struct xt_counters) * info.num_entries;
	r->counters = malloc(clen);
	memset(r->counters, 0xa5, clen);
	memcpy(r->entries, e->entrytable, info.size);
	if (setsockopt(fd, SOL_IP, IPT_SO_SET_REPLACE, r, rlen) < 0) {
		printf("IPT_SO_SET_REPLACE: %s\n", strerror(errno));
		return 1;
	}
	printf("counters summed %08x\n", sum(r->counters, clen));
	return 0;
}
