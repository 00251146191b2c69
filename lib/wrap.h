/* wrap.h — text laid out for a person (doc/style.md): a paragraph broken
 * on spaces into lines that end by a column, its first line after one
 * indent and the rest after another; widths counted in columns (a UTF-8
 * character is one), never in bytes.  Every report, summary, note and
 * help text goes through here rather than through hand-wrapped strings.
 * A word longer than a line (a path) stands on a line of its own, whole.
 * No flash knowledge. */
#ifndef FLASHBENCH_WRAP_H
#define FLASHBENCH_WRAP_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define WRAP_REPORT 76 /* reports and summaries end by this column */
#define WRAP_LINE 80   /* nothing else a person reads goes past this one */
#define WRAP_EVIDENCE "    "  /* evidence under a finding */
#define WRAP_HANG "      "    /* the evidence's further lines */

/* The columns text takes (UTF-8 characters; a broken byte is one). */
size_t text_width(const char *text);

/* text from `first`, then on lines that start with `rest`, each ending by
 * column `width` (first and rest counted in it).  "\n" in text starts a
 * new line (after `rest`).  Returns what fprintf would: < 0 on an error. */
int wrap_text(FILE *f, int width, const char *first, const char *rest, const char *text);

/* The same, from a format. */
int wrap_printf(FILE *f, int width, const char *first, const char *rest, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int wrap_vprintf(FILE *f, int width, const char *first, const char *rest, const char *fmt,
		 va_list ap);

/* A line of a report: from column 0, further lines indented by 4. */
int report_para(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line of evidence: indented by 4, further lines by 6. */
int report_evidence(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A note on standard error: "flashbench: " and the text, wrapped at 80
 * columns, further lines indented by 2.  < 0 when standard error cannot
 * take it (closed, full), flushed either way. */
int note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vnote(const char *fmt, va_list ap);

/* s padded with spaces to `width` columns into buf: on the left (right
 * aligned) when width < 0, else on the right; returns buf. */
const char *text_pad(char *buf, size_t len, const char *s, int width);

/* s cut to at most `width` columns (at a character's end), in place;
 * returns its new length in bytes. */
size_t text_cut(char *s, size_t width);

#endif
