/* json_read.c — the JSON reader (see json_read.h): a strict recursive-descent
 * parser (RFC 8259) building a tree, and lookups by dotted path. */
#include "lib/json_read.h"

#include <math.h>
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

struct parser {
	const char *p, *end;
	const char *line_start;
	unsigned line;
	int depth;
	const char *name;
	struct fb_err *e;
};

static int peek(const struct parser *ps) { return ps->p < ps->end ? (unsigned char)*ps->p : -1; }

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
		       (unsigned)(ps->p - ps->line_start) + 1, what, got);
}

static void ws(struct parser *ps)
{
	for (int c; (c = peek(ps)) == ' ' || c == '\t' || c == '\n' || c == '\r'; ps->p++)
		if (c == '\n') {
			ps->line++;
			ps->line_start = ps->p + 1;
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

/* A string at ps->p (which is '"'), decoded into a new buffer. */
static int string(struct parser *ps, char **out)
{
	const char *q;
	char *o;
	size_t n = 0;

	if (peek(ps) != '"')
		return syntax(ps, "a string");
	for (q = ps->p + 1; q < ps->end && *q != '"'; q++)
		if (*q == '\\' && q + 1 < ps->end)
			q++;
	/* decoding never grows the text: \uXXXX (6 bytes) is at most 4 in UTF-8 */
	o = malloc((size_t)(q - ps->p) + 1);
	if (!o)
		return fb_fail(ps->e, EXIT_DEVICE, "%s: out of memory", ps->name);
	ps->p++;
	for (;;) {
		int c = peek(ps);
		if (c == '"')
			break;
		if (c < 0x20) {
			free(o);
			return syntax(ps, "a closing '\"' (control characters must be escaped)");
		}
		if (c != '\\') {
			o[n++] = (char)c;
			ps->p++;
			continue;
		}
		ps->p++;
		c = peek(ps);
		const char *esc = c > 0 ? strchr("\"\\/bfnrt", c) : NULL;
		if (esc) {
			o[n++] = "\"\\/\b\f\n\r\t"[esc - "\"\\/bfnrt"];
			ps->p++;
			continue;
		}
		unsigned cp, lo;
		if (c != 'u' || ps->end - ps->p < 5 || hex4(ps->p + 1, &cp) < 0) {
			free(o);
			return syntax(ps, "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
		}
		if (cp >= 0xd800 && cp < 0xdc00 && ps->end - ps->p >= 11 && ps->p[5] == '\\' && ps->p[6] == 'u' &&
		    hex4(ps->p + 7, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			ps->p += 6;
		} else if ((cp >= 0xd800 && cp < 0xe000) || cp == 0) {
			free(o);
			return syntax(ps, "a \\u escape of a character other than NUL or a lone surrogate");
		}
		n += utf8_put(o + n, cp);
		ps->p += 5;
	}
	ps->p++;
	o[n] = '\0';
	*out = o;
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
	n = (size_t)(ps->p - start);
	v->text = malloc(n + 1);
	if (!v->text)
		return fb_fail(ps->e, EXIT_DEVICE, "%s: out of memory", ps->name);
	memcpy(v->text, start, n);
	v->text[n] = '\0';
	v->number = strtod(v->text, NULL);
	v->type = JSON_NUMBER;
	return 0;
}

static int value(struct parser *ps, struct json_value *v);

/* Members of an array or object, after the opening bracket. */
static int members(struct parser *ps, struct json_value *v, int close)
{
	size_t cap = 0;

	ws(ps);
	if (peek(ps) == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		if (v->n == cap) {
			size_t ncap = cap ? 2 * cap : 4;
			struct json_value *item = realloc(v->item, ncap * sizeof(*item));
			char **key = NULL;

			if (item)
				v->item = item;
			if (item && close == '}' && (key = realloc(v->key, ncap * sizeof(*key))))
				v->key = key;
			if (!item || (close == '}' && !key))
				return fb_fail(ps->e, EXIT_DEVICE, "%s: out of memory", ps->name);
			cap = ncap;
		}
		memset(&v->item[v->n], 0, sizeof(v->item[v->n]));
		if (close == '}') {
			ws(ps);
			v->key[v->n] = NULL;
			if (string(ps, &v->key[v->n]) < 0) {
				v->n++; /* so that json_free frees what is there */
				return -1;
			}
			ws(ps);
			if (peek(ps) != ':') {
				v->n++;
				return syntax(ps, "':'");
			}
			ps->p++;
		}
		int rc = value(ps, &v->item[v->n]);
		v->n++;
		if (rc < 0)
			return -1;
		ws(ps);
		if (peek(ps) == ',') {
			ps->p++;
			continue;
		}
		if (peek(ps) != close)
			return syntax(ps, close == '}' ? "',' or '}'" : "',' or ']'");
		ps->p++;
		return 0;
	}
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
	v->column = (unsigned)(ps->p - ps->line_start) + 1;
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
		return string(ps, &v->text);
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

static void free_members(struct json_value *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free_members(&v->item[i]);
		if (v->key)
			free(v->key[i]);
	}
	free(v->item);
	free(v->key);
	free(v->text);
}

void json_free(struct json_value *v)
{
	if (v) {
		free_members(v);
		free(v);
	}
}

int json_parse(const char *text, size_t len, const char *name, struct json_value **out, struct fb_err *e)
{
	struct parser ps = { text, text + len, text, 1, 0, name, e };
	struct json_value *v = calloc(1, sizeof(*v));

	*out = NULL;
	if (!v)
		return fb_fail(e, EXIT_DEVICE, "%s: out of memory", name);
	if (value(&ps, v) < 0) {
		json_free(v);
		return -1;
	}
	ws(&ps);
	if (ps.p != ps.end) {
		json_free(v);
		return syntax(&ps, "the end of the input after the value");
	}
	*out = v;
	return 0;
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

int read_stream(FILE *in, const char *name, char **text, size_t *len, struct fb_err *e)
{
	size_t cap = 0, got;
	struct stat st;

	*text = NULL;
	*len = 0;
	if (!fstat(fileno(in), &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_size > READ_STREAM_MAX)
		return too_large(name, e);
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
