/* plot.c — building the charts of each test (see plot.h). */
#include "plot.h"

#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "report.h"
#include "svg.h"
#include "units.h"

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
	rc = svg_chart(f, &c);
	drop(&a, 1);
	return rc;
}

static int plot_align(FILE *f, const char *device, const struct vm_result *root)
{
	struct align_row *rows = calloc(root->nkid + 1, sizeof(*rows));
	struct read_levels lv;
	struct finding page;
	char title[256], bs[32];
	uint64_t step;
	int rc;

	if (!rows)
		return -1;
	for (size_t i = 0; i < root->nkid; i++)
		align_row_of(&root->kid[i], &rows[i]);
	analyze_page(rows, root->nkid, 0, NULL, 0, 0, &page, &lv);
	step = align_upper_step(rows, root->nkid, &lv);
	format_size(bs, sizeof(bs), root->nkid && root->kid[0].nkid ? root->kid[0].kid[0].len : 0);
	snprintf(title, sizeof(title), "flashbench -a %s (%s reads)", device, bs);
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

static int plot_scatter(FILE *f, const char *device, const struct vm_result *root)
{
	const struct vm_result *pos = root->nkid && root->kid[0].nkid ? &root->kid[0].kid[0] : NULL;
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
	snprintf(title, sizeof(title), "flashbench -s %s", device);
	c.title = title;
	c.xlabel = "offset (MiB)";
	c.ylabel = "read time (best of the tries)";
	c.xunit = AXIS_PLAIN;
	c.yunit = AXIS_NS;
	c.s[0] = (struct series){ .x = a.x, .y = a.y, .n = a.n, .points = 1 };
	snprintf(c.s[0].name, sizeof(c.s[0].name), "read time");
	c.ns = 1;
	rc = svg_chart(f, &c);
	drop(&a, 1);
	return rc;
}

/* One series per column: open-au has one (the run), find-fat one per erase
 * block, interval one (average read time). */
static int plot_rows(FILE *f, const char *test, const char *device, const struct vm_result *root, int random_order,
		     unsigned nr)
{
	int fat = !strcmp(test, "find-fat"), interval = !strcmp(test, "interval");
	size_t cols = fat ? (root->nkid && root->kid[0].nkid ? root->kid[0].kid[0].nkid : 0) : 1;
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
			const struct vm_result *r = fat ? &root->kid[i].kid[0].kid[j] : &root->kid[i];
			if (fat && !(root->kid[i].nkid && j < root->kid[i].kid[0].nkid))
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
		else
			snprintf(c.s[j].name, sizeof(c.s[j].name), "%u erase block%s%s", nr, nr == 1 ? "" : "s",
				 random_order ? ", random" : "");
	}
	c.ns = (int)cols;
	snprintf(title, sizeof(title), "flashbench %s %s", fat ? "-f" : interval ? "-i" : "-O", device);
	c.title = title;
	c.xlabel = interval ? "stride (log scale)" : "chunk size (log scale)";
	c.ylabel = interval ? "read time" : "write throughput (log scale)";
	c.xunit = AXIS_BYTES;
	c.yunit = interval ? AXIS_NS : AXIS_RATE;
	c.xlog = 1;
	c.ylog = !interval;
	c.yzero = 1;
	rc = svg_chart(f, &c);
	drop(a, cols);
	return rc;
}

int plot_test(FILE *f, const char *test, const char *device, const struct vm_result *root, int random_order,
	      unsigned open_au_nr)
{
	if (!strcmp(test, "align"))
		return plot_align(f, device, root);
	if (!strcmp(test, "scatter"))
		return plot_scatter(f, device, root);
	if (!strcmp(test, "open-au") || !strcmp(test, "find-fat") || !strcmp(test, "interval"))
		return plot_rows(f, test, device, root, random_order, open_au_nr);
	return -1;
}
