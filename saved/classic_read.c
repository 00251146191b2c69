/* classic_read.c — the classic text tables read back (see classic_read.h).
 *
 * The text is cleaned first (HTML tags and the entities a copy leaves,
 * such as "&nbsp;" and "&gt;", become spaces or what they stand for), then
 * cut into words, each remembering its line; quoting ("> ", "| ") at the
 * start of a line is dropped, and '|' separates words anywhere (wiki and
 * markdown pipe tables).  Working on words rather
 * than lines makes wrapped lines, tabs turned into spaces and several
 * records run together on one line all read the same.  A record is
 * recognised by its shape: "align N pre T on T post T diff T", or "SIZE
 * RATE" for open-au.  Command lines only set the context of the tables
 * that follow (block size, erase size, --open-au-nr, --random). */
#include "saved/classic_read.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/grow.h"
#include "lib/lines.h"
#include "lib/utf8.h"
#include "lib/units.h"

struct tok {
	const char *s;
	unsigned line;
	int alone;          /* the only word on its line */
};

struct words {
	char *buf;
	char *clean;        /* the cleaned text, lines intact (for header lines) */
	size_t len;
	struct tok *t;
	size_t n, cap;
};

static int add_word(struct words *w, const char *s, unsigned line)
{
	struct tok *t = grow(w->t, &w->cap, w->n, sizeof(*t), 1024);

	if (!t)
		return -1;
	w->t = t;
	w->t[w->n].s = s;
	w->t[w->n].line = line;
	w->t[w->n++].alone = 0;
	return 0;
}

/* Bytes that separate words: ASCII white space and the no-break space
 * (UTF-8 C2 A0) web pages put in tables. */
static size_t space_at(const char *p)
{
	if (*p == ' ' || *p == '\t' || *p == '\v' || *p == '\f')
		return 1;
	if ((unsigned char)p[0] == 0xc2 && (unsigned char)p[1] == 0xa0)
		return 2;
	return 0;
}

/* HTML a copy leaves behind: a table's cell and row tags become tabs (they
 * separate cells), other tags a space, and the entities that stand for
 * white space or quoting become what they stand for.  The entities for µ
 * stay: the time reader knows them.  Returns the new length. */
static size_t clean_html(char *p, size_t len)
{
	static const struct { const char *ent; char ch; } ents[] = {
		{ "&nbsp;", ' ' }, { "&#160;", ' ' }, { "&#9;", '\t' }, { "&gt;", '>' }, { "&lt;", '<' },
		{ "&amp;", '&' }, { "&quot;", '"' }, { "&#39;", '\'' },
	};
	static const char *const cells[] = { "td", "th", "tr", "table", "br", "p", "div", "li", "pre", NULL };
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		if (p[i] == '<' && i + 1 < len && (isalpha((unsigned char)p[i + 1]) || p[i + 1] == '/' || p[i + 1] == '!')) {
			size_t e = i + 1, nl;
			while (e < len && p[e] != '>' && p[e] != '\n' && p[e] != '<')
				e++;
			if (e < len && p[e] == '>') {
				const char *name = p + i + 1 + (p[i + 1] == '/');
				char ch = ' ';
				for (int k = 0; cells[k]; k++) {
					nl = strlen(cells[k]);
					if (!strncasecmp(name, cells[k], nl) && !isalnum((unsigned char)name[nl]))
						ch = '\t';
				}
				p[o++] = ch;
				i = e;
				continue;
			}
		}
		if (p[i] == '&') {
			size_t k;
			for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++) {
				size_t el = strlen(ents[k].ent);
				if (i + el <= len && !strncasecmp(p + i, ents[k].ent, el)) {
					p[o++] = ents[k].ch;
					i += el - 1;
					break;
				}
			}
			if (k < sizeof(ents) / sizeof(ents[0]))
				continue;
		}
		p[o++] = p[i];
	}
	p[o] = '\0';
	return o;
}

static int split_words(const char *text, size_t len, struct words *w, unsigned *lines)
{
	char *p, *end, *next;
	unsigned line = 0;

	memset(w, 0, sizeof(*w));
	if (!(w->buf = malloc(len + 1)) || !(w->clean = malloc(len + 1)))
		return -1;
	memcpy(w->clean, text, len);
	w->clean[len] = '\0';
	w->len = len;
	for (size_t i = 0; i < len; i++) /* a NUL inside ends a word, not the text */
		if (!w->clean[i])
			w->clean[i] = ' ';
	len = clean_html(w->clean, len);
	w->len = len;
	memcpy(w->buf, w->clean, len + 1);
	for (p = w->buf; *p; p = next) {
		size_t first = w->n, k;
		end = p + strcspn(p, "\n");
		next = end + (*end == '\n');
		*end = '\0';
		line++;
		/* quoting: any mix of '>' and '|' with spaces at the start */
		while (*p == '>' || *p == '|' || space_at(p))
			p += space_at(p) ? space_at(p) : 1;
		while (*p) {
			if ((k = space_at(p)) || *p == '\r' || *p == '|') {
				*p = '\0';
				p += k ? k : 1;
				continue;
			}
			if (add_word(w, p, line))
				return -1;
			while (*p && !space_at(p) && *p != '\r' && *p != '|')
				p++;
		}
		if (w->n == first + 1)
			w->t[first].alone = 1;
	}
	*lines = line;
	return 0;
}

/* Line number line (1-based) of the cleaned text: its start and length. */
static const char *line_text(const struct words *w, unsigned line, size_t *n)
{
	const char *p = w->clean, *end = w->clean + w->len;

	for (unsigned k = 1; k < line && p < end; k++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return NULL;
		p = nl + 1;
	}
	if (p >= end)
		return NULL;
	*n = strcspn(p, "\n");
	return p;
}

