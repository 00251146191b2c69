/* saved_json.c — our own --json results read back for --analyze (see
 * saved_json.h).  The input is cut into its JSON values (one result after
 * another); each is parsed by json_read.c with the lines before it kept, so
 * that errors name the line in the whole input.  What each test's result
 * contributes is written down in one table (kinds[]). */
#include "saved/saved_json.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_read.h"
#include "saved/row_hygiene.h"
#include "lib/utf8.h"

struct rd {
	char path[160];               /* the field last looked up */
	const struct json_value *doc;
	const char *name;
	struct saved_text *t;
	struct saved_findings *found;
	struct fb_err *e;
};

/* The value at the path (printf-style), which must have the given type:
 * NULL otherwise, with e filled when it is required (naming the line of the
 * nearest object that exists when the field is missing).  The path is kept
 * in r->path for the messages below. */
static const struct json_value *want(struct rd *r, int required, enum json_type type, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static const struct json_value *want(struct rd *r, int required, enum json_type type, const char *fmt, ...)
{
	char parent[sizeof(r->path)];
	const struct json_value *v, *p = NULL;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->path, sizeof(r->path), fmt, ap);
	va_end(ap);
	v = json_get(r->doc, r->path);
	if (!required || v)
		return v && v->type == type ? v : required ? json_want(r->doc, r->path, type, r->name, r->e) : NULL;
	snprintf(parent, sizeof(parent), "%s", r->path);
	while (!p) {
		char *dot = strrchr(parent, '.');
		if (!dot)
			p = r->doc;
		else
			*dot = '\0', p = json_get(r->doc, parent);
	}
	fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: no field %s (--analyze reads the results flashbench --json writes)",
		r->name, p->line, p->column, r->path);
	return NULL;
}

#define MAX_NS SAVED_MAX_NS
#define MAX_RATE SAVED_MAX_RATE

/* A number (v from want, so NULL is an error already reported). */
static int number(struct rd *r, double *out, const struct json_value *v)
{
	if (!v)
		return -1;
	if (!isfinite(v->number))
		return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: field %s is %s, too large", r->name, v->line, v->column,
			       r->path, v->text);
	*out = v->number;
	return 0;
}

/* A size or count: a whole number from 0 up. */
static int whole(struct rd *r, uint64_t *out, const struct json_value *v)
{
	double x = 0;

	if (number(r, &x, v))
		return -1;
	if (x < 0 || x != floor(x) || x > 1.8e19)
		return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: field %s is %s, not a whole number of bytes or blocks",
			       r->name, v->line, v->column, r->path, v->text);
	*out = (uint64_t)x;
	return 0;
}

/* A throughput: a number from 0 up. */
static int rate(struct rd *r, double *out, const struct json_value *v)
{
	if (number(r, out, v))
		return -1;
	if (*out < 0 || *out > MAX_RATE)
		return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: field %s is %s, not a throughput (bytes per second, 0 to "
			       "1e13)", r->name, v->line, v->column, r->path, v->text);
	return 0;
}

/* A time in nanoseconds (a diff may be negative: signed). */
static int time_ns(struct rd *r, double *out, const struct json_value *v, int is_signed)
{
	if (number(r, out, v))
		return -1;
	if (*out > MAX_NS || *out < (is_signed ? -MAX_NS : 0))
		return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: field %s is %s, not a time a device took (nanoseconds, "
			       "%s to 1e13)", r->name, v->line, v->column, r->path, v->text, is_signed ? "-1e13" : "0");
	return 0;
}

/* A block or erase size: a positive whole multiple of 512 bytes. */
static int block(struct rd *r, uint64_t *out, const struct json_value *v)
{
	if (whole(r, out, v))
		return -1;
	if (!*out || *out % 512)
		return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: field %s is %s, not a size a test can use (a positive "
			       "multiple of 512 bytes)", r->name, v->line, v->column, r->path, v->text);
	return 0;
}

/* An optional size (NULL: absent, 0): when present, a positive whole
 * multiple of 512 bytes like any size a device or test has. */
static int opt_size(struct rd *r, uint64_t *out, const struct json_value *v)
{
	*out = 0;
	return v ? block(r, out, v) : 0;
}

