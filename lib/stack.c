/* stack.c: call stacks of a stopped tracee (replay --stack): libunwind's
 * ptrace accessors walk the frames, libdw reads the line tables. */
#include "stack.h"
#include "fmt.h"
#include "util.h"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <libunwind-ptrace.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

/* One address space and one Dwfl for the whole replay: libunwind keeps
 * the unwind entries it parsed and libdw the ELF and DWARF it opened, so
 * a stop costs the walk, not the reading of files. When the tracee's
 * mappings change (an exec, a dlopen), libunwind forgets and libdw is
 * told the modules again. */
static unw_addr_space_t as;
static unw_accessors_t acc;
static Dwfl *dwfl;
static char *maps, *maps_new;	/* /proc/PID/maps at the last walk, and now */
static size_t maps_len, maps_cap, maps_new_cap;
static pid_t maps_pid;

/* Replay maps the files a program maps itself (libraries the loader
 * opens) as anonymous memory filled from the trace, or (big ones) from
 * the trace's copy of the file, so /proc/PID/maps does not name them as
 * the program did. The engine tells us each one; the newest come
 * last. */
struct note {
	uint64_t start, end, off;
	char *file, *path;	/* the file read, and its recorded path */
	dev_t dev;		/* an executable (start == end): its identity, */
	ino_t ino;		/* as /proc/PID/maps shows it */
};
static struct note *notes;
static int nnotes;

static char *debuginfo_path;
static int find_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		    char **file_name, Elf **elfp);
static const Dwfl_Callbacks callbacks = {
	.find_elf = find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

/* Not in libunwind's headers, but exported for unwinders that find the
 * unwind tables themselves (perf does the same): the binary search of an
 * .eh_frame_hdr table in the target's memory. */
extern int _Ux86_64_dwarf_search_unwind_table(unw_addr_space_t as, unw_word_t ip,
					      unw_dyn_info_t *di, unw_proc_info_t *pi,
					      int need_unwind_info, void *arg);

/* libunwind's own lookup reads /proc/PID/maps, where the anonymous
 * copies have no file: find the module through libdw instead, and its
 * .eh_frame_hdr through the ELF program headers. */
static int lookup_proc_info(unw_addr_space_t a, unw_word_t ip, unw_proc_info_t *pi,
			    int need_unwind_info, void *arg)
{
	Dwfl_Module *m = dwfl_addrmodule(dwfl, ip);
	Dwarf_Addr bias, lo, hi;
	Elf *elf = m ? dwfl_module_getelf(m, &bias) : NULL;
	size_t nph;
	if (!elf || elf_getphdrnum(elf, &nph) < 0)
		return -UNW_ENOINFO;
	dwfl_module_info(m, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_GNU_EH_FRAME)
			continue;
		Elf_Data *d = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz, ELF_T_BYTE);
		const uint8_t *h = d ? d->d_buf : NULL;
		/* version 1; the table of (sdata4 pc, sdata4 fde) pairs,
		 * relative to the header, that the binary search needs */
		if (!h || d->d_size < 12 || h[0] != 1 || h[2] != 0x03 || h[3] != 0x3b)
			return -UNW_ENOINFO;
		uint32_t count;
		memcpy(&count, h + 8, 4);
		if (count > (d->d_size - 12) / 8)
			return -UNW_ENOINFO;
		unw_dyn_info_t di;
		memset(&di, 0, sizeof di);
		di.start_ip = lo;
		di.end_ip = hi;
		di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
		di.u.rti.segbase = bias + ph.p_vaddr;
		di.u.rti.table_data = bias + ph.p_vaddr + 12;
		di.u.rti.table_len = count * 8 / sizeof(unw_word_t);
		return _Ux86_64_dwarf_search_unwind_table(a, ip, &di, pi, need_unwind_info, arg);
	}
	return -UNW_ENOINFO;
}

/* Set when a lookup found no unwind entry: libunwind then guesses the
 * caller from rbp, and a guess is not shown. */
static int guessed;

static int find_proc_info(unw_addr_space_t a, unw_word_t ip, unw_proc_info_t *pi,
			  int need_unwind_info, void *arg)
{
	int r = lookup_proc_info(a, ip, pi, need_unwind_info, arg);
	if (r < 0)
		guessed = 1;
	return r;
}

/* The thread being walked: its registers, and the pages of its memory
 * read so far (it is stopped, so they hold still). One read of a page
 * and none of a register instead of a ptrace call per word. */
