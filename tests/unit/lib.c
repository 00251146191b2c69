/* tests/unit/lib.c — unit tests of lib/: sizes and times parsed and
 * printed, JSON read back, charts of degenerate data, the robust statistics
 * and the bounded lines. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/extents.h"
#include "lib/json_read.h"
#include "lib/lines.h"
#include "lib/salt.h"
#include "lib/stats.h"
#include "lib/svg.h"
#include "lib/sig.h"
#include "lib/units.h"
#include "lib/wrap.h"
#include "tests/unit/unit.h"

struct parse_case {
	const char *in;
	uint64_t want;
};

/* A parser (parse_size, parse_time) against good inputs and bad ones. */
static void check_parser(const char *fn, int (*parse)(const char *, uint64_t *, const char **),
			 const struct parse_case *good, size_t ngood, const char *const *bad, size_t nbad)
{
	char name[64];

	for (size_t i = 0; i < ngood + nbad; i++) {
		const char *in = i < ngood ? good[i].in : bad[i - ngood];
		uint64_t v = 0;
		const char *why = NULL;
		int rc = parse(in, &v, &why);
		if (i < ngood) {
			snprintf(name, sizeof(name), "%s(\"%s\")", fn, in);
			check(rc == 0 && v == good[i].want, name, "rc %d value %llu, want %llu (%s)", rc,
			      (unsigned long long)v, (unsigned long long)good[i].want, why ? why : "");
		} else {
			snprintf(name, sizeof(name), "%s rejects \"%s\"", fn, in);
			check(rc != 0 && why && *why, name, "accepted as %llu", (unsigned long long)v);
		}
	}
}

static void test_parse_size(void)
{
	static const struct parse_case good[] = {
		{ "512", 512 }, { "24k", 24576 }, { "24K", 24576 }, { "3M", 3 << 20 }, { "12MiB", 12 << 20 },
		{ "1.5M", 1572864 }, { "2G", 2ULL << 30 }, { "16KiB", 16384 }, { "512B", 512 }, { "0", 0 },
		{ "1.5MiB", 1572864 }, { "4m", 4 << 20 }, { "1T", 1ULL << 40 }, { "0.5k", 512 },
	};
	static const char *const bad[] = { "", "-5", "abc", "4X", "1.3K", "12Mx", "1.", ".5M", "99999999999999999999", "20000000T", "1.5" };

	check_parser("parse_size", parse_size, good, sizeof(good) / sizeof(good[0]), bad, sizeof(bad) / sizeof(bad[0]));
}

static void test_parse_time(void)
{
	static const struct parse_case good[] = {
		{ "90s", 90000000000ULL }, { "2m", 120000000000ULL }, { "2min", 120000000000ULL },
		{ "1h", 3600000000000ULL }, { "1.5h", 5400000000000ULL }, { "500ms", 500000000ULL },
		{ "10", 10000000000ULL }, { "0.25s", 250000000ULL }, { "1.5ms", 1500000ULL },
	};
	static const char *const bad[] = { "", "-5s", "abc", "10x", "5 s", "0", "0s", "1.", ".5s", "9999999999999h",
					   "10sec", "s" };
	char name[64];

	check_parser("parse_time", parse_time, good, sizeof(good) / sizeof(good[0]), bad, sizeof(bad) / sizeof(bad[0]));
	{
		static const struct { uint64_t ns; const char *want; } d[] = {
			{ 3600000000000ULL, "1h" }, { 120000000000ULL, "2m" }, { 90000000000ULL, "90s" },
			{ 5400000000000ULL, "90m" }, { 500000000ULL, "500ms" },
		};
		for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
			char buf[32];
			snprintf(name, sizeof(name), "format_duration(%s)", d[i].want);
			check(!strcmp(format_duration(buf, sizeof(buf), d[i].ns), d[i].want), name, "got %s", buf);
		}
	}
}

