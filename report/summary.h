/* summary.h — flashbench --auto --summary: one line per device for a survey
 * table ("| name | size | erase block | ... |", Markdown and DokuWiki table
 * syntax): the --auto findings plus a sequential read speed measured here. */
#ifndef FLASHBENCH_SUMMARY_H
#define FLASHBENCH_SUMMARY_H

#include <stdio.h>

#include "auto/auto_report.h"
#include "dev/devinfo.h"
#include "lib/err.h"

struct dev;

/* Bytes per second of 1MiB reads in turn over 16MiB from the middle of the
 * device (less on a small one); NAN on a device under 4MiB. */
int summary_read_speed(struct dev *d, double *bps, struct fb_err *e);

/* One device's line (the header row is in the README). */
void summary_line(FILE *f, const struct identity *id, const struct auto_report *r, double read_bps);

#endif
