/* json_read.c — the JSON reader (see json_read.h): a strict recursive-descent
 * parser (RFC 8259) building a tree, and lookups by dotted path. */
#include "lib/json_read.h"

#include <math.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/crc32c.h"

#include "lib/utf8.h"
#include "lib/version.h"

#define JSON_READ_MAX_DEPTH 200  /* deeper input is refused, not a stack overflow */
#define CHUNK (1u << 20)         /* the arena grows a chunk at a time (a larger block: its own) */

/* The tree lives in an arena of chunks, freed at once with the document:
 * no allocation of its own per value, no slack of grown arrays (the members
 * of an array or object are gathered on the parser's stack, then copied
 * once), and each distinct member name stored once.  So a document takes
 * a small multiple of its text (the tool's own --json: about 2.5 times). */
struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct doc {
	struct json_value v;     /* first: a document is its root value */
	struct chunk *chunks;
};

struct parser {
	const char *text, *p, *end;
	long line_start;         /* offset of the line's first byte (negative: the text starts mid-line) */
	unsigned line;
	int depth;
	const char *name;
	struct fb_err *e;
	int build;               /* 0: only check that it parses */
	int head;                /* the members of the top object as far as the text goes */
	struct doc *doc;
	struct json_value *stk;  /* members being gathered, innermost last */
	char **kstk;
	size_t nstk, cstk;
	char **names;            /* distinct member names (open addressing) */
	size_t nnames, cnames;
};

/* n bytes aligned to align (a power of two, at most that of max_align_t). */
static void *arena(struct parser *ps, size_t n, size_t align)
{
	struct chunk *c = ps->doc->chunks;
	size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;

	if (!c || at > c->cap || c->cap - at < n) {
		size_t cap = n > CHUNK / 2 ? n : CHUNK;
		struct chunk *nc = malloc(sizeof(*nc) + cap);
		if (!nc)
			return NULL;
		nc->cap = cap;
		nc->used = 0;
		if (c && n > CHUNK / 2) { /* a large block: behind the current chunk, which stays in use */
			nc->next = c->next;
			c->next = nc;
			nc->used = n;
			return nc->data;
		}
		nc->next = c;
		ps->doc->chunks = c = nc;
		at = 0;
	}
	c->used = at + n;
	return (char *)c->data + at;
}

/* Give back the end of the last block arena() gave (it held n, now keep). */
static void arena_trim(struct parser *ps, void *block, size_t n, size_t keep)
{
	struct chunk *c = ps->doc->chunks;

	if (c && (char *)block + n == (char *)c->data + c->used)
		c->used -= n - keep;
}

static int oom(struct parser *ps)
{
	return fb_fail(ps->e, EXIT_DEVICE, "%s: out of memory", ps->name);
}

static int peek(const struct parser *ps) { return ps->p < ps->end ? (unsigned char)*ps->p : -1; }

static unsigned column(const struct parser *ps)
{
	return (unsigned)((ps->p - ps->text) - ps->line_start) + 1;
}

static int syntax(struct parser *ps, const char *what)
{
	int c = peek(ps);
	char got[32];

	if (c < 0)
		snprintf(got, sizeof(got), "the end of the input");
	else if (c >= 0x20 && c < 0x7f)
		snprintf(got, sizeof(got), "'%c'", c);
	else
		snprintf(got, sizeof(got), "byte 0x%02x", (unsigned)c);
	return fb_fail(ps->e, EXIT_USAGE, "%s:%u:%u: invalid JSON: expected %s, got %s", ps->name, ps->line,
		       column(ps), what, got);
}

static void ws(struct parser *ps)
{
	for (int c; (c = peek(ps)) == ' ' || c == '\t' || c == '\n' || c == '\r'; ps->p++)
		if (c == '\n') {
			ps->line++;
			ps->line_start = ps->p + 1 - ps->text;
		}
}