static const struct user_regs_struct *walk_regs;
static pid_t walk_pid;
static struct {
	uint64_t base;
	uint8_t b[4096];
} pages[8];
static int npages, next_page;

static int access_mem(unw_addr_space_t a, unw_word_t addr, unw_word_t *val, int write, void *arg)
{
	uint64_t base = addr & ~(uint64_t)4095;
	if (write || (addr & 7))
		return _UPT_access_mem(a, addr, val, write, arg);
	int i;
	for (i = 0; i < npages && pages[i].base != base; i++)
		;
	if (i == npages) {
		i = next_page;
		next_page = (next_page + 1) % 8;
		struct iovec l = { pages[i].b, 4096 }, r = { (void *)base, 4096 };
		pages[i].base = 1;	/* invalid until read */
		if (process_vm_readv(walk_pid, &l, 1, &r, 1, 0) != 4096)
			return _UPT_access_mem(a, addr, val, write, arg);
		pages[i].base = base;
		if (npages < 8)
			npages++;
	}
	memcpy(val, pages[i].b + (addr - base), sizeof *val);
	return 0;
}

static int access_reg(unw_addr_space_t a, unw_regnum_t reg, unw_word_t *val, int write,
		      void *arg)
{
	const struct user_regs_struct *r = walk_regs;
	if (write || !r || reg < 0 || reg > UNW_X86_64_RIP)
		return _UPT_access_reg(a, reg, val, write, arg);
	const unsigned long long v[] = {
		[UNW_X86_64_RAX] = r->rax, [UNW_X86_64_RDX] = r->rdx, [UNW_X86_64_RCX] = r->rcx,
		[UNW_X86_64_RBX] = r->rbx, [UNW_X86_64_RSI] = r->rsi, [UNW_X86_64_RDI] = r->rdi,
		[UNW_X86_64_RBP] = r->rbp, [UNW_X86_64_RSP] = r->rsp, [UNW_X86_64_R8] = r->r8,
		[UNW_X86_64_R9] = r->r9, [UNW_X86_64_R10] = r->r10, [UNW_X86_64_R11] = r->r11,
		[UNW_X86_64_R12] = r->r12, [UNW_X86_64_R13] = r->r13, [UNW_X86_64_R14] = r->r14,
		[UNW_X86_64_R15] = r->r15, [UNW_X86_64_RIP] = r->rip,
	};
	*val = v[reg];
	return 0;
}

void stack_init(void)
{
	if (as)
		return;
	/* libdw asks a debuginfod server over the network for what is not
	 * on disk; a replay stays on this machine. */
	unsetenv("DEBUGINFOD_URLS");
	elf_version(EV_CURRENT);
	acc = _UPT_accessors;
	acc.find_proc_info = find_proc_info;
	acc.access_mem = access_mem;
	acc.access_reg = access_reg;
	as = unw_create_addr_space(&acc, 0);
	if (!as)
		die(EXIT_TRACE, "libunwind: cannot create an address space");
	unw_set_caching_policy(as, UNW_CACHE_GLOBAL);
	dwfl = dwfl_begin(&callbacks);
	if (!dwfl)
		die(EXIT_TRACE, "libdw: %s", dwfl_errmsg(-1));
}

void stack_note_map(uint64_t addr, uint64_t len, const char *file, const char *path, uint64_t off)
{
	char abs[4096];
	struct stat st;
	if (len == 0) {
		/* An executable, maybe a copy removed once it runs: hold it
		 * open, and find it in the maps by device and inode. */
		int fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			if (fd >= 0)
				close(fd);
			return;
		}
		for (int i = 0; i < nnotes; i++)
			if (notes[i].start == notes[i].end && notes[i].dev == st.st_dev &&
			    notes[i].ino == st.st_ino) {
				close(fd);
				free(notes[i].path);
				notes[i].path = xmalloc(strlen(path) + 1);
				strcpy(notes[i].path, path);
				return;
			}
		snprintf(abs, sizeof abs, "/proc/self/fd/%d", fd);
	} else if (!realpath(file, abs)) {	/* libdw opens it later, from elsewhere */
		return;
	}
	notes = xrealloc(notes, (nnotes + 1) * sizeof *notes);
	struct note *n = &notes[nnotes++];
	n->dev = len ? 0 : st.st_dev;
	n->ino = len ? 0 : st.st_ino;
	n->start = addr;
	n->end = addr + len;
	n->off = off;
	n->file = xmalloc(strlen(abs) + 1);
	strcpy(n->file, abs);
	n->path = xmalloc(strlen(path) + 1);
	strcpy(n->path, path);
}

