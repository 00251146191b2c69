/* report_capacity.c — the --capacity report (see report_capacity.h). */
#include "report/report_capacity.h"

#include <string.h>

#include "lib/json.h"
#include "lib/svg.h"
#include "lib/units.h"
#include "lib/wrap.h"
#include "report/cost.h"
#include "report/report_auto.h"

#define MAP_COLUMNS 64

static const char *const state_name[] = { "unread", "good", "lost", "moved" };

char capacity_map_state(const struct capacity_report *r, uint64_t lo, uint64_t hi)
{
	int good = 0, lost = 0;

	/* the verdict's stretches first: they are what the probes bracket */
	if ((r->kind == CAP_WRAP || r->kind == CAP_DROP || r->kind == CAP_CACHE || r->kind == CAP_END) &&
	    lo >= r->lost_from && hi <= r->lost_to)
		return r->kind == CAP_WRAP ? '~' : 'x';
	if (r->kind != CAP_BAD && r->kind != CAP_GENUINE && (hi <= r->lost_from || lo >= r->lost_to))
		return '+';
	for (unsigned i = 0; i < r->nprobes; i++) {
		const struct cap_probe *p = &r->probe[i];
		if (p->off < lo || p->off >= hi)
			continue;
		if (p->last == CAP_MOVED)
			return '~';
		good |= p->last == CAP_GOOD;
		lost |= p->last == CAP_LOST;
	}
	return lost ? 'x' : good ? '+' : '.';
}

static void text_map(FILE *f, const struct capacity_report *r)
{
	char col[32];

	format_size(col, sizeof(col), r->size / MAP_COLUMNS);
	fputc('\n', f);
	report_para(f, "map: one character per %s from byte 0", col);
	fputs(WRAP_EVIDENCE, f);
	for (unsigned i = 0; i < MAP_COLUMNS; i++)
		fputc(capacity_map_state(r, r->size / MAP_COLUMNS * i, i + 1 == MAP_COLUMNS ? r->size :
					 r->size / MAP_COLUMNS * (i + 1)), f);
	fputc('\n', f);
	report_evidence(f, "+ keeps data, x loses it, ~ reaches other flash, . not probed");
}

void report_capacity_text(FILE *f, const struct identity *id, const struct capacity_report *r, double wall_ns)
{
	char a[32], b[32], line[400];
	struct cost cost = { .reads = r->reads, .writes = r->writes, .written = r->bytes_written,
			     .device_ns = r->device_ns, .wall_ns = wall_ns };
	int at;

	identity_text(f, "capacity", id);
	if (r->interrupted) { /* what it cost so far; the stop line says where the data are */
		report_para(f, "verdict: not reached: the run was stopped by a signal before it");
		fputc('\n', f);
		report_cost_text(f, &cost);
		return;
	}
	report_para(f, "verdict: %s (%s)", cap_kind_title[r->kind], confidence_name(r->verdict.conf));
	report_room_text(f, &r->usable);
	text_map(f, r);
	fputc('\n', f);
	report_cost_text(f, &cost);
	format_size(a, sizeof(a), r->saved);
	format_size(b, sizeof(b), r->put_back);
	at = snprintf(line, sizeof(line), "data: %s saved first; the %s it changed was put back and verified",
		      a, b);
	if (r->untouched && at < (int)sizeof(line))
		at += snprintf(line + at, sizeof(line) - (size_t)at, "; the %s it did not change was left as it was",
			       format_size(a, sizeof(a), r->untouched));
	if (r->rewritten && at < (int)sizeof(line))
		snprintf(line + at, sizeof(line) - (size_t)at, " (the flush wrote %s back as it read it)",
			 format_size(a, sizeof(a), r->rewritten));
	report_para(f, "%s", line);
}

