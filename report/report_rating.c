/* report_rating.c — the --rating report (see report_rating.h). */
#include "report/report_rating.h"

#include <math.h>
#include <string.h>

#include "lib/json.h"
#include "lib/svg.h"
#include "lib/units.h"
#include "lib/wrap.h"
#include "report/cost.h"

/* A paragraph of the report (indent ""), or evidence (INDENT). */
static void wrapped(FILE *f, const char *text, const char *indent)
{
	if (*indent)
		report_evidence(f, "%s", text);
	else
		report_para(f, "%s", text);
}

void rating_marks_text(char *buf, size_t len, const struct sd_mark *const m[SD_FAMILIES])
{
	size_t at = 0;

	buf[0] = '\0';
	for (int f = 0; f < SD_FAMILIES; f++)
		if (m[f] && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? " " : "",
					       m[f]->name);
	if (!at)
		snprintf(buf, len, "-");
}

static const char *by_text(unsigned by)
{
	static const char *const t[4] = { "not claimed", "the SD Status", "the label",
					  "the SD Status and the label" };

	return t[by & 3];
}

static const char *mbps(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.1f MB/s", v / 1e6);
	return buf;
}

/* A figure with its unit: a speed, a time, IOPS. */
static const char *figure_value(char *buf, size_t len, enum sd_figure fig, double v)
{
	switch (fig) {
	case SD_FIG_BUSY:
	case SD_FIG_FAT:
		return format_time(buf, len, v);
	case SD_FIG_READ_IOPS:
	case SD_FIG_WRITE_IOPS:
	case SD_FIG_READ_IOPS_Q:
	case SD_FIG_WRITE_IOPS_Q:
		snprintf(buf, len, "%.0f IOPS", v);
		return buf;
	case SD_FIG_QUEUE:
		snprintf(buf, len, "%.2fx", v);
		return buf;
	default:
		return mbps(buf, len, v);
	}
}

static const char *const figure_title[SD_FIGURES] = {
	"",
	"Pw",
	"sustained",
	"a write's busy time",
	"Pr",
	"FAT update time",
	"random reads",
	"random writes",
	"queued random reads",
	"queued random writes",
	"the command queue's gain",
	"sustained (1 GiB)",
};

/* "fails: Pw 6.9 MB/s at 5.2GiB, the mark 10 MB/s (31% short)" */
static void failure_line(char *buf, size_t len, const struct rating_mark *m)
{
	char v[32], l[32], w[32];
	int upper = m->figure == SD_FIG_BUSY || m->figure == SD_FIG_FAT;
	double by = upper ? (m->value - m->limit) / m->limit : (m->limit - m->value) / m->limit;

	figure_value(v, sizeof(v), m->figure, m->value);
	figure_value(l, sizeof(l), m->figure, m->limit);
	format_size(w, sizeof(w), m->where);
	snprintf(buf, len, "%s %s at %s; the limit %s %s (%.0f%% %s)", figure_title[m->figure], v,
		 w, upper ? "at most" : "at least", l, by * 100, upper ? "over" : "short");
}

static void card_text(FILE *f, const struct rating_report *r)
{
	char a[64], b[64], c[32], line[400];
	int label = r->label[0] || r->label[1] || r->label[2] || r->label[3];

	rating_marks_text(a, sizeof(a), r->claimed);
	rating_marks_text(b, sizeof(b), r->label);
	if (r->has_ssr && !r->ssr.blank) {
		/* the heading's card line has its claims and AUs: not again */
		snprintf(line, sizeof(line), "the label (--claim): %s", label ? b : "not given");
	} else if (r->has_ssr) {
		snprintf(line, sizeof(line), "the card's SD Status claims %s, its AU %s; the label (--claim): %s", a,
			 r->ssr.au ? format_size(c, sizeof(c), r->ssr.au) : "not stated", label ? b : "not given");
	} else {
		snprintf(line, sizeof(line), "the card's SD Status: %s; %s%s",
			 r->card.ssr[0] ? "it says nothing (all zero)"
					: "the host shows none (a USB reader passes none on)",
			 label ? "the label (--claim): "
			       : "no label marks given (--claim) either: each family is checked "
				 "from its lowest mark up to the first it misses",
			 label ? b : "");
	}
	wrapped(f, line, "");
}

