/* report_rating.h — the --rating report: text (a person reads it: 80
 * columns, evidence indented and wrapped at 76), JSON (a program does: one
 * entry per mark with its name and verdict "meets", "fails" or
 * "untestable") and the --plot (the speed of each
 * sub-unit across the card, the long recording's speed over time, the
 * IOPS).  Formats only: fed the report, never the device. */
#ifndef FLASHBENCH_REPORT_RATING_H
#define FLASHBENCH_REPORT_RATING_H

#include <stdio.h>

#include "auto/rating.h"
#include "report/identity.h"

void report_rating_text(FILE *f, const struct identity *id, const struct rating_report *r,
			double wall_ns);
void report_rating_json(FILE *f, const struct identity *id, const struct rating_report *r,
			double wall_ns);
/* The plot: 0, or -1 when there is nothing to draw. */
int plot_rating(FILE *f, const char *device, const struct rating_report *r);

/* The marks as one short text: "C10 U3 V30 A2" (the highest of each
 * family given; "-" when none). */
void rating_marks_text(char *buf, size_t len, const struct sd_mark *const m[SD_FAMILIES]);

#endif