/* The value a size text such as "1.99GiB" says, exactly (decimals times a
 * power of two). */
static long double size_text_value(const char *text)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	char *end;
	long double v = strtold(text, &end);

	for (int u = 0; u < 6; u++, v *= 1024)
		if (!strcmp(end, unit[u]))
			return v;
	return -1;
}

static void test_format(void)
{
	static const struct { double ns; const char *want; } times[] = {
		{ 0, "0ns" }, { 123, "123ns" }, { -44, "-44ns" }, { 999.4, "999ns" }, { 999.6, "1µs" },
		{ 5850, "5.85µs" }, { 53300, "53.3µs" }, { 324000, "324µs" }, { 999999, "1ms" },
		{ 1000000, "1ms" }, { 1080000, "1.08ms" }, { 2345000000.0, "2.345s" }, { -2100, "-2.1µs" },
		{ -10525, "-10.5µs" }, { -514893, "-515µs" }, { -1500000, "-1.5ms" }, { 15000000000.0, "15s" },
	};
	static const struct { uint64_t b; const char *want; } sizes[] = {
		{ 512, "512B" }, { 1024, "1KiB" }, { 16384, "16KiB" }, { 1572864, "1.5MiB" }, { 12 << 20, "12MiB" },
		{ 786432, "768KiB" }, { 4ULL << 30, "4GiB" }, { 1000, "1000B" }, { 25165824, "24MiB" },
	};
	/* a promise of room: cut off, never rounded up; as format_size when exact */
	static const struct { uint64_t b; const char *want; } floors[] = {
		{ 2047ULL << 20, "1.99GiB" }, { 1535ULL << 20, "1.49GiB" }, { 2046ULL << 20, "1.99GiB" },
		{ 1073217536, "1023MiB" }, { 805306368, "768MiB" }, { 1536ULL << 20, "1.5GiB" },
		{ 2ULL << 30, "2GiB" }, { (2ULL << 30) - 1, "1.99GiB" }, { 700000256, "667MiB" }, { 512, "512B" },
		{ 1023, "1023B" }, { 1024, "1KiB" }, { 1048575, "1023KiB" }, { 1572864, "1.5MiB" },
		{ 10380902, "9.89MiB" }, { 10485759, "9.99MiB" }, { 11010048, "10.5MiB" }, { 11534335, "10.9MiB" },
		{ 1ULL << 60, "1024PiB" }, { (1ULL << 60) - 1, "1023PiB" }, { UINT64_MAX, "16383PiB" }, { 0, "0B" },
	};
	static const struct { double bps; const char *want; } rates[] = {
		{ 8790000, "8.79M/s" }, { 912000, "912K/s" }, { 70e6, "70M/s" }, { 999.6e3, "1M/s" },
		{ 596000, "596K/s" }, { 500, "500B/s" }, { 1.2e9, "1.2G/s" },
	};
	char buf[64], name[96];

	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		format_time(buf, sizeof(buf), times[i].ns);
		snprintf(name, sizeof(name), "format_time(%g)", times[i].ns);
		check(strcmp(buf, times[i].want) == 0, name, "got \"%s\", want \"%s\"", buf, times[i].want);
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		format_size(buf, sizeof(buf), sizes[i].b);
		snprintf(name, sizeof(name), "format_size(%llu)", (unsigned long long)sizes[i].b);
		check(strcmp(buf, sizes[i].want) == 0, name, "got \"%s\", want \"%s\"", buf, sizes[i].want);
	}
	for (size_t i = 0; i < sizeof(floors) / sizeof(floors[0]); i++) {
		format_size_floor(buf, sizeof(buf), floors[i].b);
		snprintf(name, sizeof(name), "format_size_floor(%llu)", (unsigned long long)floors[i].b);
		check(strcmp(buf, floors[i].want) == 0, name, "got \"%s\", want \"%s\"", buf, floors[i].want);
	}
	/* over many sizes: never above the value, and the same text as
	 * format_size wherever that is not above it either */
	{
		char up[64], bad[256] = "";
		for (uint64_t b = 1000; b < (1ULL << 50) && !bad[0]; b += b / 7 + 1) {
			format_size(up, sizeof(up), b);
			format_size_floor(buf, sizeof(buf), b);
			if (size_text_value(buf) > (long double)b || (size_text_value(up) <= (long double)b && strcmp(up, buf)))
				snprintf(bad, sizeof(bad), "%llu: \"%s\" (format_size \"%s\")", (unsigned long long)b, buf, up);
		}
		check(!bad[0], "format_size_floor: never above the value, else as format_size", "%s", bad);
	}
	static const struct { const char *number, *want; } articles[] = {
		{ "8KiB", "an" }, { "16KiB", "a" }, { "1.5MiB", "a" }, { "11", "an" }, { "18MiB", "an" },
		{ "80", "an" }, { "800MiB", "an" }, { "180", "a" }, { "8000", "an" }, { "11000", "an" },
		{ "1100", "a" }, { "128KiB", "a" }, { "1KiB", "a" }, { "4096", "a" }, { "8192", "an" },
	};
	for (size_t i = 0; i < sizeof(articles) / sizeof(articles[0]); i++) {
		snprintf(name, sizeof(name), "article(\"%s\")", articles[i].number);
		check(strcmp(article(articles[i].number), articles[i].want) == 0, name, "got \"%s\", want \"%s\"",
		      article(articles[i].number), articles[i].want);
	}
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		format_rate(buf, sizeof(buf), rates[i].bps);
		snprintf(name, sizeof(name), "format_rate(%g)", rates[i].bps);
		check(strcmp(buf, rates[i].want) == 0, name, "got \"%s\", want \"%s\"", buf, rates[i].want);
	}
}

