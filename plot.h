/* plot.h — which chart each test draws (--plot FILE.svg): align (diff
 * against alignment, page and erase steps marked), scatter (time against
 * offset), interval (time against stride), open-au and find-fat
 * (throughput against chunk size), --auto (its align rows with the page and
 * erase block sizes it found).  Reads result trees; draws with svg.c. */
#ifndef FLASHBENCH_PLOT_H
#define FLASHBENCH_PLOT_H

#include <stdio.h>

#include "characterise.h"
#include "vm.h"

/* test: "align", "scatter", "interval", "open-au", "find-fat" (others: -1) */
int plot_test(FILE *f, const char *test, const char *device, const struct vm_result *root, int random_order,
	      unsigned open_au_nr);
int plot_auto(FILE *f, const char *device, const struct auto_report *r);

#endif
