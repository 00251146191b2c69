/* report.c — classic text output of the tests (see report.h). */
#include "report/report.h"

#include "prog/results.h"
#include "prog/testkind.h"
#include "lib/units.h"

void report_rows(FILE *f, const struct vm_result *root, const struct print_ctx *p)
{
	const struct vm_result *rows = result_rows((struct vm_result *)root, p->kind->row_depth);

	for (size_t i = 0; rows && i < rows->nkid; i++)
		p->kind->row(f, &rows->kid[i], p);
}

void report_align_row(FILE *f, const struct vm_result *row, const struct print_ctx *p)
{
	struct align_row r;
	char pre[32], on[32], post[32], diff[32];

	(void)p;
	align_row_of(row, &r);
	format_time(pre, sizeof(pre), r.pre);
	format_time(on, sizeof(on), r.on);
	format_time(post, sizeof(post), r.post);
	format_time(diff, sizeof(diff), r.diff);
	fprintf(f, "align %llu\tpre %s\ton %s\tpost %s\tdiff %s\n", r.align, pre, on, post, diff);
}

static void latency(FILE *f, const struct vm_stats *st)
{
	char mn[32], av[32], mx[32];

	format_time(mn, sizeof(mn), (double)st->min_ns);
	format_time(av, sizeof(av), st->count ? st->total_ns / (double)st->count : 0);
	format_time(mx, sizeof(mx), (double)st->max_ns);
	fprintf(f, "\tmin %s\tavg %s\tmax %s", mn, av, mx);
}

/* One row per request size: "PREFIX4MiB\t8.79M/s", with the latencies
 * when asked. */
static void rate_row(FILE *f, const char *prefix, const struct vm_result *r, int latencies)
{
	char size[32], rate[32];

	format_size(size, sizeof(size), r->unit);
	format_rate(rate, sizeof(rate), vm_throughput(r));
	fprintf(f, "%s%s\t%s", prefix, size, rate);
	if (latencies)
		latency(f, &r->st);
	fputc('\n', f);
}

void report_interval_row(FILE *f, const struct vm_result *row, const struct print_ctx *p)
{
	(void)p;
	rate_row(f, "interval ", row, 1);
}

void report_scatter_row(FILE *f, const struct vm_result *row, const struct print_ctx *p)
{
	(void)p;
	fprintf(f, "%.6g\t%.6g\n", (double)row->off / (1 << 20), row->value / 1e6);
}

void report_rates_row(FILE *f, const struct vm_result *row, const struct print_ctx *p)
{
	rate_row(f, "", row, p->verbose);
}

void report_find_fat_row(FILE *f, const struct vm_result *row, const struct print_ctx *p)
{
	const struct vm_result *aus = fat_blocks(row);
	char size[32], rate[32];

	format_size(size, sizeof(size), row->unit);
	fputs(size, f);
	for (size_t j = 0; aus && j < aus->nkid; j++) {
		format_rate(rate, sizeof(rate), vm_throughput(&aus->kid[j]));
		fprintf(f, "\t%s", rate);
	}
	fputc('\n', f);
	for (size_t j = 0; p->verbose && aus && j < aus->nkid; j++) {
		fprintf(f, "#\terase block %zu", j);
		latency(f, &aus->kid[j].st);
		fputc('\n', f);
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

void report_tree(FILE *f, const struct vm_result *root, const struct print_ctx *p)
{
	(void)p;
	tree_node(f, root, 0);
}