static void test_json_read(void)
{
	static const char doc[] = "{\n  \"test\": \"auto\",\n  \"n\": -1.5e3, \"big\": 8589934592,\n"
				  "  \"s\": \"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00b5\\ud83d\\ude00\",\n"
				  "  \"list\": [ {\"x\": 1}, [], {}, true, false, null ],\n  \"list\": 7\n}\n";
	static const struct { const char *text, *want; } bad[] = {
		{ "", "t:1:1: invalid JSON: expected a value, got the end of the input" },
		{ "{\"a\" 1}", "t:1:6: invalid JSON: expected ':', got '1'" },
		{ "[1,\n 2,\n 3 4]", "t:3:4: invalid JSON: expected ',' or ']', got '4'" },
		{ "{\"a\": 1,}", "t:1:9: invalid JSON: expected a string, got '}'" },
		{ "\"ab\ncd\"", "t:1:4: invalid JSON: expected a closing '\"' (control characters must be escaped), got byte 0x0a" },
		{ "\"\\x\"", "t:1:3: invalid JSON: expected an escape" },
		{ "\"\\u0000\"", "t:1:3: invalid JSON: expected a \\u escape of a character other than NUL" },
		{ "\"\\ud800x\"", "t:1:3: invalid JSON: expected a \\u escape" },
		{ "01", "t:1:2: invalid JSON: expected the end of the input after the value, got '1'" },
		{ "1.", "t:1:3: invalid JSON: expected a digit after '.', got the end of the input" },
		{ "-", "t:1:2: invalid JSON: expected a value, got the end" },
		{ "1e+", "t:1:4: invalid JSON: expected a digit in the exponent" },
		{ "tru", "t:1:1: invalid JSON: expected a value, got 't'" },
		{ "nul", "t:1:1: invalid JSON: expected a value" },
		{ "{} {}", "t:1:4: invalid JSON: expected the end of the input after the value, got '{'" },
		{ "[\"a\" \"b\"]", "t:1:6: invalid JSON: expected ',' or ']', got '\"'" },
		{ "{\"a\":1", "t:1:7: invalid JSON: expected ',' or '}', got the end of the input" },
	};
	struct json_value *v = NULL;
	const struct json_value *x;
	struct fb_err e = { 0 };
	char deep[512], name[160];
	int ok;

	ok = json_parse(doc, sizeof(doc) - 1, "doc.json", &v, &e) == 0;
	check(ok, "json_read: parses a document", "%s", e.msg);
	if (!ok)
		return;
	x = json_get(v, "s");
	check(x && x->type == JSON_STRING && !strcmp(x->text, "a\"\\/\b\f\n\r\t\xc2\xb5\xf0\x9f\x98\x80"),
	      "json_read: string escapes decode to UTF-8", "got '%s'", x ? x->text : "(none)");
	x = json_get(v, "n");
	check(x && x->type == JSON_NUMBER && x->number == -1500 && !strcmp(x->text, "-1.5e3") && x->line == 3 &&
		      x->column == 8,
	      "json_read: numbers keep their text and where they start", "got %s at %u:%u", x ? x->text : "-",
	      x ? x->line : 0, x ? x->column : 0);
	x = json_get(v, "big");
	check(x && x->number == 8589934592.0, "json_read: large whole numbers exact", "got %g", x ? x->number : 0);
	x = json_get(v, "list.0.x");
	check(x && x->type == JSON_NUMBER && x->number == 1, "json_read: path through an array index", "not found");
	check(json_get(v, "list")->type == JSON_ARRAY && json_get(v, "list")->n == 6 &&
		      json_get(v, "list.1")->type == JSON_ARRAY && json_get(v, "list.2")->type == JSON_OBJECT &&
		      json_get(v, "list.3")->boolean && !json_get(v, "list.4")->boolean &&
		      json_get(v, "list.5")->type == JSON_NULL && json_get(v, "") == v,
	      "json_read: arrays, objects, literals; the first member of a name wins", "wrong tree");
	check(!json_get(v, "list.6") && !json_get(v, "list.x") && !json_get(v, "missing") && !json_get(v, "n.0") &&
		      !json_get(v, "list.-1") && !json_get(v, "list.0x"),
	      "json_read: missing paths give NULL", "found something");
	x = json_want(v, "test", JSON_NUMBER, "doc.json", &e);
	check(!x && !strcmp(e.msg, "doc.json:2:11: field test is a string, not a number") && e.status == EXIT_USAGE,
	      "json_read: json_want names the file, place and field of a wrong type", "'%s'", e.msg);
	x = json_want(v, "findings.page", JSON_OBJECT, "doc.json", &e);
	check(!x && !strcmp(e.msg, "doc.json: no field findings.page"), "json_read: json_want names a missing field",
	      "'%s'", e.msg);
	json_free(v);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = NULL;
		e.msg[0] = '\0';
		ok = json_parse(bad[i].text, strlen(bad[i].text), "t", &v, &e) < 0 && !v &&
		     !strncmp(e.msg, bad[i].want, strlen(bad[i].want));
		snprintf(name, sizeof(name), "json_read rejects '%s'", bad[i].text);
		for (char *c = name; *c; c++)
			if (*c == '\n')
				*c = '|'; /* one line per test */
		check(ok, name, "got '%s', want '%s...'", e.msg, bad[i].want);
		json_free(v);
	}
	ok = json_parse("1\0", 2, "t", &v, &e) < 0 && strstr(e.msg, "got byte 0x00");
	check(ok, "json_read rejects a NUL byte", "'%s'", e.msg);
	memset(deep, '[', sizeof(deep));
	ok = json_parse(deep, sizeof(deep), "t", &v, &e) < 0 && strstr(e.msg, "t:1:201: invalid JSON: nested deeper");
	check(ok, "json_read refuses nesting deeper than 200 levels", "'%s'", e.msg);
	/* the same checks without a tree, and the same answer */
	check(!json_check(doc, sizeof(doc) - 1, "doc.json", &e) && json_check(bad[0].text, strlen(bad[0].text), "t",
		      &e) < 0 && !strncmp(e.msg, bad[0].want, strlen(bad[0].want)),
	      "json_read: json_check agrees with json_parse", "'%s'", e.msg);
	/* a value that starts at 7:5 of a larger input says so */
	ok = json_parse_at("{\n  \"a\": x}", 12, "mail", 7, 5, &v, &e) < 0 &&
	     !strcmp(e.msg, "mail:8:8: invalid JSON: expected a value, got 'x'");
	check(ok, "json_read: json_parse_at counts lines and columns from where the value starts", "'%s'", e.msg);
	ok = json_parse_at("[1, 2]", 6, "mail", 7, 5, &v, &e) == 0 && json_get(v, "1")->column == 9 &&
	     json_get(v, "1")->line == 7;
	check(ok, "json_read: json_parse_at's values know their place in the larger input", "'%s'", e.msg);
	json_free(v);
	/* a head: the members the text holds whole (the one it ends in is left
	 * out); what is no JSON is still refused */
	{
		static const char head[] = "{\"format\": 1, \"tool\": {\"name\": \"flashbench\"}, \"test\": \"align\", "
					   "\"results\": [{\"size\": 40";
		for (size_t cut = sizeof(head) - 1; cut > sizeof(head) - 16; cut--) {
			ok = json_parse_head(head, cut, "h", &v, &e) == 0 && v->n == 3 &&
			     !strcmp(json_get(v, "test")->text, "align") && !json_get(v, "results");
			snprintf(name, sizeof(name), "json_read: a head cut after %zu bytes has its first members", cut);
			check(ok, name, "'%s'", e.msg);
			json_free(v);
		}
		ok = json_parse_head("not json", 8, "h", &v, &e) < 0 && !v &&
		     !strcmp(e.msg, "h:1:1: invalid JSON: expected a value, got 'n'");
		check(ok, "json_read: a head that is no JSON is refused", "'%s'", e.msg);
	}
	/* member names are stored once: a second object's names are the first's */
	ok = json_parse("[{\"size\": 1}, {\"size\": 2}]", 26, "t", &v, &e) == 0 &&
	     json_get(v, "0")->key[0] == json_get(v, "1")->key[0];
	check(ok, "json_read: each member name once", "'%s'", e.msg);
	json_free(v);
}