int classic_time(const char *s, double *ns, enum time_unit *unit)
{
	enum time_unit u_;
	static const char *const micro[] = { "u", "&micro;", "&#181;", "&mu;", "&#956;", NULL };
	char *end;
	double v;
	size_t ul;

	if (!(isdigit((unsigned char)s[0]) || ((s[0] == '-' || s[0] == '+' || s[0] == '.') &&
					       (isdigit((unsigned char)s[1]) || s[1] == '.'))))
		return -1;
	v = strtod(s, &end);
	if (end == s)
		return -1;
	ul = strlen(end);
	if (!unit)
		unit = &u_;
	/* no unit, or "n" (the classic tool cuts negative times short): ns */
	if (ul == 0 || !strcmp(end, "n")) {
		*ns = v;
		*unit = ul ? TU_N : TU_NONE;
		return 0;
	}
	if (ul == 1 && end[0] == 's') {
		*ns = v * 1e9;
		*unit = TU_S;
		return 0;
	}
	if (ul == 2 && (end[0] == 'm' || end[0] == 'n') && end[1] == 's') {
		*ns = end[0] == 'm' ? v * 1e6 : v;
		*unit = end[0] == 'm' ? TU_MS : TU_NS;
		return 0;
	}
	/* µ as UTF-8, Latin-1, the Greek mu, mangled ("Âµ"), lost ("?"), or an
	 * HTML entity; its "s" may be lost too ("734u") */
	{
		size_t ml = end[ul - 1] == 's' ? ul - 1 : ul;
		int junk = ml > 0;
		for (size_t i = 0; i < ml; i++)
			if (!((unsigned char)end[i] >= 0x80 || end[i] == '?'))
				junk = 0;
		for (int i = 0; micro[i] && !junk; i++)
			if (strlen(micro[i]) == ml && !strncmp(end, micro[i], ml))
				junk = 1;
		if (!junk)
			return -1;
	}
	*ns = v * 1e3;
	*unit = TU_US;
	return 0;
}

/* "64MiB", "512KiB", "1.5MiB", "512B": a size with its unit. */
static int size_word(const char *s, uint64_t *out)
{
	const char *why;
	size_t n = strlen(s);

	if (n < 2 || s[n - 1] != 'B' || !isdigit((unsigned char)s[0]))
		return -1;
	return parse_size(s, out, &why);
}

/* "8.79M/s", "912K/s", "1.2G/s", "500B/s", "8.4MB/s", "8MiB/s" (binary),
 * "900kB/s": bytes per second. */
static int rate_word(const char *s, double *out)
{
	static const char prefix[] = "KMGT";
	char *end;
	const char *p;
	double v, mult = 1;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	v = strtod(s, &end);
	if ((p = strchr(prefix, *end == 'k' ? 'K' : *end)) && *end) {
		int k = (int)(p - prefix) + 1;
		end++;
		if (*end == 'i') { /* KiB/s, MiB/s: powers of 1024 */
			end++;
			while (k--)
				mult *= 1024;
		} else {
			while (k--)
				mult *= 1000;
		}
	}
	if (*end == 'B')
		end++;
	if (strcmp(end, "/s"))
		return -1;
	*out = v * mult;
	/* a throughput no device reached: read, but no row (1) */
	return *out >= 0 && *out <= SAVED_MAX_RATE ? 0 : 1;
}

/* A word that looks like a throughput in a unit rate_word does not read
 * ("8.8Mb/s" bits or bytes?, "8.8m/s", a bare "8.8M"): 1 and its unit. */
static int rate_unknown(const char *s, const char **unit)
{
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	*unit = p;
	if (!*p || strlen(p) > 6)
		return 0;
	if (strchr("kKMGT", *p) && !p[1])
		return 1;
	return strstr(p, "/s") && strlen(strstr(p, "/s")) == 2 && isalpha((unsigned char)*p);
}

static int is_integer(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* ------------------------------------------------------------ context */

struct ctx {
	int mode;           /* 0 unknown, 'a' align, 'O' open-au, 'f' find-fat, 'R' read-speed */
	uint64_t bs, erase;
	unsigned nr;
	unsigned char nr_from;  /* enum nr_source of nr */
	unsigned nr_line;
	int nr_var;         /* --open-au-nr=$i: the value comes from an echo line */
	int random;
	unsigned line;      /* of the command */
	char dev[SAVED_CARD_NAME];  /* the device the command names ("" when none) */
};

/* An option's value: the word itself, or a bash product such as
 * "$[12 * 1024 * 1024]" or "$((64*1024))" spread over several words, read
 * as the product of its numbers (the only form posts use; mail software
 * has been seen to turn one '*' into '-').  Returns the words used, 0 if
 * the value is not a size. */
static size_t option_value(const struct tok *t, size_t n, size_t i, const char *v, uint64_t *out)
{
	if (v[0] == '$' && (v[1] == '[' || v[1] == '(')) {
		uint64_t prod = 1;
		int nums = 0;
		size_t k = i;
		const char *p = v + 1;
		for (;;) {
			while (*p) {
				if (isdigit((unsigned char)*p)) {
					uint64_t x = strtoull(p, (char **)&p, 10);
					prod = x && prod > UINT64_MAX / x ? UINT64_MAX : prod * x;
					nums++;
				} else if (*p == ']' || (p[0] == ')' && p[1] == ')')) {
					*out = prod;
					return nums ? k - i + 1 : 0;
				} else {
					p++;
				}
			}
			if (++k >= n || k > i + 12)
				return 0;
			p = t[k].s;
		}
	}
	{
		const char *why;
		return parse_size(v, out, &why) ? 0 : 1;
	}
}

/* Reads the option at t[i] into c; returns the words it used (0: not an
 * option we know). */
static size_t option(const struct tok *t, size_t n, size_t i, struct ctx *c)
{
	static const struct { const char *name; char letter; int what; } opts[] = {
		{ "--blocksize", 'b', 'b' }, { "--erasesize", 'e', 'e' }, { "--open-au-nr", 0, 'n' },
	};
	char word[64];
	const char *s = word;
	size_t len0 = strlen(t[i].s);

	/* "--random;" ends a shell command: the ';' is not part of the option */
	while (len0 && (t[i].s[len0 - 1] == ';' || t[i].s[len0 - 1] == '\\'))
		len0--;
	if (len0 >= sizeof(word))
		return 0;
	memcpy(word, t[i].s, len0);
	word[len0] = '\0';
	if (!strcmp(s, "-a") || !strcmp(s, "--align"))
		return c->mode = 'a', 1;
	if (!strcmp(s, "-O") || !strcmp(s, "--open-au"))
		return c->mode = c->mode == 'f' ? 'f' : 'O', 1;
	if (!strcmp(s, "-f") || !strcmp(s, "--find-fat") || !strcmp(s, "--findfat"))
		return c->mode = 'f', 1;
	if (!strcmp(s, "-r") || !strcmp(s, "--random"))
		return c->random = 1, 1;
	/* tests no finding rests on: their rows are not open-au rows */
	if (c->line && t[i].line <= c->line + 1 &&
	    (!strcmp(s, "-R") || !strcmp(s, "--read-speed") || !strcmp(s, "-i") || !strcmp(s, "--interval") ||
	     !strcmp(s, "-s") || !strcmp(s, "--scatter")))
		return c->mode = 'R', 1;
	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		size_t len = strlen(opts[k].name), used;
		const char *v = NULL;
		size_t vi = i;
		uint64_t x;
		if (!strncmp(s, opts[k].name, len) && s[len] == '=') {
			v = s + len + 1;
		} else if ((!strcmp(s, opts[k].name) || (opts[k].letter && s[0] == '-' && s[1] == opts[k].letter &&
							   !s[2])) && i + 1 < n) {
			vi = i + 1;
			v = t[vi].s;
		}
		if (!v)
			continue;
		if (opts[k].what == 'n' && v[0] == '$' && v[1] != '[' && v[1] != '(') {
			c->nr_var = 1;
			c->mode = 'O';
			return vi - i + 1;
		}
		if (!(used = option_value(t, n, vi, v, &x)))
			return 0;
		if (opts[k].what == 'b')
			c->bs = x;
		else if (opts[k].what == 'e')
			c->erase = x;
		else if (x > 0 && x < 100000) {
			c->nr = (unsigned)x;
			c->nr_from = NR_COMMAND;
			c->nr_line = t[i].line;
			c->mode = c->mode == 'f' ? 'f' : 'O';
		}
		return vi - i + used;
	}
	return 0;
}

