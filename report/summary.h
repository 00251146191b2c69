/* summary.h — --summary: one row per device for a survey table, with the
 * same columns in every mode (doc/style.md), in the row syntax Markdown
 * and DokuWiki share, so rows of --auto, --capacity and --rating go into
 * one table under SUMMARY_HEADER:
 *   | device | size | verdict | erase block | page | min write | open | FAT | read MB/s | write MB/s |
 * verdict: --auto's "flash", "no flash" or "SSD-like"; --capacity's
 * "genuine" or "fake: wrap 512MiB" (what it does, the usable size);
 * --rating's marks met ("C10 U1 V10"; "!U3": claimed, failed; "~A2":
 * claimed, untestable here).  open: linear/random.  FAT: erase blocks.
 * A value less than highly sure ends in "?", a lower bound starts with
 * ">=", "-" is not measured or not determined.  Formats only. */
#ifndef FLASHBENCH_SUMMARY_H
#define FLASHBENCH_SUMMARY_H

#include <stdio.h>

#include "auto/auto_report.h"
#include "auto/capacity.h"
#include "auto/rating.h"
#include "report/identity.h"

/* The table's head: its header row and the row under it. */
extern const char summary_header[];

void summary_auto(FILE *f, const struct identity *id, const struct auto_report *r);
void summary_capacity(FILE *f, const struct identity *id, const struct capacity_report *r);
void summary_rating(FILE *f, const struct identity *id, const struct rating_report *r);

#endif