/* Charts of degenerate data end and draw only finite numbers (svg.c's
 * ticks() used to loop forever on some of these; alarm() bounds a hang). */
static void test_svg_degenerate(void)
{
	static const double bad[][3] = {
		{ 0, 0, 0 }, { -1, -5, -2 }, { NAN, NAN, NAN }, { INFINITY, 1, 2 }, { -INFINITY, 0, 1 },
		{ 1e308, 1e308, 1e308 }, { 1e-310, 1e-310, 1e-310 }, { 5, 5, 5 }, { 1e15, 1e15 + 1, 1e15 },
	};
	FILE *f = tmpfile();

	alarm(20);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		for (int logs = 0; logs < 4; logs++) {
			struct chart c;
			char name[80], buf[8192];
			size_t n;
			int rc;
			memset(&c, 0, sizeof(c));
			c.title = c.xlabel = c.ylabel = "t";
			c.xunit = logs & 1 ? AXIS_BYTES : AXIS_PLAIN;
			c.yunit = AXIS_NS;
			c.xlog = logs & 1;
			c.ylog = logs >> 1 & 1;
			c.s[0].x = bad[i];
			c.s[0].y = bad[(i + 1) % (sizeof(bad) / sizeof(bad[0]))];
			c.s[0].n = 3;
			c.ns = 1;
			c.m[0].x = bad[i][0];
			c.nm = 1;
			rewind(f);
			rc = svg_chart(f, &c);
			fflush(f);
			n = (size_t)ftell(f);
			rewind(f);
			n = fread(buf, 1, n < sizeof(buf) - 1 ? n : sizeof(buf) - 1, f);
			buf[n] = '\0';
			snprintf(name, sizeof(name), "svg chart of degenerate data %zu (log %d) ends, no nan/inf", i, logs);
			/* nothing drawable: -1 and nothing written */
			{ const char *bad_at = strstr(buf, "nan") ? strstr(buf, "nan") : strstr(buf, "inf"); check(rc ? n == 0 : n > 0 && !bad_at, name, "%.120s", bad_at ? (bad_at - buf > 60 ? bad_at - 60 : buf) : buf); }
		}
	alarm(0);
	if (f)
		fclose(f);
}

