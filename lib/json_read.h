/* json_read.h — reading JSON (the writer is json.h): parses text into a tree
 * of values and finds a value by a dotted path, with array indexes as path
 * parts ("findings.erase_block.value", "results.0.align").  Errors name the
 * input and the line:column of the problem. */
#ifndef FLASHBENCH_JSON_READ_H
#define FLASHBENCH_JSON_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/err.h"

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json_value {
	enum json_type type;
	unsigned line, column;     /* where the value starts, from 1 */
	int boolean;               /* JSON_BOOL */
	double number;             /* JSON_NUMBER */
	char *text;                /* JSON_STRING: decoded UTF-8; JSON_NUMBER: as written */
	size_t n;                  /* JSON_ARRAY, JSON_OBJECT: members */
	struct json_value *item;   /* the n members' values */
	char **key;                /* JSON_OBJECT: the n members' names */
};

/* Parse len bytes of text (one JSON value, nothing after it but white
 * space).  name is used in errors: "NAME:LINE:COL: expected ':'".  The
 * tree takes a small multiple of the text (its values in one arena, each
 * member name once): about 2.5 times the tool's own --json. */
int json_parse(const char *text, size_t len, const char *name, struct json_value **out, struct fb_err *e);
/* The same for text that starts at line:column of a larger input (errors
 * and the values' places count from there). */
int json_parse_at(const char *text, size_t len, const char *name, unsigned line, unsigned column,
		  struct json_value **out, struct fb_err *e);
/* Does text parse (as json_parse would)?  No tree is built: 0, or -1 with
 * e filled. */
int json_check(const char *text, size_t len, const char *name, struct fb_err *e);
/* The first part of a document: its top object with the members the text
 * holds whole (one it ends in is left out, so a file's first bytes are
 * enough to read the fields that come first).  0, or -1 when what there is
 * is not JSON. */
int json_parse_head(const char *text, size_t len, const char *name, struct json_value **out, struct fb_err *e);
/* Read and parse a file ("-": standard input). */
int json_load(const char *path, struct json_value **out, struct fb_err *e);
void json_free(struct json_value *v);
/* All of in (a file or standard input; name is used in errors) into *text,
 * which the caller frees, also after an error.  More than READ_STREAM_MAX
 * bytes are refused (saved results are smaller: a --json of 200000
 * requests kept one by one is 88 MB; read, such a tree takes about 3.4
 * times its text): a file by its size, before reading; a pipe once that
 * much has come. */
#define READ_STREAM_MAX (256u << 20)
int read_stream(FILE *in, const char *name, char **text, size_t *len, struct fb_err *e);
/* -1 with read_stream's refusal when a file of size bytes is too large. */
int read_stream_size(const char *name, uint64_t size, struct fb_err *e);
/* What read_stream took from standard input so far: 0 when it read none,
 * else 1 with its length and CRC-32C (so an output can refuse to replace
 * the file it came from through a pipe). */
int read_stream_stdin(uint64_t *len, uint32_t *crc);

/* The value at path below v, or NULL.  Parts are separated by '.'; in an
 * array a part is an index from 0; "" is v itself.  The first member of a
 * name wins. */
const struct json_value *json_get(const struct json_value *v, const char *path);
/* The same, for a value that must exist with the given type: NULL and e
 * filled ("NAME: no field PATH", "NAME:3:7: field PATH is a string, not a
 * number") otherwise. */
const struct json_value *json_want(const struct json_value *v, const char *path, enum json_type type,
				   const char *name, struct fb_err *e);
const char *json_type_name(enum json_type type);

/* A flashbench document's "format" is one this version reads (at most
 * FLASHBENCH_JSON_FORMAT; none, in documents older than the field, is
 * format 0): 0, or -1 and a usage error naming the file. */
int json_format_check(const struct json_value *doc, const char *name, struct fb_err *e);

#endif
