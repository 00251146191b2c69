/* svg.h — self-contained SVG line and point charts: axes with ticks in the
 * tool's units (sizes, times, throughputs), linear or logarithmic scales,
 * several series, vertical markers (labelled above the plot, clear of the
 * data; markers at one x share a line and a label), a horizontal reference
 * line, and a legend of the series that have points; a figure stacks
 * several charts as panels.  A value that is not a number is a gap: lines
 * are not drawn across it, bars leave it out.  A single value sits in the
 * middle of its axis; a point that a later series' point covers is drawn
 * larger, so that it shows around it.  Titles
 * too long for the width are shortened in the middle; tick labels always
 * differ (a flat series gets a wider scale).  No fonts or scripts are
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
	char title_buf[256];     /* room for a title made on the fly (title may point here) */
	enum axis_unit xunit, yunit;
	int xlog, ylog;      /* log2 for bytes, log10 otherwise */
	int yzero;           /* linear y axis starts at zero */
	int xwhole, ywhole;  /* the values are whole numbers (counts): ticks only there */
	struct series s[CHART_SERIES];
	int ns;
	struct marker m[CHART_MARKERS];
	int nm;
	double yref;             /* > 0: a horizontal reference line at this y ... */
	const char *yref_label;  /* ... with this label over its left end */
	const char *const *xcat; /* bar charts: the name of each x (0, 1, ...) */
	int ncat;
};

/* Text for an SVG document: <, >, & and " escaped. */
void svg_escape(FILE *f, const char *s);

/* Write the chart as an SVG document; 0 or -1 (nothing to draw). */
int svg_chart(FILE *f, const struct chart *c);
/* Write n charts as one SVG document, one panel below the other; a chart
 * with nothing to draw is left out.  0, or -1 when none has anything. */
int svg_figure(FILE *f, const struct chart *const *charts, int n);

#endif