void report_capacity_json(FILE *f, const struct identity *id, const struct capacity_report *r, double wall_ns)
{
	struct json j;

	json_start(&j, f);
	json_identity(&j, id);
	json_string(&j, "test", "capacity");
	if (r->interrupted)
		json_bool(&j, "interrupted", 1);
	json_object(&j, "verdict");
	json_string(&j, "kind", r->interrupted ? "not_determined" : cap_kind_name[r->kind]);
	json_string(&j, "title", r->interrupted ? "not determined: stopped by a signal" : cap_kind_title[r->kind]);
	json_string(&j, "confidence", confidence_name(r->interrupted ? CONF_NONE : r->verdict.conf));
	json_end(&j);
	report_finding_json(&j, &r->usable);
	json_record(&j, "edges", (const struct json_member[]){
		{ "period", JM_UINT, .uint = r->period }, { "lost_from", JM_UINT, .uint = r->lost_from },
		{ "lost_to", JM_UINT, .uint = r->lost_to }, { "cache_kept", JM_UINT, .uint = r->cache_lo },
		{ "cache_lost_within", JM_UINT, .uint = r->cache_hi }, { "bad_share", JM_NUMBER, .number = r->bad_share },
		{ "bad_share_low", JM_NUMBER, .number = r->bad_lo }, { "bad_share_high", JM_NUMBER, .number = r->bad_hi },
		{ "resolution", JM_UINT, .uint = r->resolution }, JM_END });
	json_record(&j, "flush", (const struct json_member[]){
		{ "bytes", JM_UINT, .uint = r->flushed }, { "distinct", JM_UINT, .uint = r->flush_distinct },
		{ "full", JM_BOOL, .uint = (uint64_t)r->flush_full },
		{ "max_cache", JM_UINT, .uint = r->max_cache }, { "window_offset", JM_UINT, .uint = r->plan.window_off },
		{ "window_length", JM_UINT, .uint = r->plan.window_len },
		{ "read_after", JM_UINT, .uint = r->needed }, JM_END });
	json_array(&j, "pass_chance");
	for (int i = 0; i < 4; i++)
		json_record(&j, NULL, (const struct json_member[]){
			{ "missing_share", JM_NUMBER, .number = cap_missing_share[i] },
			{ "chance", JM_NUMBER, .number = r->pass_chance[i] }, JM_END });
	json_end(&j);
	json_uint(&j, "piece_caught", r->piece_caught);
	json_record(&j, "alias_grid", (const struct json_member[]){
		{ "step", JM_UINT, .uint = r->grid_step }, { "reads", JM_UINT, .uint = r->grid_reads },
		{ "moved", JM_UINT, .uint = r->grid_moved }, { "period_checks", JM_UINT, .uint = r->period_checks },
		{ "period_agree", JM_UINT, .uint = r->period_agree }, JM_END });
	json_uint(&j, "strata", r->strata);
	json_uint(&j, "probe_length", r->plan.probe_len);
	json_array(&j, "probes");
	for (unsigned i = 0; i < r->nprobes; i++) {
		const struct cap_probe *p = &r->probe[i];
		json_record(&j, NULL, (const struct json_member[]){
			{ "offset", JM_UINT, .uint = p->off }, { "round", JM_UINT, .uint = p->round },
			{ "first", JM_STRING, .string = state_name[p->first & 3] },
			{ "last", JM_STRING, .string = state_name[p->last & 3] },
			{ "flushed", JM_UINT, .uint = p->flushed }, { "moved_from", JM_UINT, .uint = p->moved_from }, JM_END });
	}
	json_end(&j);
	json_array(&j, "spans");
	for (unsigned i = 0; i < r->nspans; i++)
		json_record(&j, NULL, (const struct json_member[]){
			{ "offset", JM_UINT, .uint = r->spans[i].off }, { "length", JM_UINT, .uint = r->spans[i].len },
			{ "edge", JM_STRING, .string = r->spans[i].up ? "loss begins" : "loss ends" },
			{ "bad_from", JM_UINT, .uint = r->spans[i].bad_lo }, { "bad_to", JM_UINT, .uint = r->spans[i].bad_hi },
			JM_END });
	json_end(&j);
	json_record(&j, "cost", (const struct json_member[]){
		{ "reads", JM_UINT, .uint = r->reads }, { "writes", JM_UINT, .uint = r->writes },
		{ "bytes_written", JM_UINT, .uint = r->bytes_written }, { "bytes_rewritten", JM_UINT, .uint = r->rewritten },
		{ "written_lo", JM_UINT, .uint = r->written_lo },
		{ "written_hi", JM_UINT, .uint = r->written_hi }, { "device_ns", JM_NUMBER, .number = r->device_ns },
		{ "virtual_clock", JM_BOOL, .uint = (uint64_t)r->virtual_clock }, { "wall_ns", JM_NUMBER, .number = wall_ns },
		JM_END });
	if (r->interrupted) /* put back after this, as the stop line says */
		json_record(&j, "data", (const struct json_member[]){ { "saved", JM_UINT, .uint = r->saved }, JM_END });
	else
		json_record(&j, "data", (const struct json_member[]){
			{ "saved", JM_UINT, .uint = r->saved }, { "put_back", JM_UINT, .uint = r->put_back },
			{ "untouched", JM_UINT, .uint = r->untouched },
			{ "verified", JM_BOOL, .uint = r->put_back + r->untouched == r->saved }, JM_END });
	json_finish(&j);
}

/* The usable size: a size that is no whole MiB in bytes, any other never
 * rounded up (2047MiB is "1.99GiB"), so that it never says more than the
 * card holds. */
static void usable_text(char *buf, size_t len, uint64_t v)
{
	if (v % (1 << 20))
		snprintf(buf, len, "%lluB", (unsigned long long)v);
	else
		format_size_floor(buf, len, v);
}

/* ------------------------------------------------------------ the map */

static const char *color_of(char state)
{
	switch (state) {
	case '+': return "#4caf50";
	case 'x': return "#e53935";
	case '~': return "#fb8c00";
	default: return "#cfd8dc";
	}
}