static int is_command(const char *s)
{
	size_t n = strlen(s), k = strlen("flashbench");
	return n >= k && !strcmp(s + n - k, "flashbench") && (n == k || s[n - k - 1] == '/');
}

/* ------------------------------------------------------------ records */

/* "pre" followed by a time, or "pre735µs" in one word */
static int keyed(const struct tok *t, size_t n, size_t *i, const char *key, double *v, unsigned char *unit)
{
	size_t k = strlen(key);
	enum time_unit u;

	if (*i >= n)
		return -1;
	if (!strcmp(t[*i].s, key) && *i + 1 < n && !classic_time(t[*i + 1].s, v, &u)) {
		char joined[64];
		/* "734 µs": the unit a word of its own */
		if (u == TU_NONE && *i + 2 < n && strlen(t[*i + 1].s) + strlen(t[*i + 2].s) < sizeof(joined) &&
		    isalpha((unsigned char)t[*i + 2].s[0]) + ((unsigned char)t[*i + 2].s[0] >= 0x80) &&
		    (strcpy(joined, t[*i + 1].s), strcat(joined, t[*i + 2].s), 1) &&
		    !classic_time(joined, v, &u) && u != TU_NONE) {
			*unit = (unsigned char)u;
			*i += 3;
			return 0;
		}
		*unit = (unsigned char)u;
		*i += 2;
		return 0;
	}
	if (!strncmp(t[*i].s, key, k) && !classic_time(t[*i].s + k, v, &u)) {
		*unit = (unsigned char)u;
		*i += 1;
		return 0;
	}
	return -1;
}

/* An align record at t[*i]; advances *i past it. */
static int align_record(const struct tok *t, size_t n, size_t *i, struct align_row *r, int *computed,
			unsigned char unit[4])
{
	size_t k = *i + 2;

	if (strcmp(t[*i].s, "align") || *i + 1 >= n || !is_integer(t[*i + 1].s))
		return -1;
	memset(r, 0, sizeof(*r));
	memset(unit, TU_NONE, 4);
	r->align = strtoull(t[*i + 1].s, NULL, 10);
	if (!r->align || keyed(t, n, &k, "pre", &r->pre, &unit[0]) || keyed(t, n, &k, "on", &r->on, &unit[1]) ||
	    keyed(t, n, &k, "post", &r->post, &unit[2]))
		return -1;
	*computed = keyed(t, n, &k, "diff", &r->diff, &unit[3]) != 0;
	/* a positive diff without a unit was cut off (the classic tool leaves
	 * the unit off negative ones only) */
	if (!*computed && unit[3] == TU_NONE && r->diff >= 0)
		*computed = 1;
	if (*computed) {
		unit[3] = TU_NONE;
		r->diff = r->on - (r->pre + r->post) / 2;
		if (k < n && !strncmp(t[k].s, "diff", 4)) /* "diff" with its value cut off */
			k++;
	}
	*i = k;
	return 0;
}

#define CONTEXTS 8
/* a label line (label_line) is short, and names a count a card can keep */
#define LABEL_WORDS 10
#define LABEL_MAX_NR 64

/* An align row as read, before it is put in a run. */
struct seg_row {
	struct align_row row;
	unsigned line;
	unsigned char unit[4];
	int computed;
};

/* The last label line naming an open-AU count (label_line): it names the
 * one table below it (a command line between them included); a second
 * table has no count from it. */
struct label {
	unsigned nr, line;
	int random;         /* 1 random, 0 linear, -1 not said */
	uint64_t bs, erase; /* the block and erase size it names (0: none) */
	int used;           /* a table took it */
};

struct reader {
	struct saved_text *out;
	const struct words *w;
	struct ctx c;
	struct label label;
	struct ctx seen[CONTEXTS];       /* the distinct -O contexts of the text's command lines */
	size_t nseen;
	struct saved_open_table *cols[SAVED_FAT_BLOCKS];  /* the columns being read, or ncols 0 */
	size_t ncols;
	struct seg_row *seg;             /* the align rows read since the context last changed */
	size_t nseg, segcap;
	uint64_t seg_bs;                 /* their block size and card, from the context of the first */
	char seg_card[SAVED_CARD_NAME];
	struct saved_open_table *table;
	struct saved_fat_table *fat;
	struct saved_other *other;       /* the --read-speed (-R) rows being read, or NULL */
	char heading[SAVED_CARD_NAME];   /* the last card heading ("Card A: ..."), "" when none */
	char headings[CONTEXTS][SAVED_CARD_NAME];  /* the headings seen, as first written */
	size_t nheadings;
	unsigned last_line;
};

/* The card the tables read now belong to: a heading above them names it,
 * else the device of their command line; "" when the text does not say. */
static const char *identity(const struct reader *rd)
{
	return rd->heading[0] ? rd->heading : rd->c.dev;
}

static void row_line(struct reader *rd, unsigned line)
{
	if (line != rd->last_line)
		rd->out->table_lines++;
	rd->last_line = line;
}

void saved_note(struct saved_text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!lines_vadd(LINES(t->notes, t->nnotes), 0, fmt, ap))
		t->notes_left++;
	va_end(ap);
}

