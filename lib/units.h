/* units.h — sizes and times as people write and read them: parsing "12M",
 * "1.5MiB", "24k", and printing the classic flashbench units (µs, MiB, M/s). */
#ifndef FLASHBENCH_UNITS_H
#define FLASHBENCH_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* What the parsers found wrong (0: nothing): a caller that words a case
 * itself tests the code; why (a static string) says it in general. */
enum parse_code {
	PARSE_OK = 0,
	PARSE_EMPTY,           /* no text */
	PARSE_NEGATIVE,        /* a minus sign */
	PARSE_NOT_NUMBER,      /* not a number (or a time) at all */
	PARSE_NOT_WHOLE,       /* a fraction where a whole number (of bytes) is wanted */
	PARSE_UNIT,            /* an unknown unit */
	PARSE_TOO_LARGE,       /* more than 64 bits hold */
	PARSE_TOO_LONG,        /* a time longer than 64 bits of nanoseconds hold */
	PARSE_ZERO,            /* a time of zero (a time is at least 1ns) */
};

/* Parse a byte count: a plain integer or a decimal number with a binary suffix
 * (k/K, m/M, g/G, t/T, each optionally followed by "i" and/or "B"; "B" alone
 * means bytes).  "1.5M" is 1572864.  Returns 0, or a parse_code with a reason
 * in why when the text is not a whole, non-negative byte count. */
int parse_size(const char *text, uint64_t *out, const char **why);

/* The greatest common divisor of two sizes (a or b when the other is 0). */
uint64_t size_gcd(uint64_t a, uint64_t b);

/* Parse a plain non-negative integer (counts, orders): 0 or a parse_code. */
int parse_count(const char *text, uint64_t *out, const char **why);

/* Parse a duration: "90s", "2m" (or "2min"), "1.5h", "500ms"; a plain
 * number is seconds.  Returns 0 with *ns > 0, or a parse_code with a reason
 * in why. */
int parse_time(const char *text, uint64_t *ns, const char **why);

/* Each of these writes into buf and returns it, so that it can stand in a
 * printf argument list. */
/* Time in nanoseconds: "123ns", "53.3µs", "1.08ms", "2.345s"; negative
 * values carry the same units ("-2.1µs"). */
const char *format_time(char *buf, size_t len, double ns);

/* A duration as --budget takes it: "1h", "2m" when whole, else as
 * format_time ("90s", "1.5s"). */
const char *format_duration(char *buf, size_t len, uint64_t ns);

/* Byte count in binary units: "512B", "16KiB", "1.5MiB", "12MiB". */
const char *format_size(char *buf, size_t len, uint64_t bytes);

/* A byte count that is a promise of room (a usable size): the unit and the
 * three significant digits of format_size, but the digits cut off, never
 * rounded up, so the text is never above the value: 2047 MiB is "1.99GiB",
 * 1535 MiB "1.49GiB", 1023.5 MiB "1023MiB"; a value the digits hold exactly
 * reads as format_size has it ("768MiB", "1.5GiB"). */
const char *format_size_floor(char *buf, size_t len, uint64_t bytes);

/* A byte count exactly, in the largest binary unit it is a whole number
 * of: "0", "512B", "24KiB", "4352MiB", "4GiB" (what a write run
 * announces: short, and never rounded). */
const char *format_size_exact(char *buf, size_t len, uint64_t bytes);

/* Throughput in decimal units of bytes per second: "8.79M/s", "912K/s". */
const char *format_rate(char *buf, size_t len, double bytes_per_second);

/* The indefinite article before a number as it is read aloud: "an" for
 * 8KiB, 11, 18, 80-89, 800MiB, 8000 ("eight", "eleven", "eighteen",
 * "eighty"), "a" for the others (16KiB, 1.5MiB, 180). */
const char *article(const char *number);

#endif
