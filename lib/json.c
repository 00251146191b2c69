/* json.c — the JSON writer (see json.h). */
#include "lib/json.h"

#include <math.h>

#include "lib/utf8.h"
#include "lib/version.h"

static void indent(struct json *j)
{
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* A string as JSON: always valid UTF-8, whatever the bytes (text read from
 * outside may hold any): a byte that is no part of a UTF-8 sequence is
 * written as U+FFFD. */
static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		size_t n = utf8_len(p);
		if (!n) {
			fputs("\\ufffd", f);
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, n, f);
			p += n - 1;
			continue;
		}
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* The comma, newline and key before a value. */
static void member(struct json *j, const char *key)
{
	if (j->count[j->depth]++)
		fputc(',', j->f);
	indent(j);
	if (key) {
		put_string(j->f, key);
		fputs(": ", j->f);
	}
}

void json_start(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 1; /* inside the top object */
	j->count[0] = 1;
	j->count[1] = 0;
	j->close[1] = '}';
	fputc('{', f);
}

void json_finish(struct json *j)
{
	while (j->depth > 0)
		json_end(j);
	fputc('\n', j->f);
}

static void open_nested(struct json *j, const char *key, char open, char close)
{
	member(j, key);
	fputc(open, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH) {
		j->depth++;
		j->count[j->depth] = 0;
		j->close[j->depth] = close;
	}
}

void json_object(struct json *j, const char *key) { open_nested(j, key, '{', '}'); }
void json_array(struct json *j, const char *key) { open_nested(j, key, '[', ']'); }

void json_end(struct json *j)
{
	char c;

	if (j->depth == 0)
		return;
	c = j->close[j->depth];
	j->depth--;
	if (j->count[j->depth + 1])
		indent(j);
	fputc(c, j->f);
}

void json_string(struct json *j, const char *key, const char *value)
{
	member(j, key);
	if (value)
		put_string(j->f, value);
	else
		fputs("null", j->f);
}

void json_uint(struct json *j, const char *key, uint64_t value)
{
	member(j, key);
	fprintf(j->f, "%llu", (unsigned long long)value);
}

void json_number(struct json *j, const char *key, double value)
{
	member(j, key);
	if (!isfinite(value))
		fputs("null", j->f);
	else if (value == floor(value) && fabs(value) < 1e15)
		fprintf(j->f, "%.0f", value); /* whole numbers (most times in ns) exactly */
	else
		fprintf(j->f, "%.9g", value);
}

void json_bool(struct json *j, const char *key, int value)
{
	member(j, key);
	fputs(value ? "true" : "false", j->f);
}

void json_members(struct json *j, const struct json_member *m)
{
	for (; m->key; m++)
		switch (m->kind) {
		case JM_UINT: json_uint(j, m->key, m->uint); break;
		case JM_NUMBER: json_number(j, m->key, m->number); break;
		case JM_BOOL: json_bool(j, m->key, m->uint != 0); break;
		case JM_STRING: json_string(j, m->key, m->string); break;
		}
}

void json_record(struct json *j, const char *key, const struct json_member *m)
{
	json_object(j, key);
	json_members(j, m);
	json_end(j);
}

void json_tool(struct json *j)
{
	json_uint(j, "format", FLASHBENCH_JSON_FORMAT);
	json_object(j, "tool");
	json_string(j, "name", "flashbench");
	json_string(j, "version", FLASHBENCH_VERSION);
	json_end(j);
}