void *saved_new_table(struct saved_text *t, void *tables, size_t *n, size_t max, size_t size, size_t rows)
{
	char *next;

	if (*n == max) {
		t->dropped += (unsigned)rows;
		return NULL;
	}
	next = (char *)tables + (*n)++ * size;
	memset(next, 0, size);
	return next;
}

static void add_align(struct reader *rd, const struct align_row *row, int computed, const unsigned char unit[4],
		      unsigned line)
{
	struct seg_row *g = grow(rd->seg, &rd->segcap, rd->nseg, sizeof(*g), 64);

	if (!g) {
		rd->out->dropped++;
		return;
	}
	rd->seg = g;
	if (!rd->nseg) {
		/* only an -a command line says what block size its table read
		 * with: -f's or -O's -b is another test's chunk size */
		rd->seg_bs = rd->c.mode == 'a' ? rd->c.bs : 0;
		snprintf(rd->seg_card, sizeof(rd->seg_card), "%s", identity(rd));
	}
	g[rd->nseg].row = *row;
	g[rd->nseg].line = line;
	memcpy(g[rd->nseg].unit, unit, 4);
	g[rd->nseg++].computed = computed;
	row_line(rd, line);
}

static int same_row(const struct align_row *a, const struct align_row *b)
{
	return a->align == b->align && a->pre == b->pre && a->on == b->on && a->post == b->post && a->diff == b->diff;
}

/* A new run for the rows from g, in the segment's context. */
static struct saved_align_run *new_run(struct reader *rd, const struct seg_row *g)
{
	struct saved_align_run *run = SAVED_NEW_TABLE(rd->out, align, 1);

	if (!run)
		return NULL;
	run->line = g->line;
	run->bs = rd->seg_bs;
	run->bs_given = rd->seg_bs != 0;
	memcpy(run->card, rd->seg_card, sizeof(run->card));
	return run;
}

static int run_has(const struct saved_align_run *run, uint64_t align)
{
	for (size_t i = 0; i < run->n; i++)
		if (run->rows[i].align == align)
			return 1;
	return 0;
}

/* The align rows read in one context become runs.  A run is printed
 * largest alignment first, each alignment once: where the alignments rise
 * again, the rows that follow are a new run only when they repeat an
 * alignment of the run before (a table pasted twice, a second run without
 * its command line).  A row printed twice in a row is read once, and rows
 * out of order (two swapped, a table printed smallest first) stay one run:
 * a copy accident is not a second measurement. */
static void end_align(struct reader *rd)
{
	struct seg_row *g = rd->seg;
	size_t m = 0, k = 0, first_run = rd->out->nalign;
	struct saved_align_run *run = NULL;

	if (!rd->nseg)
		return;
	for (size_t i = 0; i < rd->nseg; i++) {
		if (m && same_row(&g[i].row, &g[m - 1].row)) {
			saved_note(rd->out, "line %u repeats line %u (align %llu) exactly: read once", g[i].line,
				   g[m - 1].line, (unsigned long long)g[i].row.align);
			continue;
		}
		g[m++] = g[i];
	}
	rd->nseg = 0;
	while (k < m) {
		size_t e = k + 1, overlap = 0;
		int first_only;
		while (e < m && g[e].row.align < g[e - 1].row.align) /* a falling piece */
			e++;
		for (size_t i = k; run && i < e; i++)
			overlap += run_has(run, g[i].row.align);
		first_only = run && overlap == 1 && run->rows[run->n - 1].align == g[k].row.align;
		if (first_only) {
			saved_note(rd->out, "line %u reads align %llu again, with other times than line %u: kept the first",
				   g[k].line, (unsigned long long)g[k].row.align, run->row_line[run->n - 1]);
			k++;
		} else if (overlap) {
			run = NULL;
		}
		for (; k < e; k++) {
			if ((!run || run->n == SAVED_ALIGN_ROWS) && !(run = new_run(rd, &g[k])))
				continue;
			run->row_line[run->n] = g[k].line;
			memcpy(run->unit[run->n], g[k].unit, 4);
			run->rows[run->n++] = g[k].row;
			run->computed_diffs += g[k].computed;
		}
	}
	/* the classic tool reads down to twice the block size: a command line
	 * whose block size is larger was not this table's */
	for (size_t r = first_run; r < rd->out->nalign; r++) {
		struct saved_align_run *a = &rd->out->align[r];
		uint64_t lo = UINT64_MAX;
		char x[32], y[32];
		for (size_t i = 0; i < a->n; i++)
			lo = a->rows[i].align < lo ? a->rows[i].align : lo;
		if (a->bs_given && a->n && lo < 2 * a->bs) {
			saved_note(rd->out, "the command line above the -a run at line %u says --blocksize=%s, but the run "
				   "goes down to align %s, which reads of that size never reach: the block size is taken "
				   "from the rows", a->line, format_size(x, sizeof(x), a->bs), format_size(y, sizeof(y), lo));
			a->bs = 0;
			a->bs_given = 0;
		}
	}
}
/* A new -O table's --open-au-nr and order: its command line's, or a loop's
 * echo; else the label line above it; else, under a -O command line that
 * sets none, the classic default.  A table run by a script that prints no
 * command line keeps 0: its count is not in the text. */
static void table_count(struct reader *rd, struct saved_open_table *tb)
{
	int label_sizes = 0;

	tb->random = rd->c.random;
	if (rd->c.nr) {
		tb->nr = rd->c.nr;
		tb->nr_from = rd->c.nr_from;
		tb->nr_line = rd->c.nr_line;
	} else if (rd->label.nr && !rd->label.used) {
		tb->nr = rd->label.nr;
		tb->nr_from = NR_LABEL;
		tb->nr_line = rd->label.line;
		if (rd->label.random >= 0 && !rd->c.random)
			tb->random = rd->label.random;
		label_sizes = 1;
		rd->label.used = 1;
	} else if (rd->c.line && rd->c.mode == 'O' && !rd->c.nr_var) {
		tb->nr = CLASSIC_OPEN_AU_NR;
		tb->nr_from = NR_DEFAULT;
		tb->nr_line = rd->c.line;
	}
	tb->erase = rd->c.erase ? rd->c.erase : label_sizes ? rd->label.erase : 0;
	tb->bs = rd->c.bs ? rd->c.bs : label_sizes ? rd->label.bs : 0;
}

