/* tests/unit/sysroot_hook.c — lib/sysroot.c as the unit tests build it: with
 * SYSROOT_TEST_HOOK, which adds sysroot_test_root() (unit.h), so that the
 * tests read a dumped tree (tree.c) in place of the machine's /sys, /proc
 * and /dev.  The Makefile links this into the unit-test program in place of
 * lib/sysroot.o; the tool's binaries never have it (lib/sysroot.h says why,
 * tests/sysroot.sh checks). */
#define SYSROOT_TEST_HOOK
#include "lib/sysroot.c"