/* One value (an --auto run stopped after its first minimum-write size)
 * sits in the middle of its axis, linear or log, not on its edge. */
static void test_svg_single_point(void)
{
	static const double one[1] = { 1 << 20 }, t[1] = { 2e6 };
	FILE *f = tmpfile();

	for (int logs = 0; f && logs < 2; logs++) {
		struct chart c;
		char buf[16384], name[80], *at;
		size_t n;
		double cx = -1;
		memset(&c, 0, sizeof(c));
		c.title = c.xlabel = c.ylabel = "t";
		c.xunit = AXIS_BYTES;
		c.yunit = AXIS_NS;
		c.xlog = c.ylog = logs;
		c.s[0] = (struct series){ .x = one, .y = t, .n = 1 };
		c.ns = 1;
		rewind(f);
		if (ftruncate(fileno(f), 0) || svg_chart(f, &c))
			cx = -2;
		fflush(f);
		n = (size_t)ftell(f);
		rewind(f);
		n = fread(buf, 1, n < sizeof(buf) - 1 ? n : sizeof(buf) - 1, f);
		buf[n] = '\0';
		if (cx != -2 && (at = strstr(buf, "<circle cx=\"")))
			cx = atof(at + strlen("<circle cx=\""));
		snprintf(name, sizeof(name), "svg: a single value sits in the middle of its axis (log %d)", logs);
		check(cx > 360 && cx < 390, name, "the point is at x=%g (the plot runs from 90 to 660)", cx);
	}
	if (f)
		fclose(f);
}