#define NUM(...) want(r, 1, JSON_NUMBER, __VA_ARGS__)

static const struct json_value *results(struct rd *r)
{
	return want(r, 1, JSON_ARRAY, "results");
}

/* ------------------------------------------------------------ the tests */

/* The result's device: the card its tables belong to (results of two
 * devices are never one card's). */
static void result_card(struct rd *r, char *card, size_t len)
{
	const struct json_value *v = want(r, 0, JSON_STRING, "device.path");

	if (v) {
		snprintf(card, len, "%s", v->text);
		utf8_printable(card);
	}
}

static int read_align(struct rd *r)
{
	const struct json_value *res = results(r);
	struct saved_align_run *run;
	uint64_t bs;

	if (!res || block(r, &bs, NUM("parameters.blocksize")))
		return -1;
	if (!(run = SAVED_NEW_TABLE(r->t, align, res->n)))
		return 0;
	run->bs = bs;
	run->bs_given = 1;
	run->line = res->line;
	result_card(r, run->card, sizeof(run->card));
	for (size_t i = 0; i < res->n; i++) {
		struct align_row *row = &run->rows[run->n];
		uint64_t a;
		if (run->n == SAVED_ALIGN_ROWS) {
			r->t->dropped++;
			continue;
		}
		memset(row, 0, sizeof(*row));
		if (whole(r, &a, NUM("results.%zu.align", i)))
			return -1;
		row->align = a;
		if (time_ns(r, &row->pre, NUM("results.%zu.pre.ns", i), 0) ||
		    time_ns(r, &row->on, NUM("results.%zu.on.ns", i), 0) ||
		    time_ns(r, &row->post, NUM("results.%zu.post.ns", i), 0) ||
		    time_ns(r, &row->diff, NUM("results.%zu.diff_ns", i), 1))
			return -1;
		if (row->align)
			run->n++;
	}
	return 0;
}

static int read_open(struct rd *r)
{
	const struct json_value *res = results(r), *rnd = want(r, 1, JSON_BOOL, "parameters.random");
	struct saved_open_table *tb;
	uint64_t nr;

	if (!res || !rnd || whole(r, &nr, NUM("parameters.open_au_nr")))
		return -1;
	if (!(tb = SAVED_NEW_TABLE(r->t, open, res->n)))
		return 0;
	tb->nr = nr < 100000 ? (unsigned)nr : 0;
	tb->random = rnd->boolean;
	tb->line = res->line;
	result_card(r, tb->card, sizeof(tb->card));
	if (block(r, &tb->erase, NUM("parameters.erasesize")) || block(r, &tb->bs, NUM("parameters.blocksize")))
		return -1;
	for (size_t i = 0; i < res->n; i++) {
		if (tb->n == SAVED_OPEN_ROWS) {
			r->t->dropped++;
			continue;
		}
		if (whole(r, &tb->size[tb->n], NUM("results.%zu.chunk", i)) ||
		    rate(r, &tb->rate[tb->n], NUM("results.%zu.bytes_per_second", i)))
			return -1;
		tb->n++;
	}
	return 0;
}

static int read_fat(struct rd *r)
{
	const struct json_value *res = results(r);
	struct saved_fat_table *tb;

	if (!res)
		return -1;
	if (!(tb = SAVED_NEW_TABLE(r->t, fat, res->n)))
		return 0;
	tb->line = res->line;
	result_card(r, tb->card, sizeof(tb->card));
	if (block(r, &tb->erase, NUM("parameters.erasesize")))
		return -1;
	for (size_t i = 0; i < res->n; i++) {
		const struct json_value *aus = want(r, 1, JSON_ARRAY, "results.%zu.erase_blocks", i);
		if (!aus)
			return -1;
		if (tb->n == SAVED_FAT_ROWS) {
			r->t->dropped++;
			continue;
		}
		if (!tb->n)
			tb->nblocks = aus->n < SAVED_FAT_BLOCKS ? (unsigned)aus->n : SAVED_FAT_BLOCKS;
		if (whole(r, &tb->size[tb->n], NUM("results.%zu.chunk", i)))
			return -1;
		for (size_t k = 0; k < tb->nblocks && k < aus->n; k++)
			if (rate(r, &tb->rate[tb->n][k], NUM("results.%zu.erase_blocks.%zu.bytes_per_second", i, k)))
				return -1;
		tb->n++;
		r->t->fat_rows++;
	}
	return 0;
}

