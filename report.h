/* report.h — the classic tab-separated text output of each test.  Formats
 * only: it reads result trees through results.h and never touches the
 * device.  Each is a test kind's text printer (testkinds.c). */
#ifndef FLASHBENCH_REPORT_H
#define FLASHBENCH_REPORT_H

#include <stdio.h>

#include "vm.h"

struct print_ctx;

/* "align 4194304\tpre 735µs\ton 1.08ms\tpost 780µs\tdiff 324µs" per line */
void report_align(FILE *f, const struct vm_result *root, const struct print_ctx *p);
/* "interval 16KiB\t21.5M/s\tmin 735µs\tavg 740µs\tmax 760µs" per stride */
void report_interval(FILE *f, const struct vm_result *root, const struct print_ctx *p);
/* "offset_MiB\ttime_ms" per position, for gnuplot */
void report_scatter(FILE *f, const struct vm_result *root, const struct print_ctx *p);
/* "4MiB\t8.79M/s" per request size (open-au's chunks); -v adds
 * "\tmin ..\tavg ..\tmax .." */
void report_rates(FILE *f, const struct vm_result *root, const struct print_ctx *p);
/* "4MiB\t8.79M/s\t8.81M/s..." one column per erase block; -v adds a
 * min/avg/max line per erase block below each size */
void report_find_fat(FILE *f, const struct vm_result *root, const struct print_ctx *p);

/* A program's kept result nodes, indented by depth:
 * "off-span unit=64KiB off=16777216 len=65536\t<total>\t<rate>\tmin ..\tavg ..\tmax .." */
void report_tree(FILE *f, const struct vm_result *root, const struct print_ctx *p);

#endif
