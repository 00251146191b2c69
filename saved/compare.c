/* compare.c — --compare (see compare.h): reads saved JSON results with
 * json_read.c into one table of rows (a title and one cell per card), marks
 * the rows whose cells differ, and prints the table as text, JSON or a
 * chart.  What each kind of result contributes is written down in tables
 * (fields, tables) below. */
#include "saved/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/json.h"
#include "lib/json_read.h"
#include "lib/svg.h"
#include "lib/units.h"
#include "saved/saved_json.h"

#define CARDS_MAX 16
#define ROWS_MAX 160

enum cell_kind { K_STRING, K_BYTES, K_COUNT, K_RATE, K_TIME, K_FINDING, K_WRITE_SPEED };

struct cell {
	char text[64];
	double value;              /* NAN when there is none */
	const char *conf;          /* findings: "high", ... (NULL otherwise) */
};

struct row {
	char key[48], title[64];
	enum cell_kind kind;       /* of the values */
	int plot;                  /* the --auto chart's panel it is drawn in (0: none) */
	struct cell cell[CARDS_MAX];
	int differ;
};

struct table {
	const char *test;
	int ncards;
	const char *file[CARDS_MAX];
	char label[CARDS_MAX][64];
	struct json_value *root[CARDS_MAX];
	struct row row[ROWS_MAX];
	int nrows;
	double key[ROWS_MAX];      /* classic tables: each row's key (alignment, chunk, ...) */
};

/* The fields shown as rows: an --auto result's findings, or the parameters
 * shown above a classic test's table (when any result has them).  The
 * --auto chart has a panel for each kind of value, so that bytes, counts
 * and bytes per second never share an axis. */
enum { FOR_AUTO = 1, FOR_TABLE = 2 };
enum { PANEL_SIZES = 1, PANEL_COUNTS, PANEL_SPEEDS, PANELS = PANEL_SPEEDS };
static const struct panel {
	const char *title, *ylabel;
	enum axis_unit unit;
	int log;
} panels[PANELS + 1] = {
	[PANEL_SIZES] = { "sizes", "bytes (log scale)", AXIS_BYTES, 1 },
	[PANEL_COUNTS] = { "counts", "erase blocks", AXIS_PLAIN, 0 },
	[PANEL_SPEEDS] = { "speed", "bytes per second", AXIS_RATE, 0 },
};
static const struct field {
	const char *key, *title, *path;
	enum cell_kind kind;
	int plot;                  /* the --auto chart's panel (PANEL_*) it is drawn in, or 0 */
	int used;                  /* FOR_AUTO, FOR_TABLE or both */
} fields[] = {
	/* every result */
	{ "device", "device", "device.path", K_STRING, 0, FOR_AUTO | FOR_TABLE },
	{ "size", "size", "device.size", K_BYTES, 0, FOR_AUTO | FOR_TABLE },
	/* --auto: the findings */
	{ "page", "page size (read unit)", "findings.page", K_FINDING, PANEL_SIZES, FOR_AUTO },
	{ "erase_block", "erase block size", "findings.erase_block", K_FINDING, PANEL_SIZES, FOR_AUTO },
	{ "min_write", "smallest efficient write", "findings.min_write", K_FINDING, PANEL_SIZES, FOR_AUTO },
	{ "open_linear", "open erase blocks, linear", "findings.open_linear", K_FINDING, PANEL_COUNTS, FOR_AUTO },
	{ "open_random", "open erase blocks, random order", "findings.open_random", K_FINDING, PANEL_COUNTS, FOR_AUTO },
	{ "fat_area", "FAT-optimised erase blocks", "findings.fat_area", K_FINDING, PANEL_COUNTS, FOR_AUTO },
	{ "write_speed", "write speed (largest writes)", "measurements.write_sizes", K_WRITE_SPEED, PANEL_SPEEDS,
	  FOR_AUTO },
	{ "partition_start", "partition start", "recommendations.partition_start", K_BYTES, 0, FOR_AUTO },
	/* the classic tests: their parameters */
	{ "blocksize", "block size", "parameters.blocksize", K_BYTES, 0, FOR_TABLE },
	{ "erasesize", "erase size", "parameters.erasesize", K_BYTES, 0, FOR_TABLE },
	{ "open_au_nr", "open erase blocks written", "parameters.open_au_nr", K_COUNT, 0, FOR_TABLE },
	{ "random", "random order", "parameters.random", K_STRING, 0, FOR_TABLE },
};