static int hex4(const char *s, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		int c = (unsigned char)s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		*out = *out << 4 | (unsigned)d;
	}
	return 0;
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* A member name stored once: the one seen before, else s (kept). */
static char *name_once(struct parser *ps, char *s, size_t n, size_t cap)
{
	size_t i;

	if (ps->nnames * 2 >= ps->cnames) {
		size_t nc = ps->cnames ? 2 * ps->cnames : 64;
		char **t = calloc(nc, sizeof(*t));
		if (!t)
			return s; /* not shared: still right */
		for (size_t k = 0; k < ps->cnames; k++)
			if (ps->names[k]) {
				for (i = name_hash(ps->names[k]) & (nc - 1); t[i]; i = (i + 1) & (nc - 1))
					;
				t[i] = ps->names[k];
			}
		free(ps->names);
		ps->names = t;
		ps->cnames = nc;
	}
	for (i = name_hash(s) & (ps->cnames - 1); ps->names[i]; i = (i + 1) & (ps->cnames - 1))
		if (!strcmp(ps->names[i], s)) {
			arena_trim(ps, s, cap, 0);
			return ps->names[i];
		}
	(void)n;
	ps->nnames++;
	return ps->names[i] = s;
}

/* A string at ps->p (which is '"'), decoded into the arena (*out; NULL
 * when only checking); is_name: a member name, stored once. */
