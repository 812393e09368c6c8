/* pagemap.h: PAGEMAP_SCAN (Linux 6.7), which older headers lack: the
 * ranges of a process's pages in given categories (present, swapped,
 * written since write-protected), found by walking its page tables. */
#ifndef REWIND_PAGEMAP_H
#define REWIND_PAGEMAP_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <linux/userfaultfd.h>

/* The userfaultfd mode PM_WRITTEN needs (Linux 6.7 too). */
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC (1 << 15)
#endif

struct pm_region {
	uint64_t start, end, categories;
};
struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PM_SCAN _IOWR('f', 16, struct pm_scan_arg)
#define PM_PRESENT (1 << 3)
#define PM_SWAPPED (1 << 4)
/* With a userfaultfd in write-protect async mode: a page is "written"
 * once written since it was last write-protected; a scan with
 * PM_WP_MATCHING protects again the pages it reports, and one with
 * PM_CHECK_WPASYNC fails with EPERM on a mapping not registered so. */
#define PM_WP_MATCHING (1 << 0)
#define PM_CHECK_WPASYNC (1 << 1)
#define PM_WRITTEN (1 << 1)

#endif