/* --interval, --scatter, a --program tree: named, not analysed */
static int read_other(struct rd *r)
{
	const struct json_value *res = results(r), *test = json_get(r->doc, "test");
	struct saved_other *o;

	if (!res)
		return -1;
	if (r->t->nother == SAVED_OTHER)
		return 0;
	o = &r->t->other[r->t->nother++];
	snprintf(o->test, sizeof(o->test), "%s", test->text);
	o->line = res->line;
	o->rows = res->n;
	return 0;
}

/* The findings of an --auto or --analyze result, as json_finding writes
 * them (the titles come from the result). */
static const struct { const char *key; int is_size; size_t at; } finding_keys[] = {
	{ "page", 1, offsetof(struct saved_findings, page) },
	{ "erase_block", 1, offsetof(struct saved_findings, erase) },
	{ "min_write", 1, offsetof(struct saved_findings, min_write) },
	{ "open_linear", 0, offsetof(struct saved_findings, open_linear) },
	{ "open_random", 0, offsetof(struct saved_findings, open_random) },
	{ "fat_area", 0, offsetof(struct saved_findings, fat) },
};

static int read_finding(struct rd *r, const char *key, char *title, size_t title_len, struct finding *f)
{
	const struct json_value *name = want(r, 1, JSON_STRING, "findings.%s.title", key);
	const struct json_value *det = want(r, 1, JSON_BOOL, "findings.%s.determined", key);
	const struct json_value *conf = want(r, 1, JSON_STRING, "findings.%s.confidence", key);
	const struct json_value *ev = want(r, 1, JSON_ARRAY, "findings.%s.evidence", key);
	const struct json_value *v;
	int c;

	if (!name || !det || !conf || !ev)
		return -1;
	snprintf(title, title_len, "%s", name->text);
	utf8_printable(title);
	f->title = title;
	f->determined = det->boolean;
	if (f->determined) {
		const struct json_value *val = NUM("findings.%s.value", key);
		if (whole(r, &f->value, val))
			return -1;
		/* advice is built from it: a size no device has is refused */
		if (f->is_size && (f->value < 512 || f->value % 512 || f->value > (1ULL << 40)))
			return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: field findings.%s.value is %s, not a size a device has "
				       "(a multiple of 512 bytes, at most 1TiB)", r->name, val->line, val->column, key,
				       val->text);
		if (!f->is_size && f->value > 100000)
			return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: field findings.%s.value is %s, not a count of erase "
				       "blocks", r->name, val->line, val->column, key, val->text);
	}
	if ((v = want(r, 0, JSON_BOOL, "findings.%s.at_least", key)))
		f->at_least = v->boolean;
	if ((v = want(r, 0, JSON_BOOL, "findings.%s.at_most", key)))
		f->at_most = v->boolean;
	for (c = CONF_NONE; c <= CONF_HIGH && strcmp(conf->text, confidence_name((enum confidence)c)); c++)
		;
	if (c > CONF_HIGH)
		return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: field findings.%s.confidence is \"%s\", not none, low, "
			       "medium or high", r->name, conf->line, conf->column, key, conf->text);
	f->conf = (enum confidence)c;
	for (size_t i = 0; i < ev->n && f->nevidence < EVIDENCE_MAX; i++) {
		const struct json_value *s = want(r, 1, JSON_STRING, "findings.%s.evidence.%zu", key, i);
		if (!s)
			return -1;
		finding_evidence(f, "%s", s->text);
		utf8_printable(f->evidence[f->nevidence - 1]);
	}
	if ((v = want(r, 0, JSON_STRING, "findings.%s.note", key)))
		snprintf(f->why, sizeof(f->why), "%s", v->text);
	utf8_printable(f->why);
	return 0;
}