static void add_open(struct reader *rd, uint64_t size, double rate, unsigned line)
{
	struct saved_text *o = rd->out;
	struct saved_open_table *tb = rd->table;

	if (!tb || size >= tb->size[tb->n - 1] || tb->n == SAVED_OPEN_ROWS) {
		if (!(tb = SAVED_NEW_TABLE(o, open, 1)))
			return;
		rd->table = tb;
		table_count(rd, tb);
		tb->line = line;
		snprintf(tb->card, sizeof(tb->card), "%s", identity(rd));
	}
	tb->size[tb->n] = size;
	tb->rate[tb->n++] = rate;
	row_line(rd, line);
}

/* A find-fat row: a chunk size and one rate per erase block (the words
 * t[0..ncols-1]). */
static void add_fat(struct reader *rd, uint64_t size, const struct tok *t, size_t ncols, unsigned line)
{
	struct saved_text *o = rd->out;
	struct saved_fat_table *tb = rd->fat;

	o->fat_rows++;
	if (ncols > SAVED_FAT_BLOCKS) {
		if (!rd->fat || rd->fat->nblocks != SAVED_FAT_BLOCKS)
			saved_note(o, "line %u: a find-fat row of %zu erase blocks; the first %d are read", line, ncols,
				   SAVED_FAT_BLOCKS);
		ncols = SAVED_FAT_BLOCKS;
	}
	if (!tb || size >= tb->size[tb->n - 1] || tb->n == SAVED_FAT_ROWS || ncols != tb->nblocks) {
		if (!(tb = SAVED_NEW_TABLE(o, fat, 1)))
			return;
		rd->fat = tb;
		tb->erase = rd->c.erase;
		tb->nblocks = (unsigned)ncols;
		tb->line = line;
		snprintf(tb->card, sizeof(tb->card), "%s", identity(rd));
	}
	tb->size[tb->n] = size;
	for (size_t k = 0; k < ncols; k++)
		rate_word(t[k].s, &tb->rate[tb->n][k]);
	tb->n++;
	row_line(rd, line);
}

/* ------------------------------------------------------------ columns */

/* A line that only separates a table's header from its rows ("|---|---|",
 * "+-----+", "===") or nothing at all. */
static int separator_line(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("|-+:= \t\r>", p[i]))
			return 0;
	return 1;
}

/* Cells of a header line: split at '|' (and "!!") when it has them, else
 * at tabs, else at runs of two spaces or more, else at single spaces. */
static size_t header_cells(const char *p, size_t n, char cells[][SAVED_CARD_NAME], size_t max)
{
	int how = memchr(p, '|', n) ? '|' : memchr(p, '\t', n) ? '\t' : 2;

	for (int pass = 0; pass < 2; pass++, how = how == 2 ? 1 : how) {
		size_t nc = 0, i = 0;
		while (i < n && nc < max) {
			size_t start, end;
			while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '|' || p[i] == '!' || p[i] == '>' ||
					 p[i] == '\r'))
				i++;
			start = i;
			while (i < n && p[i] != '\r') {
				if ((how == '|' && (p[i] == '|' || (p[i] == '!' && i + 1 < n && p[i + 1] == '!'))) ||
				    (how == '\t' && p[i] == '\t') ||
				    (how == 2 && p[i] == ' ' && i + 1 < n && (p[i + 1] == ' ' || p[i + 1] == '\t')) ||
				    (how == 1 && (p[i] == ' ' || p[i] == '\t')))
					break;
				i++;
			}
			end = i;
			while (end > start && (p[end - 1] == ' ' || p[end - 1] == '\t'))
				end--;
			if (end > start) {
				size_t l = end - start < SAVED_CARD_NAME - 1 ? end - start : SAVED_CARD_NAME - 1;
				memcpy(cells[nc], p + start, l);
				cells[nc++][l] = '\0';
			}
		}
		if (how != 2 || nc > 1)
			return nc;
	}
	return 0;
}

/* Is p[0..n) the header of a table of ncols rate columns?  1 and the
 * columns' names (or "" each, when the cells do not match the columns);
 * 0 when it is not one (a command line, prose with rates, rows).  joined:
 * the header was wrapped over lines and joined again: then only its
 * starting with the rows' label makes it one. */
static int header_text(const char *p, size_t n, size_t ncols, char names[][SAVED_CARD_NAME], int joined)
{
	static const char *const labels[] = { "size", "chunk", "block", "segment", NULL };
	char cells[SAVED_FAT_BLOCKS + 2][SAVED_CARD_NAME];
	const char *q = p;
	size_t nc;
	int letters = 0;

	for (size_t i = 0; i < n; i++)
		letters |= isalpha((unsigned char)p[i]) != 0;
	if (!letters)
		return 0;
	{
		char copy[512];
		size_t l = n < sizeof(copy) - 1 ? n : sizeof(copy) - 1;
		double r;
		memcpy(copy, p, l);
		copy[l] = '\0';
		if (strstr(copy, "flashbench") || strstr(copy, "align "))
			return 0;
		for (char *tok = strtok(copy, " \t|"); tok; tok = strtok(NULL, " \t|"))
			if (!rate_word(tok, &r))
				return 0;
	}
	nc = header_cells(p, n, cells, sizeof(cells) / sizeof(cells[0]));
	for (size_t k = 0; k < ncols; k++)
		names[k][0] = '\0';
	if (!joined && (nc == ncols + 1 || nc == ncols)) {
		for (size_t k = 0; k < ncols; k++)
			memcpy(names[k], cells[k + (nc - ncols)], SAVED_CARD_NAME);
		return 1;
	}
	/* cells that do not match the columns: a header only when it starts
	 * with the rows' label ("Size ..."), not prose above a table */
	while (q < p + n && (*q == ' ' || *q == '\t' || *q == '|' || *q == '!' || *q == '>'))
		q++;
	for (int k = 0; labels[k]; k++)
		if ((size_t)(p + n - q) >= strlen(labels[k]) && !strncasecmp(q, labels[k], strlen(labels[k])))
			return 1;
	return 0;
}

/* The header line above a table of ncols rate columns whose first row is
 * on line `line` (blank and separator lines skipped): see header_text.  A
 * header wrapped over two or three lines (a narrow mail) counts too. */