int plot_capacity(FILE *f, const char *device, const struct capacity_report *r)
{
	const double left = 40, width = 720, top = 70, height = 40;
	const unsigned cells = 360;
	char a[32];

	if (!r->size || !r->nprobes)
		return -1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"220\" viewBox=\"0 0 800 220\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"800\" height=\"220\" fill=\"white\"/>\n"
		"<text x=\"400\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">");
	svg_escape(f, device);
	fprintf(f, ": %s (%s)</text>\n", cap_kind_title[r->kind], confidence_name(r->verdict.conf));
	usable_text(a, sizeof(a), r->usable.value);
	fprintf(f, "<text x=\"400\" y=\"44\" text-anchor=\"middle\">usable size %s%s (%s)</text>\n",
		r->usable.at_most ? "at most " : "", a, confidence_name(r->usable.conf));
	for (unsigned i = 0; i < cells; i++) {
		uint64_t lo = r->size / cells * i, hi = i + 1 == cells ? r->size : r->size / cells * (i + 1);
		fprintf(f, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\"/>\n",
			left + width * i / cells, top, width / cells + 0.05, height, color_of(capacity_map_state(r, lo, hi)));
	}
	for (unsigned i = 0; i < r->nprobes; i++) { /* each probe: a tick above the bar */
		const struct cap_probe *p = &r->probe[i];
		double x = left + width * (double)p->off / (double)r->size;
		char st = p->last == CAP_GOOD ? '+' : p->last == CAP_MOVED ? '~' : 'x';
		fprintf(f, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
			x, top - 12, x, top - 2, color_of(st));
	}
	for (int k = 0; k <= 4; k++) {
		double x = left + width * k / 4;
		format_size(a, sizeof(a), r->size / 4 * (uint64_t)k);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"black\"/>\n"
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n", x, top + height, x,
			top + height + 5, x, top + height + 19, a);
	}
	fprintf(f, "<g font-size=\"11\">\n");
	const char *legend[4][2] = { { "+", "keeps data" }, { "x", "loses it" }, { "~", "reaches other flash" },
				     { ".", "not probed" } };
	for (int k = 0; k < 4; k++)
		fprintf(f, "<rect x=\"%d\" y=\"170\" width=\"14\" height=\"14\" fill=\"%s\"/><text x=\"%d\" y=\"181\">%s"
			"</text>\n", 60 + 170 * k, color_of(legend[k][0][0]), 80 + 170 * k, legend[k][1]);
	fprintf(f, "<text x=\"60\" y=\"205\">ticks above the bar: the probes; bytes from the start below</text>\n"
		"</g>\n</svg>\n");
	return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------ --program */

static void signature_lines(FILE *f, const struct vm_result *r)
{
	if (r->op && (r->op->code == VM_SIG_READ || r->op->code == VM_SIG_WRITE)) {
		const struct sig_tally *t = &r->st.sig;
		char len[32], ns[32];
		format_size(len, sizeof(len), r->len);
		format_time(ns, sizeof(ns), r->value);
		fprintf(f, "%s %llu\t%s", vm_opcode_name(r->op->code), (unsigned long long)r->off, len);
		if (r->op->code == VM_SIG_READ) {
			fprintf(f, "\tgood %u\tmoved %u\tstale %u\tforeign %u", t->good, t->moved, t->stale, t->foreign);
			if (t->moved)
				fprintf(f, "\tfrom %llu", (unsigned long long)t->moved_from);
		}
		fprintf(f, "\t%s\n", ns);
	}
	for (size_t i = 0; i < r->nkid; i++)
		signature_lines(f, &r->kid[i]);
}

void report_signatures(FILE *f, const struct vm_result *root, const struct print_ctx *p)
{
	(void)p;
	signature_lines(f, root);
}

static void signature_objects(struct json *j, const struct vm_result *r)
{
	if (r->op && (r->op->code == VM_SIG_READ || r->op->code == VM_SIG_WRITE)) {
		const struct sig_tally *t = &r->st.sig;
		json_object(j, NULL);
		json_members(j, (const struct json_member[]){
			{ "op", JM_STRING, .string = vm_opcode_name(r->op->code) }, { "offset", JM_UINT, .uint = r->off },
			{ "length", JM_UINT, .uint = r->len }, { "ns", JM_NUMBER, .number = r->value }, JM_END });
		if (r->op->code == VM_SIG_READ)
			json_members(j, (const struct json_member[]){
				{ "good", JM_UINT, .uint = t->good }, { "moved", JM_UINT, .uint = t->moved },
				{ "moved_from", JM_UINT, .uint = t->moved_from }, { "stale", JM_UINT, .uint = t->stale },
				{ "foreign", JM_UINT, .uint = t->foreign }, JM_END });
		json_end(j);
	}
	for (size_t i = 0; i < r->nkid; i++)
		signature_objects(j, &r->kid[i]);
}

/* The objects of the "results" array the JSON report opens. */
void json_results_signatures(struct json *j, const struct vm_result *root)
{
	signature_objects(j, root);
}