static int read_findings(struct rd *r)
{
	struct saved_findings *s = r->found;
	const struct json_value *test = json_get(r->doc, "test"), *v;
	const struct json_value *align = want(r, 0, JSON_ARRAY, "measurements.align");

	if (s->have || r->t->json_results)
		return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: an --%s result is analysed on its own, not with other "
			       "results in the same input", r->name, test->line, test->column, test->text);
	memset(s, 0, sizeof(*s));
	s->have = 1;
	s->line = r->doc->line;
	snprintf(s->test, sizeof(s->test), "%s", test->text);
	if ((v = want(r, 0, JSON_STRING, "tool.version")))
		snprintf(s->version, sizeof(s->version), "%s", v->text);
	if ((v = want(r, 0, JSON_STRING, "device.path")))
		snprintf(s->device, sizeof(s->device), "%s", v->text);
	utf8_printable(s->version);
	utf8_printable(s->device);
	if (opt_size(r, &s->size, want(r, 0, JSON_NUMBER, "device.size")))
		return -1;
	s->sector = 512;
	if ((v = want(r, 0, JSON_NUMBER, "device.logical_sector")) && v->number >= 512 && v->number <= 65536)
		s->sector = (unsigned)v->number;
	if ((v = want(r, 0, JSON_BOOL, "parameters.write")))
		s->wrote = v->boolean;
	/* beside the findings (format 2), or among them (format 1) */
	if ((v = want(r, 0, JSON_BOOL, "alignment_matters")) || (v = want(r, 0, JSON_BOOL, "findings.alignment_matters")))
		s->alignment_matters = v->boolean;
	if (!want(r, 1, JSON_OBJECT, "findings"))
		return -1;
	for (size_t i = 0; i < sizeof(finding_keys) / sizeof(finding_keys[0]); i++) {
		struct finding *f = (struct finding *)((char *)s + finding_keys[i].at);
		finding_init(f, finding_keys[i].key, "", finding_keys[i].is_size);
		if (read_finding(r, finding_keys[i].key, s->title[i], sizeof(s->title[i]), f))
			return -1;
	}
	if (s->page.determined && s->erase.determined && s->page.value >= s->erase.value) {
		v = want(r, 1, JSON_NUMBER, "findings.page.value");
		return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: field findings.page.value (%llu) is not smaller than "
			       "findings.erase_block.value (%llu): a page lies inside an erase block", r->name, v->line,
			       v->column, (unsigned long long)s->page.value, (unsigned long long)s->erase.value);
	}
	/* the align rows, for --plot (an --auto result has them) */
	if (opt_size(r, &s->bs, want(r, 0, JSON_NUMBER, "parameters.blocksize")))
		return -1;
	for (size_t i = 0; align && i < align->n && s->nrows < AUTO_MAX_ROWS; i++) {
		struct align_row *row = &s->rows[s->nrows];
		const struct json_value *a = NUM("measurements.align.%zu.align", i);
		memset(row, 0, sizeof(*row));
		uint64_t at;
		if (!a || opt_size(r, &at, a) || time_ns(r, &row->pre, NUM("measurements.align.%zu.pre_ns", i), 0) ||
		    time_ns(r, &row->on, NUM("measurements.align.%zu.on_ns", i), 0) ||
		    time_ns(r, &row->post, NUM("measurements.align.%zu.post_ns", i), 0) ||
		    time_ns(r, &row->diff, NUM("measurements.align.%zu.diff_ns", i), 1))
			return -1;
		row->align = at;
		s->nrows += row->align > 0;
	}
	return 0;
}

/* What each test's result contributes. */
static const struct kind {
	const char *test;
	int (*read)(struct rd *r);
} kinds[] = {
	{ "align", read_align },       { "open-au", read_open }, { "find-fat", read_fat },
	{ "interval", read_other },    { "scatter", read_other }, { "tree", read_other },
	{ "read-speed", read_other },
	{ "auto", read_findings },     { "analyze", read_findings },
};

