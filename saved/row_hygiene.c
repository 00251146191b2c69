/* row_hygiene.c — pasted -a rows checked against themselves (see
 * row_hygiene.h). */
#include "saved/row_hygiene.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lines.h"
#include "lib/stats.h"
#include "lib/units.h"

static const char *const field_name[] = { "pre", "on", "post", "diff" };

static double field(const struct align_row *r, int f)
{
	return f == 0 ? r->pre : f == 1 ? r->on : f == 2 ? r->post : r->diff;
}

static void set_field(struct align_row *r, int f, double v)
{
	if (f == 0)
		r->pre = v;
	else if (f == 1)
		r->on = v;
	else if (f == 2)
		r->post = v;
	else
		r->diff = v;
}

/* The median of field f over the rows whose unit for it is trusted (not a
 * bare "s", which a lost µ leaves); 0 when there are none. */
static double field_median(const struct saved_align_run *run, int f)
{
	double v[SAVED_ALIGN_ROWS];
	size_t m = 0;

	for (size_t k = 0; k < run->n; k++)
		if (run->unit[k][f] != TU_S && run->unit[k][f] != TU_NONE && field(&run->rows[k], f) > 0)
			v[m++] = field(&run->rows[k], f);
	return stats_median(v, m);
}

static void note(struct saved_align_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct saved_align_run *run, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lines_vadd(LINES(run->notes, run->nnotes), 0, fmt, ap);
	va_end(ap);
}

/* The factor a lost or misread unit makes: µs read as s (1e6) or as ms
 * (1e3), ms read as s (1e3); 1 when none brings v within FIELD_APART of
 * ref. */
static double unit_slip(double v, double ref, enum time_unit u)
{
	static const double slips[] = { 1e6, 1e3 };

	if (u != TU_S && u != TU_MS)
		return 1;
	for (size_t i = 0; i < sizeof(slips) / sizeof(slips[0]); i++) {
		double x = v / slips[i];
		if (u == TU_MS && slips[i] > 1e3)
			continue;
		if (x >= ref / FIELD_APART && x <= ref * FIELD_APART)
			return slips[i];
	}
	return 1;
}

/* Does diff d agree with on - (pre + post) / 2 of row r, within what
 * printing to 3 digits can move them? */
static int diff_agrees(const struct align_row *r, double d)
{
	double c = r->on - (r->pre + r->post) / 2;
	double tol = PRINT_SHARE * (fabs(r->on) + (fabs(r->pre) + fabs(r->post)) / 2 + fabs(d)) + 2;
	return fabs(d - c) <= tol;
}

struct dropped {
	uint64_t align;
	unsigned line;
	char why[160];
};

