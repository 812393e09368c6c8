/* ioctlvar.c: ioctls whose struct leads to more output than the size
 * their number encodes: FS_IOC_FIEMAP (the extents after struct
 * fiemap), FIDEDUPERANGE (an info per destination), PROCMAP_QUERY (the
 * VMA's name at a pointer in the struct). Prints what they wrote, with a
 * random token in the file they look at. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

/* PROCMAP_QUERY, from linux/fs.h of 6.11 on. */
struct pmq {
	uint64_t size, query_flags, query_addr, vma_start, vma_end, vma_flags, vma_page_size,
		 vma_offset, inode;
	uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t vma_name_addr, build_id_addr;
};
#define PMQ _IOWR('f', 17, struct pmq)

int main(void)
{
	unsigned tok;
	getrandom(&tok, sizeof tok, 0);
	int fd = open("data", O_RDWR | O_CREAT | O_TRUNC, 0600);
	char b[16384];
	memset(b, 'a' + tok % 26, sizeof b);
	write(fd, b, sizeof b);
	fsync(fd);
	printf("token %08x\n", tok);
	struct fiemap *fm = calloc(1, sizeof *fm + 8 * sizeof(struct fiemap_extent));
	fm->fm_length = ~0ull;
	fm->fm_extent_count = 8;
	fm->fm_flags = FIEMAP_FLAG_SYNC;
	int r = ioctl(fd, FS_IOC_FIEMAP, fm);
	uint64_t len = 0;
	for (unsigned i = 0; r == 0 && i < fm->fm_mapped_extents; i++)
		len += fm->fm_extents[i].fe_length;
	printf("fiemap = %d (errno %d): %u extents, %llu bytes, last flag %d\n", r, r ? errno : 0,
	       fm->fm_mapped_extents, (unsigned long long)len,
	       r == 0 && fm->fm_mapped_extents ?
	       !!(fm->fm_extents[fm->fm_mapped_extents - 1].fe_flags & FIEMAP_EXTENT_LAST) : -1);
	int g = open("copy", O_RDWR | O_CREAT | O_TRUNC, 0600);
	write(g, b, sizeof b);
	struct file_dedupe_range *dr = calloc(1, sizeof *dr + sizeof(struct file_dedupe_range_info));
	dr->src_length = 4096;
	dr->dest_count = 1;
	dr->info[0].dest_fd = g;
	dr->info[0].status = 12345;
	r = ioctl(fd, FIDEDUPERANGE, dr);
	printf("dedupe = %d (errno %d): status %d, deduped %llu\n", r, r ? errno : 0,
	       dr->info[0].status, (unsigned long long)dr->info[0].bytes_deduped);
	char *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 4096);
	int self = open("/proc/self/maps", O_RDONLY);
	char name[256] = "";
	struct pmq q = { .size = sizeof q, .query_addr = (uintptr_t)m, .vma_name_size = sizeof name,
			 .vma_name_addr = (uintptr_t)name };
	r = ioctl(self, PMQ, &q);
	printf("procmap_query = %d (errno %d): offset %llu, name %s\n", r, r ? errno : 0,
	       (unsigned long long)q.vma_offset, strrchr(name, '/') ? strrchr(name, '/') : name);
	return 0;
}
