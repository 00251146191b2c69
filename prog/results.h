/* results.h — the shape of the built-in tests' result trees, known here
 * only: named accessors for the rows, positions and erase blocks that the
 * output (text, JSON, plots) and the analysis read, the align reductions
 * (crossing_of, align_row_of), and the check that a program's result tree
 * has the shape its output format reads. */
#ifndef FLASHBENCH_RESULTS_H
#define FLASHBENCH_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "vm.h"

/* Result trees (root kids):
 *  align:     kid[i] = one alignment (unit); kid[i].kid[p] = position p;
 *             kid[i].kid[p].kid[0] = its tries (see crossing_of)
 *  interval:  kid[i] = one stride (unit), stats over its reads
 *  scatter:   kid[0].kid[0].kid[i] = position i (off), value = min of tries
 *  open-au:   kid[i] = one chunk size (unit), stats over its writes
 *  find-fat:  kid[i] = one chunk size (unit); kid[i].kid[0].kid[j] = erase
 *             block j, stats over its writes
 *  boundary scan (--auto): kid[i] = step A (unit); kid[i].kid[j].kid[0] =
 *             the tries around (j+1)*A */

/* The first kid, depth levels down (stops early at a leaf). */
const struct vm_result *result_descend(const struct vm_result *r, int depth);

/* The node whose kids are an output format's rows, rows_depth levels below
 * the root along first kids (1: the root itself); NULL when the tree does
 * not reach that deep. */
struct vm_result *result_rows(struct vm_result *root, unsigned rows_depth);
/* Keep only the first n rows (those completed before a run stopped): the
 * rest are freed. */
void result_keep_rows(struct vm_result *root, unsigned rows_depth, size_t n);

/* scatter: the node whose kids are the positions (NULL if none) */
const struct vm_result *scatter_points(const struct vm_result *root);
/* find-fat: the node of one chunk size whose kids are the erase blocks
 * (NULL if none); the number of erase blocks in the first row */
const struct vm_result *fat_blocks(const struct vm_result *row);
size_t fat_columns(const struct vm_result *root);

/* The align figures of one row, shared with the analysis: pre, on and post
 * are the best of the tries, averaged over the positions. */
struct align_row {
	unsigned long long align;
	double pre, on, post, diff;
	struct vm_stats leg[3];     /* every pre, on and post read */
};
void align_row_of(const struct vm_result *row, struct align_row *out);
/* Up to max rows of an align tree; returns how many. */
size_t align_rows_of(const struct vm_result *root, struct align_row *rows, size_t max);
/* The block size of an align tree's reads: the length of its first read
 * (0 when empty). */
uint64_t align_blocksize(const struct vm_result *root);

/* The tries around one boundary (a repeat node whose kids are sequences of
 * the reads labelled pre, on and post, in any order): the best time of each
 * of the three reads (best[0] pre, [1] on, [2] post), and their stats. */
void crossing_of(const struct vm_result *tries, double best[3], struct vm_stats leg[3]);

/* What an output format reads: results kept keep_depth levels deep along
 * the first operation of each body, the deepest kept one with at least
 * last_kids operations in its body; unit_rows: the top operation loops over
 * a unit (unit-halve or unit-double) that gives each row its size. */
struct result_shape {
	unsigned keep_depth, last_kids;
	int unit_rows;
};
/* Does the program's result tree have that shape?  A usage error naming
 * file and format if not. */
int result_shape_check(const struct vm_op *prog, const struct result_shape *s, const char *file,
		       const char *format, struct fb_err *e);

#endif