static int read_result(struct rd *r)
{
	const struct json_value *tool, *test;
	char known[160] = "";

	if (r->doc->type != JSON_OBJECT)
		return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: not a flashbench --json result (an object with tool, test "
			       "and results)", r->name, r->doc->line, r->doc->column);
	if (!(tool = want(r, 1, JSON_STRING, "tool.name")))
		return -1;
	if (strcmp(tool->text, "flashbench"))
		return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: field tool.name is \"%s\": not a flashbench result",
			       r->name, tool->line, tool->column, tool->text);
	if (json_format_check(r->doc, r->name, r->e))
		return -1;
	if (!(test = want(r, 1, JSON_STRING, "test")))
		return -1;
	if (r->found->have)
		return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: an --%s result is analysed on its own, not with other "
			       "results in the same input", r->name, test->line, test->column, r->found->test);
	{ /* every result's device: a size no device has is refused */
		uint64_t size;
		if (opt_size(r, &size, want(r, 0, JSON_NUMBER, "device.size")))
			return -1;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (!strcmp(test->text, kinds[i].test)) {
			int rc = kinds[i].read(r);
			r->t->json_results += !rc;
			return rc;
		}
		snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s", i ? ", " : "", kinds[i].test);
	}
	return fb_fail(r->e, EXIT_USAGE, "%s:%u:%u: field test is \"%s\": not a test --analyze knows (%s)", r->name,
		       test->line, test->column, test->text, known);
}

int saved_json_check(const struct json_value *doc, const char *name, struct fb_err *e)
{
	struct saved_text *t = calloc(1, sizeof(*t));
	struct saved_findings *found = calloc(1, sizeof(*found));
	struct rd r = { .doc = doc, .name = name, .t = t, .found = found, .e = e };
	int rc = t && found ? read_result(&r) : fb_fail(e, EXIT_DEVICE, "out of memory");

	free(t);
	free(found);
	return rc;
}

/* ------------------------------------------------------------ the input */

static size_t skip_blank(const char *p, size_t len, size_t i)
{
	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
		i++;
	return i;
}

/* Where the JSON value starting at text[i] ends: brackets counted outside
 * strings (the parser checks the rest); len when it does not. */
static size_t value_end(const char *text, size_t len, size_t i)
{
	int depth = 0, in_string = 0;

	for (; i < len; i++) {
		char ch = text[i];
		if (in_string) {
			if (ch == '\\')
				i++;
			else if (ch == '"')
				in_string = 0;
		} else if (ch == '"') {
			in_string = 1;
		} else if (ch == '{' || ch == '[') {
			depth++;
		} else if ((ch == '}' || ch == ']') && --depth == 0) {
			return i + 1;
		}
	}
	return len;
}

/* JSON is what parses as JSON: the first value (up to its closing bracket)
 * must be a whole JSON value.  A paste that only starts with a bracket (a
 * quote marker, a wiki link such as "[edit] Results") is text.  e gets the
 * parse error when it starts like JSON but is not. */
static int first_value_parses(const char *text, size_t len, struct fb_err *e)
{
	size_t i = skip_blank(text, len, 0), end;

	if (i >= len || (text[i] != '{' && text[i] != '['))
		return 0;
	end = value_end(text, len, i);
	return !json_check(text + i, end - i, "the input", e); /* no tree: only whether it parses */
}

/* Does the text at i start like JSON: '{', or '[' then a value's first
 * byte ("[edit]", "[quote]" do not)? */
static int json_like(const char *text, size_t len, size_t i)
{
	size_t k;

	if (i >= len || (text[i] != '{' && text[i] != '['))
		return 0;
	if (text[i] == '{')
		return 1;
	k = skip_blank(text, len, i + 1);
	return k >= len || strchr("{[\"]-0123456789", text[k]);
}

int saved_is_json(const char *text, size_t len)
{
	struct fb_err e = { 0 };
	return first_value_parses(text, len, &e);
}

/* The results from text[from] on (errors name the place in the whole
 * text).  embedded: JSON pasted into a mail: the text after its results
 * is not read. */
static int read_json(const char *text, size_t len, size_t from, int embedded, const char *name, struct saved_text *t,
		     struct saved_findings *found, struct fb_err *e)
{
	size_t i = skip_blank(text, len, from), line = 1, line_at = 0;