/* Read /proc/pid/maps into maps_new; returns its length or -1. */
static ssize_t read_maps(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/maps", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t len = 0;
	for (;;) {
		if (len + 4097 > maps_new_cap) {
			maps_new_cap = maps_new_cap ? 2 * maps_new_cap : 1 << 16;
			maps_new = xrealloc(maps_new, maps_new_cap);
		}
		ssize_t n = read(fd, maps_new + len, maps_new_cap - len - 1);
		if (n < 0) {
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	maps_new[len] = 0;
	return len;
}

/* Whether the tracee's bytes at addr are still the file's at off (a
 * note can be stale: the range unmapped and mapped again, or another
 * process of the replay mapping something else there). */
static int same_bytes(pid_t pid, uint64_t addr, const char *file, uint64_t off)
{
	uint8_t a[64], b[64];
	struct iovec l = { a, sizeof a }, r = { (void *)addr, sizeof a };
	if (process_vm_readv(pid, &l, 1, &r, 1, 0) != sizeof a)
		return 0;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = pread(fd, b, sizeof b, off);
	close(fd);
	return n == (ssize_t)sizeof b && !memcmp(a, b, sizeof a);
}

/* The extent of an ELF file's loadable segments (p_vaddr), read once. */
struct extent {
	char *file;
	uint64_t lo, hi;
	int ok;
};
static struct extent *extents;
static int nextents;

static const struct extent *extent_of(const char *file)
{
	for (int i = 0; i < nextents; i++)
		if (!strcmp(extents[i].file, file))
			return &extents[i];
	extents = xrealloc(extents, (nextents + 1) * sizeof *extents);
	struct extent *x = &extents[nextents++];
	memset(x, 0, sizeof *x);
	x->file = xmalloc(strlen(file) + 1);
	strcpy(x->file, file);
	x->lo = UINT64_MAX;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	size_t nph;
	if (elf && elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, &nph) == 0) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
				continue;
			uint64_t lo = ph.p_vaddr & ~(uint64_t)4095;
			if (lo < x->lo)
				x->lo = lo;
			if (ph.p_vaddr + ph.p_memsz > x->hi)
				x->hi = ph.p_vaddr + ph.p_memsz;
		}
		x->ok = x->lo < x->hi;
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return x;
}

/* libdw asks for a module's file: the one report() gave it. */
static int find_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		    char **file_name, Elf **elfp)
{
	(void)mod, (void)modname, (void)base;
	*elfp = NULL;
	if (!*userdata)
		return -1;
	*file_name = strdup(*userdata);
	return open(*userdata, O_RDONLY | O_CLOEXEC);
}

static int stale;	/* a module came back with another file */

/* The executable mappings at the last sync: a return address outside
 * them is no code, and the walk stops there rather than show garbage
 * (libunwind guesses frames from rbp where it finds no unwind entry). */
static struct { uint64_t lo, hi; } *code;
static int ncode, code_cap;

static int in_code(uint64_t pc)
{
	for (int i = 0; i < ncode; i++)
		if (code[i].lo <= pc && pc < code[i].hi)
			return 1;
	return 0;
}

/* Report to libdw the ELF file mapped with its first page (file offset
 * 0) at start, under name. A module reported again as it was (name and
 * range) keeps what libdw read of it. */
static void report(const char *name, const char *file, uint64_t start)
{
	const struct extent *x = extent_of(file);
	if (!x->ok || x->hi - x->lo > UINT64_MAX - start)
		return;
	Dwfl_Module *m = dwfl_report_module(dwfl, name, start, start + (x->hi - x->lo));
	void **ud;
	if (!m || !dwfl_module_info(m, &ud, NULL, NULL, NULL, NULL, NULL, NULL))
		return;
	if (!*ud) {
		char *f = xmalloc(strlen(file) + 1);
		*ud = strcpy(f, file);
	} else if (strcmp(*ud, file)) {
		stale = 1;
	}
}

/* Bring libdw's modules and libunwind's caches up to date with pid's
 * mappings. Returns 0, or -1 when they cannot be read. */
