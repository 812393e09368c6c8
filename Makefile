# Makefile: builds the tools and the test programs, and runs the tests
# (plain, with the fallbacks forced, and under ASan+UBSan) and benchmarks.
PREFIX ?= /usr/local
# Set to gdb's system gdbinit directory (gdb --configuration names it) to
# have every gdb load gdbstub.gdb (gdbstub(1)); empty: not installed there.
GDBINITDIR ?=
CC ?= cc
O ?= build
SAN ?=
DEPS = libseccomp libzstd libunwind-ptrace libdw
CFLAGS_BASE = -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE
ifneq ($(SAN),)
CFLAGS_BASE += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDSAN = -fsanitize=address,undefined
endif
PKG_CFLAGS = $(shell pkg-config --cflags $(DEPS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(DEPS) 2>/dev/null)
CFLAGS += $(CFLAGS_BASE) $(PKG_CFLAGS) -Ilib
# Zydis (x86 decoder, lib/tsc.c) ships no pkg-config file in Debian 12.
LDLIBS += $(PKG_LIBS) -lZydis

TOOLS = rec replay tdump tpack gdbstub tseek
LIB_SRC = $(wildcard lib/*.c)
LIB_OBJ = $(LIB_SRC:%.c=$(O)/%.o)
# The tools link lib/ as an archive: each takes only the objects it uses
# (tdump none of the engine, Zydis or libunwind).
LIB_A = $(O)/lib/librewind.a
TPROG_SRC = $(wildcard t/prog/*.c)
TPROGS = $(TPROG_SRC:t/prog/%.c=$(O)/t/%)
# Test programs built with -fsanitize=address: t/prog-asan/NAME.c makes
# $(O)/t/NAME-asan (LeakSanitizer ptraces the program at its exit).
ATPROG_SRC = $(wildcard t/prog-asan/*.c)
ATPROGS = $(ATPROG_SRC:t/prog-asan/%.c=$(O)/t/%-asan)
BPROG_SRC = $(wildcard bench/prog/*.c)
BPROGS = $(BPROG_SRC:bench/prog/%.c=$(O)/bench/%)

BUFLIB = $(O)/bin/librewind-buf.so

# Test tools, not recorded: t/fuzz/NAME.c makes $(O)/t/NAME.
FUZZ_SRC = $(wildcard t/fuzz/*.c)
FUZZ = $(FUZZ_SRC:t/fuzz/%.c=$(O)/t/%)

all: deps-ok $(TOOLS:%=$(O)/bin/%) $(BUFLIB) $(TPROGS) $(ATPROGS) $(BPROGS) $(FUZZ)

# Installs missing -dev packages on Debian as root, else names them.
deps-ok:
	@./deps.sh

$(O)/lib/%.o: lib/%.c lib/*.h | deps-ok
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(O)/bin/gdbstub: gdbstub/*.h gdbstub/gdbstub.gdb
$(O)/bin/rec: rec/*.h
$(O)/bin/tseek: tseek/*.h

# Made afresh, also when a file leaves lib/ (the folder changes), so
# that no object of a file gone stays in it.
$(LIB_A): $(LIB_OBJ) lib
	@rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

$(O)/bin/%: %/*.c $(LIB_A) lib/*.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDSAN) -o $@ $(filter %.c,$^) $(LIB_A) $(LDLIBS)

# The syscall-buffering library rec preloads into the program: never
# sanitized (it runs inside the program), no red zone (it calls its
# untraced syscall instruction from inline asm), only its wrappers exported,
# two segments and no RELRO (each mmap and mprotect the loader makes for it
# is a stop, in every process started).
$(BUFLIB): buf/*.c lib/bufabi.h lib/trace.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -Ilib -fPIC -shared \
	  -mno-red-zone -mgeneral-regs-only -fvisibility=hidden -fno-stack-protector \
	  -Wl,-z,noseparate-code -Wl,-z,norelro -o $@ $(filter %.c,$^)

# Test and bench programs are plain programs, never sanitized: they are
# what gets recorded.
$(O)/t/%: t/prog/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE -o $@ $< -lm

$(O)/t/%: t/fuzz/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LDLIBS)

$(O)/t/%-asan: t/prog-asan/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 -g -fsanitize=address -fno-omit-frame-pointer -Wall -Wextra -Werror \
	  -D_GNU_SOURCE -o $@ $< -lpthread

$(O)/bench/%: bench/prog/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -o $@ $< -lm

# The suite runs five times: plain (counting, the default: each process
# patched at its first thread or timer), uncounted (REWIND_NO_COUNT=1;
# the counted way's own tests turn it back on), with every
# machine-dependent fallback forced, counted and then uncounted (as on a
# host whose rdtsc does not trap and whose debug registers never fire
# and which has no CPUID faulting: see rec --probe; syscall buffering
# off, every call traced; preemptions hashing all memory, no write
# tracking; asynchronous signals held to the next syscall
# (REWIND_HOLD_SIGNALS); replay holding preemptions' blocks in memory
# (REWIND_NO_SPILL); threads not pinned; the tracer's own thread out of
# the rdtsc trap, REWIND_NO_TSC_SHARE, where a replay of patched rdtsc
# arms it; replay making every private file mapping again, never as an
# mprotect, REWIND_NO_MAP_SAME), and under ASan+UBSan with
# every process patched at its exec (REWIND_COUNT_EAGER=1) and, where
# CPUID can fault, replay giving CPUID the recording CPU's table through
# faults (REWIND_CPUID_TABLE_FAULT=1; the plain pass replays it natively).
FALLBACKS = REWIND_NO_TSC_TRAP=1 REWIND_NO_DEBUGREGS=1 REWIND_NO_BUFFER=1 REWIND_NO_UFFD_WP=1 \
  REWIND_HOLD_SIGNALS=1 REWIND_NO_SPILL=1 REWIND_NO_PIN=1 \
  REWIND_NO_CPUID_FAULT=1 REWIND_NO_TSC_SHARE=1 REWIND_NO_MAP_SAME=1 REWIND_NO_PROCMAP_QUERY=1
check: all
	$(MAKE) O=build-san SAN=1 all
	REWIND_BIN=$(CURDIR)/$(O)/bin REWIND_TPROG=$(CURDIR)/$(O)/t prove -j2 t/t[0-9]*.sh
	REWIND_NO_COUNT=1 REWIND_TRACE_ALL=1 REWIND_BIN=$(CURDIR)/$(O)/bin REWIND_TPROG=$(CURDIR)/$(O)/t prove -j2 t/t[0-9]*.sh
	$(FALLBACKS) REWIND_BIN=$(CURDIR)/$(O)/bin REWIND_TPROG=$(CURDIR)/$(O)/t prove -j2 t/t[0-9]*.sh
	$(FALLBACKS) REWIND_NO_COUNT=1 REWIND_BIN=$(CURDIR)/$(O)/bin REWIND_TPROG=$(CURDIR)/$(O)/t prove -j2 t/t[0-9]*.sh
	env REWIND_COUNT_EAGER=1 $$($(O)/bin/rec --probe | grep -q '^cpuid faulting: present' && \
	  echo REWIND_CPUID_TABLE_FAULT=1) REWIND_BIN=$(CURDIR)/build-san/bin REWIND_TPROG=$(CURDIR)/$(O)/t \
	  ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 prove -j2 t/t[0-9]*.sh

demo: all
	@./demo.sh

bench: all
	@REWIND_BIN=$(CURDIR)/$(O)/bin REWIND_BPROG=$(CURDIR)/$(O)/bench REWIND_TPROG=$(CURDIR)/$(O)/t \
	  bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(TOOLS:%=$(O)/bin/%) $(DESTDIR)$(PREFIX)/bin
	install -d $(DESTDIR)$(PREFIX)/lib/rewind
	install -m 644 $(BUFLIB) $(DESTDIR)$(PREFIX)/lib/rewind
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 man/*.5 $(DESTDIR)$(PREFIX)/share/man/man5
	install -d $(DESTDIR)$(PREFIX)/share/rewind
	install -m 644 gdbstub/gdbstub.gdb $(DESTDIR)$(PREFIX)/share/rewind
	$(if $(GDBINITDIR),install -d $(DESTDIR)$(GDBINITDIR) && install -m 644 gdbstub/gdbstub.gdb $(DESTDIR)$(GDBINITDIR)/rewind-gdbstub.gdb)

clean:
	rm -rf build build-san

.PHONY: all check demo bench install clean deps-ok
.SECONDARY:
