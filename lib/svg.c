/* svg.c — drawing charts as SVG (see svg.h). */
#include "lib/svg.h"

#include <math.h>
#include <string.h>

#include "lib/units.h"

#define W 860
#define H 540
#define LEFT 90
#define RIGHT 200
#define TOP 70              /* the title, then a band for the markers' labels */
#define BOTTOM 70
#define TITLE_PX 9.5        /* about the width of a character of the 17px title */
#define LABEL_PX 6.8        /* ... of a 12px label */

static const char *const colour[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
				      "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };

struct scale {
	double lo, hi;
	int log;
	double base;
	int pixels, origin, flip;
	int whole;           /* values are whole numbers: no ticks between them */
};

static double tr(const struct scale *s, double v)
{
	double a, b, x;

	if (s->log) {
		a = log(s->lo) / log(s->base);
		b = log(s->hi) / log(s->base);
		x = log(v) / log(s->base);
	} else {
		a = s->lo;
		b = s->hi;
		x = v;
	}
	x = b > a ? (x - a) / (b - a) : 0.5;
	if (!(x > -10)) /* far off the axis (or not a number): just outside it */
		x = -10;
	else if (x > 10)
		x = 10;
	return s->flip ? s->origin - x * s->pixels : s->origin + x * s->pixels;
}

static void label(char *buf, size_t len, enum axis_unit u, double v)
{
	switch (u) {
	case AXIS_BYTES: format_size(buf, len, (uint64_t)llround(v)); break;
	case AXIS_NS: format_time(buf, len, v); break;
	case AXIS_RATE: format_rate(buf, len, v); break;
	default: snprintf(buf, len, "%g", v); break;
	}
}

static void escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

void svg_escape(FILE *f, const char *s)
{
	escape(f, s);
}

/* Ticks: powers of the base on log scales, 1-2-5 steps on linear ones.
 * Every loop is bounded by a count as well, whatever the range holds. */
static int ticks_of(const struct scale *s, double *t, int max)
{
	int n = 0, guard = 0;

	if (s->log && s->base == 10 && floor(log10(s->hi)) - ceil(log10(s->lo)) < 2) {
		/* less than two decades: 1-2-5 steps */
		static const double m[3] = { 1, 2, 5 };
		for (double d = pow(10, floor(log10(s->lo))); d <= s->hi && n < max && guard++ < 64; d *= 10)
			for (int i = 0; i < 3 && n < max; i++)
				if (d * m[i] >= s->lo && d * m[i] <= s->hi)
					t[n++] = d * m[i];
		return n;
	}
	if (s->log) {
		double p = pow(s->base, floor(log(s->lo) / log(s->base) + 1e-9));
		int count = 0, every;
		for (double q = p; q <= s->hi * (1 + 1e-9) && count < 4096; q *= s->base)
			count++;
		every = count > 12 ? (count + 11) / 12 : 1;
		for (int i = 0; p <= s->hi * (1 + 1e-9) && n < max && i < count; p *= s->base, i++)
			if (p >= s->lo * (1 - 1e-9) && i % every == 0)
				t[n++] = p;
		return n;
	}
	{
		/* 1-2-5 steps of the base: 512KiB, 1MiB... for bytes */
		double span = s->hi - s->lo, step = s->base == 2 ? pow(2, floor(log2(span / 6))) : pow(10, floor(log10(span / 6)));
		if (s->base == 2) {
			while (span / step > 10)
				step *= 2;
		} else if (span / step > 30) {
			step *= 5;
		} else if (span / step > 12) {
			step *= 2;
		}
		if (s->whole && step < 1)
			step = 1;
		for (double v = ceil(s->lo / step) * step; v <= s->hi + step * 1e-9 && n < max && guard++ < 1000; v += step)
			t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return n;
}

/* Make a scale drawable: finite, positive on log axes, hi above lo by a
 * step the doubles can tell apart. */
static void sane(struct scale *s)
{
	if (s->log) {
		if (!isfinite(s->lo) || s->lo <= 0 || s->lo < 1e-300)
			s->lo = isfinite(s->hi) && s->hi > 1e-300 ? s->hi / s->base : 1;
		if (!isfinite(s->hi) || s->hi > 1e300)
			s->hi = s->lo > 1e300 ? s->lo : 1e300;
		if (s->lo > 1e300 / s->base)
			s->lo = 1e300 / s->base;
		if (!(s->hi >= s->lo * s->base)) { /* one value: in the middle, a step of the base either side */
			double mid = sqrt(s->lo * s->hi);
			s->lo = mid / s->base;
			s->hi = mid * s->base;
		}
		return;
	}
	if (!isfinite(s->lo) || fabs(s->lo) > 1e300)
		s->lo = 0;
	if (!isfinite(s->hi) || fabs(s->hi) > 1e300)
		s->hi = s->lo + 1;
	if (!(s->hi - s->lo > fabs(s->lo) * 1e-9) || s->hi - s->lo < 1e-300)
		s->hi = s->lo + (s->lo ? fabs(s->lo) * 1e-3 : 1);
}

static void range(const struct chart *c, int y, double *lo, double *hi)
{
	int any = 0;

	*lo = *hi = 0;
	for (int i = 0; i < c->ns; i++)
		for (size_t k = 0; k < c->s[i].n; k++) {
			double v = y ? c->s[i].y[k] : c->s[i].x[k];
			if (!isfinite(v) || ((y ? c->ylog : c->xlog) && v <= 0))
				continue;
			if (!any || v < *lo)
				*lo = v;
			if (!any || v > *hi)
				*hi = v;
			any = 1;
		}
	if (!y)
		for (int i = 0; i < c->nm; i++) {
			double v = c->m[i].x;
			if (!isfinite(v) || (c->xlog && v <= 0))
				continue;
			if (!any || v < *lo)
				*lo = v;
			if (!any || v > *hi)
				*hi = v;
			any = 1;
		}
	if (y && any && c->yref > 0 && (!c->ylog || c->yref > 0)) { /* the reference line, with room above it */
		*lo = fmin(*lo, c->yref);
		*hi = fmax(*hi, c->yref * 1.25);
	}
	if (!(y ? c->ylog : c->xlog)) {
		if (y && *lo > 0 && c->yzero)
			*lo = 0; /* start at zero */
		if (*hi == *lo && !y && c->xwhole)
			; /* one whole number: the room beside it (panel) centres it */
		else if (*hi == *lo && !y) { /* one value: in the middle */
			double half = *lo ? fabs(*lo) / 2 : 1;
			*lo -= half;
			*hi += half;
		} else if (*hi == *lo)
			*hi = *lo + 1;
		if (y) {
			double pad = (*hi - *lo) * 0.05;
			*hi += pad;
			if (*lo < 0 || !c->yzero)
				*lo -= pad;
		}
	} else if (*hi <= *lo) { /* one value on a log axis: in the middle */
		*lo /= 2;
		*hi *= 2;
	}
}

/* Can this point go on the chart's axes? */
static int drawable(const struct chart *c, double x, double y)
{
	return isfinite(x) && isfinite(y) && (!c->xlog || x > 0) && (!c->ylog || y > 0);
}

/* Ticks whose labels differ: values that print alike (a flat series, a
 * range narrower than the labels' three digits) widen the scale around its
 * middle until they do. */
static int ticks(struct scale *s, enum axis_unit u, double *t, int max)
{
	char a[48], b[48];
	int n = 0;

	for (int tries = 0; tries < 40; tries++) {
		int same = 0;
		n = ticks_of(s, t, max);
		for (int i = 1; i < n && !same; i++) {
			label(a, sizeof(a), u, t[i - 1]);
			label(b, sizeof(b), u, t[i]);
			same = !strcmp(a, b);
		}
		if (!same)
			break;
		if (s->log) {
			s->lo /= s->base;
			s->hi *= s->base;
		} else {
			double mid = (s->lo + s->hi) / 2, half = (s->hi - s->lo);
			s->lo = s->lo >= 0 && mid - half < 0 ? 0 : mid - half;
			s->hi = mid + half;
		}
		sane(s);
	}
	return n;
}

/* Text that fits max characters: the middle gives way ("flashbench
 * --analyze /home/…/results.txt: align diff"). */
static void fitted(FILE *f, const char *text, size_t max)
{
	size_t n = strlen(text), head, tail;

	if (n <= max || max < 8) {
		escape(f, text);
		return;
	}
	head = (max - 1) / 3;
	tail = max - 1 - head;
	/* cut between UTF-8 characters */
	while (head > 0 && ((unsigned char)text[head] & 0xc0) == 0x80)
		head--;
	while (tail > 0 && ((unsigned char)text[n - tail] & 0xc0) == 0x80)
		tail--;
	for (size_t i = 0; i < head; i++) {
		char one[2] = { text[i], 0 };
		escape(f, one);
	}
	fputs("\u2026", f);
	escape(f, text + n - tail);
}

/* Does the chart have a point to draw (finite, positive on a log axis)? */
static int has_points(const struct chart *c)
{
	for (int i = 0; i < c->ns; i++)
		for (size_t k = 0; k < c->s[i].n; k++)
			if (drawable(c, c->s[i].x[k], c->s[i].y[k]))
				return 1;
	return 0;
}

/* The markers: dashed lines over the plot, labels in the band above it
 * (two rows, so that neighbours do not cover each other), never over the
 * data nor past the plot's right edge.  Markers at one x are one line with
 * their labels joined ("2 open, linear; 1 open, random order"). */
static void markers(FILE *f, const struct chart *c, const struct scale *xs, int y0, int pw, int ph)
{
	double end[2] = { -1e9, -1e9 };

	for (int i = 0; i < c->nm; i++) {
		char text[CHART_MARKERS * sizeof(c->m[0].label)];
		double x, w, at;
		int row, seen = 0;
		size_t len;
		if (!drawable(c, c->m[i].x, 1))
			continue;
		for (int k = 0; k < i; k++)
			seen |= c->m[k].x == c->m[i].x;
		if (seen) /* joined to the first at this x */
			continue;
		len = (size_t)snprintf(text, sizeof(text), "%s", c->m[i].label);
		for (int k = i + 1; k < c->nm; k++)
			if (c->m[k].x == c->m[i].x && len < sizeof(text))
				len += (size_t)snprintf(text + len, sizeof(text) - len, "; %s", c->m[k].label);
		x = tr(xs, c->m[i].x);
		w = LABEL_PX * (double)strlen(text);
		at = x - w / 2;
		if (at + w > LEFT + pw)
			at = LEFT + pw - w;
		if (at < LEFT)
			at = LEFT;
		row = at > end[0] + 8 ? 0 : at > end[1] + 8 ? 1 : 0;
		end[row] = at + w;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\" stroke-dasharray=\"6 4\"/>\n",
			x, y0 + TOP - 4 - 16 * row, x, y0 + TOP + ph);
		fprintf(f, "<text class=\"marker\" x=\"%.1f\" y=\"%d\" font-size=\"12\" fill=\"#333\">", at,
			y0 + TOP - 8 - 16 * row);
		escape(f, text);
		fputs("</text>\n", f);
	}
}

/* The horizontal reference line (yref), its label over its left end. */
static void reference(FILE *f, const struct chart *c, const struct scale *ys, int pw)
{
	double y;

	if (!(c->yref > 0))
		return;
	y = tr(ys, c->yref);
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555\" stroke-dasharray=\"2 3\"/>\n",
		LEFT, y, LEFT + pw, y);
	if (c->yref_label) {
		fprintf(f, "<text class=\"reference\" x=\"%d\" y=\"%.1f\" font-size=\"12\" fill=\"#333\">", LEFT + 6,
			y - 5);
		escape(f, c->yref_label);
		fputs("</text>\n", f);
	}
}

/* Series i's point k is covered by this many later series' points (within
 * two pixels), up to 3: it is drawn that much larger, so that it shows
 * around them (a ring each; more would only blot the chart). */
static int covered(const struct chart *c, const struct scale *xs, const struct scale *ys, int i, size_t k)
{
	double x = tr(xs, c->s[i].x[k]), y = tr(ys, c->s[i].y[k]);
	int n = 0;

	for (int j = i + 1; j < c->ns; j++) {
		const struct series *o = &c->s[j];
		if (o->bars || o->n > 200)
			continue;
		for (size_t m = 0; m < o->n; m++)
			if (drawable(c, o->x[m], o->y[m]) && fabs(tr(xs, o->x[m]) - x) < 2 && fabs(tr(ys, o->y[m]) - y) < 2) {
				n++;
				break;
			}
	}
	return n < 3 ? n : 3;
}

static int series_drawn(const struct chart *c, const struct series *s)
{
	for (size_t k = 0; k < s->n; k++)
		if (drawable(c, s->x[k], s->y[k]))
			return 1;
	return 0;
}

static int labelled_bars(const struct chart *c)
{
	for (int i = 0; i < c->ns; i++)
		if (c->s[i].bars && c->s[i].text)
			return 1;
	return 0;
}

/* A category's name under its bars, on two lines when it is longer than
 * max characters (split at the space nearest the middle). */
static void category(FILE *f, const char *name, double x, int y, size_t max)
{
	size_t n = strlen(name), cut = 0;

	for (size_t i = 0; i < n; i++)
		if (name[i] == ' ' && (!cut || (i > n / 2 ? i - n / 2 : n / 2 - i) < (cut > n / 2 ? cut - n / 2 : n / 2 - cut)))
			cut = i;
	fprintf(f, "<text class=\"category\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x, y);
	if (n <= max || !cut) {
		fitted(f, name, max);
	} else {
		char first[128];
		snprintf(first, sizeof(first), "%.*s", (int)cut, name);
		fprintf(f, "<tspan x=\"%.1f\">", x);
		fitted(f, first, max);
		fprintf(f, "</tspan><tspan x=\"%.1f\" dy=\"15\">", x);
		fitted(f, name + cut + 1, max);
		fputs("</tspan>", f);
	}
	fputs("</text>\n", f);
}

/* One chart, its top at y0. */
static void panel(FILE *f, const struct chart *c, int y0)
{
	struct scale xs, ys;
	double t[64], lo, hi;
	int n, pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
	char buf[48];

	range(c, 0, &lo, &hi);
	if (c->xcat) { /* bar charts: categories 0 .. ncat-1 */
		lo = -0.5;
		hi = c->ncat - 0.5;
	}
	if (c->xwhole && !c->xlog) { /* room beside the first and last points */
		lo -= 0.5;
		hi += 0.5;
	}
	xs = (struct scale){ lo, hi, c->xlog && !c->xcat, c->xunit == AXIS_BYTES ? 2 : 10, pw, LEFT, 0, c->xwhole };
	range(c, 1, &lo, &hi);
	ys = (struct scale){ lo, hi, c->ylog, c->yunit == AXIS_BYTES ? 2 : 10, ph, y0 + TOP + ph, 1, c->ywhole };
	if (c->ylog) { /* a little room above and below */
		ys.lo /= 1.3;
		ys.hi *= 1.3;
	}
	sane(&xs);
	sane(&ys);
	if (labelled_bars(c)) { /* the tallest bar takes 3/4 of the height: its label goes above */
		if (ys.log)
			ys.hi = ys.lo * pow(ys.hi / ys.lo, 4.0 / 3);
		else
			ys.hi = ys.lo + (ys.hi - ys.lo) * 4 / 3;
	}

	fprintf(f, "<text class=\"title\" x=\"%d\" y=\"%d\" font-size=\"17\" font-weight=\"bold\">", 20, y0 + 28);
	fitted(f, c->title ? c->title : "", (size_t)((W - 40) / TITLE_PX));
	fputs("</text>\n", f);

	/* grid and ticks */
	n = c->xcat ? 0 : ticks(&xs, c->xunit, t, 64);
	for (int i = 0; c->xcat && i < c->ncat; i++)
		category(f, c->xcat[i], tr(&xs, i), y0 + TOP + ph + 18, (size_t)(pw / c->ncat / LABEL_PX));
	for (int i = 0; i < n; i++) {
		double x = tr(&xs, t[i]);
		label(buf, sizeof(buf), c->xunit, t[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, y0 + TOP, x,
			y0 + TOP + ph);
		fprintf(f, "<text class=\"xtick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, y0 + TOP + ph + 18,
			buf);
	}
	n = ticks(&ys, c->yunit, t, 64);
	for (int i = 0; i < n; i++) {
		double y = tr(&ys, t[i]);
		label(buf, sizeof(buf), c->yunit, t[i]);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>\n", LEFT, y, LEFT + pw, y,
			t[i] == 0 && !c->ylog ? "#888" : "#ddd");
		fprintf(f, "<text class=\"ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", LEFT - 6, y + 4, buf);
	}
	fprintf(f, "<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n",
		LEFT, y0 + TOP, pw, ph);
	fprintf(f, "<text class=\"xlabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", LEFT + pw / 2, y0 + H - 14);
	escape(f, c->xlabel ? c->xlabel : "");
	fprintf(f, "</text>\n<text class=\"ylabel\" transform=\"translate(22 %d) rotate(-90)\" text-anchor=\"middle\">",
		y0 + TOP + ph / 2);
	escape(f, c->ylabel ? c->ylabel : "");
	fputs("</text>\n", f);

	markers(f, c, &xs, y0, pw, ph);
	reference(f, c, &ys, pw);

	/* series and legend */
	for (int i = 0, legend = 0; i < c->ns; i++) {
		const struct series *s = &c->s[i];
		const char *col = colour[i % 10];
		if (s->bars) {
			double w = 0.8 / c->ns * pw / c->ncat, base = c->ylog ? y0 + TOP + ph : tr(&ys, 0);
			for (size_t k = 0; k < s->n; k++) {
				double x = tr(&xs, s->x[k]) - 0.4 * pw / c->ncat + i * w, y;
				if (!isfinite(s->y[k]) || (!(s->y[k] > 0) && c->ylog)) /* missing: no bar */
					continue;
				y = tr(&ys, s->y[k]);
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
					x + 1, y < base ? y : base, w - 2, fabs(base - y), col);
				if (s->text && s->text[k]) {
					fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"start\" "
						   "transform=\"rotate(-90 %.1f %.1f)\">", x + w / 2 + 4, y - 4, x + w / 2 + 4, y - 4);
					escape(f, s->text[k]);
					fputs("</text>\n", f);
				}
			}
		} else if (s->points) {
			for (size_t k = 0; k < s->n; k++)
				if (drawable(c, s->x[k], s->y[k]))
					fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n",
						tr(&xs, s->x[k]), tr(&ys, s->y[k]),
						(s->n > 200 ? 2.5 : 4.5 + 3 * covered(c, &xs, &ys, i, k)), col);
		} else {
			/* a line through the points, broken where a value is missing */
			int open = 0;
			for (size_t k = 0; k < s->n; k++) {
				if (!drawable(c, s->x[k], s->y[k])) {
					if (open)
						fputs("\"/>\n", f);
					open = 0;
					continue;
				}
				if (!open)
					fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
				open = 1;
				fprintf(f, "%.1f,%.1f ", tr(&xs, s->x[k]), tr(&ys, s->y[k]));
			}
			if (open)
				fputs("\"/>\n", f);
			for (size_t k = 0; k < s->n; k++)
				if (drawable(c, s->x[k], s->y[k]))
					fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n",
						tr(&xs, s->x[k]), tr(&ys, s->y[k]), 3.0 + 3 * covered(c, &xs, &ys, i, k), col);
		}
		/* the legend: the series that have something drawn, as they are drawn */
		if (legend < 24 && series_drawn(c, s)) {
			int ly = y0 + TOP + 10 + 18 * legend++;
			if (s->points)
				fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"4.5\" fill=\"%s\"/>\n", LEFT + pw + 23, ly + 2, col);
			else
				fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>\n", LEFT + pw + 16,
					ly, col);
			fprintf(f, "<text class=\"legend\" x=\"%d\" y=\"%d\">", LEFT + pw + 36, ly + 6);
			fitted(f, s->name, (size_t)((RIGHT - 40) / LABEL_PX));
			fputs("</text>\n", f);
		}
	}
}

int svg_figure(FILE *f, const struct chart *const *charts, int n)
{
	int drawn = 0, y0 = 0;

	for (int i = 0; i < n; i++)
		drawn += charts[i]->ns > 0 && has_points(charts[i]);
	if (!drawn)
		return -1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		   "font-family=\"sans-serif\" font-size=\"13\">\n"
		   "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H * drawn, W, H * drawn, W, H * drawn);
	for (int i = 0; i < n; i++) {
		if (!charts[i]->ns || !has_points(charts[i]))
			continue;
		panel(f, charts[i], y0);
		y0 += H;
	}
	fputs("</svg>\n", f);
	return 0;
}

int svg_chart(FILE *f, const struct chart *c)
{
	return svg_figure(f, &c, 1);
}