static int sync_maps(pid_t pid)
{
	ssize_t len = read_maps(pid);
	if (len < 0)
		return -1;
	if (pid == maps_pid && (size_t)len == maps_len && !memcmp(maps, maps_new, len))
		return 0;
	char *t = maps;
	maps = maps_new;
	maps_new = t;
	size_t c = maps_cap;
	maps_cap = maps_new_cap;
	maps_new_cap = c;
	maps_len = len;
	maps_pid = pid;
	unw_flush_cache(as, 0, 0);
	stale = 0;
	ncode = 0;
again:
	dwfl_report_begin(dwfl);
	for (const char *p = maps, *nl; p < maps + maps_len; p = nl + 1) {
		char line[4200];
		nl = memchr(p, '\n', maps + maps_len - p);
		if (!nl)
			nl = maps + maps_len;
		snprintf(line, sizeof line, "%.*s", (int)(nl - p), p);
		unsigned long long lo, hi, off, ino;
		unsigned dmaj, dmin;
		char perms[8];
		int pos = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &lo, &hi, perms, &off, &dmaj,
			   &dmin, &ino, &pos) < 7)
			continue;
		if (perms[2] == 'x' && stale != 2) {
			if (ncode == code_cap) {
				code_cap = code_cap ? 2 * code_cap : 64;
				code = xrealloc(code, code_cap * sizeof *code);
			}
			code[ncode].lo = lo;
			code[ncode++].hi = hi;
		}
		const char *path = line + pos;
		if (ino && path[0] == '/' && off == 0) {
			const char *name = path, *file = path;
			/* A big library replay mapped from the trace's copy
			 * (engproc.c): named as the program mapped it. */
			for (int i = nnotes - 1; i >= 0; i--)
				if ((notes[i].start == notes[i].end && notes[i].ino == ino &&
				     major(notes[i].dev) == dmaj && minor(notes[i].dev) == dmin) ||
				    (notes[i].start < notes[i].end && notes[i].start == lo && notes[i].off == 0 &&
				     !strcmp(notes[i].file, path))) {
					name = notes[i].path;
					file = notes[i].file;
					break;
				}
			report(name, file, lo);
			continue;
		}
		if (ino || path[0])
			continue;
		/* An anonymous mapping: the first page of a file replay filled? */
		for (int i = nnotes - 1; i >= 0; i--) {
			struct note *n = &notes[i];
			if (n->off == 0 && n->start < n->end && lo <= n->start && n->start < hi &&
			    same_bytes(pid, n->start, n->file, 0)) {
				/* the newest wins: libdw refuses an overlap */
				report(n->path, n->file, n->start);
			}
		}
	}
	dwfl_report_end(dwfl, NULL, NULL);
	if (stale == 1) {
		/* Rare: the same name and place, another file (two versions
		 * of a library in two processes). Start afresh. */
		dwfl_end(dwfl);
		if (!(dwfl = dwfl_begin(&callbacks)))
			die(EXIT_TRACE, "libdw: %s", dwfl_errmsg(-1));
		stale = 2;
		goto again;
	}
	return 0;
}

static void copy(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src ? src : "");
}

/* What describe() found for an address, kept: libdw finds a symbol by
 * scanning the symbol table, and the same return addresses come back at
 * every stop. A module's file name (its userdata, never freed) and
 * place identify it across reports. */
struct memo {
	void *ud;
	uint64_t low, addr, off;
	char *func, *src;
	int line;
};
static struct memo memo[1 << 14];

static char *dup_or_null(const char *s)
{
	if (!s)
		return NULL;
	char *d = xmalloc(strlen(s) + 1);
	return strcpy(d, s);
}

/* What libdw knows of the frame: the object, the function and the
 * source line of lookup (pc, or pc - 1 for a return address, which may
 * be the next line's, or another function's after a noreturn call). */
