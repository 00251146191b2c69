/* tests/unit/unit.h — the unit tests' shared harness: check() prints "PASS
 * name" or "FAIL name: why" lines for tests/run to count; each part's file
 * (tests/unit/PART.c) runs its tests from one function, which main.c calls. */
#ifndef FLASHBENCH_TESTS_UNIT_H
#define FLASHBENCH_TESTS_UNIT_H

/* failures so far (main.c's exit status) */
extern int failures;

void check(int ok, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* each part's tests */
void unit_lib(void);      /* lib.c: sizes, times, JSON reading, charts */
void unit_dev(void);      /* dev.c: the flash model */
void unit_vm(void);       /* vm.c: series, reductions, plans, the opcode table's docs */
void unit_auto(void);     /* auto.c: analysis */
void unit_guard(void);    /* guard.c: the journal's restore order */
void unit_rating(void);   /* rating.c: --rating across parts (SD registers, ...) */

#endif
