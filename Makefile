# flashbench — GNU make.
#   make                 build flashbench and erase
#   make check           run every test (plain build, then again under
#                        AddressSanitizer + UBSan); ends "N passed, N failed"
#   make fuzz            run each fuzz harness FUZZ_SECONDS (600) under ASan+UBSan
#   make bench           benchmarks against the classic tool and fio
#   make install         PREFIX=/usr/local DESTDIR= ; make clean
CC ?= cc
CFLAGS ?= -O2 -g
WARN = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow
LDLIBS = -lm
PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man/man1
SANITIZE = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# O is where objects and binaries go (the sanitizer build uses build/asan)
O ?= .
CORE = units err sim dev dev_block dev_sim dev_preserve vm programs programs_fbp progress report safety analyze characterise json devinfo report_auto crc32c journal preserve progfile svg plot
CORE_OBJ = $(CORE:%=$(O)/%.o)
HDRS = $(wildcard *.h)

all: $(O)/flashbench $(O)/erase

$(O)/flashbench: $(O)/flashbench.o $(CORE_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/erase: $(O)/erase.o $(CORE_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/tests/unit: $(O)/tests/unit.o $(CORE_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/tests/jsonpath: $(O)/tests/jsonpath.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^

$(O)/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -I. -c -o $@ $<

# The built-in programs: scripts/programs/*.fbp embedded as C strings (a
# build product, not in git).  Backslashes, quotes and '?' (trigraphs) are
# escaped; each line becomes one string literal.
FBP = $(sort $(wildcard scripts/programs/*.fbp))
programs_fbp.c: $(FBP) Makefile
	@{ echo '/* programs_fbp.c — made by the Makefile from the .fbp files in scripts/programs; do not edit. */'; \
	  echo '#include "programs.h"'; echo 'const struct fbp_source fbp_sources[] = {'; \
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

check: all $(O)/tests/unit $(O)/tests/jsonpath $(FUZZ_DRIVERS)
	@if command -v clang > /dev/null; then \
		$(MAKE) --no-print-directory -s O=build/clang CC=clang build/clang/flashbench build/clang/erase; fi
	$(MAKE) --no-print-directory -s O=build/asan CFLAGS="$(SANITIZE)" \
		build/asan/flashbench build/asan/erase build/asan/tests/unit build/asan/tests/jsonpath \
		$(FUZZ:%=build/asan/tests/fuzz/%)
	@tests/run . build/asan

# only the plain build (quicker while working)
check-quick: all $(O)/tests/unit $(O)/tests/jsonpath $(FUZZ_DRIVERS)
	@tests/run .

bench/peakrss: bench/peakrss.c
	$(CC) $(CFLAGS) $(WARN) -o $@ $<

bench/rawread: bench/rawread.c
	$(CC) $(CFLAGS) $(WARN) -o $@ $<

# side by side with the classic flashbench and fio (installs them if missing)
bench: all bench/peakrss bench/rawread
	@bench/run

install: all
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 flashbench $(DESTDIR)$(BINDIR)/flashbench
	install -m 755 erase $(DESTDIR)$(BINDIR)/flashbench-erase
	install -d $(DESTDIR)$(MANDIR)
	install -m 644 flashbench.1 $(DESTDIR)$(MANDIR)/flashbench.1
	install -m 644 erase.1 $(DESTDIR)$(MANDIR)/flashbench-erase.1

clean:
	rm -rf *.o tests/*.o tests/fuzz/*.o $(FUZZ:%=tests/fuzz/%) programs_fbp.c programs_fbp.c.tmp flashbench erase tests/unit tests/jsonpath build tests/tmp bench/peakrss bench/rawread

.PHONY: all check check-quick fuzz bench install clean
