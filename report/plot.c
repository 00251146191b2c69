/* plot.c — building the charts of each test (see plot.h). */
#include "report/plot.h"

#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "auto/analyze.h"
#include "prog/results.h"
#include "prog/testkind.h"
#include "lib/svg.h"
#include "lib/units.h"

struct arrays {
	double *x, *y;
	size_t n;
};

static int grow(struct arrays *a, size_t n)
{
	a->x = calloc(n ? n : 1, sizeof(double));
	a->y = calloc(n ? n : 1, sizeof(double));
	a->n = 0;
	return a->x && a->y ? 0 : -1;
}

static void drop(struct arrays *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(a[i].x);
		free(a[i].y);
	}
}

/* Is there something to draw: at least one finite point, positive on a
 * log axis?  (An empty or degenerate chart has no scale.) */
static int draw(FILE *f, const struct chart *c)
{
	for (int i = 0; i < c->ns; i++)
		for (size_t k = 0; k < c->s[i].n; k++) {
			double x = c->s[i].x[k], y = c->s[i].y[k];
			if (isfinite(x) && isfinite(y) && (!c->xlog || x > 0) && (!c->ylog || y > 0))
				return svg_chart(f, c);
		}
	return -1;
}

static void add_marker(struct chart *c, double x, const char *fmt, uint64_t v)
{
	char sz[32];

	if (c->nm >= CHART_MARKERS || !v)
		return;
	format_size(sz, sizeof(sz), v);
	c->m[c->nm].x = x;
	snprintf(c->m[c->nm].label, sizeof(c->m[0].label), fmt, sz);
	c->nm++;
}

