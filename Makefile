# flashbench — GNU make.
#   make                 build flashbench and erase
#   make check           run every test (plain build, then again under
#                        AddressSanitizer + UBSan); ends "N passed, N failed"
#   make lab             only the real-kernel lab (QEMU; doc/lab.md)
#   make fuzz            run each fuzz harness FUZZ_SECONDS (600) under ASan+UBSan
#   make bench           benchmarks against the classic tool and fio
#   make install         PREFIX=/usr/local DESTDIR= ; make clean
CC ?= cc
CFLAGS ?= -O2 -g
WARN = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow
# pthreads: libc's own on glibc (a batch runs its cards side by side, auto/batch.h)
LDLIBS = -lm -pthread
PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man/man1
DATADIR = $(PREFIX)/share/flashbench
DOCDIR = $(PREFIX)/share/doc/flashbench
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions
SANITIZE = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# O is where objects and binaries go (the sanitizer build uses build/asan)
O ?= .
# the modules, part by part in the order data flows (HACKING.md, "Layout"): the
# top-level tables, then lib/ (no flash knowledge), dev/ (backends, the flash
# model), vm.c, prog/ (programs, result trees), guard/ (refusals, journal),
# auto/ (planner, analysis), saved/ (results read back), report/ (output).
# prog/programs_fbp.c is made from scripts/programs/*.fbp (below).
PARTS = lib dev prog guard auto saved report run
FBP_C = prog/programs_fbp.c
CORE_SRC = dev.c vm.c testkinds.c \
	$(filter-out $(FBP_C),$(foreach p,$(PARTS),$(sort $(wildcard $(p)/*.c)))) $(FBP_C)
CORE_OBJ = $(CORE_SRC:%.c=$(O)/%.o)
# the option and mode tables: flashbench's own (erase and the tests use neither)
CLI_OBJ = $(O)/options.o $(O)/modes.o
HDRS = $(wildcard *.h $(PARTS:%=%/*.h) tests/unit/*.h)


all: $(O)/flashbench $(O)/erase

$(O)/flashbench: $(O)/flashbench.o $(CLI_OBJ) $(CORE_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/erase: $(O)/erase.o $(CORE_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the unit tests: tests/unit/PART.c, one file per part (tests/unit/unit.h is
# their harness), linked as one program; it has lib/sysroot.c with its test
# root (tests/unit/sysroot_hook.c) in place of the tool's lib/sysroot.o
UNIT_OBJ = $(patsubst %.c,$(O)/%.o,$(sort $(wildcard tests/unit/*.c)))
$(O)/tests/unit/units: $(UNIT_OBJ) $(filter-out $(O)/lib/sysroot.o,$(CORE_OBJ))
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(O)/tests/unit/sysroot_hook.o: lib/sysroot.c

$(O)/tests/jsonpath: $(O)/tests/jsonpath.o $(O)/lib/json_read.o $(O)/lib/err.o $(O)/lib/utf8.o $(O)/lib/crc32c.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^

# tests/nbdsim: the flash sim served over NBD to the real-kernel lab's guest
# (tests/lab.sh, tests/vm/lab)
$(O)/tests/nbdsim: $(O)/tests/nbdsim.o $(CORE_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# prints a simulated card's truth for the rating zoo (tests/rating_zoo.sh)
$(O)/tests/simtruth: $(O)/tests/simtruth.o $(CORE_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# (a file where an object's folder goes is an old build's program: tests/unit
# was the unit tests' program before it was their folder)
$(O)/%.o: %.c $(HDRS)
	@if [ -f $(@D) ]; then rm -f $(@D); fi; mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -pthread -I. -c -o $@ $<

# The built-in programs: scripts/programs/*.fbp embedded as C strings (a
# build product, not in git).  Backslashes, quotes and '?' (trigraphs) are
# escaped; each line becomes one string literal.
FBP = $(sort $(wildcard scripts/programs/*.fbp))
$(FBP_C): $(FBP) Makefile
	@{ echo '/* prog/programs_fbp.c — made by the Makefile from the .fbp files in scripts/programs; do not edit. */'; \
	  echo '#include "prog/programs.h"'; echo 'const struct fbp_source fbp_sources[] = {'; \
	  for f in $(FBP); do \
		printf '  { "%s",\n' "$$(basename "$$f" .fbp)"; \
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/    "/' -e 's/$$/\\n"/' "$$f"; \
		echo '  },'; \
	  done; echo '  { 0, 0 }'; echo '};'; } > $@.tmp && mv $@.tmp $@

# Fuzz harnesses: tests/fuzz/NAME.c, seed corpus tests/fuzz/corpus/NAME/.
# $(O)/tests/fuzz/NAME runs one under tests/fuzz/driver.c (tests/fuzz.sh
# runs each for a fixed number of inputs); `make fuzz` runs each for
# FUZZ_SECONDS under ASan+UBSan, with libFuzzer when clang has it (new
# inputs go to build/fuzz/corpus/NAME, failures to build/fuzz/findings/).
FUZZ = $(filter-out driver,$(basename $(notdir $(wildcard tests/fuzz/*.c))))
FUZZ_DRIVERS = $(FUZZ:%=$(O)/tests/fuzz/%)
FUZZ_SECONDS ?= 600
FUZZ_TIMEOUT ?= 1

$(FUZZ_DRIVERS): $(O)/tests/fuzz/%: $(O)/tests/fuzz/%.o $(O)/tests/fuzz/driver.o $(CORE_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(FUZZ:%=$(O)/tests/fuzz/%.fuzzer): $(O)/tests/fuzz/%.fuzzer: $(O)/tests/fuzz/%.o $(CORE_OBJ)
	$(CC) $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ $(LDLIBS)

fuzz:
	@if printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return !d + !n; }\n' | \
		clang -fsanitize=fuzzer -x c -o /dev/null - 2> /dev/null; then \
		$(MAKE) --no-print-directory -s O=build/fuzz CC=clang CFLAGS="$(SANITIZE) -fsanitize=fuzzer-no-link" \
			$(FUZZ:%=build/fuzz/tests/fuzz/%.fuzzer) || exit 1; \
		for h in $(FUZZ); do \
			mkdir -p build/fuzz/corpus/$$h build/fuzz/findings; \
			echo "fuzz $$h: libFuzzer, $(FUZZ_SECONDS) s"; \
			build/fuzz/tests/fuzz/$$h.fuzzer -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) \
				-print_final_stats=1 -artifact_prefix=build/fuzz/findings/$$h- \
				build/fuzz/corpus/$$h tests/fuzz/corpus/$$h || exit 1; \
		done; \
	else \
		echo "fuzz: no libFuzzer (install clang and libclang-rt-dev): seeded mutations instead"; \
		$(MAKE) --no-print-directory -s O=build/asan CFLAGS="$(SANITIZE)" $(FUZZ:%=build/asan/tests/fuzz/%) || exit 1; \
		mkdir -p build/fuzz/findings; \
		for h in $(FUZZ); do \
			build/asan/tests/fuzz/$$h -t $(FUZZ_SECONDS) -T $(FUZZ_TIMEOUT) -s $$(date +%s) \
				-o build/fuzz/findings tests/fuzz/corpus/$$h || exit 1; \
		done; \
	fi

check: all $(O)/tests/unit/units $(O)/tests/jsonpath $(O)/tests/nbdsim $(O)/tests/simtruth $(FUZZ_DRIVERS)
	@if command -v clang > /dev/null; then \
		$(MAKE) --no-print-directory -s O=build/clang CC=clang build/clang/flashbench build/clang/erase; fi
	$(MAKE) --no-print-directory -s O=build/asan CFLAGS="$(SANITIZE)" \
		build/asan/flashbench build/asan/erase build/asan/tests/unit/units build/asan/tests/jsonpath \
		build/asan/tests/simtruth \
		$(FUZZ:%=build/asan/tests/fuzz/%)
	@tests/run . build/asan

# the real-kernel lab alone (tests/lab.sh, doc/lab.md; make check runs it too)
lab: all $(O)/tests/unit/units $(O)/tests/jsonpath $(O)/tests/nbdsim
	@TESTS=lab tests/run .

# only the plain build (quicker while working)
check-quick: all $(O)/tests/unit/units $(O)/tests/jsonpath $(O)/tests/nbdsim $(O)/tests/simtruth $(FUZZ_DRIVERS)
	@tests/run .

bench/peakrss: bench/peakrss.c
	$(CC) $(CFLAGS) $(WARN) -o $@ $<

bench/rawread: bench/rawread.c
	$(CC) $(CFLAGS) $(WARN) -o $@ $<

# side by side with the classic flashbench and fio (installs them if missing)
bench: all bench/peakrss bench/rawread
	@bench/run

# The scripts are installed as flashbench-NAME, told where their library
# (scripts/lib.sh) is installed; the manual pages name the installed paths
# (/usr/share/... in the source, PREFIX/share/... once installed); the README
# and the guides (doc/NAME.md as NAME.md.gz) go to DOCDIR compressed (as
# Debian's policy wants it, and the same path with or without the package).
# HACKING.md is for the source tree and is not installed.
install: all
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 flashbench $(DESTDIR)$(BINDIR)/flashbench
	install -m 755 erase $(DESTDIR)$(BINDIR)/flashbench-erase
	install -d $(DESTDIR)$(MANDIR)
	for m in flashbench:flashbench erase:flashbench-erase flashbench-report:flashbench-report \
		flashbench-open-au-sweep:flashbench-open-au-sweep; do \
		sed -e 's|/usr/share/flashbench|$(DATADIR)|g' -e 's|/usr/share/doc/flashbench|$(DOCDIR)|g' \
			$${m%%:*}.1 > $(DESTDIR)$(MANDIR)/$${m#*:}.1 && chmod 644 $(DESTDIR)$(MANDIR)/$${m#*:}.1 || exit 1; done
	install -d $(DESTDIR)$(DATADIR)/programs $(DESTDIR)$(COMPLETIONDIR) $(DESTDIR)$(DOCDIR)
	gzip -9n < README > $(DESTDIR)$(DOCDIR)/README.gz && chmod 644 $(DESTDIR)$(DOCDIR)/README.gz
	for d in doc/*.md; do \
		gzip -9n < $$d > $(DESTDIR)$(DOCDIR)/$${d#doc/}.gz && chmod 644 $(DESTDIR)$(DOCDIR)/$${d#doc/}.gz || exit 1; done
	install -m 644 scripts/lib.sh $(DESTDIR)$(DATADIR)/lib.sh
	for s in report open-au-sweep; do \
		sed 's|^lib=.*|lib=$(DATADIR)/lib.sh|' scripts/$$s.sh > $(DESTDIR)$(BINDIR)/flashbench-$$s && \
		chmod 755 $(DESTDIR)$(BINDIR)/flashbench-$$s || exit 1; done
	install -m 644 scripts/programs/*.fbp $(DESTDIR)$(DATADIR)/programs/
	install -m 644 completion.bash $(DESTDIR)$(COMPLETIONDIR)/flashbench
	for c in flashbench-erase flashbench-report flashbench-open-au-sweep; do \
		ln -sf flashbench $(DESTDIR)$(COMPLETIONDIR)/$$c; done

# make dist: $(DISTDIR)/flashbench-VERSION.tar.gz of the files git tracks (as
# they are in the work tree), the same bytes every time: names sorted, owner
# root, every mtime SOURCE_DATE_EPOCH (default: the last commit's date).
VERSION = $(shell sed -n 's/^\#define FLASHBENCH_VERSION "\(.*\)"/\1/p' lib/version.h)
DIST = flashbench-$(VERSION)
DISTDIR ?= .
dist:
	@git rev-parse --is-inside-work-tree > /dev/null 2>&1 || \
		{ echo "make dist: not a git checkout (it packs the files git tracks); run it in the source tree" >&2; exit 2; }
	@set -e; list=$$(mktemp); trap 'rm -f "$$list"' EXIT; \
	epoch=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct)}; \
	git ls-files | awk -F/ '{ p = "."; print p; for (i = 1; i <= NF; i++) { p = p "/" $$i; print p } }' | \
		LC_ALL=C sort -u > "$$list"; \
	tar --create --format=gnu --no-recursion --files-from="$$list" --owner=0 --group=0 --numeric-owner \
		--mtime=@$$epoch --mode=a-w,u+w,a+rX --transform='s,^\.,$(DIST),' | gzip -n -9 > $(DISTDIR)/$(DIST).tar.gz
	@echo "$(DISTDIR)/$(DIST).tar.gz"

# make deb: $(DEBDIR)/flashbench_VERSION_ARCH.deb, built by dpkg-buildpackage
# from the make dist tarball unpacked in a temporary directory (so the tree
# stays clean and only tracked files go in).
DEBDIR ?= .
deb:
	@command -v dpkg-buildpackage > /dev/null && command -v dh > /dev/null || \
		{ echo "make deb: needs dpkg-buildpackage and debhelper: apt-get install dpkg-dev debhelper" >&2; exit 2; }
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(MAKE) --no-print-directory -s dist DISTDIR="$$tmp" > /dev/null; \
	tar xzf "$$tmp/$(DIST).tar.gz" -C "$$tmp"; \
	if ! (cd "$$tmp/$(DIST)" && dpkg-buildpackage -us -uc -b) > "$$tmp/build.log" 2>&1; then \
		tail -25 "$$tmp/build.log" >&2; echo "make deb: dpkg-buildpackage failed (above)" >&2; exit 1; fi; \
	for f in "$$tmp"/flashbench_*.deb; do cp "$$f" $(DEBDIR)/; echo "$(DEBDIR)/$${f##*/}"; done

clean:
	rm -rf *.o $(PARTS:%=%/*.o) tests/*.o tests/unit/*.o tests/fuzz/*.o $(FUZZ:%=tests/fuzz/%) $(FBP_C) $(FBP_C).tmp flashbench erase tests/unit/units tests/jsonpath tests/nbdsim tests/simtruth build tests/tmp bench/peakrss bench/rawread flashbench-*.tar.gz flashbench_*.deb

.PHONY: all check check-quick lab fuzz bench install clean dist deb
