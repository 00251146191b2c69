/* tests/jsonpath.c — a small strict JSON parser for the tests: checks that
 * standard input is one valid JSON value and prints the value at each
 * dotted path given (numbers and strings as text, arrays by index:
 * "results.0.align"; "#" after a path prints an array's length).
 * Exit status 1 and a message when the JSON is invalid or a path is missing. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src, *p;

static int fail(const char *what)
{
	fprintf(stderr, "jsonpath: invalid JSON at byte %ld: %s\n", (long)(p - src), what);
	exit(1);
}

static void ws(void)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
}

static void value(void);

static void string(void)
{
	if (*p++ != '"')
		fail("expected a string");
	while (*p != '"') {
		if (!*p || (unsigned char)*p < 0x20)
			fail("unterminated string or control character");
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						fail("bad \\u escape");
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p)) {
				fail("bad escape");
			}
		}
		p++;
	}
	p++;
}

static void number(void)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p))
			p++;
	else
		fail("expected a value");
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			fail("bad fraction");
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			fail("bad exponent");
		while (isdigit((unsigned char)*p))
			p++;
	}
}

static void value(void)
{
	ws();
	if (*p == '{') {
		p++;
		ws();
		if (*p == '}') {
			p++;
			return;
		}
		for (;;) {
			ws();
			string();
			ws();
			if (*p++ != ':')
				fail("expected ':'");
			value();
			ws();
			if (*p == ',') {
				p++;
				continue;
			}
			if (*p++ != '}')
				fail("expected ',' or '}'");
			return;
		}
	} else if (*p == '[') {
		p++;
		ws();
		if (*p == ']') {
			p++;
			return;
		}
		for (;;) {
			value();
			ws();
			if (*p == ',') {
				p++;
				continue;
			}
			if (*p++ != ']')
				fail("expected ',' or ']'");
			return;
		}
	} else if (*p == '"') {
		string();
	} else if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4)) {
		p += 4;
	} else if (!strncmp(p, "false", 5)) {
		p += 5;
	} else {
		number();
	}
}

/* Find the value at path inside the value at q; returns its start or NULL. */
static const char *find(const char *q, const char *path)
{
	char key[256];
	size_t n = strcspn(path, ".#");

	if (!*path || *path == '#')
		return q;
	memcpy(key, path, n < 255 ? n : 255);
	key[n < 255 ? n : 255] = '\0';
	path += n + (path[n] == '.');
	p = q;
	ws();
	if (*p == '{') {
		p++;
		for (;;) {
			const char *k;
			ws();
			if (*p != '"')
				return NULL;
			k = p + 1;
			string();
			ws();
			p++; /* ':' */
			ws();
			if (!strncmp(k, key, strlen(key)) && k[strlen(key)] == '"')
				return find(p, path);
			value();
			ws();
			if (*p++ != ',')
				return NULL;
		}
	}
	if (*p == '[') {
		long idx = strtol(key, NULL, 10);
		p++;
		for (long i = 0;; i++) {
			ws();
			if (*p == ']')
				return NULL;
			if (i == idx)
				return find(p, path);
			value();
			ws();
			if (*p++ != ',')
				return NULL;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static char buf[1 << 24];
	size_t n = fread(buf, 1, sizeof(buf) - 1, stdin);

	buf[n] = '\0';
	src = p = buf;
	value();
	ws();
	if (*p)
		fail("trailing characters");
	for (int i = 1; i < argc; i++) {
		const char *v = find(buf, argv[i]);
		if (!v) {
			fprintf(stderr, "jsonpath: no value at %s\n", argv[i]);
			return 1;
		}
		p = v;
		ws();
		v = p;
		if (strchr(argv[i], '#')) {
			long count = 0;
			if (*p++ != '[')
				return 1;
			ws();
			while (*p != ']') {
				value();
				count++;
				ws();
				if (*p == ',')
					p++;
			}
			printf("%ld\n", count);
			continue;
		}
		value();
		if (*v == '"')
			printf("%.*s\n", (int)(p - v - 2), v + 1);
		else
			printf("%.*s\n", (int)(p - v), v);
	}
	return 0;
}