static int align_chart(FILE *f, const char *title, const struct align_row *rows, size_t n, uint64_t page,
		       uint64_t erase, const char *erase_fmt)
{
	struct chart c;
	struct arrays a;
	int rc;

	memset(&c, 0, sizeof(c));
	if (grow(&a, n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		a.x[a.n] = (double)rows[i].align;
		a.y[a.n++] = rows[i].diff;
	}
	c.title = title;
	c.xlabel = "alignment of the boundary (log scale)";
	c.ylabel = "extra time to read across it (diff)";
	c.xunit = AXIS_BYTES;
	c.yunit = AXIS_NS;
	c.xlog = 1;
	c.yzero = 1;
	snprintf(c.s[0].name, sizeof(c.s[0].name), "diff");
	c.s[0].x = a.x;
	c.s[0].y = a.y;
	c.s[0].n = a.n;
	c.ns = 1;
	add_marker(&c, (double)page, "page (read unit) %s", page);
	add_marker(&c, (double)erase, erase_fmt, erase);
	rc = draw(f, &c);
	drop(&a, 1);
	return rc;
}

int plot_align(FILE *f, const struct vm_result *root, const struct print_ctx *p)
{
	struct align_row *rows = calloc(root->nkid + 1, sizeof(*rows));
	struct read_levels lv;
	struct finding page;
	char title[256], bs[32];
	uint64_t step;
	int rc;

	if (!rows)
		return -1;
	align_rows_of(root, rows, root->nkid);
	analyze_page(rows, root->nkid, 0, NULL, 0, 0, &page, &lv);
	step = align_upper_step(rows, root->nkid, &lv);
	format_size(bs, sizeof(bs), align_blocksize(root));
	snprintf(title, sizeof(title), "flashbench -%c %s (%s reads)", p->kind->letter, p->device, bs);
	rc = align_chart(f, title, rows, root->nkid, page.determined ? page.value : 0, step,
			 "step at %s (erase block?)");
	free(rows);
	return rc;
}

int plot_auto(FILE *f, const char *device, const struct auto_report *r)
{
	char title[256];

	snprintf(title, sizeof(title), "flashbench --auto %s: align diff, 1KiB reads", device);
	return align_chart(f, title, r->rows, r->nrows, r->page.determined ? r->page.value : 0,
			   r->erase.determined ? r->erase.value : 0, "erase block %s");
}

int plot_scatter(FILE *f, const struct vm_result *root, const struct print_ctx *p)
{
	const struct vm_result *pos = scatter_points(root);
	struct chart c;
	struct arrays a;
	char title[256];
	int rc;

	if (!pos || grow(&a, pos->nkid))
		return -1;
	memset(&c, 0, sizeof(c));
	for (size_t i = 0; i < pos->nkid; i++) {
		a.x[a.n] = (double)pos->kid[i].off / (1 << 20);
		a.y[a.n++] = pos->kid[i].value;
	}
	snprintf(title, sizeof(title), "flashbench -%c %s", p->kind->letter, p->device);
	c.title = title;
	c.xlabel = "offset (MiB)";
	c.ylabel = "read time (best of the tries)";
	c.xunit = AXIS_PLAIN;
	c.yunit = AXIS_NS;
	c.s[0] = (struct series){ .x = a.x, .y = a.y, .n = a.n, .points = 1 };
	snprintf(c.s[0].name, sizeof(c.s[0].name), "read time");
	c.ns = 1;
	rc = draw(f, &c);
	drop(&a, 1);
	return rc;
}

/* One series per column: open-au has one (the run), find-fat one per erase
 * block, interval one (average read time). */
enum rows_style { ROWS_WRITES, ROWS_FAT, ROWS_INTERVAL };

static int plot_rows(FILE *f, enum rows_style style, const struct vm_result *root, const struct print_ctx *p)
{
	int fat = style == ROWS_FAT, interval = style == ROWS_INTERVAL, random_order = p->t->random;
	unsigned nr = p->t->open_au_nr;
	size_t cols = fat ? fat_columns(root) : 1;
	struct arrays a[CHART_SERIES];
	struct chart c;
	char title[256];
	int rc;

	if (cols > CHART_SERIES)
		cols = CHART_SERIES;
	memset(&c, 0, sizeof(c));
	for (size_t j = 0; j < cols; j++)
		if (grow(&a[j], root->nkid)) {
			drop(a, j + 1);
			return -1;
		}
	for (size_t i = 0; i < root->nkid; i++)
		for (size_t j = 0; j < cols; j++) {
			const struct vm_result *aus = fat ? fat_blocks(&root->kid[i]) : NULL;
			const struct vm_result *r = fat ? (aus && j < aus->nkid ? &aus->kid[j] : NULL) : &root->kid[i];
			if (!r)
				continue;
			a[j].x[a[j].n] = (double)root->kid[i].unit;
			a[j].y[a[j].n++] = interval ? (r->st.count ? r->st.total_ns / (double)r->st.count : 0)
						    : vm_throughput(r);
		}
	for (size_t j = 0; j < cols; j++) {
		c.s[j] = (struct series){ .x = a[j].x, .y = a[j].y, .n = a[j].n };
		if (fat)
			snprintf(c.s[j].name, sizeof(c.s[j].name), "erase block %zu", j);
		else if (interval)
			snprintf(c.s[j].name, sizeof(c.s[j].name), "average read");
		else if (p->kind->writes)
			snprintf(c.s[j].name, sizeof(c.s[j].name), "%u erase block%s%s", nr, nr == 1 ? "" : "s",
				 random_order ? ", random" : "");
		else
			snprintf(c.s[j].name, sizeof(c.s[j].name), "%s", p->kind->name);
	}
	c.ns = (int)cols;
	snprintf(title, sizeof(title), "flashbench -%c %s", p->kind->letter, p->device);
	c.title = title;
	c.xlabel = interval ? "stride (log scale)" : p->kind->writes ? "chunk size (log scale)" : "request size (log scale)";
	c.ylabel = interval ? "read time" : p->kind->writes ? "write throughput (log scale)" : "read throughput (log scale)";
	c.xunit = AXIS_BYTES;
	c.yunit = interval ? AXIS_NS : AXIS_RATE;
	c.xlog = 1;
	c.ylog = !interval;
	c.yzero = 1;
	rc = draw(f, &c);
	drop(a, cols);
	return rc;
}

int plot_interval(FILE *f, const struct vm_result *root, const struct print_ctx *p)
{
	return plot_rows(f, ROWS_INTERVAL, root, p);
}

int plot_rates(FILE *f, const struct vm_result *root, const struct print_ctx *p)
{
	return plot_rows(f, ROWS_WRITES, root, p);
}

int plot_find_fat(FILE *f, const struct vm_result *root, const struct print_ctx *p)
{
	return plot_rows(f, ROWS_FAT, root, p);
}
