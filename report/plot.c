/* plot.c — building the charts of each test (see plot.h). */
#include "report/plot.h"

#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "auto/analyze.h"
#include "prog/results.h"
#include "prog/testkind.h"
#include "saved/classic_read.h"
#include "saved/reanalyze.h"
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

static int draw(FILE *f, const struct chart *c)
{
	return svg_chart(f, c);
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

/* A write panel's title (the device and what it shows) and axes. */
static void axes(struct chart *c, const char *device, const char *what, const char *xlabel, enum axis_unit xunit,
		 const char *ylabel, enum axis_unit yunit)
{
	snprintf(c->title_buf, sizeof(c->title_buf), "%s: %s", device, what);
	c->title = c->title_buf;
	c->xlabel = xlabel;
	c->xunit = xunit;
	c->ylabel = ylabel;
	c->yunit = yunit;
}

/* The page marker says what the analysis says, no more: a step at the
 * smallest alignment measured (or one the analysis bounds from above) only
 * shows that the read unit is that size or smaller. */
static void page_marker(struct chart *c, const struct finding *page, const struct align_row *rows, size_t n)
{
	uint64_t lo = UINT64_MAX;

	if (!page->determined)
		return;
	for (size_t i = 0; i < n; i++)
		lo = rows[i].align < lo ? rows[i].align : lo;
	add_marker(c, (double)page->value, page->at_most || page->value <= lo ? "step at or below %s" :
		   "page (read unit) %s", page->value);
}

/* The align chart: diff against alignment, page and erase steps marked
 * as their findings say. */
static int align_panel(struct chart *c, struct arrays *a, const char *title, const struct align_row *rows, size_t n,
		       const struct finding *page, const struct finding *erase, const char *erase_fmt)
{
	memset(c, 0, sizeof(*c));
	if (grow(a, n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		a->x[a->n] = (double)rows[i].align;
		a->y[a->n++] = rows[i].diff;
	}
	c->title = title;
	c->xlabel = "alignment of the boundary (log scale)";
	c->ylabel = "extra time to read across it (diff)";
	c->xunit = AXIS_BYTES;
	c->yunit = AXIS_NS;
	c->xlog = 1;
	c->yzero = 1;
	snprintf(c->s[0].name, sizeof(c->s[0].name), "diff");
	c->s[0].x = a->x;
	c->s[0].y = a->y;
	c->s[0].n = a->n;
	c->ns = 1;
	page_marker(c, page, rows, n);
	if (erase->determined)
		add_marker(c, (double)erase->value, erase_fmt, erase->value);
	return 0;
}

/* An -a run's chart: its steps judged as --analyze judges the same table. */
int plot_align(FILE *f, const struct vm_result *root, const struct print_ctx *p)
{
	struct saved_align_run *run = calloc(1, sizeof(*run));
	struct finding page, erase;
	struct chart c;
	struct arrays a = { NULL, NULL, 0 };
	char title[256], bs[32];
	int rc = -1;

	if (!run)
		return -1;
	run->n = align_rows_of(root, run->rows, SAVED_ALIGN_ROWS);
	run->bs = align_blocksize(root);
	run->bs_given = 1;
	reanalyze_align_run(run, &page, &erase);
	format_size(bs, sizeof(bs), run->bs);
	snprintf(title, sizeof(title), "flashbench -%c %s: align diff, %s reads", p->kind->letter ? p->kind->letter : 'a',
		 p->device, bs);
	if (!align_panel(&c, &a, title, run->rows, run->n, &page, &erase, "step at %s (erase block?)"))
		rc = draw(f, &c);
	drop(&a, 1);
	free(run);
	return rc;
}

/* --auto's write measurements, one chart each: the write-cache burst, the
 * time per write by size, the open-AU trials, the FAT probe. */
static int burst_panel(struct chart *c, struct arrays *a, const char *device, const struct auto_report *r)
{
	memset(c, 0, sizeof(*c));
	if (grow(a, r->nburst))
		return -1;
	for (size_t i = 0; i < r->nburst; i++) {
		a->x[a->n] = (double)(i * r->burst_every + 1) * (double)r->wcache.chunk;
		a->y[a->n++] = r->burst_ns[i];
	}
	axes(c, device, "write cache, one burst from idle", "bytes of the burst written", AXIS_BYTES,
	     "time of each write (log scale)", AXIS_NS);
	c->ylog = 1;
	c->s[0] = (struct series){ .x = a->x, .y = a->y, .n = a->n, .points = 1 };
	format_size(c->s[0].name, sizeof(c->s[0].name), r->wcache.chunk);
	snprintf(c->s[0].name + strlen(c->s[0].name), sizeof(c->s[0].name) - strlen(c->s[0].name), " writes");
	c->ns = 1;
	if (r->cache_verdict == CACHE_SEEN)
		add_marker(c, (double)r->wcache.bytes, "write cache about %s", r->wcache.bytes);
	return 0;
}

static int sizes_panel(struct chart *c, struct arrays *a, const char *device, const struct auto_report *r)
{
	memset(c, 0, sizeof(*c));
	if (grow(a, r->nchunks))
		return -1;
	for (size_t i = 0; i < r->nchunks; i++) {
		a->x[a->n] = (double)r->chunks[i].size;
		a->y[a->n++] = r->chunks[i].ns;
	}
	axes(c, device, "smallest efficient write", "write size (log scale)", AXIS_BYTES,
	     "time per write, median (log scale)", AXIS_NS);
	c->xlog = 1;
	c->ylog = 1;
	c->s[0] = (struct series){ .x = a->x, .y = a->y, .n = a->n };
	snprintf(c->s[0].name, sizeof(c->s[0].name), "in fresh erase blocks");
	c->ns = 1;
	if (r->min_write.determined)
		add_marker(c, (double)r->min_write.value, "smallest efficient write %s", r->min_write.value);
	return 0;
}

static int open_panel(struct chart *c, struct arrays a[2], const char *device, const struct auto_report *r)
{
	const struct open_trial *t[2] = { r->lin, r->rnd };
	const struct finding *found[2] = { &r->open_linear, &r->open_random };
	size_t n[2] = { r->nlin, r->nrnd };
	static const char *const name[2] = { "linear", "random order" };

	memset(c, 0, sizeof(*c));
	for (int k = 0; k < 2; k++) {
		if (grow(&a[k], n[k]))
			return -1;
		for (size_t i = 0; i < n[k]; i++) {
			a[k].x[a[k].n] = t[k][i].n;
			a[k].y[a[k].n++] = t[k][i].mean_ns;
		}
		c->s[k] = (struct series){ .x = a[k].x, .y = a[k].y, .n = a[k].n, .points = 1 };
		snprintf(c->s[k].name, sizeof(c->s[k].name), "%s", name[k]);
		if (found[k]->determined && c->nm < CHART_MARKERS) {
			c->m[c->nm].x = (double)found[k]->value;
			snprintf(c->m[c->nm++].label, sizeof(c->m[0].label), "%s%llu open, %s",
				 found[k]->at_least ? "at least " : "", (unsigned long long)found[k]->value, name[k]);
		}
	}
	c->ns = 2;
	axes(c, device, "open erase blocks", "erase blocks written in turn", AXIS_PLAIN,
	     "time per write, slowest erase block (log scale)", AXIS_NS);
	c->xwhole = 1;
	c->ylog = 1;
	return 0;
}

static int fat_panel(struct chart *c, struct arrays a[FAT_KINDS], const char *device, const struct auto_report *r)
{
	static const char *const name[FAT_KINDS] = { "linear writes", "random-order writes", "small writes" };

	memset(c, 0, sizeof(*c));
	for (int k = 0; k < FAT_KINDS; k++) {
		if (grow(&a[k], r->nfat))
			return -1;
		for (size_t i = 0; i < r->nfat; i++)
			if (r->fat_probe[i].ns[k] > 0) {
				a[k].x[a[k].n] = (double)i;
				a[k].y[a[k].n++] = r->fat_probe[i].ref[k] / r->fat_probe[i].ns[k];
			}
		c->s[k] = (struct series){ .x = a[k].x, .y = a[k].y, .n = a[k].n };
		snprintf(c->s[k].name, sizeof(c->s[k].name), "%s", name[k]);
	}
	c->ns = FAT_KINDS;
	axes(c, device, "FAT area", "erase block from the start", AXIS_PLAIN,
	     "times faster than the same writes in the middle", AXIS_PLAIN);
	c->xwhole = 1;
	c->yzero = 1;
	c->yref = 1;
	c->yref_label = "as fast as in the middle";
	if (r->fat.determined && r->fat.value && c->nm < CHART_MARKERS) {
		c->m[c->nm].x = (double)r->fat.value - 0.5;
		snprintf(c->m[c->nm++].label, sizeof(c->m[0].label), "FAT area: %llu erase block%s",
			 (unsigned long long)r->fat.value, r->fat.value == 1 ? "" : "s");
	}
	return 0;
}

int plot_auto(FILE *f, const char *what, const char *device, const struct auto_report *r)
{
	static struct chart c[5];   /* large: one figure at a time */
	const struct chart *all[5] = { &c[0], &c[1], &c[2], &c[3], &c[4] };
	struct arrays a[9];
	char title[256], bs[32];
	int rc;

	memset(a, 0, sizeof(a));
	format_size(bs, sizeof(bs), r->bs ? r->bs : 1024);
	snprintf(title, sizeof(title), "flashbench %s %s: align diff, %s reads", what, device, bs);
	rc = align_panel(&c[0], &a[0], title, r->rows, r->nrows, &r->page, &r->erase, "erase block %s") ||
	     burst_panel(&c[1], &a[1], device, r) || sizes_panel(&c[2], &a[2], device, r) ||
	     open_panel(&c[3], &a[3], device, r) || fat_panel(&c[4], &a[5], device, r)
		     ? -1 : svg_figure(f, all, 5);
	drop(a, 9);
	return rc;
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
	snprintf(title, sizeof(title), "flashbench -%c %s: read time by offset", p->kind->letter ? p->kind->letter : 's',
		 p->device);
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
			snprintf(c.s[j].name, sizeof(c.s[j].name), "read throughput");
	}
	c.ns = (int)cols;
	snprintf(title, sizeof(title), "flashbench -%c %s: %s", p->kind->letter ? p->kind->letter : '?', p->device,
		 fat ? "write throughput of each erase block" : interval ? "read time by stride" :
		 p->kind->writes ? "write throughput by chunk size" : "read throughput by request size");
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

/* The open-au tables read by --analyze (one line each) when no sweep gave
 * trials (open: a single run, a table of cards), else the first find-fat
 * table (one line per erase block). */
static int tables_panel(struct chart *c, struct arrays *a, const char *source, const struct saved_text *t, int open)
{
	int fat = !open || !t->nopen;
	size_t n = fat ? (t->nfat ? t->fat[0].nblocks : 0) : t->nopen;

	memset(c, 0, sizeof(*c));
	if (n > CHART_SERIES)
		n = CHART_SERIES;
	for (size_t j = 0; j < n; j++) {
		size_t rows = fat ? t->fat[0].n : t->open[j].n;
		if (grow(&a[j], rows))
			return -1;
		for (size_t i = 0; i < rows; i++) {
			a[j].x[a[j].n] = (double)(fat ? t->fat[0].size[i] : t->open[j].size[i]);
			a[j].y[a[j].n++] = fat ? t->fat[0].rate[i][j] : t->open[j].rate[i];
		}
		c->s[j] = (struct series){ .x = a[j].x, .y = a[j].y, .n = a[j].n };
		if (fat)
			snprintf(c->s[j].name, sizeof(c->s[j].name), "erase block %zu", j);
		else if (t->open[j].column)
			snprintf(c->s[j].name, sizeof(c->s[j].name), "%.40s", t->open[j].card[0] ? t->open[j].card : "column");
		else
			snprintf(c->s[j].name, sizeof(c->s[j].name), "line %u: %u open%s", t->open[j].line, t->open[j].nr,
				 t->open[j].random ? ", random" : "");
	}
	c->ns = (int)n;
	axes(c, source, fat ? "the find-fat table" : "the open-au tables", "chunk size (log scale)", AXIS_BYTES,
	     "write throughput (log scale)", AXIS_RATE);
	c->xlog = 1;
	c->ylog = 1;
	return 0;
}

int plot_saved(FILE *f, const char *source, const struct saved_text *t, const struct auto_report *r)
{
	static struct chart c[3];   /* large: one figure at a time */
	const struct chart *all[3] = { &c[0], &c[1], &c[2] };
	struct arrays a[3 + CHART_SERIES];
	char title[256], bs[32];
	int rc;

	memset(a, 0, sizeof(a));
	format_size(bs, sizeof(bs), r->bs ? r->bs : 1024);
	snprintf(title, sizeof(title), "flashbench --analyze %s: align diff, %s reads", source, bs);
	rc = align_panel(&c[0], &a[0], title, r->rows, r->nrows, &r->page, &r->erase, "erase block %s") ||
	     open_panel(&c[1], &a[1], source, r) || tables_panel(&c[2], &a[3], source, t, !r->nlin && !r->nrnd)
		     ? -1 : svg_figure(f, all, 3);
	drop(a, 3 + CHART_SERIES);
	return rc;
}
