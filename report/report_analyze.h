/* report_analyze.h — the --analyze report as text and JSON: what was read
 * from the input, the findings (printed as --auto prints them), the
 * recommendations and what to run next.  Formats only. */
#ifndef FLASHBENCH_REPORT_ANALYZE_H
#define FLASHBENCH_REPORT_ANALYZE_H

#include <stdio.h>

#include "saved/reanalyze.h"

void report_analyze_text(FILE *f, const char *source, const struct saved_text *t, const struct saved_report *s);
void report_analyze_json(FILE *f, const char *source, const struct saved_text *t, const struct saved_report *s);

#endif
