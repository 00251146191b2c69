/* units.c — parsing and printing sizes, times and throughputs (see units.h). */
#include "lib/units.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int parse_digits(const char **p, uint64_t *whole, uint64_t *frac, uint64_t *fracdiv)
{
	const char *s = *p;
	*whole = 0;
	*frac = 0;
	*fracdiv = 1;
	if (!isdigit((unsigned char)*s))
		return -1;
	while (isdigit((unsigned char)*s)) {
		if (*whole > (UINT64_MAX - 9) / 10)
			return -2;
		*whole = *whole * 10 + (uint64_t)(*s - '0');
		s++;
	}
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return -1;
		while (isdigit((unsigned char)*s)) {
			if (*fracdiv < 1000000000000ULL) {
				*frac = *frac * 10 + (uint64_t)(*s - '0');
				*fracdiv *= 10;
			} else if (*s != '0') {
				return -3;
			}
			s++;
		}
	}
	*p = s;
	return 0;
}

/* Is there text, and not a negative number?  Else a parse_code with why. */
static int unsigned_text(const char *text, const char *empty, const char **why)
{
	if (!text || !*text) {
		*why = empty;
		return PARSE_EMPTY;
	}
	if (*text == '-') {
		*why = "must not be negative";
		return PARSE_NEGATIVE;
	}
	return 0;
}

int parse_count(const char *text, uint64_t *out, const char **why)
{
	uint64_t whole, frac, div;
	const char *p = text;
	int rc;

	if ((rc = unsigned_text(text, "empty number", why)))
		return rc;
	rc = parse_digits(&p, &whole, &frac, &div);
	if (rc == -2) {
		*why = "too large";
		return PARSE_TOO_LARGE;
	}
	if (rc != 0 || div != 1 || *p) {
		*why = "not a whole number";
		return PARSE_NOT_WHOLE;
	}
	*out = whole;
	return 0;
}

int parse_size(const char *text, uint64_t *out, const char **why)
{
	uint64_t whole, frac, div, mult = 1;
	const char *p = text;
	int rc;

	if (!text || !*text) {
		*why = "empty size";
		return PARSE_EMPTY;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-') {
		*why = "must not be negative";
		return PARSE_NEGATIVE;
	}
	if (*p == '+')
		p++;
	rc = parse_digits(&p, &whole, &frac, &div);
	if (rc == -2) {
		*why = "too large";
		return PARSE_TOO_LARGE;
	}
	if (rc != 0) {
		*why = "not a number (write it like 512, 24k, 1.5M, 12MiB or 2G)";
		return PARSE_NOT_NUMBER;
	}
	switch (*p) {
	case 'k': case 'K': mult = 1ULL << 10; p++; break;
	case 'm': case 'M': mult = 1ULL << 20; p++; break;
	case 'g': case 'G': mult = 1ULL << 30; p++; break;
	case 't': case 'T': mult = 1ULL << 40; p++; break;
	default: break;
	}
	if (mult > 1 && *p == 'i')
		p++;
	if (*p == 'B' || (mult > 1 && *p == 'b'))
		p++;
	if (*p) {
		*why = "unknown unit (use k, M, G or T, optionally with iB: 24k, 12MiB)";
		return PARSE_UNIT;
	}
	if (whole > UINT64_MAX / mult) {
		*why = "too large";
		return PARSE_TOO_LARGE;
	}
	/* the fraction must come out to whole bytes */
	{
		unsigned __int128 f = (unsigned __int128)frac * mult;
		if (f % div) {
			*why = "not a whole number of bytes";
			return PARSE_NOT_WHOLE;
		}
		f /= div;
		if ((unsigned __int128)whole * mult + f > UINT64_MAX) {
			*why = "too large";
			return PARSE_TOO_LARGE;
		}
		*out = whole * mult + (uint64_t)f;
	}
	return 0;
}

/* A duration: a decimal number with a unit (ms, s, m or min, h); a plain
 * number is seconds.  Whole nanoseconds, at least one. */
int parse_time(const char *text, uint64_t *ns, const char **why)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "ms", 1000000ULL }, { "s", 1000000000ULL }, { "", 1000000000ULL }, { "min", 60000000000ULL },
		{ "m", 60000000000ULL }, { "h", 3600000000000ULL },
	};
	uint64_t whole, frac, div;
	const char *p = text;
	int rc;

	if ((rc = unsigned_text(text, "empty time", why)))
		return rc;
	if (parse_digits(&p, &whole, &frac, &div) != 0) {
		*why = "not a time (write it like 90s, 2m, 1.5h or 500ms)";
		return PARSE_NOT_NUMBER;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		unsigned __int128 t;
		if (strcmp(p, units[i].unit))
			continue;
		t = (unsigned __int128)whole * units[i].ns + (unsigned __int128)frac * units[i].ns / div;
		if (t > UINT64_MAX / 2) {
			*why = "too long";
			return PARSE_TOO_LONG;
		}
		if (!t) {
			*why = "must not be zero";
			return PARSE_ZERO;
		}
		*ns = (uint64_t)t;
		return 0;
	}
	*why = "unknown unit (use ms, s, m or h: 90s, 2m, 1h)";
	return PARSE_UNIT;
}

