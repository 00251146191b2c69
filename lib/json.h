/* json.h — a small JSON writer: objects, arrays, strings (escaped), numbers.
 * It tracks nesting and commas; the caller names keys inside objects and
 * passes NULL as the key inside arrays. */
#ifndef FLASHBENCH_JSON_H
#define FLASHBENCH_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int depth;
	int count[JSON_MAX_DEPTH];
	char close[JSON_MAX_DEPTH];   /* '}' or ']' for each open level */
};

void json_start(struct json *j, FILE *f);
void json_finish(struct json *j);          /* closes the top object */
void json_object(struct json *j, const char *key);
void json_array(struct json *j, const char *key);
void json_end(struct json *j);             /* closes the innermost object/array */
void json_string(struct json *j, const char *key, const char *value); /* NULL: null */
void json_uint(struct json *j, const char *key, uint64_t value);
void json_number(struct json *j, const char *key, double value);      /* NaN/inf: null */
void json_bool(struct json *j, const char *key, int value);

/* A record written from a table: each member names its key, how its value
 * is written and the value; the table ends with a NULL key. */
enum json_member_kind { JM_UINT, JM_NUMBER, JM_BOOL, JM_STRING };
struct json_member {
	const char *key;
	enum json_member_kind kind;
	uint64_t uint;          /* JM_UINT; JM_BOOL: 0 is false */
	double number;          /* JM_NUMBER */
	const char *string;     /* JM_STRING (NULL: null) */
};
/* The end of a member table. */
#define JM_END { .key = NULL }
void json_members(struct json *j, const struct json_member *m);
/* The members as one object (key NULL inside an array). */
void json_record(struct json *j, const char *key, const struct json_member *m);

/* What every flashbench JSON output starts with: "format" (the layout's
 * version, FLASHBENCH_JSON_FORMAT) and the "tool" object (name and version). */
void json_tool(struct json *j);

#endif
