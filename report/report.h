/* report.h — the classic tab-separated text output of each test.  Formats
 * only: it reads result trees through results.h and never touches the
 * device.  Each is a test kind's text printer (testkinds.c). */
#ifndef FLASHBENCH_REPORT_H
#define FLASHBENCH_REPORT_H

#include <stdio.h>

#include "prog/printer.h"

/* Every row of a test whose kind has a row printer, in order (the same
 * lines its rows printed one by one as they were measured). */
text_printer report_rows;

/* Row printers (testkinds.c says at which depth the rows are):
 * "align 4194304\tpre 735µs\ton 1.08ms\tpost 780µs\tdiff 324µs" per alignment */
row_printer report_align_row;
/* "interval 16KiB\t21.5M/s\tmin 735µs\tavg 740µs\tmax 760µs" per stride */
row_printer report_interval_row;
/* "offset_MiB\ttime_ms" per position, for gnuplot */
row_printer report_scatter_row;
/* "4MiB\t8.79M/s" per request size (open-au's chunks); -v adds
 * "\tmin ..\tavg ..\tmax .." */
row_printer report_rates_row;
/* "4MiB\t8.79M/s\t8.81M/s..." one column per erase block; -v adds a
 * min/avg/max line per erase block below each size */
row_printer report_find_fat_row;

/* A program's kept result nodes, indented by depth:
 * "off-span unit=64KiB off=16777216 len=65536\t<total>\t<rate>\tmin ..\tavg ..\tmax .." */
text_printer report_tree;

#endif