static void plan_text(FILE *f, const struct rating_report *r)
{
	char a[32], b[32], c[32], d[32], e[32], line[600];

	format_size(a, sizeof(a), r->au);
	format_size(b, sizeof(b), r->sus_len);
	format_size(c, sizeof(c), r->sus_off);
	format_size(d, sizeof(d), r->iops_off);
	snprintf(line, sizeof(line),
		 "measured: %u AU%s of %s (the AU: %s) spread over the card, %s first, each "
		 "written whole in RUs of 512KiB; 256 random RU reads; 8 FAT update cycles; random "
		 "4KiB one at a time "
		 "and %u in flight in %s at %s; a recording of %s at %s",
		 r->naus, r->naus == 1 ? "" : "s", a, r->au_from,
		 r->discarded ? "freed (discarded)" : "not freed (no discard: they held data)",
		 RATING_QUEUE_DEPTH, format_size(e, sizeof(e), r->iops_span), d, b, c);
	wrapped(f, line, "");
}

/* Was this line of evidence given under one of the marks before mark i? */
static int said_above(const struct rating_report *r, unsigned i, const char *text)
{
	for (unsigned k = 0; k < i; k++)
		for (int n = 0; n < r->marks[k].nevidence; n++)
			if (!strcmp(r->marks[k].evidence[n], text))
				return 1;
	return 0;
}

void report_rating_text(FILE *f, const struct identity *id, const struct rating_report *r,
			double wall_ns)
{
	char a[32], b[32], line[600];
	static const char *const part_name[5] = { "pr", "pw", "fat", "iops", "sustained" };
	struct cost_part part[5];
	struct cost cost = { .reads = r->reads, .writes = r->writes, .written = r->bytes_written,
			     .device_ns = r->device_ns, .wall_ns = wall_ns, .part = part };

	for (int i = 0; i < 5; i++)
		if (r->phase_ns[i] > 0)
			part[cost.nparts++] = (struct cost_part){ .name = part_name[i], .device_ns = r->phase_ns[i] };
	identity_text(f, "rating", id);
	card_text(f, r);
	fputc('\n', f);
	if (r->interrupted) { /* what it cost so far; the stop line says where the data are */
		wrapped(f, "verdicts: not reached: the run was stopped by a signal before them", "");
		fputc('\n', f);
		report_cost_text(f, &cost);
		return;
	}
	for (unsigned i = 0; i < r->nmarks; i++) {
		const struct rating_mark *m = &r->marks[i];
		fprintf(f, "%-4s %-10s %-7s %s\n", m->mark->name, rating_verdict_name[m->verdict],
			confidence_name(m->conf), by_text(m->by));
		if (m->verdict == RATING_FAILS) {
			failure_line(line, sizeof(line), m);
			wrapped(f, line, WRAP_EVIDENCE);
		}
		/* evidence given under a mark above (the same recording, the
		 * same random reads) is not repeated (doc/style.md) */
		for (int k = 0; k < m->nevidence; k++)
			if (!said_above(r, i, m->evidence[k]))
				wrapped(f, m->evidence[k], WRAP_EVIDENCE);
	}
	fputc('\n', f);
	plan_text(f, r);
	report_cost_text(f, &cost);
	if (r->saved) {
		format_size(a, sizeof(a), r->saved);
		format_size(b, sizeof(b), r->put_back);
		snprintf(line, sizeof(line),
			 "data: %s saved first; the %s it changed was put back and verified",
			 a, b);
		wrapped(f, line, "");
	}
}