/* Signatures: the right one passes; moved, stale, foreign and damaged
 * sectors are told apart. */
static void test_sig(void)
{
	static unsigned char buf[4096], other[4096];
	struct sig_tally t;

	sig_fill(buf, 1 << 20, sizeof(buf), 512, 42, 1);
	memset(&t, 0, sizeof(t));
	sig_check(buf, 1 << 20, sizeof(buf), 512, 42, 1, &t);
	check(t.good == 8 && !t.moved && !t.stale && !t.foreign, "sig: its own signature is good", "%u good", t.good);
	memset(&t, 0, sizeof(t));
	sig_check(buf, 3 << 20, sizeof(buf), 512, 42, 1, &t);
	check(t.moved == 8 && t.moved_from == 1 << 20 && t.moved_at == 3 << 20, "sig: read elsewhere it is moved, from its offset",
	      "%u moved from %llu at %llu", t.moved, (unsigned long long)t.moved_from, (unsigned long long)t.moved_at);
	memset(&t, 0, sizeof(t));
	sig_check(buf, 1 << 20, sizeof(buf), 512, 42, 2, &t);
	check(t.stale == 8, "sig: another pass is stale", "%u stale", t.stale);
	memset(&t, 0, sizeof(t));
	sig_check(buf, 1 << 20, sizeof(buf), 512, 43, 1, &t);
	check(t.foreign == 8, "sig: another run's salt is foreign", "%u foreign", t.foreign);
	memcpy(other, buf, sizeof(buf));
	other[700] ^= 1;       /* the stream of sector 1 */
	other[1024 + 20] ^= 1; /* the header of sector 2 */
	memset(other + 3072, 0, 512);
	memset(&t, 0, sizeof(t));
	sig_check(other, 1 << 20, sizeof(other), 512, 42, 1, &t);
	check(t.good == 5 && t.foreign == 3, "sig: a flipped bit or zeros are foreign", "%u good %u foreign", t.good, t.foreign);
	check(t.bad_lo == (1 << 20) + 512 && t.bad_hi == (1 << 20) + 3584, "sig: the span of the sectors that are not good",
	      "%llu to %llu", (unsigned long long)t.bad_lo, (unsigned long long)t.bad_hi);
	{
		struct sig_tally a = { 0 }, b = { 0 };
		sig_check(buf, 1 << 20, sizeof(buf), 512, 42, 1, &a);
		sig_check(other, 1 << 20, sizeof(other), 512, 42, 1, &b);
		sig_tally_add(&a, &b);
		check(a.bad_lo == (1 << 20) + 512 && a.bad_hi == (1 << 20) + 3584 && a.good == 13,
		      "sig: a good read adds no bad span", "%llu to %llu", (unsigned long long)a.bad_lo,
		      (unsigned long long)a.bad_hi);
	}
}

