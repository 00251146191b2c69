/* compare.h — flashbench --compare A.json B.json ...: saved results side by
 * side, one column per card, the rows where they differ marked; as text,
 * JSON or an SVG chart.  Reads --auto results and the align, interval and
 * open-au tables.  Needs no device. */
#ifndef FLASHBENCH_COMPARE_H
#define FLASHBENCH_COMPARE_H

#include <stdio.h>

#include "lib/err.h"

enum compare_format { COMPARE_TEXT, COMPARE_JSON };

/* Read the n files and print the comparison to out; with plot (may be
 * NULL), also draw it there.  A file that is not a flashbench result, or
 * does not match the others, fails with e naming the file and the field. */
int compare_files(const char *const *files, int n, enum compare_format format, FILE *out, FILE *plot,
		  struct fb_err *e);

#endif