void report_rating_json(FILE *f, const struct identity *id, const struct rating_report *r,
			double wall_ns)
{
	struct json j;
	char a[64], b[64];

	json_start(&j, f);
	json_identity(&j, id);
	json_string(&j, "test", "rating");
	if (r->interrupted) /* no marks: the verdicts were not reached */
		json_bool(&j, "interrupted", 1);
	rating_marks_text(a, sizeof(a), r->claimed);
	rating_marks_text(b, sizeof(b), r->label);
	json_object(&j, "card");
	json_string(&j, "ssr", r->card.ssr[0] ? r->card.ssr : NULL);
	json_string(&j, "claims", r->has_ssr ? a : NULL);
	json_string(&j, "label", b[0] != '-' ? b : NULL);
	json_uint(&j, "au", r->has_ssr ? r->ssr.au : 0);
	json_uint(&j, "uhs_au", r->has_ssr ? r->ssr.uhs_au : 0);
	json_uint(&j, "video_au", r->has_ssr ? (uint64_t)r->ssr.vsc_au_mib << 20 : 0);
	json_uint(&j, "command_queue", r->has_ssr ? r->ssr.cq_depth : 0);
	json_bool(&j, "host_queue_known", r->card.queue_known);
	json_bool(&j, "link_known", r->card.link_known);
	json_uint(&j, "host_queue_depth", r->card.queue_depth);
	json_uint(&j, "link_rate", r->card.link_rate);
	json_string(&j, "host", r->card.host[0] ? r->card.host : NULL);
	json_end(&j);
	json_array(&j, "marks");
	for (unsigned i = 0; i < r->nmarks; i++) {
		const struct rating_mark *m = &r->marks[i];
		json_object(&j, NULL);
		json_string(&j, "mark", m->mark->name);
		json_string(&j, "verdict", rating_verdict_name[m->verdict]);
		json_string(&j, "confidence", confidence_name(m->conf));
		json_bool(&j, "by_ssr", (m->by & RATING_BY_SSR) != 0);
		json_bool(&j, "by_label", (m->by & RATING_BY_LABEL) != 0);
		json_string(&j, "figure",
			    m->verdict == RATING_FAILS ? sd_figure_name[m->figure] : NULL);
		json_number(&j, "value", m->verdict == RATING_FAILS ? m->value : NAN);
		json_number(&j, "limit", m->verdict == RATING_FAILS ? m->limit : NAN);
		if (m->verdict == RATING_FAILS)
			json_uint(&j, "where", m->where);
		json_array(&j, "evidence");
		for (int k = 0; k < m->nevidence; k++)
			json_string(&j, NULL, m->evidence[k]);
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);
	json_object(&j, "measured");
	json_uint(&j, "au", r->au);
	json_string(&j, "au_from", r->au_from);
	json_uint(&j, "su", r->su);
	json_uint(&j, "ru", r->ru);
	json_bool(&j, "discarded", r->discarded);
	json_number(&j, "pw", r->pw4);
	json_uint(&j, "pw_at", r->pw4_at);
	json_number(&j, "pw_video", r->pw_su);
	json_number(&j, "busy_ns", r->busy > r->sus_busy ? r->busy : r->sus_busy);
	json_number(&j, "pr", r->pr);
	json_number(&j, "fat_avg_ns", r->fat_avg);
	json_number(&j, "fat_max_ns", r->fat_max);
	json_number(&j, "read_iops", r->riops1);
	json_number(&j, "write_iops", r->wiops1);
	json_number(&j, "read_iops_queued", r->riops_q);
	json_number(&j, "write_iops_queued", r->queued_writes_refused ? NAN : r->wiops_q);
	json_uint(&j, "queue_depth", RATING_QUEUE_DEPTH);
	json_bool(&j, "iops_bounded", r->iops_bounded);
	json_uint(&j, "iops_offset", r->iops_off);
	json_uint(&j, "iops_span", r->iops_span);
	json_number(&j, "sustained_low", r->sus_low4);
	json_number(&j, "sustained_first", r->sus_first_avg);
	json_number(&j, "sustained_last", r->sus_last_avg);
	json_number(&j, "pssw", r->pssw);
	json_uint(&j, "sustained_offset", r->sus_off);
	json_uint(&j, "sustained_length", r->sus_len);
	json_record(
		&j, "phase_ns",
		(const struct json_member[]){ { "pr", JM_NUMBER, .number = r->phase_ns[0] },
					      { "pw", JM_NUMBER, .number = r->phase_ns[1] },
					      { "fat", JM_NUMBER, .number = r->phase_ns[2] },
					      { "iops", JM_NUMBER, .number = r->phase_ns[3] },
					      { "sustained", JM_NUMBER, .number = r->phase_ns[4] },
					      JM_END });
	json_array(&j, "aus");
	for (unsigned i = 0; i < r->naus; i++) {
		const struct rating_au *x = &r->aus[i];
		json_object(&j, NULL);
		json_uint(&j, "offset", x->off);
		json_number(&j, "speed", x->speed);
		json_number(&j, "busy_ns", x->busy);
		json_number(&j, "prepare_ns", x->prepare);
		json_array(&j, "sub_units");
		for (unsigned k = 0; k < x->nunits; k++)
			json_number(&j, NULL, x->unit[k]);
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);
	json_array(&j, "sustained_speed");
	for (unsigned i = 0; i < r->nsus; i++)
		json_number(&j, NULL, r->sus_speed[i]);
	json_end(&j);
	json_end(&j);
	json_record(&j, "cost",
		    (const struct json_member[]){
			    { "reads", JM_UINT, .uint = r->reads },
			    { "writes", JM_UINT, .uint = r->writes },
			    { "bytes_written", JM_UINT, .uint = r->bytes_written },
			    { "most_written", JM_UINT, .uint = r->max_bytes },
			    { "sustained_bytes", JM_UINT, .uint = r->sus_bytes },
			    { "device_ns", JM_UINT, .uint = (uint64_t)llround(r->device_ns) },
			    { "sustained_ns", JM_UINT, .uint = (uint64_t)llround(r->sus_ns) },
			    { "bound_ns", JM_UINT, .uint = (uint64_t)llround(r->bound_ns) },
			    { "estimate_ns", JM_UINT, .uint = (uint64_t)llround(r->estimate_ns) },
			    { "cut_short", JM_UINT, .uint = r->cut_short },
			    { "wall_ns", JM_UINT, .uint = (uint64_t)llround(wall_ns) },
			    { "virtual_clock", JM_BOOL, .uint = (uint64_t)r->virtual_clock },
			    JM_END });
	if (r->interrupted) /* put back after this, as the stop line says */
		json_record(&j, "data", (const struct json_member[]){ { "saved", JM_UINT, .uint = r->saved }, JM_END });
	else
		json_record(&j, "data",
			    (const struct json_member[]){ { "saved", JM_UINT, .uint = r->saved },
							  { "put_back", JM_UINT, .uint = r->put_back },
							  JM_END });
	json_finish(&j);
}