/* Print v with "digits" significant digits, dropping trailing zeros
 * (the classic "%.3g" look), never in exponent form. */
static void sig(char *buf, size_t len, double v, int digits, const char *unit)
{
	int decimals;
	double a = fabs(v);

	if (a >= 1000)
		decimals = 0;
	else if (a >= 100)
		decimals = digits - 3;
	else if (a >= 10)
		decimals = digits - 2;
	else
		decimals = digits - 1;
	if (decimals < 0)
		decimals = 0;
	snprintf(buf, len, "%.*f", decimals, v);
	if (strchr(buf, '.')) {
		char *e = buf + strlen(buf) - 1;
		while (*e == '0')
			*e-- = '\0';
		if (*e == '.')
			*e = '\0';
	}
	if (strcmp(buf, "-0") == 0)
		strcpy(buf, "0");
	strncat(buf, unit, len - strlen(buf) - 1);
}

/* Does v, printed with this many significant digits, reach 1000? */
static int rounds_to_1000(double v, int digits)
{
	double a = fabs(v);
	double q = pow(10, 3 - digits);
	return a >= 1000 || round(a / q) * q >= 1000;
}

const char *format_time(char *buf, size_t len, double ns)
{
	double a = fabs(ns);

	if (round(a) < 1000) {
		snprintf(buf, len, "%.0fns", ns);
		if (strcmp(buf, "-0ns") == 0)
			strcpy(buf, "0ns");
		return buf;
	}
	if (!rounds_to_1000(ns / 1e3, 3)) {
		sig(buf, len, ns / 1e3, 3, "µs");
		return buf;
	}
	if (!rounds_to_1000(ns / 1e6, 3)) {
		sig(buf, len, ns / 1e6, 3, "ms");
		return buf;
	}
	sig(buf, len, ns / 1e9, 4, "s");
	return buf;
}

const char *format_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int u = 0;

	while (u < 5 && v >= 1024) {
		v /= 1024;
		u++;
	}
	if (u == 0) {
		snprintf(buf, len, "%lluB", (unsigned long long)bytes);
		return buf;
	}
	sig(buf, len, v, 3, unit[u]);
	return buf;
}

const char *format_size_exact(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	int u = 0;

	if (!bytes) {
		snprintf(buf, len, "0");
		return buf;
	}
	while (u < 5 && !(bytes & 1023)) {
		bytes >>= 10;
		u++;
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)bytes, unit[u]);
	return buf;
}

const char *format_size_floor(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned u = 0, decimals;
	uint64_t whole, rest, frac;

	/* in integers: a double holds no more than 53 bits of the count */
	while (u < 5 && bytes >> (10 * (u + 1)))
		u++;
	whole = bytes >> (10 * u);
	rest = bytes - (whole << (10 * u));
	decimals = whole >= 100 ? 0 : whole >= 10 ? 1 : 2;
	if (u == 0)
		decimals = 0;
	frac = decimals ? (uint64_t)(((unsigned __int128)rest * (decimals == 2 ? 100 : 10)) >> (10 * u)) : 0;
	if (frac && decimals == 2 && frac % 10 == 0) { /* no trailing zero: "1.5GiB" */
		frac /= 10;
		decimals = 1;
	}
	if (frac)
		snprintf(buf, len, "%llu.%0*llu%s", (unsigned long long)whole, (int)decimals, (unsigned long long)frac,
			 unit[u]);
	else
		snprintf(buf, len, "%llu%s", (unsigned long long)whole, unit[u]);
	return buf;
}

const char *format_rate(char *buf, size_t len, double bps)
{
	static const char *const unit[] = { "B/s", "K/s", "M/s", "G/s", "T/s" };
	double v = bps;
	int u = 0;

	while (u < 4 && rounds_to_1000(v, 3)) {
		v /= 1000;
		u++;
	}
	sig(buf, len, v, 3, unit[u]);
	return buf;
}

const char *format_duration(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 3600000000000ULL && ns % 3600000000000ULL == 0)
		snprintf(buf, len, "%lluh", (unsigned long long)(ns / 3600000000000ULL));
	else if (ns >= 60000000000ULL && ns % 60000000000ULL == 0)
		snprintf(buf, len, "%llum", (unsigned long long)(ns / 60000000000ULL));
	else
		format_time(buf, len, (double)ns);
	return buf;
}

const char *article(const char *number)
{
	size_t digits = strspn(number, "0123456789"), lead = digits % 3 ? digits % 3 : 3;

	/* the number is read from its leading group of up to three digits */
	if (number[0] == '8' || (lead == 2 && number[0] == '1' && (number[1] == '1' || number[1] == '8')))
		return "an";
	return "a";
}

uint64_t size_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}
