/* svg.h — self-contained SVG line and point charts: axes with ticks in the
 * tool's units (sizes, times, throughputs), linear or logarithmic scales,
 * several series, vertical markers and a legend.  No fonts or scripts are
 * referenced; generic font families only. */
#ifndef FLASHBENCH_SVG_H
#define FLASHBENCH_SVG_H

#include <stddef.h>
#include <stdio.h>

enum axis_unit { AXIS_BYTES, AXIS_NS, AXIS_RATE, AXIS_PLAIN };

#define CHART_SERIES 40
#define CHART_MARKERS 4

struct series {
	char name[48];
	const double *x, *y;
	size_t n;
	int points;          /* dots instead of a line */
	int bars;            /* bars at x = 0, 1, ... (the chart's categories), side by side */
	const char *const *text; /* bars: a label over each bar (may be NULL) */
};

struct marker {
	double x;
	char label[64];
};

struct chart {
	const char *title, *xlabel, *ylabel;
	enum axis_unit xunit, yunit;
	int xlog, ylog;      /* log2 for bytes, log10 otherwise */
	int yzero;           /* linear y axis starts at zero */
	struct series s[CHART_SERIES];
	int ns;
	struct marker m[CHART_MARKERS];
	int nm;
	const char *const *xcat; /* bar charts: the name of each x (0, 1, ...) */
	int ncat;
};

/* Text for an SVG document: <, >, & and " escaped. */
void svg_escape(FILE *f, const char *s);

/* Write the chart as an SVG document; 0 or -1 (nothing to draw). */
int svg_chart(FILE *f, const struct chart *c);

#endif
