/* tests/unit/unit.h — the unit tests' shared harness: check() prints "PASS
 * name" or "FAIL name: why" lines for tests/run to count; each part's file
 * (tests/unit/PART.c) runs its tests from one function, which main.c calls. */
#ifndef FLASHBENCH_TESTS_UNIT_H
#define FLASHBENCH_TESTS_UNIT_H

#include <stddef.h>

/* failures so far (main.c's exit status) */
extern int failures;

void check(int ok, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Dumped trees (tree.c): tests/sysroot/NAME.tree replayed in a new
 * temporary directory, whose path goes to root, and lib/sysroot.c pointed
 * at it.  0, or -1 with why in err.  unit_tree_end points it back at / and
 * removes the tree. */
int unit_tree(const char *name, char *root, size_t len, char *err, size_t errlen);
void unit_tree_end(const char *root);
/* Where they go: /dev/shm (memory: thousands of small files made and
 * removed cost seconds on a busy disk), else $TMPDIR, else /tmp. */
const char *unit_scratch(void);
/* lib/sysroot.c as the unit tests build it (sysroot_hook.c): read the tree
 * at dir in place of / (NULL: / again). */
void sysroot_test_root(const char *dir);

/* each part's tests */
void unit_lib(void);      /* lib.c: sizes, times, JSON reading, charts */
void unit_dev(void);      /* dev.c: the flash model */
void unit_vm(void);       /* vm.c: series, reductions, plans, the opcode table's docs */
void unit_auto(void);     /* auto.c: analysis */
void unit_guard(void);    /* guard.c: the journal's restore order */
void unit_sysroot(void);  /* sysroot.c: the medium and every refusal, over dumped trees */
void unit_topology(void); /* topology.c: what devices share, over dumped trees and sim buses */
void unit_batch(void);    /* batch.c: many cards at once, their turns and their check */
void unit_rating(void);   /* rating.c: --rating across parts (SD registers, ...) */

#endif
