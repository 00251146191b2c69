/* report.h — the classic tab-separated text output of each test.  Formats
 * only: it reads result trees (programs.h says where each figure sits) and
 * never touches the device. */
#ifndef FLASHBENCH_REPORT_H
#define FLASHBENCH_REPORT_H

#include <stdio.h>

#include "vm.h"

/* "align 4194304\tpre 735µs\ton 1.08ms\tpost 780µs\tdiff 324µs" per line */
void report_align(FILE *f, const struct vm_result *root);
/* "interval 16KiB\t21.5M/s\tmin 735µs\tavg 740µs\tmax 760µs" per stride */
void report_interval(FILE *f, const struct vm_result *root);
/* "offset_MiB\ttime_ms" per position, for gnuplot */
void report_scatter(FILE *f, const struct vm_result *root);
/* "4MiB\t8.79M/s" per chunk size; verbose adds "\tmin ..\tavg ..\tmax .." */
void report_open_au(FILE *f, const struct vm_result *root, int verbose);
/* "4MiB\t8.79M/s\t8.81M/s..." one column per erase block; verbose adds a
 * min/avg/max line per erase block below each size */
void report_find_fat(FILE *f, const struct vm_result *root, int verbose);

/* A program's kept result nodes, indented by depth:
 * "off-span unit=64KiB off=16777216 len=65536\t<total>\t<rate>\tmin ..\tavg ..\tmax .." */
void report_tree(FILE *f, const struct vm_result *root);

/* The align figures of one row, shared with the analysis: pre, on and post
 * are the best of the tries, averaged over the positions. */
struct align_row {
	unsigned long long align;
	double pre, on, post, diff;
	struct vm_stats leg[3];     /* every pre, on and post read */
};
void align_row_of(const struct vm_result *row, struct align_row *out);

/* The tries around one boundary (a repeat node whose kids are pre/on/post
 * sequences): the best time of each of the three reads, and their stats. */
void crossing_of(const struct vm_result *tries, double best[3], struct vm_stats leg[3]);

#endif
