# flashbench — GNU make.  make | make check | make check-asan | make bench |
# make install [PREFIX=/usr/local] [DESTDIR=] | make clean
CC ?= cc
CFLAGS ?= -O2 -g
WARN = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wno-format-truncation
LDLIBS = -lm
PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man/man1

CORE = units.o err.o sim.o dev.o vm.o programs.o report.o safety.o
BINS = flashbench erase

all: $(BINS)

flashbench: flashbench.o $(CORE)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

erase: erase.o $(CORE)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

tests/unit: tests/unit.o $(CORE)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

%.o: %.c $(wildcard *.h)
	$(CC) $(CFLAGS) $(WARN) -I. -c -o $@ $<

check: all tests/unit
	@tests/run

# the whole suite again, built with AddressSanitizer and UBSan
check-asan:
	$(MAKE) clean
	$(MAKE) CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" check
	$(MAKE) clean

bench: all
	@if [ -x bench/run ]; then bench/run; else echo "no benchmarks yet"; fi

install: all
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 flashbench $(DESTDIR)$(BINDIR)/flashbench
	install -m 755 erase $(DESTDIR)$(BINDIR)/flashbench-erase

clean:
	rm -f *.o tests/*.o $(BINS) tests/unit

.PHONY: all check check-asan bench install clean