static int string(struct parser *ps, char **out, int is_name)
{
	const char *q;
	char *o = NULL, u[4];
	size_t n = 0, cap;

	if (peek(ps) != '"')
		return syntax(ps, "a string");
	for (q = ps->p + 1; q < ps->end && *q != '"'; q++)
		if (*q == '\\' && q + 1 < ps->end)
			q++;
	/* decoding never grows the text: \uXXXX (6 bytes) is at most 4 in UTF-8 */
	cap = (size_t)(q - ps->p) + 1;
	if (ps->build && !(o = arena(ps, cap, 1)))
		return oom(ps);
	ps->p++;
	for (;;) {
		int c = peek(ps);
		if (c == '"')
			break;
		if (c < 0x20)
			return syntax(ps, "a closing '\"' (control characters must be escaped)");
		if (c != '\\') {
			if (o)
				o[n] = (char)c;
			n++;
			ps->p++;
			continue;
		}
		ps->p++;
		c = peek(ps);
		const char *esc = c > 0 ? strchr("\"\\/bfnrt", c) : NULL;
		if (esc) {
			if (o)
				o[n] = "\"\\/\b\f\n\r\t"[esc - "\"\\/bfnrt"];
			n++;
			ps->p++;
			continue;
		}
		unsigned cp, lo;
		if (c != 'u' || ps->end - ps->p < 5 || hex4(ps->p + 1, &cp) < 0)
			return syntax(ps, "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
		if (cp >= 0xd800 && cp < 0xdc00 && ps->end - ps->p >= 11 && ps->p[5] == '\\' && ps->p[6] == 'u' &&
		    hex4(ps->p + 7, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			ps->p += 6;
		} else if ((cp >= 0xd800 && cp < 0xe000) || cp == 0) {
			return syntax(ps, "a \\u escape of a character other than NUL or a lone surrogate");
		}
		size_t k = utf8_put(u, cp);
		if (o)
			memcpy(o + n, u, k);
		n += k;
		ps->p += 5;
	}
	ps->p++;
	if (!o)
		return 0;
	o[n] = '\0';
	arena_trim(ps, o, cap, n + 1);
	*out = is_name ? name_once(ps, o, n, n + 1) : o;
	return 0;
}

static int digits(struct parser *ps, const char *what)
{
	int c = peek(ps);

	if (c < '0' || c > '9')
		return syntax(ps, what);
	while ((c = peek(ps)) >= '0' && c <= '9')
		ps->p++;
	return 0;
}

static int number(struct parser *ps, struct json_value *v)
{
	const char *start = ps->p;
	size_t n;

	if (peek(ps) == '-')
		ps->p++;
	if (peek(ps) == '0')
		ps->p++;
	else if (digits(ps, "a value") < 0)
		return -1;
	if (peek(ps) == '.') {
		ps->p++;
		if (digits(ps, "a digit after '.'") < 0)
			return -1;
	}
	if (peek(ps) == 'e' || peek(ps) == 'E') {
		ps->p++;
		if (peek(ps) == '+' || peek(ps) == '-')
			ps->p++;
		if (digits(ps, "a digit in the exponent") < 0)
			return -1;
	}
	v->type = JSON_NUMBER;
	if (!ps->build)
		return 0;
	n = (size_t)(ps->p - start);
	if (!(v->text = arena(ps, n + 1, 1)))
		return oom(ps);
	memcpy(v->text, start, n);
	v->text[n] = '\0';
	v->number = strtod(v->text, NULL);
	return 0;
}

static int value(struct parser *ps, struct json_value *v);

/* Room on the stack for one more member. */
static int push(struct parser *ps)
{
	if (ps->nstk == ps->cstk) {
		size_t nc = ps->cstk ? 2 * ps->cstk : 64;
		struct json_value *s = realloc(ps->stk, nc * sizeof(*s));
		char **k;
		if (s)
			ps->stk = s;
		if (!s || !(k = realloc(ps->kstk, nc * sizeof(*k))))
			return oom(ps);
		ps->kstk = k;
		ps->cstk = nc;
	}
	return 0;
}

/* The members gathered from base on, copied into the arena as v's. */
static int settle(struct parser *ps, struct json_value *v, size_t base, int object)
{
	v->n = ps->nstk - base;
	if (v->n && ps->build) {
		if (!(v->item = arena(ps, v->n * sizeof(*v->item), _Alignof(struct json_value))) ||
		    (object && !(v->key = arena(ps, v->n * sizeof(*v->key), _Alignof(char *)))))
			return oom(ps);
		memcpy(v->item, ps->stk + base, v->n * sizeof(*v->item));
		if (object)
			memcpy(v->key, ps->kstk + base, v->n * sizeof(*v->key));
	}
	ps->nstk = base;
	return 0;
}

/* Members of an array or object, after the opening bracket.  With head,
 * at the top: a member the text ends in is left out, and that is no
 * error. */
static int members(struct parser *ps, struct json_value *v, int close)
{
	size_t base = ps->nstk;
	int object = close == '}', rc;

	ws(ps);
	if (peek(ps) == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		struct json_value m = { 0 };
		char *key = NULL;
		if (ps->build && push(ps))
			return -1;
		if (object) {
			ws(ps);
			if (string(ps, &key, 1) < 0)
				break;
			ws(ps);
			if (peek(ps) != ':') {
				syntax(ps, "':'");
				break;
			}
			ps->p++;
		}
		if (value(ps, &m) < 0)
			break;
		if (ps->build) {
			ps->stk[ps->nstk] = m;
			ps->kstk[ps->nstk++] = key;
		}
		ws(ps);
		if (peek(ps) == ',') {
			ps->p++;
			continue;
		}
		if (peek(ps) != close) {
			syntax(ps, object ? "',' or '}'" : "',' or ']'");
			break;
		}
		ps->p++;
		return settle(ps, v, base, object);
	}
	/* a failure: in a head, one the text's end cut short is the end (what
	 * an inner one gathered is dropped: the members before it stay) */
	if (ps->nstk > base && ps->depth != 1)
		ps->nstk = base;
	if (!ps->head || ps->depth != 1 || ps->end - ps->p > 12) /* (an escape's or a word's length from it) */
		return -1;
	ps->e->msg[0] = '\0';
	rc = settle(ps, v, base, object);
	ps->head = 2; /* done: the callers above stop too */
	return rc;
}

static int literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return syntax(ps, "a value");
	ps->p += n;
	return 0;
}

static int value(struct parser *ps, struct json_value *v)
{
	int c, rc;

	ws(ps);
	v->line = ps->line;
	v->column = column(ps);
	c = peek(ps);
	if (c == '{' || c == '[') {
		if (++ps->depth > JSON_READ_MAX_DEPTH)
			return fb_fail(ps->e, EXIT_USAGE, "%s:%u:%u: invalid JSON: nested deeper than %d levels",
				       ps->name, v->line, v->column, JSON_READ_MAX_DEPTH);
		v->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
		ps->p++;
		rc = members(ps, v, c == '{' ? '}' : ']');
		ps->depth--;
		return rc;
	}
	if (c == '"') {
		v->type = JSON_STRING;
		return string(ps, &v->text, 0);
	}
	if (c == 't' || c == 'f') {
		v->type = JSON_BOOL;
		v->boolean = c == 't';
		return literal(ps, c == 't' ? "true" : "false");
	}
	if (c == 'n')
		return literal(ps, "null");
	return number(ps, v);
}

void json_free(struct json_value *v)
{
	struct doc *d = (struct doc *)v;

	if (!d)
		return;
	for (struct chunk *c = d->chunks, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(d);
}

static int parse(struct parser *ps, struct json_value **out)
{
	struct fb_err spare;
	int rc;

	if (out)
		*out = NULL;
	if (!ps->e)
		ps->e = &spare;
	if (ps->build && !(ps->doc = calloc(1, sizeof(*ps->doc))))
		return oom(ps);
	{
		struct doc none = { { 0 }, NULL };
		rc = value(ps, ps->doc ? &ps->doc->v : &none.v);
	}
	if (!rc && ps->head != 2) {
		ws(ps);
		if (ps->p != ps->end && !ps->head)
			rc = syntax(ps, "the end of the input after the value");
	}
	free(ps->stk);
	free(ps->kstk);
	free(ps->names);
	if (rc || !out) {
		json_free(ps->doc ? &ps->doc->v : NULL);
		return rc;
	}
	*out = &ps->doc->v;
	return 0;
}

int json_parse(const char *text, size_t len, const char *name, struct json_value **out, struct fb_err *e)
{
	return json_parse_at(text, len, name, 1, 1, out, e);
}

int json_parse_at(const char *text, size_t len, const char *name, unsigned line, unsigned column,
		  struct json_value **out, struct fb_err *e)
{
	struct parser ps = { .text = text, .p = text, .end = text + len, .line_start = -(long)(column - 1),
			     .line = line, .name = name, .e = e, .build = 1 };

	return parse(&ps, out);
}

int json_check(const char *text, size_t len, const char *name, struct fb_err *e)
{
	struct parser ps = { .text = text, .p = text, .end = text + len, .line = 1, .name = name, .e = e };

	return parse(&ps, NULL);
}

int json_parse_head(const char *text, size_t len, const char *name, struct json_value **out, struct fb_err *e)
{
	struct parser ps = { .text = text, .p = text, .end = text + len, .line = 1, .name = name, .e = e,
			     .build = 1, .head = 1 };

	return parse(&ps, out);
}

static struct {
	int read;
	uint64_t len;
	uint32_t crc;
} from_stdin;

int read_stream_stdin(uint64_t *len, uint32_t *crc)
{
	*len = from_stdin.len;
	*crc = from_stdin.crc;
	return from_stdin.read;
}

static int too_large(const char *name, struct fb_err *e)
{
	return fb_fail(e, EXIT_USAGE, "%s is larger than %u MiB, far more than any saved flashbench result: give "
		       "the saved output itself (nothing was read past %u MiB)", name, READ_STREAM_MAX >> 20,
		       READ_STREAM_MAX >> 20);
}

int read_stream_size(const char *name, uint64_t size, struct fb_err *e)
{
	return size > READ_STREAM_MAX ? too_large(name, e) : 0;
}

int read_stream(FILE *in, const char *name, char **text, size_t *len, struct fb_err *e)
{
	size_t cap = 0, got;
	struct stat st;

	*text = NULL;
	*len = 0;
	if (!fstat(fileno(in), &st) && S_ISREG(st.st_mode) && read_stream_size(name, (uint64_t)st.st_size, e))
		return -1;
	if (S_ISREG(st.st_mode) && st.st_size > 0) { /* its size at once: no slack of doubling */
		if (!(*text = malloc(cap = (size_t)st.st_size + 65536)))
			return fb_fail(e, EXIT_DEVICE, "%s: out of memory", name);
	}
	do {
		if (*len + 65536 > cap) { /* doubling, but never past what may be read */
			size_t want = 2 * cap + 65536 < READ_STREAM_MAX + 65536 ? 2 * cap + 65536 : READ_STREAM_MAX + 65536;
			char *p = realloc(*text, cap = want);
			if (!p)
				return fb_fail(e, EXIT_DEVICE, "%s: out of memory", name);
			*text = p;
		}
		got = fread(*text + *len, 1, cap - *len, in);
		*len += got;
		if (*len > READ_STREAM_MAX)
			return too_large(name, e);
	} while (got);
	if (ferror(in))
		return fb_fail(e, EXIT_USAGE, "cannot read %s: %s", name, strerror(errno));
	if (in == stdin) {
		from_stdin.read = 1;
		from_stdin.crc = crc32c(from_stdin.crc, *text, *len);
		from_stdin.len += *len;
	}
	return 0;
}

int json_load(const char *path, struct json_value **out, struct fb_err *e)
{
	int is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if (!f)
		return fb_fail(e, EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
	rc = read_stream(f, is_stdin ? "standard input" : path, &buf, &len, e);
	if (!is_stdin)
		fclose(f);
	if (rc == 0)
		rc = json_parse(buf, len, is_stdin ? "standard input" : path, out, e);
	free(buf);
	return rc;
}

const struct json_value *json_get(const struct json_value *v, const char *path)
{
	while (v && *path) {
		size_t n = strcspn(path, ".");
		const struct json_value *next = NULL;

		if (v->type == JSON_OBJECT) {
			for (size_t i = 0; i < v->n && !next; i++)
				if (strlen(v->key[i]) == n && !memcmp(v->key[i], path, n))
					next = &v->item[i];
		} else if (v->type == JSON_ARRAY && n > 0 && path[0] >= '0' && path[0] <= '9') {
			char *end;
			unsigned long idx = strtoul(path, &end, 10);
			if (end == path + n && idx < v->n)
				next = &v->item[idx];
		}
		v = next;
		path += n + (path[n] == '.');
	}
	return v;
}

const char *json_type_name(enum json_type type)
{
	static const char *const names[] = { "null", "a true/false", "a number", "a string", "an array", "an object" };
	return names[type];
}

const struct json_value *json_want(const struct json_value *v, const char *path, enum json_type type,
				   const char *name, struct fb_err *e)
{
	const struct json_value *got = json_get(v, path);

	if (!got) {
		fb_fail(e, EXIT_USAGE, "%s: no field %s", name, path);
		return NULL;
	}
	if (got->type != type) {
		fb_fail(e, EXIT_USAGE, "%s:%u:%u: field %s is %s, not %s", name, got->line, got->column, path,
			json_type_name(got->type), json_type_name(type));
		return NULL;
	}
	return got;
}

int json_format_check(const struct json_value *doc, const char *name, struct fb_err *e)
{
	const struct json_value *f = json_get(doc, "format");

	if (!f)
		return 0;
	if (f->type != JSON_NUMBER || !isfinite(f->number) || f->number != floor(f->number))
		return fb_fail(e, EXIT_USAGE, "%s:%u:%u: field format is not a whole number", name, f->line, f->column);
	if (f->number < 1) /* the formats start at 1 */
		return fb_fail(e, EXIT_USAGE, "%s:%u:%u: field format is %.0f, which no flashbench writes (formats start "
			       "at 1): is this a flashbench result?", name, f->line, f->column, f->number);
	if (f->number > FLASHBENCH_JSON_FORMAT)
		return fb_fail(e, EXIT_USAGE, "%s:%u:%u: written in JSON format %.0f, and this flashbench (%s) reads "
			       "formats up to %d: read it with a newer flashbench", name, f->line, f->column,
			       f->number, FLASHBENCH_VERSION, FLASHBENCH_JSON_FORMAT);
	return 0;
}