/* ------------------------------------------------------------ the plot */

int plot_rating(FILE *f, const char *device, const struct rating_report *r)
{
	static struct chart across, over, iops;
	static double x1[RATING_MAX_AUS * RATING_MAX_UNITS], y1[RATING_MAX_AUS * RATING_MAX_UNITS];
	static double xs[4096], ys[4096], xi[4] = { 0, 1, 2, 3 }, yi[4];
	static const char *const cats[4] = { "reads, 1", "reads, 32", "writes, 1", "writes, 32" };
	const struct chart *panels[3] = { &across, &over, &iops };
	size_t n = 0, m = 0;
	double lowest = INFINITY;

	if (!r->naus)
		return -1;
	memset(&across, 0, sizeof(across));
	memset(&over, 0, sizeof(over));
	memset(&iops, 0, sizeof(iops));
	for (unsigned i = 0; i < r->naus; i++)
		for (unsigned k = 0; k < r->aus[i].nunits && n < sizeof(x1) / sizeof(x1[0]); k++) {
			x1[n] = (double)(r->aus[i].off + (uint64_t)k * SD_SUB_UNIT);
			y1[n++] = r->aus[i].unit[k];
		}
	for (unsigned i = 0; i < r->nsus && m < sizeof(xs) / sizeof(xs[0]); i++) {
		xs[m] = (double)((uint64_t)i * SD_SUB_UNIT);
		ys[m++] = r->sus_speed[i];
	}
	for (unsigned i = 0; i < r->nmarks; i++)
		if (r->marks[i].mark->family != SD_FAMILY_APP &&
		    r->marks[i].mark->mbps * 1e6 < lowest)
			lowest = r->marks[i].mark->mbps * 1e6;
	snprintf(across.title_buf, sizeof(across.title_buf),
		 "%s: write speed of each sub-unit of the AUs tested", device);
	across.title = across.title_buf;
	across.xlabel = "offset on the card";
	across.ylabel = "write speed";
	across.xunit = AXIS_BYTES;
	across.yunit = AXIS_RATE;
	across.yzero = 1;
	across.s[0] = (struct series){ .x = x1, .y = y1, .n = n, .points = 1 };
	snprintf(across.s[0].name, sizeof(across.s[0].name), "4MiB sub-units");
	across.ns = 1;
	if (isfinite(lowest)) {
		across.yref = lowest;
		across.yref_label = "the lowest mark checked";
	}
	over = across;
	over.title = "the long recording: write speed over time (4MiB each)";
	over.xlabel = "bytes into the recording";
	over.s[0] = (struct series){ .x = xs, .y = ys, .n = m };
	snprintf(over.s[0].name, sizeof(over.s[0].name), "recording");
	yi[0] = r->riops1;
	yi[1] = r->riops_q;
	yi[2] = r->wiops1;
	yi[3] = r->queued_writes_refused ? NAN : r->wiops_q;
	iops.title = "random 4KiB requests per second (one at a time, 32 in flight)";
	iops.ylabel = "IOPS";
	iops.xunit = AXIS_PLAIN;
	iops.yunit = AXIS_PLAIN;
	iops.yzero = 1;
	iops.xcat = cats;
	iops.ncat = 4;
	iops.s[0] = (struct series){ .x = xi, .y = yi, .n = 4, .bars = 1 };
	snprintf(iops.s[0].name, sizeof(iops.s[0].name), "IOPS");
	iops.ns = 1;
	return svg_figure(f, panels, 3);
}