/* The median of odd and even counts, a quantile, and a spread that one
 * outlier does not move. */
static void test_stats(void)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, q[] = { 9, 1, 5, 3, 7, 8, 2, 6, 4, 10 };
	double v[] = { 10, 11, 9, 10, 1000 }, tmp[5];

	check(stats_median(odd, 3) == 3 && stats_median(even, 4) == 2.5 && stats_median(odd, 0) == 0,
	      "stats: median of odd and even counts", "%g %g", odd[1], (even[1] + even[2]) / 2);
	check(stats_quantile(q, 10, 0.25) == 3 && stats_quantile(q, 10, 0.9) == 10, "stats: quantile",
	      "%g %g", q[2], q[9]);
	check(fabs(stats_mad(v, 5, tmp) - 1.4826) < 1e-9 && v[4] == 1000, "stats: MAD ignores an outlier, "
	      "keeps its input", "%g", stats_mad(v, 5, tmp));
}

/* Lines stop at the bound, or the last word replaces the last line; a
 * duplicate is not added twice when asked. */
static int add_line(char (*l)[8], int *n, int cap, unsigned flags, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int add_line(char (*l)[8], int *n, int cap, unsigned flags, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = lines_vadd(l[0], sizeof(l[0]), n, cap, flags, fmt, ap);
	va_end(ap);
	return rc;
}

static void test_lines(void)
{
	char l[2][8];
	int n = 0;

	check(add_line(l, &n, 2, 0, "a%d", 1) && add_line(l, &n, 2, LINE_UNIQUE, "a%d", 2) &&
	      !add_line(l, &n, 2, 0, "c") && n == 2 && !strcmp(l[1], "a2"), "lines: full stops", "n %d", n);
	check(add_line(l, &n, 2, LINE_LAST_WORD, "too long a line") && n == 2 && !strcmp(l[1], "too lon"),
	      "lines: the last word replaces the last line, cut to fit", "n %d [%s]", n, l[1]);
	n = 1;
	check(!add_line(l, &n, 2, LINE_UNIQUE, "a1") && n == 1, "lines: a duplicate is not added twice", "n %d", n);
}

/* Ranges merge with what they meet or touch, and stay sorted. */
static void test_extents(void)
{
	static const uint64_t add[][2] = { { 100, 200 }, { 300, 400 }, { 0, 10 }, { 200, 250 }, { 240, 310 },
					   { 500, 600 } };
	struct extents s = { 0 };
	int ok = 1;

	for (size_t i = 0; i < sizeof(add) / sizeof(add[0]); i++)
		ok &= !extents_add(&s, add[i][0], add[i][1]);
	check(ok && s.n == 3 && s.v[0].lo == 0 && s.v[0].hi == 10 && s.v[1].lo == 100 && s.v[1].hi == 400 &&
	      s.v[2].lo == 500 && s.v[2].hi == 600 && extents_meet(&s, 399, 401) && !extents_meet(&s, 400, 500),
	      "extents: neighbours merge, the set stays sorted", "%zu ranges", s.n);
	extents_free(&s);
}

/* The parsers say what is wrong as a code a caller can test (the text is
 * for people), and an error's advice can be found without reading it. */
static void test_codes(void)
{
	struct fb_err e = { 0 };
	const char *why;
	uint64_t v;
	int ok = parse_time("0s", &v, &why) == PARSE_ZERO && parse_time("99999999999h", &v, &why) == PARSE_TOO_LONG &&
		 parse_time("5x", &v, &why) == PARSE_UNIT && parse_count("99999999999999999999999", &v, &why) ==
		 PARSE_TOO_LARGE && parse_count("1.5", &v, &why) == PARSE_NOT_WHOLE && parse_size("", &v, &why) ==
		 PARSE_EMPTY && parse_size("-1", &v, &why) == PARSE_NEGATIVE && parse_size("1x", &v, &why) ==
		 PARSE_UNIT && parse_size("4k", &v, &why) == PARSE_OK && v == 4096;

	check(ok, "units: the parsers return what is wrong as a code", "a code differs");
	fb_fail(&e, EXIT_USAGE, "the test reaches byte %d", 9);
	fb_advise(&e, FB_PAST_END, "use less");
	check(e.kind == FB_PAST_END && !strcmp(e.msg + e.at, " (use less)") &&
	      !strcmp(e.msg, "the test reaches byte 9 (use less)"), "err: a kind and where its advice begins",
	      "kind %d at %zu: %s", e.kind, e.at, e.msg);
	fb_fail(&e, EXIT_USAGE, "other");
	check(e.kind == FB_ANY && e.at == 0, "err: a new failure has no kind of its own", "kind %d", e.kind);
	check(salt_new() && salt_new() != salt_new(), "salt: two salts differ, neither is 0", "equal");
}

/* wrap_text: lines end by the width, on spaces, in columns (µ is one);
 * a word wider than a line stands whole; "\n" starts a line */
static void test_wrap(void)
{
	static const struct { int width; const char *first, *rest, *in, *want; } c[] = {
		{ 20, "", "  ", "short", "short\n" },
		{ 20, "", "  ", "one two three four five six", "one two three four\n  five six\n" },
		{ 10, "", "", "1234567890 x", "1234567890\nx\n" },
		{ 10, "> ", "> ", "a-very-long-word then", "> a-very-long-word\n> then\n" },
		{ 12, "", "", "300µs µs µs µs", "300µs µs µs\nµs\n" },
		{ 40, "", "  ", "first\nsecond", "first\n  second\n" },
		{ 8, "", "", "a  b  c  d  e", "a  b  c\nd  e\n" },
	};
	char *buf;
	size_t len;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		FILE *f = open_memstream(&buf, &len);
		if (!f)
			return;
		wrap_text(f, c[i].width, c[i].first, c[i].rest, c[i].in);
		fclose(f);
		check(!strcmp(buf, c[i].want), "wrap_text", "\"%s\" at %d: \"%s\", want \"%s\"", c[i].in, c[i].width,
		      buf, c[i].want);
		free(buf);
	}
	check(text_width("300µs") == 5 && text_width("") == 0, "text_width counts characters", "%zu",
	      text_width("300µs"));
	char cut[] = "aµbc";
	check(text_cut(cut, 2) == 3 && !strcmp(cut, "aµ"), "text_cut cuts at a character's end", "\"%s\"", cut);
}

void unit_lib(void)
{
	test_stats();
	test_lines();
	test_wrap();
	test_codes();
	test_extents();
	test_sig();
	test_svg_degenerate();
	test_svg_single_point();
	test_parse_size();
	test_parse_time();
	test_format();
	test_json_read();
}