static int column_header(const struct words *w, unsigned line, size_t ncols, char names[][SAVED_CARD_NAME])
{
	const char *p = NULL;
	size_t n = 0;
	char joined[512] = "";

	while (line > 1) {
		p = line_text(w, --line, &n);
		if (!p || !separator_line(p, n))
			break;
		p = NULL;
	}
	if (!p)
		return 0;
	if (header_text(p, n, ncols, names, 0))
		return 1;
	for (int k = 1; k < 3 && line > 1; k++) {
		size_t jl = strlen(joined), m;
		const char *above = line_text(w, --line, &m);
		char tmp[512];
		if (!above || separator_line(above, m))
			return 0;
		if (!jl)
			snprintf(joined, sizeof(joined), "%.*s", (int)(n < 500 ? n : 500), p);
		snprintf(tmp, sizeof(tmp), "%.*s %.250s", (int)(m < 250 ? m : 250), above, joined);
		memcpy(joined, tmp, sizeof(joined));
		if (header_text(joined, strlen(joined), ncols, names, 1))
			return 1;
	}
	return 0;
}

/* A row of a table of several rate columns (t[0..ncols-1]): one -O table
 * per column, continued while the sizes fall. */
static void add_columns(struct reader *rd, uint64_t size, const struct tok *t, size_t ncols, unsigned line,
			const char names[][SAVED_CARD_NAME])
{
	struct saved_text *o = rd->out;

	if (ncols > SAVED_FAT_BLOCKS)
		ncols = SAVED_FAT_BLOCKS;
	if (!rd->ncols || rd->ncols != ncols || size >= rd->cols[0]->size[rd->cols[0]->n - 1] ||
	    rd->cols[0]->n == SAVED_OPEN_ROWS) {
		int took = rd->label.used; /* one label names all the columns of one table */
		rd->ncols = 0;
		for (size_t k = 0; k < ncols; k++) {
			struct saved_open_table *tb = SAVED_NEW_TABLE(o, open, 1);
			if (!tb)
				return;
			rd->label.used = took;
			table_count(rd, tb);
			tb->line = line;
			tb->column = (unsigned)k + 1;
			if (names)
				memcpy(tb->card, names[k], SAVED_CARD_NAME);
			utf8_printable(tb->card);
			rd->cols[rd->ncols++] = tb;
		}
	}
	for (size_t k = 0; k < rd->ncols; k++) {
		struct saved_open_table *tb = rd->cols[k];
		tb->size[tb->n] = size;
		rate_word(t[k].s, &tb->rate[tb->n++]);
	}
	row_line(rd, line);
}

/* Remember the -O context of the command line that ends here. */
static void note_context(struct reader *rd)
{
	size_t k;

	if (rd->c.mode != 'O' || !rd->c.nr)
		return;
	for (k = 0; k < rd->nseen; k++)
		if (rd->seen[k].nr == rd->c.nr && rd->seen[k].random == rd->c.random && rd->seen[k].erase == rd->c.erase)
			return;
	if (rd->nseen < CONTEXTS)
		rd->seen[rd->nseen++] = rd->c;
}

/* The tables being read end (a command line, a heading, other rows). */
static void end_tables(struct reader *rd)
{
	end_align(rd);
	rd->table = NULL;
	rd->fat = NULL;
	rd->other = NULL;
	rd->ncols = 0;
}

/* A --read-speed (-R) row: named as a result, not analysed. */
static void add_other(struct reader *rd, const char *test, unsigned line)
{
	struct saved_text *o = rd->out;

	if (!rd->other) {
		if (o->nother == SAVED_OTHER)
			return;
		rd->other = &o->other[o->nother++];
		memset(rd->other, 0, sizeof(*rd->other));
		snprintf(rd->other->test, sizeof(rd->other->test), "%s", test);
		rd->other->line = line;
	}
	rd->other->rows++;
	row_line(rd, line);
}

/* A line a script printed to name the open-AU count of the table below
 * it: words of the vocabulary below (in any order and case), '=', ':' and
 * other punctuation, and one count, such as "AU nr = 3 random", "open
 * AUs: 4", "=== nr 5 (linear) ===", "======= AU=2, random access =======";
 * a block or erase size may come with it, each number after its name
 * ("BLOCKSIZE = 4096 ERASESIZE = 1048576 AU = 3", "erasesize 4MiB").  It
 * must name an AU or a nr, so prose ("3 open erase blocks are fine") is
 * none, and an option (a word starting "-") is left to the command-line
 * reader.  Returns the words of the line (0: not a label) and fills l. */
struct label_read {
	unsigned nr;
	int random;         /* 1 random, 0 linear, -1 not said */
	uint64_t bs, erase; /* 0: not said */
};

static size_t label_line(const struct tok *t, size_t n, size_t i, struct label_read *l)
{
	static const struct { const char *word; int what; } vocab[] = {
		{ "au", 'A' }, { "aus", 'A' }, { "nr", 'A' }, { "open", 0 }, { "opened", 0 }, { "count", 0 },
		{ "order", 0 }, { "n", 0 }, { "access", 0 }, { "mode", 0 }, { "size", 0 }, { "linear", 'l' },
		{ "lin", 'l' }, { "sequential", 'l' }, { "seq", 'l' }, { "random", 'r' }, { "rand", 'r' },
		{ "rnd", 'r' }, { "blocksize", 'b' }, { "bs", 'b' }, { "block", 'b' }, { "erasesize", 'e' },
		{ "erase", 'e' },
	};
	size_t e = i;
	int named = 0, counts = 0, last = 0;

	memset(l, 0, sizeof(*l));
	l->random = -1;
	while (e < n && t[e].line == t[i].line)
		e++;
	if (e - i > LABEL_WORDS)
		return 0;
	for (size_t k = i; k < e; k++) {
		const char *p = t[k].s;
		if (p[0] == '-' && (isalpha((unsigned char)p[1]) || p[1] == '-'))
			return 0;
		while (*p) {
			size_t len, w;
			if (isdigit((unsigned char)*p)) {
				/* a number, with a size's suffix when it has one */
				char num[32];
				const char *why;
				uint64_t x;
				for (len = 0; len < sizeof(num) - 1 && (isalnum((unsigned char)p[len]) || p[len] == '.'); len++)
					num[len] = p[len];
				num[len] = '\0';
				if (parse_size(num, &x, &why))
					return 0;
				if (last == 'b' || last == 'e') {
					*(last == 'b' ? &l->bs : &l->erase) = x;
				} else {
					if (x < 1 || x > LABEL_MAX_NR || len != strspn(num, "0123456789"))
						return 0;
					l->nr = (unsigned)x;
					counts++;
				}
				last = 0;
				p += len;
				continue;
			}
			if (!isalpha((unsigned char)*p)) {
				p++;
				continue;
			}
			for (len = 0; isalpha((unsigned char)p[len]); len++)
				;
			for (w = 0; w < sizeof(vocab) / sizeof(vocab[0]); w++)
				if (strlen(vocab[w].word) == len && !strncasecmp(p, vocab[w].word, len))
					break;
			if (w == sizeof(vocab) / sizeof(vocab[0]))
				return 0;
			named |= vocab[w].what == 'A';
			if (vocab[w].what == 'l' || vocab[w].what == 'r')
				l->random = vocab[w].what == 'r';
			if (vocab[w].what == 'b' || vocab[w].what == 'e' || vocab[w].what == 'A')
				last = vocab[w].what;
			p += len;
		}
	}
	return named && counts == 1 ? e - i : 0;
}