/* The classic tests' tables: one row per key (alignment, stride, chunk). */
static const struct table_kind {
	const char *test, *key, *value, *value_title;
	enum cell_kind value_kind;
	const char *xlabel, *ylabel;    /* the chart's axes */
} tables[] = {
	{ "align", "align", "diff_ns", "diff", K_TIME, "alignment of the boundary (log scale)",
	  "extra time to read across it (diff)" },
	{ "interval", "stride", "min_ns", "time", K_TIME, "stride (log scale)", "read time (fastest)" },
	{ "open-au", "chunk", "bytes_per_second", "throughput", K_RATE, "chunk size (log scale)",
	  "write throughput (log scale)" },
};

/* A number read from a result must be one its field can hold: finite, and
 * for a size a whole number of bytes from 0 below 2^63. */
static int sane_number(const struct json_value *v, enum cell_kind kind, const char *file, const char *path,
		       struct fb_err *e)
{
	if (!isfinite(v->number))
		return fb_fail(e, EXIT_USAGE, "%s:%u:%u: field %s is %s, too large", file, v->line, v->column, path,
			       v->text);
	if (kind == K_BYTES && (v->number < 0 || v->number >= 9.2e18 || v->number != floor(v->number)))
		return fb_fail(e, EXIT_USAGE, "%s:%u:%u: field %s is %s, not a whole number of bytes", file, v->line,
			       v->column, path, v->text);
	return 0;
}

static void set_number(struct cell *c, enum cell_kind kind, double v)
{
	c->value = v;
	switch (kind) {
	case K_BYTES: format_size(c->text, sizeof(c->text), (uint64_t)llround(v)); break;
	case K_RATE:
	case K_WRITE_SPEED: format_rate(c->text, sizeof(c->text), v); break;
	case K_TIME: format_time(c->text, sizeof(c->text), v); break;
	default: snprintf(c->text, sizeof(c->text), "%.15g", v); break;
	}
}

/* A finding object: "12MiB high", "at least 16 medium", "not determined". */
static int finding_cell(const struct json_value *f, const char *file, const char *path, struct cell *c,
			struct fb_err *e)
{
	const struct json_value *det, *val, *unit, *conf, *at_least;
	char where[96], num[48];

	snprintf(where, sizeof(where), "%s.determined", path);
	if (!(det = json_want(f, "determined", JSON_BOOL, file, NULL)))
		return fb_fail(e, EXIT_USAGE, "%s: field %s is missing or not true/false: is this a flashbench "
			       "--auto --json result?", file, where);
	if (!det->boolean) {
		snprintf(c->text, sizeof(c->text), "not determined");
		return 0;
	}
	snprintf(where, sizeof(where), "%s.value", path);
	if (!(val = json_want(f, "value", JSON_NUMBER, file, NULL)))
		return fb_fail(e, EXIT_USAGE, "%s: field %s is missing or not a number", file, where);
	unit = json_get(f, "unit");
	conf = json_get(f, "confidence");
	at_least = json_get(f, "at_least");
	c->value = val->number;
	if (unit && unit->type == JSON_STRING && !strcmp(unit->text, "bytes"))
		format_size(num, sizeof(num), (uint64_t)llround(val->number));
	else
		snprintf(num, sizeof(num), "%.15g", val->number);
	c->conf = conf && conf->type == JSON_STRING ? conf->text : "?";
	snprintf(c->text, sizeof(c->text), "%s%s %s", at_least && at_least->boolean ? "at least " : "", num, c->conf);
	return 0;
}

