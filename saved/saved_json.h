/* saved_json.h — --analyze of flashbench's own --json results.  A result of
 * a classic test (-a, -O, --find-fat) becomes the rows the classic text
 * reader makes (classic_read.h), so one analysis serves both; several
 * results may follow one another in one file or stream (a sweep written
 * with a shell loop).  An --auto (or --analyze) result brings its findings
 * instead, as that run made them.  Results of tests no finding rests on
 * (--interval, --scatter, --program trees) are named, not analysed.  Errors
 * name FILE:LINE:COL and the field.  Pure parsing: no analysis, no output. */
#ifndef FLASHBENCH_SAVED_JSON_H
#define FLASHBENCH_SAVED_JSON_H

#include <stddef.h>

#include "auto/auto_report.h"
#include "saved/classic_read.h"
#include "lib/err.h"

/* The findings of a saved --auto or --analyze result. */
struct saved_findings {
	int have;
	char test[16];                /* "auto" or "analyze" */
	char version[32];             /* of the flashbench that wrote it */
	char device[160];             /* "" when not saved (--analyze) */
	uint64_t size;                /* device size, 0 when not saved */
	unsigned sector;
	int wrote;                    /* --auto --write */
	unsigned line;                /* where its findings start */
	struct finding page, erase, min_write, open_linear, open_random, fat;
	char title[6][64];            /* the findings' titles, as saved */
	int alignment_matters;
	uint64_t bs;                  /* the align rows, for --plot */
	struct align_row rows[AUTO_MAX_ROWS];
	size_t nrows;
};

/* Does the input hold JSON (its first value, from its first non-blank byte
 * "{" or "[", parses as JSON)?  A paste that starts with "[edit]" does not. */
int saved_is_json(const char *text, size_t len);

/* Read len bytes of saved results, classic text or our JSON, into t (or,
 * for an --auto or --analyze result, into found).  name is used in
 * errors.  Text never fails (what is not a table is ignored); JSON fails
 * with e filled when it is not flashbench's or not a test it knows. */
int saved_read(const char *text, size_t len, const char *name, struct saved_text *t, struct saved_findings *found,
	       struct fb_err *e);

/* Is doc (one parsed result) one saved_read accepts, by the same rules
 * (its fields' types and ranges)?  0, or -1 with e filled: --compare checks
 * its inputs with it. */
struct json_value;
int saved_json_check(const struct json_value *doc, const char *name, struct fb_err *e);
#endif
