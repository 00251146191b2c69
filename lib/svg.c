/* svg.c — drawing charts as SVG (see svg.h). */
#include "lib/svg.h"

#include <math.h>
#include <string.h>

#include "lib/units.h"

#define W 860
#define H 520
#define LEFT 90
#define RIGHT 200
#define TOP 50
#define BOTTOM 70

static const char *const colour[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
				      "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };

struct scale {
	double lo, hi;
	int log;
	double base;
	int pixels, origin, flip;
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

void svg_escape(FILE *f, const char *s)
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

/* Ticks: powers of the base on log scales, 1-2-5 steps on linear ones.
 * Every loop is bounded by a count as well, whatever the range holds. */
static int ticks(const struct scale *s, double *t, int max)
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
		double span = s->hi - s->lo, step = pow(10, floor(log10(span / 6)));
		if (span / step > 30)
			step *= 5;
		else if (span / step > 12)
			step *= 2;
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
		if (!(s->hi >= s->lo * s->base))
			s->hi = s->lo * s->base;
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
	if (!(y ? c->ylog : c->xlog)) {
		if (y && *lo > 0 && c->yzero)
			*lo = 0; /* start at zero */
		if (*hi == *lo)
			*hi = *lo + 1;
		if (y) {
			double pad = (*hi - *lo) * 0.05;
			*hi += pad;
			if (*lo < 0 || !c->yzero)
				*lo -= pad;
		}
	} else if (*hi <= *lo) {
		*hi = *lo * 2;
	}
}

/* Can this point go on the chart's axes? */
static int drawable(const struct chart *c, double x, double y)
{
	return isfinite(x) && isfinite(y) && (!c->xlog || x > 0) && (!c->ylog || y > 0);
}

int svg_chart(FILE *f, const struct chart *c)
{
	struct scale xs, ys;
	double t[64], lo, hi;
	int n, pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
	char buf[48];

	if (!c->ns)
		return -1;
	range(c, 0, &lo, &hi);
	if (c->xcat) { /* bar charts: categories 0 .. ncat-1 */
		lo = -0.5;
		hi = c->ncat - 0.5;
	}
	xs = (struct scale){ lo, hi, c->xlog && !c->xcat, c->xunit == AXIS_BYTES ? 2 : 10, pw, LEFT, 0 };
	range(c, 1, &lo, &hi);
	ys = (struct scale){ lo, hi, c->ylog, c->yunit == AXIS_BYTES ? 2 : 10, ph, TOP + ph, 1 };
	if (c->ylog) { /* a little room above and below */
		ys.lo /= 1.3;
		ys.hi *= 1.3;
	}
	sane(&xs);
	sane(&ys);

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		   "font-family=\"sans-serif\" font-size=\"13\">\n"
		   "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H, W, H, W, H);
	fprintf(f, "<text x=\"%d\" y=\"28\" font-size=\"17\" font-weight=\"bold\">", LEFT);
	svg_escape(f, c->title);
	fputs("</text>\n", f);

	/* grid and ticks */
	n = c->xcat ? 0 : ticks(&xs, t, 64);
	for (int i = 0; c->xcat && i < c->ncat; i++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", tr(&xs, i), TOP + ph + 18);
		svg_escape(f, c->xcat[i]);
		fputs("</text>\n", f);
	}
	for (int i = 0; i < n; i++) {
		double x = tr(&xs, t[i]);
		label(buf, sizeof(buf), c->xunit, t[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, TOP, x, TOP + ph);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, TOP + ph + 18, buf);
	}
	n = ticks(&ys, t, 64);
	for (int i = 0; i < n; i++) {
		double y = tr(&ys, t[i]);
		label(buf, sizeof(buf), c->yunit, t[i]);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>\n", LEFT, y, LEFT + pw, y,
			t[i] == 0 && !c->ylog ? "#888" : "#ddd");
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", LEFT - 6, y + 4, buf);
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n", LEFT, TOP,
		pw, ph);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", LEFT + pw / 2, H - 22);
	svg_escape(f, c->xlabel);
	fprintf(f, "</text>\n<text transform=\"translate(22 %d) rotate(-90)\" text-anchor=\"middle\">", TOP + ph / 2);
	svg_escape(f, c->ylabel);
	fputs("</text>\n", f);

	/* markers */
	for (int i = 0; i < c->nm; i++) {
		double x;
		if (!drawable(c, c->m[i].x, 1))
			continue;
		x = tr(&xs, c->m[i].x);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\" stroke-dasharray=\"6 4\"/>\n",
			x, TOP, x, TOP + ph);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" fill=\"#333\" transform=\"rotate(-90 %.1f %d)\" text-anchor=\"end\">",
			x - 4, TOP + 6, x - 4, TOP + 6);
		svg_escape(f, c->m[i].label);
		fputs("</text>\n", f);
	}

	/* series and legend */
	for (int i = 0; i < c->ns; i++) {
		const struct series *s = &c->s[i];
		const char *col = colour[i % 10];
		if (s->bars) {
			double w = 0.8 / c->ns * pw / c->ncat, base = c->ylog ? TOP + ph : tr(&ys, 0);
			for (size_t k = 0; k < s->n; k++) {
				double x = tr(&xs, s->x[k]) - 0.4 * pw / c->ncat + i * w, y;
				if (!(s->y[k] > 0) && c->ylog)
					continue;
				y = tr(&ys, s->y[k]);
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
					x + 1, y < base ? y : base, w - 2, fabs(base - y), col);
				if (s->text && s->text[k]) {
					fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"start\" "
						   "transform=\"rotate(-90 %.1f %.1f)\">", x + w / 2 + 4, y - 4, x + w / 2 + 4, y - 4);
					svg_escape(f, s->text[k]);
					fputs("</text>\n", f);
				}
			}
		} else if (s->points) {
			for (size_t k = 0; k < s->n; k++)
				if (drawable(c, s->x[k], s->y[k]))
					fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
						tr(&xs, s->x[k]), tr(&ys, s->y[k]), col);
		} else {
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
			for (size_t k = 0; k < s->n; k++)
				if (drawable(c, s->x[k], s->y[k]))
					fprintf(f, "%.1f,%.1f ", tr(&xs, s->x[k]), tr(&ys, s->y[k]));
			fputs("\"/>\n", f);
			for (size_t k = 0; k < s->n; k++)
				if (drawable(c, s->x[k], s->y[k]))
					fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
						tr(&xs, s->x[k]), tr(&ys, s->y[k]), col);
		}
		if (i < 24) {
			int ly = TOP + 10 + 18 * i;
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>\n", LEFT + pw + 16, ly, col);
			fprintf(f, "<text x=\"%d\" y=\"%d\">", LEFT + pw + 36, ly + 6);
			svg_escape(f, s->name);
			fputs("</text>\n", f);
		}
	}
	fputs("</svg>\n", f);
	return 0;
}