/* measurements.write_sizes: the speed of the largest writes */
static void write_speed_cell(const struct json_value *sizes, struct cell *c)
{
	double best = 0, ns = 0;

	for (size_t i = 0; sizes && sizes->type == JSON_ARRAY && i < sizes->n; i++) {
		const struct json_value *sz = json_get(&sizes->item[i], "size"), *t = json_get(&sizes->item[i], "median_ns");
		if (sz && t && sz->type == JSON_NUMBER && t->type == JSON_NUMBER && isfinite(sz->number) &&
		    isfinite(t->number) && sz->number > best && t->number > 0) {
			best = sz->number;
			ns = t->number;
		}
	}
	if (best > 0)
		set_number(c, K_WRITE_SPEED, best * 1e9 / ns);
}

static int fill_row(struct table *t, struct row *r, const struct field *a, struct fb_err *e)
{
	snprintf(r->key, sizeof(r->key), "%s", a->key);
	snprintf(r->title, sizeof(r->title), "%s", a->title);
	r->kind = a->kind;
	r->plot = a->plot;
	for (int i = 0; i < t->ncards; i++) {
		struct cell *c = &r->cell[i];
		const struct json_value *v = json_get(t->root[i], a->path);
		c->value = NAN;
		snprintf(c->text, sizeof(c->text), "-");
		if (a->kind == K_FINDING) {
			if (!v || v->type != JSON_OBJECT)
				return fb_fail(e, EXIT_USAGE, "%s: no field %s: is this a flashbench --auto --json result?",
					       t->file[i], a->path);
			if (finding_cell(v, t->file[i], a->path, c, e))
				return -1;
		} else if (a->kind == K_WRITE_SPEED) {
			write_speed_cell(v, c);
		} else if (v && v->type == JSON_STRING) {
			snprintf(c->text, sizeof(c->text), "%s", v->text);
		} else if (v && v->type == JSON_BOOL) {
			snprintf(c->text, sizeof(c->text), "%s", v->boolean ? "yes" : "no");
		} else if (v && v->type == JSON_NUMBER) {
			if (sane_number(v, a->kind, t->file[i], a->path, e))
				return -1;
			set_number(c, a->kind, v->number);
		}
	}
	return 0;
}

static struct row *new_row(struct table *t, struct fb_err *e)
{
	if (t->nrows == ROWS_MAX) {
		fb_fail(e, EXIT_USAGE, "%s: more than %d rows to compare", t->file[0], ROWS_MAX);
		return NULL;
	}
	return &t->row[t->nrows++];
}

static int build_auto(struct table *t, struct fb_err *e)
{
	for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
		struct row *r;
		if (!(fields[k].used & FOR_AUTO))
			continue;
		if (!(r = new_row(t, e)) || fill_row(t, r, &fields[k], e))
			return -1;
	}
	return 0;
}

