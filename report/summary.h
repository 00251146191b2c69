/* summary.h — flashbench --auto --summary: one line per device for a survey
 * table ("| name | size | erase block | ... |", Markdown and DokuWiki table
 * syntax): the --auto findings and the sequential read speed the planner
 * measured for it (auto_report.read_bps).  Formats only. */
#ifndef FLASHBENCH_SUMMARY_H
#define FLASHBENCH_SUMMARY_H

#include <stdio.h>

#include "auto/auto_report.h"
#include "report/identity.h"

/* One device's line (the header row is in the README). */
void summary_line(FILE *f, const struct identity *id, const struct auto_report *r);

#endif