/* "Card A: SanDisk Ultra 8GB", "Card B (Kingston 4GB)", "## Device 2:" at
 * words t[i..] starting a line: a heading that names the card of the
 * tables below it.  The second word is a label (a capital letter or a
 * number), so prose ("Drive conforms to ...", "stick can ...") is not one.  Returns the
 * words of the line (0: not a heading) and the name. */
static size_t card_heading(const struct tok *t, size_t n, size_t i, char *name, size_t len)
{
	static const char *const kinds[] = { "card", "device", "stick", "drive", "disk", "medium", NULL };
	const char *w = t[i].s;
	size_t e = i, o = 0, lab;
	int kind = 0;

	while (*w == '#' || *w == '*' || *w == '=')
		w++;
	if (!*w && i + 1 < n && t[i + 1].line == t[i].line)
		w = t[++e].s;
	for (int k = 0; kinds[k]; k++)
		kind |= !strcasecmp(w, kinds[k]);
	if (!kind || e + 1 >= n || t[e + 1].line != t[i].line)
		return 0;
	/* the label: one capital letter, or a number ("#2" too) */
	{
		const char *l = t[e + 1].s + (t[e + 1].s[0] == '#');
		lab = strcspn(l, ":,)(-");
		if (!(lab == 1 && isupper((unsigned char)l[0])) && !(lab && lab <= 3 && strspn(l, "0123456789") == lab))
			return 0;
	}
	for (e = i; e < n && t[e].line == t[i].line; e++) {
		if (e - i > 12 || is_command(t[e].s))
			return 0;
		o += (size_t)snprintf(name + o, o < len ? len - o : 0, "%s%s", o ? " " : "", t[e].s);
		if (o >= len)
			o = len - 1;
	}
	/* the markup around it goes */
	while (o && strchr(":*=#", name[o - 1]))
		name[--o] = '\0';
	{
		size_t lead = strspn(name, "#*= ");
		memmove(name, name + lead, strlen(name + lead) + 1);
	}
	utf8_printable(name);
	return e - i;
}