/* Rows for a classic table: the union of the keys, in the order met. */
static int build_table(struct table *t, const struct table_kind *k, struct fb_err *e)
{
	int first;

	for (size_t p = 0; p < sizeof(fields) / sizeof(fields[0]); p++) {
		int any = 0;
		for (int i = 0; i < t->ncards && fields[p].used & FOR_TABLE; i++)
			any |= json_get(t->root[i], fields[p].path) != NULL;
		if (any) {
			struct row *r = new_row(t, e);
			if (!r || fill_row(t, r, &fields[p], e))
				return -1;
		}
	}
	first = t->nrows;
	for (int i = 0; i < t->ncards; i++) {
		const struct json_value *res = json_want(t->root[i], "results", JSON_ARRAY, t->file[i], e);
		if (!res)
			return -1;
		for (size_t j = 0; j < res->n; j++) {
			char kpath[64], vpath[64];
			const struct json_value *key, *val;
			int r;
			snprintf(kpath, sizeof(kpath), "results.%zu.%s", j, k->key);
			snprintf(vpath, sizeof(vpath), "results.%zu.%s", j, k->value);
			if (!(key = json_want(t->root[i], kpath, JSON_NUMBER, t->file[i], e)) ||
			    !(val = json_want(t->root[i], vpath, JSON_NUMBER, t->file[i], e)) ||
			    sane_number(key, K_BYTES, t->file[i], kpath, e) ||
			    sane_number(val, k->value_kind, t->file[i], vpath, e))
				return -1;
			for (r = first; r < t->nrows && t->key[r] != key->number; r++)
				;
			if (r == t->nrows) {
				struct row *nr = new_row(t, e);
				char size[32];
				if (!nr)
					return -1;
				t->key[r] = key->number;
				format_size(size, sizeof(size), (uint64_t)llround(key->number));
				snprintf(nr->key, sizeof(nr->key), "%s", size);
				snprintf(nr->title, sizeof(nr->title), "%s %s: %s", k->key, size, k->value_title);
				nr->kind = k->value_kind;
				for (int c = 0; c < t->ncards; c++) {
					nr->cell[c].value = NAN;
					snprintf(nr->cell[c].text, sizeof(nr->cell[c].text), "-");
				}
			}
			set_number(&t->row[r].cell[i], k->value_kind, val->number);
		}
	}
	return 0;
}

/* The last k path components of file, without ".json" ("d1/x" for
 * "a/d1/x.json" and k = 2); the whole path when it has fewer. */
static void path_tail(const char *file, int k, char *buf, size_t len)
{
	size_t n = strlen(file);
	const char *p;

	if (n > 5 && !strcmp(file + n - 5, ".json"))
		n -= 5;
	for (p = file + n; p > file; p--)
		if (p[-1] == '/' && --k == 0)
			break;
	snprintf(buf, len, "%.*s", (int)(n - (size_t)(p - file)), p);
}

/* Each column is named after its file: the shortest tail of its path that
 * no other file shares (x, or d1/x and d2/x). */
static void label_files(struct table *t, const char *const *files, int n)
{
	for (int i = 0; i < n; i++) {
		char mine[sizeof(t->label[0])], other[sizeof(t->label[0])];
		int clash = 1;

		for (int k = 1; clash && k <= 64; k++) {
			path_tail(files[i], k, mine, sizeof(mine));
			clash = 0;
			for (int j = 0; j < n && !clash; j++) {
				path_tail(files[j], k, other, sizeof(other));
				clash = j != i && strcmp(files[i], files[j]) && !strcmp(mine, other);
			}
		}
		snprintf(t->label[i], sizeof(t->label[i]), "%s", mine);
	}
}

/* Does --compare read results of test? */
static int comparable(const char *test)
{
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (!strcmp(tables[i].test, test))
			return 1;
	return !strcmp(test, "auto");
}

/* Is doc (a whole document, or its head: whole says which) a flashbench
 * result of the test *test (NULL: the first; set to this one's)?  A head
 * that does not hold a field yet says nothing of it. */
static int check_doc(const struct json_value *doc, int whole, const char *file, const char **test,
		     const char *first, struct fb_err *e)
{
	const struct json_value *tool = json_get(doc, "tool.name"), *t = json_get(doc, "test");

	if ((tool || whole) && (!tool || tool->type != JSON_STRING || strcmp(tool->text, "flashbench")))
		return fb_fail(e, EXIT_USAGE, "%s: not a flashbench result (field tool.name is not "
			       "\"flashbench\"): give files written with --json", file);
	if (json_format_check(doc, file, e))
		return -1;
	if (!t && !whole)
		return 0;
	if (!(t = json_want(doc, "test", JSON_STRING, file, e)))
		return -1;
	if (!comparable(t->text))
		return fb_fail(e, EXIT_USAGE, "%s: field test is \"%s\": --compare reads results of --auto, --align, "
			       "--interval and --open-au", file, t->text);
	if (!*test)
		*test = t->text;
	else if (strcmp(t->text, *test))
		return fb_fail(e, EXIT_USAGE, "%s: field test is \"%s\", but %s holds \"%s\": compare results "
			       "of the same test", file, t->text, first, *test);
	return 0;
}

