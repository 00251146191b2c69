/* tests/jsonpath.c — a thin tool over json_read.c for the tests: checks that
 * standard input is one valid JSON value and prints the value at each
 * dotted path given (numbers as written, strings decoded, true/false/null;
 * arrays and objects compactly; arrays by index: "results.0.align"; "#"
 * after a path prints an array's or object's length).
 * Exit status 1 and a message when the JSON is invalid or a path is missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_read.h"

static void print(const struct json_value *v, int quoted)
{
	switch (v->type) {
	case JSON_NULL: fputs("null", stdout); break;
	case JSON_BOOL: fputs(v->boolean ? "true" : "false", stdout); break;
	case JSON_NUMBER: fputs(v->text, stdout); break;
	case JSON_STRING: printf(quoted ? "\"%s\"" : "%s", v->text); break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		putchar(v->type == JSON_ARRAY ? '[' : '{');
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				putchar(',');
			if (v->type == JSON_OBJECT)
				printf("\"%s\":", v->key[i]);
			print(&v->item[i], 1);
		}
		putchar(v->type == JSON_ARRAY ? ']' : '}');
	}
}

int main(int argc, char **argv)
{
	struct json_value *root;
	struct fb_err e;

	if (json_load("-", &root, &e) < 0) {
		fprintf(stderr, "jsonpath: %s\n", e.msg);
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		size_t n = strcspn(argv[i], "#");
		char path[1024];
		const struct json_value *v;

		snprintf(path, sizeof(path), "%.*s", (int)n, argv[i]);
		v = json_get(root, path);
		if (!v) {
			fprintf(stderr, "jsonpath: no value at %s\n", argv[i]);
			json_free(root);
			return 1;
		}
		if (argv[i][n] == '#') {
			if (v->type != JSON_ARRAY && v->type != JSON_OBJECT) {
				fprintf(stderr, "jsonpath: %s is %s, it has no length\n", path, json_type_name(v->type));
				json_free(root);
				return 1;
			}
			printf("%zu\n", v->n);
		} else {
			print(v, 0);
			putchar('\n');
		}
	}
	json_free(root);
	return 0;
}