void row_hygiene(struct saved_align_run *run)
{
	struct dropped drop[SAVED_ALIGN_ROWS];
	size_t ndrop = 0, kept = 0;
	unsigned diff_fixed = 0, field_fixed = 0;
	double diff_slip = 0, field_slip_seen = 0;
	double med[3];
	char a[32], b[32];

	for (int f = 0; f < 3; f++)
		med[f] = field_median(run, f);
	/* a field with no trusted unit takes the others' reads as its
	 * reference (pre, on and post read the same amount) */
	for (int f = 0; f < 3; f++)
		if (!med[f])
			med[f] = med[(f + 1) % 3] ? med[(f + 1) % 3] : med[(f + 2) % 3];
	for (size_t k = 0; k < run->n; k++) {
		struct align_row *r = &run->rows[k];
		struct dropped *d = &drop[ndrop];
		int bad = 0;

		d->align = r->align;
		d->line = run->row_line[k];
		/* a time no device took (hours, or less than nothing) */
		if (!(r->pre >= 0 && r->pre <= SAVED_MAX_NS && r->on >= 0 && r->on <= SAVED_MAX_NS && r->post >= 0 &&
		      r->post <= SAVED_MAX_NS && r->diff >= -SAVED_MAX_NS && r->diff <= SAVED_MAX_NS)) {
			snprintf(d->why, sizeof(d->why), "it holds a time no device took (more than 1e13 ns, or below 0)");
			if (run->unit[k][3] == TU_NONE && run->computed_diffs)
				run->computed_diffs--;
			ndrop++;
			continue;
		}
		/* pre, on, post: a unit, and a value like the other rows' */
		for (int f = 0; f < 3 && !bad; f++) {
			double v = field(r, f), s;
			if (run->unit[k][f] == TU_NONE) {
				snprintf(d->why, sizeof(d->why), "%s %.6g has no unit: the row was cut off", field_name[f], v);
				bad = 1;
				break;
			}
			if (!med[f] && run->unit[k][f] == TU_S) {
				/* every read of the run lost its µ: no block read
				 * takes seconds, so they are µs */
				set_field(r, f, v / 1e6);
				field_fixed++;
				field_slip_seen = 1e6;
				continue;
			}
			if (!med[f] || (v >= med[f] / FIELD_APART && v <= med[f] * FIELD_APART))
				continue;
			if ((s = unit_slip(v, med[f], run->unit[k][f])) > 1) {
				set_field(r, f, v / s);
				field_fixed++;
				field_slip_seen = s;
				continue;
			}
			format_time(a, sizeof(a), v);
			format_time(b, sizeof(b), med[f]);
			snprintf(d->why, sizeof(d->why), "%s %s is far from the other rows' %s (about %s)", field_name[f], a,
				 field_name[f], b);
			bad = 1;
		}
		/* diff: the row's own check */
		if (!bad && run->unit[k][3] != TU_NONE && !diff_agrees(r, r->diff)) {
			static const double slips[] = { 1e6, 1e3, 1e9, 1e-3 };
			size_t i;
			for (i = 0; i < sizeof(slips) / sizeof(slips[0]); i++)
				if (diff_agrees(r, r->diff / slips[i]))
					break;
			if (i < sizeof(slips) / sizeof(slips[0])) {
				r->diff /= slips[i];
				diff_fixed++;
				diff_slip = slips[i];
			} else {
				format_time(a, sizeof(a), r->diff);
				format_time(b, sizeof(b), r->on - (r->pre + r->post) / 2);
				snprintf(d->why, sizeof(d->why), "diff %s disagrees with on - (pre + post) / 2 = %s", a, b);
				bad = 1;
			}
		}
		if (bad) {
			if (run->unit[k][3] == TU_NONE && run->computed_diffs)
				run->computed_diffs--;
			ndrop++;
			continue;
		}
		run->rows[kept] = *r;
		run->row_line[kept] = run->row_line[k];
		memcpy(run->unit[kept], run->unit[k], sizeof(run->unit[0]));
		kept++;
	}
	run->n = kept;
	run->repaired = diff_fixed + field_fixed;
	run->dropped = (unsigned)ndrop;
	if (diff_fixed)
		note(run, "%u diff%s read as %s: %s, as each row's own on - (pre + post) / 2 shows", diff_fixed,
		     diff_fixed == 1 ? "" : "s", diff_slip >= 1e6 ? "µs" : diff_slip >= 1e3 ? "a unit smaller" : "rescaled",
		     diff_slip >= 1e6 ? "written in seconds beside pre, on and post in ms or µs (the µ was lost in the copy)"
				      : "written a thousand times too large (a unit lost or misread in the copy)");
	if (field_fixed)
		note(run, "%u pre, on or post time%s read as %s: %s the run's other reads of the same size (a unit lost "
		     "in the copy)", field_fixed, field_fixed == 1 ? "" : "s", field_slip_seen >= 1e6 ? "µs" : "a unit smaller",
		     field_slip_seen >= 1e6 ? "a million times" : "a thousand times");
	for (size_t i = 0; i < ndrop; i++) {
		if (i == SAVED_NOTES - 1 - (size_t)(diff_fixed > 0) - (size_t)(field_fixed > 0) && ndrop > i + 1) {
			note(run, "dropped %zu more rows that disagree with themselves or the run", ndrop - i);
			break;
		}
		note(run, "dropped the row for align %llu (line %u): %s", (unsigned long long)drop[i].align, drop[i].line,
		     drop[i].why);
	}
}