#define HEAD 65536 /* a result's first bytes: its format, tool and test come first */

/* Before any file is read whole: the first bytes of each regular file say
 * whether it is a flashbench result, and of which test (a file that is no
 * result is refused without reading every other one first). */
static int check_heads(const char *const *files, int n, struct fb_err *e)
{
	char *buf = malloc(HEAD), first_test[128] = "";
	const char *test = NULL, *first = NULL;
	int rc = 0;

	if (!buf)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	for (int i = 0; i < n && !rc; i++) {
		struct json_value *head = NULL;
		struct stat st;
		size_t got;
		int whole;
		FILE *f;
		if (!strcmp(files[i], "-") || stat(files[i], &st) || !S_ISREG(st.st_mode) || !(f = fopen(files[i], "re")))
			continue; /* read whole later, and refused then if it must be */
		if (read_stream_size(files[i], (uint64_t)st.st_size, e)) {
			fclose(f);
			rc = -1;
			break;
		}
		got = fread(buf, 1, HEAD, f);
		fclose(f);
		whole = (uint64_t)got == (uint64_t)st.st_size; /* then a field it lacks is missing */
		if ((whole ? json_parse : json_parse_head)(buf, got, files[i], &head, e)) {
			rc = -1; /* no JSON in its first bytes already */
			break;
		}
		rc = check_doc(head, whole, files[i], &test, first, e);
		if (!rc && test && !first) { /* kept past the head's life */
			snprintf(first_test, sizeof(first_test), "%s", test);
			test = first_test;
			first = files[i];
		}
		json_free(head);
	}
	free(buf);
	return rc;
}

/* Load every file and check that they hold results of the same test. */
static int load(struct table *t, const char *const *files, int n, struct fb_err *e)
{
	if (n > CARDS_MAX)
		return fb_fail(e, EXIT_USAGE, "--compare takes at most %d files (%d given)", CARDS_MAX, n);
	if (check_heads(files, n, e))
		return -1;
	for (int i = 0; i < n; i++) {
		t->file[i] = files[i];
		if (json_load(files[i], &t->root[t->ncards], e))
			return -1;
		t->ncards++;
		if (check_doc(t->root[i], 1, files[i], &t->test, files[0], e) ||
		    saved_json_check(t->root[i], files[i], e)) /* the values --analyze refuses */
			return -1;
	}
	label_files(t, files, n);
	return 0;
}

/* Display width of UTF-8 text (µ counts one). */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *f, const char *s, int w)
{
	fputs(s, f);
	for (int i = width(s); i < w; i++)
		fputc(' ', f);
}

static void print_text(FILE *f, const struct table *t)
{
	int tw = 8, cw[CARDS_MAX];

	for (int r = 0; r < t->nrows; r++)
		if (width(t->row[r].title) > tw)
			tw = width(t->row[r].title);
	for (int i = 0; i < t->ncards; i++) {
		cw[i] = width(t->label[i]);
		for (int r = 0; r < t->nrows; r++)
			if (width(t->row[r].cell[i].text) > cw[i])
				cw[i] = width(t->row[r].cell[i].text);
	}
	fprintf(f, "flashbench --compare: %d results of %s%s%s\n\n", t->ncards, strcmp(t->test, "auto") ? "the " : "--",
		t->test, strcmp(t->test, "auto") ? " test" : "");
	fputs("  ", f);
	pad(f, "", tw);
	for (int i = 0; i < t->ncards; i++) {
		fputs("  ", f);
		if (i + 1 < t->ncards)
			pad(f, t->label[i], cw[i]);
		else
			fputs(t->label[i], f);
	}
	fputc('\n', f);
	for (int r = 0; r < t->nrows; r++) {
		fputs(t->row[r].differ ? "* " : "  ", f);
		pad(f, t->row[r].title, tw);
		for (int i = 0; i < t->ncards; i++) {
			fputs("  ", f);
			if (i + 1 < t->ncards)
				pad(f, t->row[r].cell[i].text, cw[i]);
			else
				fputs(t->row[r].cell[i].text, f);
		}
		fputc('\n', f);
	}
	fputs("\n* marks the rows where the results differ\n", f);
}

