/* programs.h — the built-in tests as VM programs, and where their figures sit
 * in the result tree.  Each builder checks nothing about the device; vm_plan
 * does that before anything runs. */
#ifndef FLASHBENCH_PROGRAMS_H
#define FLASHBENCH_PROGRAMS_H

#include <stdint.h>

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

/* Classic defaults: 16 KiB blocks, 4 MiB erase blocks, 8 tries, ... */
void test_defaults(struct test_params *t);

/* Reads per interval stride. */
#define INTERVAL_READS 32
/* Positions the align test averages over. */
#define ALIGN_POSITIONS 7

/* The align test's spacing of positions: the largest power of two S with
 * (ALIGN_POSITIONS + 1) * S <= size, capped at max_align (0: no cap). */
uint64_t align_spacing(uint64_t size, uint64_t max_align);

/* Result tree (root kids):
 *  align:     kid[i] = one alignment (unit); kid[i].kid[p] = position p;
 *             kid[i].kid[p].kid[0] = its tries (see crossing_of)
 *  interval:  kid[i] = one stride (unit), stats over its reads
 *  scatter:   kid[0].kid[0].kid[i] = position i (off), value = min of tries
 *  open-au:   kid[i] = one chunk size (unit), stats over its writes
 *  find-fat:  kid[i] = one chunk size (unit); kid[i].kid[0].kid[j] = erase
 *             block j, stats over its writes */
struct vm_op *program_align(const struct test_params *t, uint64_t spacing);
struct vm_op *program_interval(const struct test_params *t);
struct vm_op *program_scatter(const struct test_params *t);
struct vm_op *program_open_au(const struct test_params *t);
struct vm_op *program_find_fat(const struct test_params *t);

/* Crossing costs at j*A for j = 1..points and A doubling from `from` to
 * `to`: kid[i] = step A (unit); kid[i].kid[j].kid[0] = the tries around
 * (j+1)*A (see crossing_of). */
struct vm_op *program_boundary_scan(uint64_t bs, unsigned count, uint64_t from, uint64_t to, unsigned points);

/* Default open-AU offset: the first erase boundary at or above 16 MiB. */
uint64_t open_au_default_offset(uint64_t erasesize);

#endif
