/* report.c — classic text output of the tests (see report.h). */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "units.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
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
			if ((size_t)k >= seq->nkid)
				continue;
			if (v)
				v[got++] = seq->kid[k].value;
			if (leg)
				vm_stats_add(&leg[k], &seq->kid[k].st);
		}
		if (!got)
			continue;
		qsort(v, got, sizeof(*v), cmp_double);
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
		crossing_of(&row->kid[p].kid[0], best, out->leg);
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

void report_align(FILE *f, const struct vm_result *root)
{
	for (size_t i = 0; i < root->nkid; i++) {
		struct align_row r;
		char pre[32], on[32], post[32], diff[32];

		align_row_of(&root->kid[i], &r);
		format_time(pre, sizeof(pre), r.pre);
		format_time(on, sizeof(on), r.on);
		format_time(post, sizeof(post), r.post);
		format_time(diff, sizeof(diff), r.diff);
		fprintf(f, "align %llu\tpre %s\ton %s\tpost %s\tdiff %s\n", r.align, pre, on, post, diff);
	}
}

static void latency(FILE *f, const struct vm_stats *st)
{
	char mn[32], av[32], mx[32];

	format_time(mn, sizeof(mn), (double)st->min_ns);
	format_time(av, sizeof(av), st->count ? st->total_ns / (double)st->count : 0);
	format_time(mx, sizeof(mx), (double)st->max_ns);
	fprintf(f, "\tmin %s\tavg %s\tmax %s", mn, av, mx);
}

void report_interval(FILE *f, const struct vm_result *root)
{
	for (size_t i = 0; i < root->nkid; i++) {
		const struct vm_result *r = &root->kid[i];
		char size[32], rate[32];

		format_size(size, sizeof(size), r->unit);
		format_rate(rate, sizeof(rate), vm_throughput(r));
		fprintf(f, "interval %s\t%s", size, rate);
		latency(f, &r->st);
		fputc('\n', f);
	}
}

void report_scatter(FILE *f, const struct vm_result *root)
{
	const struct vm_result *pos = root->nkid && root->kid[0].nkid ? &root->kid[0].kid[0] : NULL;

	for (size_t i = 0; pos && i < pos->nkid; i++)
		fprintf(f, "%.6g\t%.6g\n", (double)pos->kid[i].off / (1 << 20), pos->kid[i].value / 1e6);
}

void report_open_au(FILE *f, const struct vm_result *root, int verbose)
{
	for (size_t i = 0; i < root->nkid; i++) {
		const struct vm_result *r = &root->kid[i];
		char size[32], rate[32];

		format_size(size, sizeof(size), r->unit);
		format_rate(rate, sizeof(rate), vm_throughput(r));
		fprintf(f, "%s\t%s", size, rate);
		if (verbose)
			latency(f, &r->st);
		fputc('\n', f);
	}
}

void report_find_fat(FILE *f, const struct vm_result *root, int verbose)
{
	for (size_t i = 0; i < root->nkid; i++) {
		const struct vm_result *r = &root->kid[i];
		const struct vm_result *aus = r->nkid ? &r->kid[0] : NULL;
		char size[32], rate[32];

		format_size(size, sizeof(size), r->unit);
		fputs(size, f);
		for (size_t j = 0; aus && j < aus->nkid; j++) {
			format_rate(rate, sizeof(rate), vm_throughput(&aus->kid[j]));
			fprintf(f, "\t%s", rate);
		}
		fputc('\n', f);
		for (size_t j = 0; verbose && aus && j < aus->nkid; j++) {
			fprintf(f, "#\terase block %zu", j);
			latency(f, &aus->kid[j].st);
			fputc('\n', f);
		}
	}
}

static void tree_node(FILE *f, const struct vm_result *r, int depth)
{
	char unit[32], value[32], rate[32];

	format_size(unit, sizeof(unit), r->unit);
	format_time(value, sizeof(value), r->value);
	format_rate(rate, sizeof(rate), vm_throughput(r));
	fprintf(f, "%*s%s%s%s unit=%s off=%llu len=%llu\t%s\t%s", 2 * depth, "", vm_opcode_name(r->op->code),
		r->op->label ? " " : "", r->op->label ? r->op->label : "", unit, (unsigned long long)r->off,
		(unsigned long long)r->len, value, rate);
	latency(f, &r->st);
	fputc('\n', f);
	for (size_t i = 0; i < r->nkid; i++)
		tree_node(f, &r->kid[i], depth + 1);
}

void report_tree(FILE *f, const struct vm_result *root)
{
	tree_node(f, root, 0);
}