static void print_json(FILE *f, const struct table *t)
{
	struct json j;

	json_start(&j, f);
	json_tool(&j);
	json_string(&j, "test", "compare");
	json_string(&j, "compared", t->test);
	json_array(&j, "results");
	for (int i = 0; i < t->ncards; i++) {
		json_object(&j, NULL);
		json_string(&j, "file", t->file[i]);
		json_string(&j, "label", t->label[i]);
		json_end(&j);
	}
	json_end(&j);
	json_array(&j, "rows");
	for (int r = 0; r < t->nrows; r++) {
		const struct row *row = &t->row[r];
		json_object(&j, NULL);
		json_string(&j, "key", row->key);
		json_string(&j, "title", row->title);
		json_bool(&j, "differ", row->differ);
		json_array(&j, "text");
		for (int i = 0; i < t->ncards; i++)
			json_string(&j, NULL, row->cell[i].text);
		json_end(&j);
		json_array(&j, "values");
		for (int i = 0; i < t->ncards; i++)
			json_number(&j, NULL, row->cell[i].value); /* NaN: null */
		json_end(&j);
		if (row->kind == K_FINDING) {
			json_array(&j, "confidence");
			for (int i = 0; i < t->ncards; i++)
				json_string(&j, NULL, row->cell[i].conf);
			json_end(&j);
		}
		json_end(&j);
	}
	json_end(&j);
	json_finish(&j);
}

/* Which rows a chart draws, and where: a classic test's table draws the
 * rows of its value at their key; an --auto panel the findings of its
 * kind, one category each. */
struct pick {
	const struct table_kind *k;    /* a table, or NULL */
	int panel;                     /* PANEL_* of --auto */
};

static int picked(const struct table *t, int r, const struct pick *p)
{
	if (p->k)
		return t->row[r].kind == p->k->value_kind && !isnan(t->key[r]) && t->key[r] > 0;
	return t->row[r].plot == p->panel;
}

/* One series per card: its values of the rows picked (bars for --auto,
 * labelled with the table's text, under the rows' titles). */
static void card_series(struct chart *c, const struct table *t, const struct pick *p, double x[][ROWS_MAX],
			double y[][ROWS_MAX], const char *text[][ROWS_MAX], const char *cat[])
{
	for (int i = 0; i < t->ncards && i < CHART_SERIES; i++) {
		struct series *s = &c->s[c->ns++];
		snprintf(s->name, sizeof(s->name), "%s", t->label[i]);
		s->x = x[i];
		s->y = y[i];
		s->text = p->k ? NULL : text[i];
		s->bars = !p->k;
		for (int r = 0, n = 0; r < t->nrows; r++) {
			const struct cell *cell = &t->row[r].cell[i];
			if (!picked(t, r, p))
				continue;
			cat[n] = t->row[r].title;
			x[i][n] = p->k ? t->key[r] : n;
			y[i][n] = cell->value; /* missing (NaN): a gap in the line, no bar */
			text[i][n] = isnan(cell->value) ? NULL : cell->text;
			s->n = (size_t)++n;
			c->ncat = n;
		}
	}
}