	for (size_t k = 0; k < len; k++)
		t->lines += text[k] == '\n';
	t->lines += len && text[len - 1] != '\n';
	while (i < len) {
		size_t end = value_end(text, len, i), col = i;
		struct json_value *doc;
		struct rd r = { .name = name, .t = t, .found = found, .e = e };
		int rc;

		/* errors name the place in the whole input */
		for (; line_at < i; line_at++)
			line += text[line_at] == '\n';
		while (col > 0 && text[col - 1] != '\n')
			col--;
		rc = json_parse_at(text + i, end - i, name, (unsigned)line, (unsigned)(i - col) + 1, &doc, e);
		if (rc)
			return -1;
		r.doc = doc;
		rc = read_result(&r);
		json_free(doc);
		if (rc)
			return -1;
		i = skip_blank(text, len, end);
		/* prose after the results (a mail's signature) is not JSON */
		if (i < len && (embedded ? text[i] != '{' : isalpha((unsigned char)text[i]))) {
			if (!embedded) {
				for (; line_at < i; line_at++)
					line += text[line_at] == '\n';
				saved_note(t, "the text from line %zu on is not JSON and was not read", line);
			}
			break;
		}
	}
	return 0;
}

/* A run that repeats an earlier one row for row (the same table pasted
 * twice, or under another command line) is a copy, not a second
 * measurement: no two runs of a device read alike to the last digit. */
static void mark_copies(struct saved_text *t)
{
	for (size_t k = 0; k < t->nalign; k++)
		for (size_t j = 0; j < k && !t->align[k].copy_of; j++) {
			const struct saved_align_run *a = &t->align[j], *b = &t->align[k];
			size_t same = 0;
			if (a->n != b->n || !a->n || a->copy_of || strcmp(a->card, b->card))
				continue;
			for (size_t x = 0; x < b->n; x++)
				for (size_t y = 0; y < a->n; y++)
					if (b->rows[x].align == a->rows[y].align) {
						same += b->rows[x].pre == a->rows[y].pre && b->rows[x].on == a->rows[y].on &&
							b->rows[x].post == a->rows[y].post && b->rows[x].diff == a->rows[y].diff;
						break;
					}
			if (same == b->n)
				t->align[k].copy_of = a->line;
		}
}

/* A pasted table's command lines hold sizes a test can use (rows out of
 * range are dropped and named by the reader and row_hygiene). */
static int text_check(const struct saved_text *t, const char *name, struct fb_err *e)
{
	for (size_t i = 0; i < t->nalign; i++) {
		const struct saved_align_run *run = &t->align[i];
		if (run->bs_given && (!run->bs || run->bs % 512))
			return fb_fail(e, EXIT_USAGE, "%s:%u: the -a run's block size %llu is not a positive multiple of "
				       "512 bytes", name, run->line, (unsigned long long)run->bs);
	}
	for (size_t i = 0; i < t->nopen; i++) {
		const struct saved_open_table *tb = &t->open[i];
		if (tb->erase % 512 || tb->bs % 512)
			return fb_fail(e, EXIT_USAGE, "%s:%u: the -O table's erase or block size is not a multiple of 512 "
				       "bytes", name, tb->line);
	}
	return 0;
}

/* A line of the text that starts a JSON value that parses: its offset,
 * or len.  (JSON pasted into a mail after a line of prose.)  Only the
 * first few lines that start with '{' are tried: each try may read to the
 * end of the text. */
#define JSON_TRIES 8
static size_t json_inside(const char *text, size_t len)
{
	int tries = 0;

	for (size_t i = 0; i < len && tries < JSON_TRIES; i++) {
		struct fb_err e = { 0 };
		if ((i == 0 || text[i - 1] == '\n') && text[i] == '{' && (++tries, first_value_parses(text + i, len - i, &e)))
			return i;
	}
	return len;
}

/* Is this flashbench's own text report (--auto or --analyze), whose
 * findings are prose, not measurements? */
