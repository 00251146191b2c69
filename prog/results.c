/* results.c — the result trees' shapes and reductions (see results.h). */
#include "prog/results.h"

#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"

const struct vm_result *result_descend(const struct vm_result *r, int depth)
{
	while (depth-- > 0 && r && r->nkid)
		r = &r->kid[0];
	return r;
}

struct vm_result *result_rows(struct vm_result *root, unsigned rows_depth)
{
	struct vm_result *r = root;

	for (unsigned d = 1; r && d < rows_depth; d++)
		r = r->nkid ? &r->kid[0] : NULL;
	return r;
}

void result_keep_rows(struct vm_result *root, unsigned rows_depth, size_t n)
{
	struct vm_result *rows = result_rows(root, rows_depth);

	while (rows && rows->nkid > n) {
		struct vm_result *last = &rows->kid[--rows->nkid];
		for (size_t i = 0; i < last->nkid; i++)
			result_keep_rows(&last->kid[i], 1, 0);
		free(last->kid);
		last->kid = NULL;
		last->nkid = 0;
	}
}

const struct vm_result *scatter_points(const struct vm_result *root)
{
	return root->nkid && root->kid[0].nkid ? &root->kid[0].kid[0] : NULL;
}

const struct vm_result *fat_blocks(const struct vm_result *row)
{
	return row->nkid ? &row->kid[0] : NULL;
}

size_t fat_columns(const struct vm_result *root)
{
	const struct vm_result *aus = root->nkid ? fat_blocks(&root->kid[0]) : NULL;

	return aus ? aus->nkid : 0;
}

uint64_t align_blocksize(const struct vm_result *root)
{
	const struct vm_result *r = root;

	/* the length of the first read: the leaf below the first kids (the
	 * nodes above it have not set len yet) */
	while (r->nkid)
		r = &r->kid[0];
	return r != root ? r->len : 0;
}

/* Which read of a try is pre (0), on (1) or post (2): found by its label,
 * so a program may read them in any order; unlabelled reads count in the
 * order pre, on, post. */
static int leg_index(const struct vm_result *seq, int k)
{
	static const char *const name[3] = { "pre", "on", "post" };

	for (size_t i = 0; i < seq->nkid; i++) {
		const char *label = seq->kid[i].op ? seq->kid[i].op->label : NULL;
		if (label && !strcmp(label, name[k]))
			return (int)i;
	}
	return (size_t)k < seq->nkid ? k : -1;
}

/* Each read's figure is the mean of its fastest quarter of tries (at least
 * one): interrupts and housekeeping only ever add time, and on a real loop
 * device this varied about half as much from run to run as the single
 * fastest try (bench/RESULTS.md, "Repeatability"). */
void crossing_of(const struct vm_result *tries, double best[3], struct vm_stats leg[3])
{
	size_t n = tries->nkid, m = (n + 3) / 4;
	double *v = malloc((n ? n : 1) * sizeof(*v));

	for (int k = 0; k < 3; k++) {
		size_t got = 0;
		best[k] = 0;
		for (size_t t = 0; t < n; t++) {
			const struct vm_result *seq = &tries->kid[t];
			int i = leg_index(seq, k);
			if (i < 0)
				continue;
			if (v)
				v[got++] = seq->kid[i].value;
			if (leg)
				vm_stats_add(&leg[k], &seq->kid[i].st);
		}
		if (!got)
			continue;
		qsort(v, got, sizeof(*v), stats_cmp_double);
		if (m > got)
			m = got;
		for (size_t i = 0; i < m; i++)
			best[k] += v[i];
		best[k] /= (double)m;
	}
	free(v);
}

void align_row_of(const struct vm_result *row, struct align_row *out)
{
	double sum[3] = { 0, 0, 0 };
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	out->align = (unsigned long long)row->unit;
	for (size_t p = 0; p < row->nkid; p++) {
		double best[3];
		if (!row->kid[p].nkid)
			continue;
		crossing_of(result_descend(&row->kid[p], 1), best, out->leg);
		for (int k = 0; k < 3; k++)
			sum[k] += best[k];
		n++;
	}
	if (n) {
		out->pre = sum[0] / (double)n;
		out->on = sum[1] / (double)n;
		out->post = sum[2] / (double)n;
	}
	out->diff = out->on - (out->pre + out->post) / 2;
}

size_t align_rows_of(const struct vm_result *root, struct align_row *rows, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < root->nkid && n < max; i++)
		align_row_of(&root->kid[i], &rows[n++]);
	return n;
}

int result_shape_check(const struct vm_op *prog, const struct result_shape *s, const char *file,
		       const char *format, struct fb_err *e)
{
	const struct vm_op *op = prog;

	if (s->unit_rows && op->code != VM_UNIT_HALVE && op->code != VM_UNIT_DOUBLE)
		return fb_fail(e, EXIT_USAGE, "%s: the '%s' format needs the outermost operation to be unit-halve or "
			       "unit-double (one row per size), not '%s' (the built-in programs show how: PROGRAM FILES "
			       "in man flashbench)", file, format,
			       vm_opcode_name(op->code));
	for (unsigned level = 1; level <= s->keep_depth; level++) {
		unsigned want = level == s->keep_depth ? s->last_kids : 1;
		if (!(op->flags & VM_KEEP) || op->nbody < want)
			return fb_fail(e, EXIT_USAGE, "%s: the '%s' format reads results kept %u levels deep, but "
				       "'%s' at level %u %s (the built-in programs show how: PROGRAM FILES in man "
				       "flashbench)", file, format, s->keep_depth,
				       vm_opcode_name(op->code), level,
				       !(op->flags & VM_KEEP) ? "is not marked 'keep'" : "has too few operations below it");
		op = op->body[0];
	}
	return 0;
}