/* A classic test's table: one line per card. */
static void table_chart(struct chart *c, const struct table *t, const struct table_kind *k,
			double x[][ROWS_MAX], double y[][ROWS_MAX], const char *text[][ROWS_MAX], const char *cat[])
{
	struct pick p = { k, 0 };

	snprintf(c->title_buf, sizeof(c->title_buf), "flashbench --compare: %s", t->test);
	c->title = c->title_buf;
	card_series(c, t, &p, x, y, text, cat);
	c->ncat = 0;
	c->xlabel = k->xlabel;
	c->xunit = AXIS_BYTES;
	c->xlog = 1;
	c->ylabel = k->ylabel;
	c->yunit = k->value_kind == K_RATE ? AXIS_RATE : AXIS_NS;
	c->ylog = k->value_kind == K_RATE;
	c->yzero = 1;
}

/* --auto results: bars per finding (named as the table names it), one
 * panel per kind of value, a bar per card. */
static void auto_chart(struct chart *c, int panel, const struct table *t, double x[][ROWS_MAX],
		       double y[][ROWS_MAX], const char *text[][ROWS_MAX], const char *cat[])
{
	const struct panel *p = &panels[panel];
	struct pick pk = { NULL, panel };

	snprintf(c->title_buf, sizeof(c->title_buf), "flashbench --compare: %s", p->title);
	c->title = c->title_buf;
	card_series(c, t, &pk, x, y, text, cat);
	c->xcat = cat;
	c->xlabel = "finding (a bar per result, with its value and confidence)";
	c->ylabel = p->ylabel;
	c->yunit = p->unit;
	c->ylog = p->log;
	c->ywhole = p->unit == AXIS_PLAIN;
	c->yzero = 1;
}

/* --auto: bars of the findings, a panel each for sizes, counts and speeds;
 * tables: one line per card. */
static int plot(FILE *f, const struct table *t)
{
	static struct chart c[PANELS]; /* large; one figure at a time */
	static double x[PANELS][CARDS_MAX][ROWS_MAX], y[PANELS][CARDS_MAX][ROWS_MAX];
	static const char *text[PANELS][CARDS_MAX][ROWS_MAX], *cat[PANELS][ROWS_MAX];
	const struct chart *all[PANELS] = { &c[0], &c[1], &c[2] };

	memset(c, 0, sizeof(c));
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (!strcmp(tables[i].test, t->test)) {
			table_chart(&c[0], t, &tables[i], x[0], y[0], text[0], cat[0]);
			return svg_chart(f, &c[0]);
		}
	for (int p = 1; p <= PANELS; p++)
		auto_chart(&c[p - 1], p, t, x[p - 1], y[p - 1], text[p - 1], cat[p - 1]);
	return svg_figure(f, all, PANELS);
}

int compare_files(const char *const *files, int n, enum compare_format format, FILE *out, FILE *plot_file,
		  struct fb_err *e)
{
	struct table *t = calloc(1, sizeof(*t));
	const struct table_kind *k = NULL;
	int rc = -1;

	if (!t)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	for (int r = 0; r < ROWS_MAX; r++)
		t->key[r] = NAN;
	if (load(t, files, n, e))
		goto out;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (!strcmp(tables[i].test, t->test))
			k = &tables[i];
	if (k ? build_table(t, k, e) : build_auto(t, e))
		goto out;
	for (int r = 0; r < t->nrows; r++)
		for (int i = 1; i < t->ncards; i++)
			t->row[r].differ |= strcmp(t->row[r].cell[i].text, t->row[r].cell[0].text) != 0;
	if (format == COMPARE_JSON)
		print_json(out, t);
	else
		print_text(out, t);
	if (plot_file && plot(plot_file, t)) {
		fb_fail(e, EXIT_USAGE, "--plot: nothing to draw in %s", files[0]);
		goto out;
	}
	rc = 0;
out:
	for (int i = 0; i < t->ncards; i++)
		json_free(t->root[i]);
	free(t);
	return rc;
}