static const char *own_report(const char *text, size_t len)
{
	static const char *const heads[] = { "flashbench --auto:", "flashbench --analyze:", NULL };

	for (size_t i = 0; i < len; i++)
		if (i == 0 || text[i - 1] == '\n')
			for (int k = 0; heads[k]; k++)
				if (len - i >= strlen(heads[k]) && !strncmp(text + i, heads[k], strlen(heads[k])))
					return heads[k];
	return NULL;
}

static int read_utf8(const char *text, size_t len, const char *name, struct saved_text *t,
		     struct saved_findings *found, struct fb_err *e)
{
	size_t i = skip_blank(text, len, 0), at;

	memset(found, 0, sizeof(*found));
	if (!saved_is_json(text, len)) {
		const char *own;
		classic_read(text, len, t);
		/* it started like JSON, parsed as none, and holds no table:
		 * most likely JSON cut short or broken, so say where */
		if (json_like(text, len, i) && !t->nalign && !t->nopen && !t->nfat && !t->nother) {
			memset(t, 0, sizeof(*t));
			return read_json(text, len, 0, 0, name, t, found, e);
		}
		/* a result pasted after a line or two of prose */
		if (!t->nalign && !t->nopen && !t->nfat && !t->nother && (at = json_inside(text, len)) < len) {
			unsigned line = 1;
			for (size_t k = 0; k < at; k++)
				line += text[k] == '\n';
			memset(t, 0, sizeof(*t));
			if (read_json(text, len, at, 1, name, t, found, e))
				return -1;
			saved_note(t, "read the --json result%s from line %u; the text around %s is not", t->json_results == 1 ? "" : "s",
				   line, t->json_results == 1 ? "it" : "them");
			mark_copies(t);
			return 0;
		}
		/* a result quoted in a reply ("> {"): read without the quoting */
		if (!t->nalign && !t->nopen && !t->nfat && !t->nother && memchr(text, '>', len)) {
			char *plain = malloc(len + 1);
			size_t n = 0;
			int rc = 1;
			if (!plain)
				return fb_fail(e, EXIT_DEVICE, "out of memory");
			for (size_t k = 0; k < len;) {
				if (k == 0 || text[k - 1] == '\n')
					while (k < len && (text[k] == '>' || text[k] == ' ') && text[k] != '\n') {
						int quote = text[k] == '>';
						k++;
						if (quote && k < len && text[k] == ' ')
							k++;
					}
				if (k < len)
					plain[n++] = text[k++];
			}
			if ((at = json_inside(plain, n)) < n) {
				memset(t, 0, sizeof(*t));
				rc = read_json(plain, n, at, 1, name, t, found, e);
				if (!rc) {
					saved_note(t, "read the --json result quoted in the text (\"> \" taken off each line)");
					mark_copies(t);
				}
			}
			free(plain);
			if (rc <= 0)
				return rc;
		}
		if (!t->nalign && !t->nopen && !t->nfat && !t->nother && (own = own_report(text, len)))
			return fb_fail(e, EXIT_USAGE, "%s: this is the text report of `%.*s` (its findings, not its "
				       "measurements): give --analyze the --json form (add --json to the command that "
				       "made it)", name, (int)strlen(own) - 1, own);
		if (text_check(t, name, e))
			return -1;
		/* each row checked against itself (its diff) and its run */
		for (size_t k = 0; k < t->nalign; k++)
			row_hygiene(&t->align[k]);
		mark_copies(t);
		return 0;
	}
	memset(t, 0, sizeof(*t));
	if (read_json(text, len, 0, 0, name, t, found, e))
		return -1;
	mark_copies(t);
	return 0;
}

int saved_read(const char *text, size_t len, const char *name, struct saved_text *t, struct saved_findings *found,
	       struct fb_err *e)
{
	int order = utf16_order(text, len), rc;
	char *utf8;
	size_t n;

	if (!order) {
		/* a UTF-8 byte-order mark is no text */
		if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
			return read_utf8(text + 3, len - 3, name, t, found, e);
		return read_utf8(text, len, name, t, found, e);
	}
	if (!(utf8 = utf16_to_utf8(text, len, order, &n)))
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	rc = read_utf8(utf8, n, name, t, found, e);
	free(utf8);
	return rc;
}