static void describe(struct stack_frame *f, uint64_t lookup)
{
	Dwfl_Module *m = dwfl_addrmodule(dwfl, lookup);
	if (!m)
		return;
	void **ud;
	Dwarf_Addr low;
	copy(f->obj, sizeof f->obj, dwfl_module_info(m, &ud, &low, NULL, NULL, NULL, NULL, NULL));
	Dwarf_Addr bias;
	if (dwfl_module_getelf(m, &bias))
		f->vaddr = f->pc - bias;
	uint64_t h = (lookup ^ (lookup >> 13) ^ (uint64_t)(uintptr_t)*ud) * 0x9e3779b97f4a7c15ull;
	struct memo *mo = &memo[h >> 50];
	if (!*ud || mo->ud != *ud || mo->low != low || mo->addr != lookup) {
		free(mo->func);
		free(mo->src);
		memset(mo, 0, sizeof *mo);
		GElf_Off off;
		GElf_Sym sym;
		const char *fn = dwfl_module_addrinfo(m, lookup, &off, &sym, NULL, NULL, NULL);
		if (fn) {
			mo->func = dup_or_null(fn);
			mo->func[strcspn(mo->func, "@")] = 0;	/* a symbol version */
			mo->off = off;
		}
		Dwfl_Line *l = dwfl_module_getsrc(m, lookup);
		int line = 0;
		const char *src = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
		if (src && line > 0) {
			mo->src = dup_or_null(src);
			mo->line = line;
		}
		mo->ud = *ud;
		mo->low = low;
		mo->addr = lookup;
	}
	if (mo->func) {
		copy(f->func, sizeof f->func, mo->func);
		f->off = mo->off + (f->pc - lookup);
	}
	if (mo->src) {
		copy(f->src, sizeof f->src, mo->src);
		f->line = mo->line;
	}
}

int stack_walk(pid_t pid, const struct user_regs_struct *regs, struct stack_frame *f, int max)
{
	stack_init();
	walk_pid = pid;
	walk_regs = regs;
	npages = next_page = 0;
	if (sync_maps(pid) < 0)
		return 0;
	void *upt = _UPT_create(pid);
	if (!upt)
		return 0;
	unw_cursor_t c;
	int n = 0;
	if (unw_init_remote(&c, as, upt) < 0)
		goto out;
	int after_signal = 1;	/* frame 0 is where it stopped, not a return */
	while (n < max) {
		unw_word_t ip = 0;
		if (unw_get_reg(&c, UNW_REG_IP, &ip) < 0 || (n > 0 && !in_code(ip - !after_signal)))
			break;
		struct stack_frame *fr = &f[n++];
		memset(fr, 0, sizeof *fr);
		fr->pc = ip;
		describe(fr, after_signal ? ip : ip - 1);
		/* rewind's own preloaded library (syscall buffering) stands
		 * in for libc's wrapper: not a frame of the program. */
		size_t ol = strlen(fr->obj);
		if (ol >= 16 && !strcmp(fr->obj + ol - 16, "librewind-buf.so"))
			n--;
		after_signal = unw_is_signal_frame(&c) > 0;
		guessed = 0;
		if (unw_step(&c) <= 0 || guessed)
			break;
	}
out:
	_UPT_destroy(upt);
	walk_regs = NULL;
	return n;
}

void stack_text(struct sn_buf *b, const struct stack_frame *f, int n)
{
	for (int i = 0; i < n; i++) {
		sn_printf(b, "  #%-2d 0x%016llx", i, (unsigned long long)f[i].pc);
		if (f[i].func[0])
			sn_printf(b, " %s+0x%llx", f[i].func, (unsigned long long)f[i].off);
		else
			sn_puts(b, " ??");
		if (f[i].obj[0] && !f[i].func[0] && f[i].vaddr)
			sn_printf(b, " (%s+0x%llx)", f[i].obj, (unsigned long long)f[i].vaddr);
		else if (f[i].obj[0])
			sn_printf(b, " (%s)", f[i].obj);
		if (f[i].src[0])
			sn_printf(b, " at %s:%d", f[i].src, f[i].line);
		sn_putc(b, '\n');
	}
}

static void js_str(struct sn_buf *js, const char *s)
{
	if (!s[0])
		sn_puts(js, "null");
	else
		js_bytes(js, (const uint8_t *)s, strlen(s));
}

void stack_json(struct sn_buf *js, const struct stack_frame *f, int n)
{
	sn_putc(js, '[');
	for (int i = 0; i < n; i++) {
		sn_printf(js, "%s{\"pc\":%llu,\"func\":", i ? "," : "", (unsigned long long)f[i].pc);
		js_str(js, f[i].func);
		sn_printf(js, ",\"off\":%llu,\"object\":", (unsigned long long)f[i].off);
		js_str(js, f[i].obj);
		if (f[i].obj[0] && f[i].vaddr)
			sn_printf(js, ",\"vaddr\":%llu", (unsigned long long)f[i].vaddr);
		else
			sn_puts(js, ",\"vaddr\":null");
		sn_puts(js, ",\"file\":");
		js_str(js, f[i].src);
		if (f[i].line)
			sn_printf(js, ",\"line\":%d}", f[i].line);
		else
			sn_puts(js, ",\"line\":null}");
	}
	sn_putc(js, ']');
}