void classic_read(const char *text, size_t len, struct saved_text *out)
{
	struct words w;
	struct reader rd;
	size_t i = 0;
	unsigned skipped = 0, skipped_line = 0;
	char skipped_unit[16] = "";

	memset(out, 0, sizeof(*out));
	memset(&rd, 0, sizeof(rd));
	rd.out = out;
	rd.w = &w;
	if (split_words(text, len, &w, &out->lines)) {
		free(w.buf);
		free(w.clean);
		free(w.t);
		return;
	}
	while (i < w.n) {
		const struct tok *t = &w.t[i];
		struct align_row row;
		unsigned char unit[4];
		uint64_t size, x;
		double rate;
		size_t used;
		int computed;
		struct label_read lr;
		const char *unknown;

		if (!align_record(w.t, w.n, &i, &row, &computed, unit)) {
			if (rd.table || rd.fat || rd.ncols || rd.other) {
				rd.table = NULL;
				rd.fat = NULL;
				rd.other = NULL;
				rd.ncols = 0;
			}
			add_align(&rd, &row, computed, unit, t->line);
			continue;
		}
		if (!size_word(t->s, &size) && i + 1 < w.n && !rate_word(w.t[i + 1].s, &rate)) {
			size_t k = i + 2;
			double more;
			while (k < w.n && !rate_word(w.t[k].s, &more))
				k++;
			end_align(&rd);
			if (rd.c.mode == 'R') {
				add_other(&rd, "read-speed", t->line);
			} else if (rd.ncols && k - i - 1 < rd.ncols && size < rd.cols[0]->size[rd.cols[0]->n - 1]) {
				/* a row of a table of columns with cells missing:
				 * cut off where the copy ended */
				out->cut_rows++;
			} else if (k > i + 2 && rd.c.mode != 'f') {
				/* several columns: one card each under a header
				 * line of names; else find-fat (the one classic test
				 * that prints several, posted without its command) */
				char names[SAVED_FAT_BLOCKS][SAVED_CARD_NAME];
				size_t nc = k - i - 1;
				int cont = rd.ncols == (nc < SAVED_FAT_BLOCKS ? nc : SAVED_FAT_BLOCKS) &&
					   size < rd.cols[0]->size[rd.cols[0]->n - 1];
				int header = !cont && !rd.fat && column_header(&w, t->line, nc < SAVED_FAT_BLOCKS ? nc :
									       SAVED_FAT_BLOCKS, names);
				if (cont || header) {
					rd.table = NULL;
					rd.fat = NULL;
					add_columns(&rd, size, &w.t[i + 1], nc, t->line, header ? names : NULL);
				} else {
					rd.table = NULL;
					rd.ncols = 0;
					add_fat(&rd, size, &w.t[i + 1], nc, t->line);
				}
			} else if (k > i + 2 || rd.c.mode == 'f') { /* find-fat: one column per erase block */
				rd.table = NULL;
				rd.ncols = 0;
				add_fat(&rd, size, &w.t[i + 1], k - i - 1, t->line);
			} else {
				rd.fat = NULL;
				rd.ncols = 0;
				add_open(&rd, size, rate, t->line);
			}
			/* -v adds min/avg/max */
			while (k + 1 < w.n && (!strcmp(w.t[k].s, "min") || !strcmp(w.t[k].s, "avg") ||
					       !strcmp(w.t[k].s, "max")) && !classic_time(w.t[k + 1].s, &more, NULL))
				k += 2;
			i = k;
			continue;
		}
		/* a size and a throughput no device reached: skipped, and said */
		if (!size_word(t->s, &size) && i + 1 < w.n && rate_word(w.t[i + 1].s, &rate) == 1) {
			char r[32];
			snprintf(r, sizeof(r), "%.24s", w.t[i + 1].s);
			utf8_printable(r);
			saved_note(out, "line %u: a throughput of %s is more than any device reached (10 TB/s): row skipped",
				   t->line, r);
			i += 2;
			while (i < w.n && w.t[i].line == t->line && rate_word(w.t[i].s, &rate) >= 0)
				i++;
			continue;
		}
		/* an align row with a value that is no time: skipped, and said */
		if (!strcmp(t->s, "align") && i + 2 < w.n && is_integer(w.t[i + 1].s) && !strncmp(w.t[i + 2].s, "pre", 3)) {
			saved_note(out, "line %u: the row for align %.20s has a value that is not a time: row skipped", t->line,
				   w.t[i + 1].s);
			i += 2;
			continue;
		}
		/* a size and a throughput in a unit not read: skipped, and said */
		if (!size_word(t->s, &size) && i + 1 < w.n && w.t[i + 1].line == t->line &&
		    rate_unknown(w.t[i + 1].s, &unknown)) {
			if (!skipped++) {
				skipped_line = t->line;
				snprintf(skipped_unit, sizeof(skipped_unit), "%s", unknown);
				utf8_printable(skipped_unit);
			}
			i += 2;
			continue;
		}
		if (is_command(t->s)) {
			note_context(&rd);
			end_tables(&rd);
			memset(&rd.c, 0, sizeof(rd.c));
			rd.c.line = t->line;

			i++;
			continue;
		}
		if (!strcmp(t->s, "^C")) {
			if (rd.table)
				rd.table->interrupted = 1;
			rd.table = NULL;
			i++;
			continue;
		}
		if (strstr(t->s, "preferred_erase_size")) {
			const char *colon = strchr(t->s, ':');
			if (colon && is_integer(colon + 1))
				out->card_erase = strtoull(colon + 1, NULL, 10);
			for (size_t k = i + 1; !(colon && is_integer(colon + 1)) && k < w.n && k < i + 4; k++)
				if (is_integer(w.t[k].s) && (x = strtoull(w.t[k].s, NULL, 10)) >= 4096) {
					out->card_erase = x;
					break;
				}
			i++;
			continue;
		}
		/* "1" alone on a line after a loop's --open-au-nr=$i */
		if (t->alone && rd.c.nr_var && is_integer(t->s) && strlen(t->s) < 6) {
			rd.c.nr = (unsigned)strtoul(t->s, NULL, 10);
			rd.c.nr_from = NR_ECHO;
			rd.c.nr_line = t->line;
			rd.table = NULL;
			i++;
			continue;
		}
		/* the device a command line names (on its line or the next) */
		if (rd.c.line && t->line <= rd.c.line + 1 && (!strncmp(t->s, "/dev/", 5) || !strncmp(t->s, "sim:", 4))) {
			snprintf(rd.c.dev, sizeof(rd.c.dev), "%.*s", (int)strcspn(t->s, ";'\""), t->s);
			utf8_printable(rd.c.dev);
			end_tables(&rd);
			i++;
			continue;
		}
		if ((i == 0 || w.t[i - 1].line != t->line) && (used = label_line(w.t, w.n, i, &lr))) {
			rd.label.nr = lr.nr;
			rd.label.random = lr.random;
			rd.label.bs = lr.bs;
			rd.label.erase = lr.erase;
			rd.label.line = t->line;
			rd.label.used = 0;
			if (!out->label_line) {
				size_t ln;
				const char *p = line_text(&w, t->line, &ln);
				out->label_line = t->line;
				while (p && ln && strchr(">| \t", *p))
					p++, ln--;
				while (p && ln && strchr("\r \t", p[ln - 1]))
					ln--;
				snprintf(out->label, sizeof(out->label), "%.*s", p ? (int)ln : 0, p ? p : "");
				utf8_printable(out->label);
			}
			end_tables(&rd);
			i += used;
			continue;
		}
		if ((i == 0 || w.t[i - 1].line != t->line) &&
		    (used = card_heading(w.t, w.n, i, rd.heading, sizeof(rd.heading)))) {
			/* "Card A: first run", "Card A: again": one card, the name
			 * it was first given */
			size_t k, key = strcspn(rd.heading, " ");
			key += strcspn(rd.heading + key + 1, " :,()-") + 1;
			for (k = 0; k < rd.nheadings; k++)
				if (!strncasecmp(rd.headings[k], rd.heading, key) && strchr(" :,()-", rd.headings[k][key] ? rd.headings[k][key] : ' '))
					break;
			if (k < rd.nheadings)
				memcpy(rd.heading, rd.headings[k], sizeof(rd.heading));
			else if (rd.nheadings < CONTEXTS)
				memcpy(rd.headings[rd.nheadings++], rd.heading, sizeof(rd.heading));
			end_tables(&rd);
			i += used;
			continue;
		}
		if ((used = option(w.t, w.n, i, &rd.c))) {
			end_tables(&rd);
			i += used;
			continue;
		}
		i++;
	}
	end_tables(&rd);
	free(rd.seg);
	if (skipped)
		saved_note(out, "%u row%s with a throughput in \"%s\" (line %u%s) %s skipped: not a unit --analyze reads "
			   "(B/s, K/s, M/s, G/s, KB/s, MB/s, KiB/s, MiB/s, GiB/s)", skipped, skipped == 1 ? "" : "s",
			   skipped_unit, skipped_line, skipped == 1 ? "" : " and on", skipped == 1 ? "was" : "were");
	/* columns read before (or without) their command line: the text's
	 * one -O command, when it has exactly one */
	note_context(&rd);
	for (size_t k = 0; k < out->nopen && rd.nseen == 1; k++)
		if (out->open[k].column && !out->open[k].nr) {
			out->open[k].nr = rd.seen[0].nr;
			out->open[k].nr_from = rd.seen[0].nr_from;
			out->open[k].nr_line = rd.seen[0].nr_line;
			out->open[k].random = rd.seen[0].random;
			out->open[k].erase = rd.seen[0].erase;
			out->open[k].bs = rd.seen[0].bs;
		}
	/* the classic tool reads down to twice the block size */
	for (size_t k = 0; k < out->nalign; k++)
		if (!out->align[k].bs) {
			uint64_t lo = UINT64_MAX;
			for (size_t j = 0; j < out->align[k].n; j++)
				if (out->align[k].rows[j].align < lo)
					lo = out->align[k].rows[j].align;
			out->align[k].bs = lo / 2;
		}
	free(w.buf);
	free(w.clean);
	free(w.t);
}
