/* programs.h — the built-in tests as VM programs (the embedded .fbp files),
 * the variables they use, and where their figures sit in the result tree.
 * Nothing here checks the device; vm_plan does that before anything runs. */
#ifndef FLASHBENCH_PROGRAMS_H
#define FLASHBENCH_PROGRAMS_H

#include <stdint.h>

#include "lib/err.h"
#include "prog/progfile.h"
#include "vm.h"

struct test_params {
	uint64_t blocksize;     /* -b */
	uint64_t erasesize;     /* -e */
	uint64_t offset;        /* --offset */
	unsigned count;         /* -c */
	unsigned open_au_nr;    /* --open-au-nr */
	unsigned fat_nr;        /* --fat-nr */
	unsigned scatter_order, scatter_span;
	unsigned interval_order;
	int random;             /* -r */
	int pattern;            /* byte written */
};

/* The defaults (the classic ones): set here only; --help shows them from
 * here (options.c). */
void test_defaults(struct test_params *t);

/* Positions the align test averages over. */
#define ALIGN_POSITIONS 7

/* The align test's spacing of positions: the largest power of two S with
 * (ALIGN_POSITIONS + 1) * S <= size, capped at max_align (0: no cap). */
uint64_t align_spacing(uint64_t size, uint64_t max_align);

/* The built-in programs are the files scripts/programs/NAME.fbp, embedded
 * at build time (programs_fbp.c, made by the Makefile) and parsed when
 * used.  Result trees (root kids):
 *  align:     kid[i] = one alignment (unit); kid[i].kid[p] = position p;
 *             kid[i].kid[p].kid[0] = its tries (see crossing_of)
 *  interval:  kid[i] = one stride (unit), stats over its reads
 *  scatter:   kid[0].kid[0].kid[i] = position i (off), value = min of tries
 *  open-au, open-au-random:
 *             kid[i] = one chunk size (unit), stats over its writes
 *  find-fat:  kid[i] = one chunk size (unit); kid[i].kid[0].kid[j] = erase
 *             block j, stats over its writes
 *  boundary-scan: crossing costs at j*A for j = 1..$scan_points and A
 *             doubling from $scan_from to $scan_to: kid[i] = step A (unit);
 *             kid[i].kid[j].kid[0] = the tries around (j+1)*A
 *  write-cache: kid[0].kid[0].kid[a] = erase block a, kid[a].kid[w] = write w
 *  open-au-trial, fat-probe, min-write, copy-probe (writes at the list $offsets):
 *             kid[0].kid[0].kid[i] = the write at the i-th offset */
struct fbp_source {
	const char *name;       /* "align" for align.fbp */
	const char *text;
};
extern const struct fbp_source fbp_sources[];   /* ends with a NULL name */

/* The variables programs use ($blocksize, $spacing, ...; doc/program.md lists
 * them), from the test parameters and the device (dev_size 0: not known
 * yet, sector 0: 512). */
void program_vars(const struct test_params *t, uint64_t dev_size, unsigned sector, struct prog_vars *v);

/* Parse the built-in program NAME with these variables; *format gets its
 * format.  Fails on an unknown name (usage) or a bad value. */
int program_builtin(const char *name, const struct prog_vars *v, struct vm_op **out, const char **format,
		    struct fb_err *e);

/* The old builders, until flashbench.c calls program_builtin: each parses
 * its .fbp (NULL on any failure). */
struct vm_op *program_align(const struct test_params *t, uint64_t spacing);
struct vm_op *program_interval(const struct test_params *t);
struct vm_op *program_scatter(const struct test_params *t);
struct vm_op *program_open_au(const struct test_params *t);
struct vm_op *program_find_fat(const struct test_params *t);

/* Where open-AU starts by default: the first erase boundary at or above
 * OPEN_AU_FROM. */
#define OPEN_AU_FROM (16ULL << 20)
uint64_t open_au_default_offset(uint64_t erasesize);

#endif
