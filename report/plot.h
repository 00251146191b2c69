/* plot.h — the chart each test draws (--plot FILE.svg): align (diff
 * against alignment, page and erase steps marked), scatter (time against
 * offset), interval (time against stride), open-au and find-fat
 * (throughput against chunk size; plot_rates draws any test whose rows are
 * request sizes: read or write throughput by its kind), --auto and
 * --analyze (the align rows with the page and erase block sizes found, and
 * the write measurements).  Reads result trees through results.h; draws
 * with svg.c.  Each returns 0, or -1 when there is nothing to draw. */
#ifndef FLASHBENCH_PLOT_H
#define FLASHBENCH_PLOT_H

#include <stdio.h>

#include "auto/auto_report.h"
#include "prog/printer.h"

plot_printer plot_align, plot_scatter, plot_interval, plot_rates, plot_find_fat;
/* --auto's charts (what: "--auto" or "--analyze", device: what was
 * measured): the align rows, and with --write the write-cache burst, time
 * per write by size, the open-AU trials and the FAT probe, one panel each. */
int plot_auto(FILE *f, const char *what, const char *device, const struct auto_report *r);
/* --analyze of tables: --auto's panels from the findings' rows, and the
 * open-au and find-fat tables read, as their tests draw them. */
struct saved_text;
int plot_saved(FILE *f, const char *source, const struct saved_text *t, const struct auto_report *r);

#endif
