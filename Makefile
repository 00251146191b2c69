# flashbench — GNU make.
#   make                 build flashbench and erase
#   make check           run every test (plain build, then again under
#                        AddressSanitizer + UBSan); ends "N passed, N failed"
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
CORE = units err sim dev vm programs progress report safety analyze characterise json devinfo report_auto crc32c preserve progfile svg plot outfile results testkinds options report_json
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

check: all $(O)/tests/unit $(O)/tests/jsonpath
	@if command -v clang > /dev/null; then \
		$(MAKE) --no-print-directory -s O=build/clang CC=clang build/clang/flashbench build/clang/erase; fi
	$(MAKE) --no-print-directory -s O=build/asan CFLAGS="$(SANITIZE)" \
		build/asan/flashbench build/asan/erase build/asan/tests/unit build/asan/tests/jsonpath
	@tests/run . build/asan

# only the plain build (quicker while working)
check-quick: all $(O)/tests/unit $(O)/tests/jsonpath
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
	rm -rf *.o tests/*.o flashbench erase tests/unit tests/jsonpath build tests/tmp bench/peakrss bench/rawread

.PHONY: all check check-quick bench install clean
