/* report_auto.c — --auto report (text and JSON). */
#include "report/report_auto.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "auto/budget.h"
#include "dev/sdreg.h"
#include "lib/json.h"
#include "lib/units.h"
#include "lib/wrap.h"
#include "report/cost.h"

/* The card's own word on its erase block: sysfs preferred_erase_size (SD/MMC
 * cards derive it from their AU_SIZE).  Shown next to the measurement, never
 * in its place.  Returns 0 when the system gave none. */
static uint64_t card_erase_size(const struct identity *id)
{
	for (int i = 0; i < id->info.n; i++)
		if (!strcmp(id->info.name[i], "preferred_erase_size"))
			return strtoull(id->info.value[i], NULL, 10);
	return 0;
}

static void card_says(FILE *f, const struct identity *id, const struct finding *erase)
{
	uint64_t said = card_erase_size(id);
	char a[32];

	struct sd_ssr s;
	uint64_t au;

	if (said) {
		format_size(a, sizeof(a), said);
		report_evidence(f, "the card says: preferred erase size %s (sysfs)%s", a,
			!erase->determined ? "" : said == erase->value ? ", agrees" : ", differs from the measurement");
	}
	/* the AU its SD Status states (the UHS AU when it has one): what its
	 * speed marks are measured in */
	if (!id->card.ssr[0] || sd_decode_ssr(id->card.ssr, &s) || !(au = s.uhs_au ? s.uhs_au : s.au))
		return;
	format_size(a, sizeof(a), au);
	report_evidence(f, "the card says: an AU of %s (its SD Status)%s", a,
		!erase->determined ? "" : au == erase->value ? ", agrees" :
		au % erase->value == 0 ? ", a multiple of the erase block measured" : ", differs from the measurement");
}

/* ------------------------------------------------------------ text */

typedef const char *size_format(char *buf, size_t len, uint64_t bytes);

static void value_text(char *buf, size_t len, const struct finding *f, size_format *fmt)
{
	char v[32];

	if (!f->determined) {
		snprintf(buf, len, "not determined");
		return;
	}
	if (f->is_size && !f->value)
		snprintf(v, sizeof(v), "none");
	else if (f->is_size)
		fmt(v, sizeof(v), f->value);
	else
		snprintf(v, sizeof(v), "%llu", (unsigned long long)f->value);
	if (f->at_most && !f->is_size) /* a count: "fewer than 5" says it as the test was run */
		snprintf(buf, len, "fewer than %llu", (unsigned long long)f->value + 1);
	else
		snprintf(buf, len, "%s%s%s", f->at_least ? "at least " : "", v, f->at_most ? " or less" : "");
}

static void finding_text_as(FILE *f, const struct finding *x, size_format *fmt)
{
	char v[64];

	value_text(v, sizeof(v), x, fmt);
	if (x->determined)
		fprintf(f, "%-40s %-16s %s\n", x->title, v, confidence_name(x->conf));
	else
		fprintf(f, "%-40s %s\n", x->title, v);
	for (int i = 0; i < x->nevidence; i++)
		report_evidence(f, "%s", x->evidence[i]);
	if (x->why[0])
		report_evidence(f, "%s%s", x->determined ? "note: " : "", x->why);
}

static void finding_text(FILE *f, const struct finding *x)
{
	finding_text_as(f, x, format_size);
}

/* "mkfs.vfat -F 32 -s 32 (16KiB clusters; ...)": the command on a line
 * of its own, the words after it wrapped under it. */
static void vfat_text(FILE *f, const char *vfat)
{
	const char *why = strstr(vfat, " (");

	if (!why) {
		wrap_printf(f, WRAP_REPORT, "    vfat:  ", "           ", "%s", vfat);
		return;
	}
	fprintf(f, "    vfat:  %.*s\n", (int)(why - vfat), vfat);
	wrap_printf(f, WRAP_REPORT, "           ", "           ", "%s", why + 1);
}

void report_recommendations_text(FILE *f, const struct recommendations *rec, unsigned sector)
{
	char a[32], b[32];

	fprintf(f, "\nrecommendations\n");
	if (rec->have) {
		format_size(a, sizeof(a), rec->start);
		format_size(b, sizeof(b), rec->align);
		report_evidence(f, "partition start:  %s (sector %llu); partition sizes: multiples of %s", a,
				(unsigned long long)(rec->start / sector), b);
		fprintf(f, "    sfdisk input:\n");
		for (const char *p = rec->sfdisk; *p;) {
			size_t n = strcspn(p, "\n");
			fprintf(f, "        %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
		/* a command is never broken; what follows it in brackets is */
		wrap_printf(f, WRAP_REPORT, "    ext4:  ", "           ", "%s", rec->ext4);
		wrap_printf(f, WRAP_REPORT, "    xfs:   ", "           ", "%s", rec->xfs);
		wrap_printf(f, WRAP_REPORT, "    f2fs:  ", "           ", "%s", rec->f2fs);
		vfat_text(f, rec->vfat);
	}
	if (rec->note[0])
		report_evidence(f, "%s", rec->note);
}

/* The cost: line, and a line for each part that ran. */
static void auto_cost_text(FILE *f, const struct auto_report *r, double wall_ns)
{
	struct cost_part part[AUTO_PHASES + 1];
	struct cost c = { .reads = r->reads, .writes = r->writes, .written = r->bytes_written,
			  .device_ns = r->device_ns, .wall_ns = wall_ns, .part = part };

	for (int p = 0; p < AUTO_PHASES; p++) {
		const struct phase_cost *pc = &r->cost[p];
		if (!pc->reads && !pc->writes)
			continue;
		part[c.nparts++] = (struct cost_part){ .name = auto_phase_name[p], .device_ns = pc->device_ns,
						       .counted = 1, .reads = pc->reads, .writes = pc->writes,
						       .written = pc->bytes_written };
		if (p == PHASE_READ && r->check_ns > 0)
			part[c.nparts++] = (struct cost_part){ .name = "capacity", .device_ns = r->check_ns,
							       .note = "quick check, data put back (in the bound)" };
	}
	report_cost_text(f, &c);
}

/* The bound, and what it did: the parts it cut short and which half of it
 * ran out (the one to raise), the parts it left out; "every test ran in
 * full" only when every one did. */
static void bound_line(FILE *f, const struct auto_report *r)
{
	char a[32], c[32], what[256] = "";
	size_t at = 0;

	if (!(r->bound_ns > 0) && !r->budget_ns)
		return;
	format_duration(a, sizeof(a), r->bound_ns > 0 ? (uint64_t)r->bound_ns : r->budget_ns);
	format_size(c, sizeof(c), r->bound_bytes);
	for (int k = 0; k < 2; k++) {
		unsigned set = k ? r->skipped : r->cut;
		const char *sep = !k ? r->cut_by == BUDGET_BYTES ? "; the bytes cut short: " :
				  r->cut_by == BUDGET_TIME ? "; the device time cut short: " : "; cut short: " :
				  "; left out: ";
		for (int p = 0; p < AUTO_PHASES && at < sizeof(what); p++)
			if (set & 1u << p) {
				at += (size_t)snprintf(what + at, sizeof(what) - at, "%s%s", sep, auto_phase_name[p]);
				sep = ", ";
			}
	}
	report_para(f, "bound: %s of device time%s and %s written%s%s%s", a, r->bound_given & 1 ? " (--budget)" : "",
		    c, r->bound_given & 2 ? " (--budget)" : "",
		    at ? what : r->interrupted ? "" : "; every test ran in full",
		    r->check_left_out ? "; the capacity check left out, too big for it (-C checks)" : "");
}

void report_auto_text(FILE *f, const struct identity *id, const struct auto_report *r, int wrote, double wall_ns)
{
	char a[32], b[32], c[32];

	identity_text(f, "auto", id);
	if (r->verdict != VERDICT_FLASH) {
		report_para(f, "%s", r->verdict_text);
		fputc('\n', f);
	}
	finding_text(f, &r->page);
	finding_text(f, &r->erase);
	card_says(f, id, &r->erase);
	if (!r->alignment_matters)
		report_evidence(f, "alignment does not seem to matter for reads on this device");
	finding_text(f, &r->min_write);
	finding_text(f, &r->open_linear);
	finding_text(f, &r->open_random);
	finding_text(f, &r->fat);
	if (wrote)
		finding_text(f, &r->cache_area);
	if (r->erase_assumed && wrote) {
		format_size(a, sizeof(a), r->write_erase);
		if (r->erase_set_aside) {
			format_size(b, sizeof(b), r->erase.value);
			report_evidence(f, "note: the write tests used %s erase blocks as a stand-in: the %s found by "
					"reads (low confidence) leaves too little room past the middle of the device", a, b);
		} else {
			report_evidence(f, "note: the write tests used %s erase blocks as a stand-in, as the erase block "
					"size is not known", a);
		}
	}

	report_recommendations_text(f, &r->rec, id->sector);
	fputc('\n', f);
	auto_cost_text(f, r, wall_ns);
	bound_line(f, r);
	if (r->interrupted)
		report_para(f, "interrupted: stopped by a signal in %s; the findings it had not finished say so",
			    auto_stop_name(r));
	if (r->check_bytes)
		format_size(b, sizeof(b), r->check_bytes);
	if (wrote && r->written_hi > r->written_lo) {
		format_size(c, sizeof(c), r->bytes_written);
		report_para(f, "written: %s in all, within bytes %llu to %llu%s%s%s", c,
			    (unsigned long long)r->written_lo, (unsigned long long)r->written_hi - 1,
			    r->check_bytes ? "; and the capacity check's " : "", r->check_bytes ? b : "",
			    r->check_bytes ? " before (put back)" : "");
	} else if (r->check_bytes) {
		report_para(f, "written: only the capacity check's %s (put back)", b);
	} else {
		report_para(f, "written: nothing%s", wrote ? "" : " (read-only; --write also measures writes)");
	}
}

/* ------------------------------------------------------------ JSON */

/* card: the card's own word (0: none) */
static void json_finding(struct json *j, const struct finding *x, uint64_t card)
{
	json_object(j, x->key);
	json_string(j, "title", x->title);
	json_bool(j, "determined", x->determined);
	if (x->determined)
		json_uint(j, "value", x->value);
	else
		json_string(j, "value", NULL);
	json_string(j, "unit", x->is_size ? "bytes" : "count");
	json_bool(j, "at_least", x->at_least);
	json_bool(j, "at_most", x->at_most);
	json_string(j, "confidence", confidence_name(x->conf));
	json_array(j, "evidence");
	for (int i = 0; i < x->nevidence; i++)
		json_string(j, NULL, x->evidence[i]);
	json_end(j);
	json_string(j, "note", x->why[0] ? x->why : NULL);
	if (card) {
		json_uint(j, "card_says", card);
		if (x->determined)
			json_bool(j, "card_agrees", card == x->value);
	}
	json_end(j);
}

static void json_align_rows(struct json *j, const char *key, const struct align_row *r, size_t n)
{
	json_array(j, key);
	for (size_t i = 0; i < n; i++)
		json_record(j, NULL, (const struct json_member[]){
			{ "align", JM_UINT, .uint = r[i].align }, { "pre_ns", JM_NUMBER, .number = r[i].pre },
			{ "on_ns", JM_NUMBER, .number = r[i].on }, { "post_ns", JM_NUMBER, .number = r[i].post },
			{ "diff_ns", JM_NUMBER, .number = r[i].diff }, JM_END });
	json_end(j);
}

/* The align rows at both block sizes and the read levels seen in them. */
static void json_align_measurements(struct json *j, const struct auto_report *r)
{
	json_align_rows(j, "align", r->rows, r->nrows);
	json_align_rows(j, "align2", r->rows2, r->nrows2);
	json_number(j, "read_noise_ns", r->levels.noise);
	json_number(j, "read_step_ns", r->levels.step);
}

static void json_trials(struct json *j, const char *key, const struct open_trial *t, size_t n)
{
	json_array(j, key);
	for (size_t i = 0; i < n; i++)
		json_record(j, NULL, (const struct json_member[]){ { "erase_blocks", JM_UINT, .uint = t[i].n },
			{ "mean_ns", JM_NUMBER, .number = t[i].mean_ns },
			{ "collapsed", JM_BOOL, .uint = t[i].collapsed }, JM_END });
	json_end(j);
}

void report_recommendations_json(struct json *j, const struct recommendations *rec)
{
	json_object(j, "recommendations");
	json_bool(j, "available", rec->have);
	if (rec->have)
		json_members(j, (const struct json_member[]){
			{ "partition_start", JM_UINT, .uint = rec->start },
			{ "partition_size_multiple", JM_UINT, .uint = rec->align },
			{ "sfdisk", JM_STRING, .string = rec->sfdisk }, { "ext4", JM_STRING, .string = rec->ext4 },
			{ "xfs", JM_STRING, .string = rec->xfs }, { "f2fs", JM_STRING, .string = rec->f2fs },
			{ "vfat", JM_STRING, .string = rec->vfat }, JM_END });
	json_string(j, "note", rec->note[0] ? rec->note : NULL);
	json_end(j);
}

void report_auto_json(FILE *f, const struct identity *id, const struct auto_report *r, int wrote, double wall_ns)
{
	struct json j;

	json_start(&j, f);
	json_identity(&j, id);
	json_string(&j, "test", "auto");
	if (r->interrupted)
		json_bool(&j, "interrupted", 1);
	json_object(&j, "parameters");
	json_bool(&j, "write", wrote);
	json_uint(&j, "blocksize", r->bs);
	json_uint(&j, "blocksize2", r->bs2);
	json_end(&j);
	json_object(&j, "findings");
	json_finding(&j, &r->page, 0);
	json_finding(&j, &r->erase, card_erase_size(id));
	json_finding(&j, &r->min_write, 0);
	json_finding(&j, &r->open_linear, 0);
	json_finding(&j, &r->open_random, 0);
	json_finding(&j, &r->fat, 0);
	json_finding(&j, &r->cache_area, 0);
	json_end(&j);
	/* beside the findings, not among them: every member of findings is
	 * a finding (JSON format 2) */
	json_bool(&j, "alignment_matters", r->alignment_matters);
	json_object(&j, "verdict");
	json_string(&j, "kind", r->verdict == VERDICT_SSD_LIKE ? "ssd-like" :
		    r->verdict == VERDICT_NO_FLASH_READS ? "no-flash-reads" : "flash");
	json_string(&j, "text", r->verdict != VERDICT_FLASH ? r->verdict_text : NULL);
	json_end(&j);
	report_recommendations_json(&j, &r->rec);
	json_object(&j, "measurements");
	json_align_measurements(&j, r);
	json_object(&j, "data_probe");
	json_uint(&j, "reads", r->data.probes);
	json_uint(&j, "without_data", r->data.unmapped);
	json_number(&j, "without_data_ns", r->data.fast_ns);
	json_number(&j, "with_data_ns", r->data.slow_ns);
	if (r->data.hi > r->data.lo) {
		json_uint(&j, "read_from", r->data.lo);
		json_uint(&j, "read_to", r->data.hi - 1);
		json_bool(&j, "written_first", r->data.written);
	}
	json_end(&j);
	json_uint(&j, "boundary_scan_tries", r->scan_tries);
	json_array(&j, "boundary_scan");
	for (size_t i = 0; i < r->nscan; i++) {
		json_object(&j, NULL);
		json_uint(&j, "step", r->scan[i].step);
		json_array(&j, "diff_ns");
		for (unsigned k = 0; k < r->scan[i].npoints; k++)
			json_number(&j, NULL, r->scan[i].d[k]);
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);
	json_array(&j, "write_sizes");
	for (size_t i = 0; i < r->nchunks; i++) {
		json_object(&j, NULL);
		json_uint(&j, "size", r->chunks[i].size);
		json_number(&j, "median_ns", r->chunks[i].ns);
		json_end(&j);
	}
	json_end(&j);
	json_uint(&j, "trial_chunk", r->trial_chunk);
	json_uint(&j, "trial_erase_size", r->write_erase);
	json_bool(&j, "trial_erase_set_aside", r->erase_set_aside);
	json_uint(&j, "open_limit", r->open_limit);
	json_number(&j, "healthy_write_ns", r->write_ref);
	json_trials(&j, "open_linear", r->lin, r->nlin);
	json_trials(&j, "open_random", r->rnd, r->nrnd);
	json_array(&j, "fat_probe_ns");
	for (size_t i = 0; i < r->nfat; i++)
		json_number(&j, NULL, r->fat_probe[i].ns[FAT_LINEAR]);
	json_end(&j);
	json_uint(&j, "fat_probe_chunk", r->fat_chunk);
	json_uint(&j, "fat_probe_small", r->fat_small);
	json_array(&j, "fat_probe");
	for (size_t i = 0; i < r->nfat; i++) {
		static const char *const kind[FAT_KINDS] = { "linear", "random", "small" };
		json_object(&j, NULL);
		for (int k = 0; k < FAT_KINDS; k++) {
			char key[32];
			json_number(&j, kind[k], r->fat_probe[i].ns[k]);
			snprintf(key, sizeof(key), "%s_reference", kind[k]);
			json_number(&j, key, r->fat_probe[i].ref[k]);
		}
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
	json_object(&j, "cost");
	json_uint(&j, "reads", r->reads);
	json_uint(&j, "writes", r->writes);
	json_uint(&j, "bytes_written", r->bytes_written);
	if (r->written_hi > r->written_lo) {
		json_uint(&j, "written_from", r->written_lo);
		json_uint(&j, "written_to", r->written_hi - 1);
	}
	json_number(&j, "device_ns", r->device_ns);
	if (r->check_ns > 0) /* apart from device_ns, inside bound_ns */
		json_uint(&j, "capacity_check_ns", (uint64_t)llround(r->check_ns));
	if (r->check_bytes) /* apart from bytes_written, inside bound_bytes */
		json_uint(&j, "capacity_check_bytes", r->check_bytes);
	if (r->check_left_out)
		json_bool(&j, "capacity_check_left_out", 1);
	json_number(&j, "wall_ns", wall_ns);
	if (r->interrupted)
		json_string(&j, "stopped_in", auto_stop_name(r));
	json_object(&j, "phases");
	for (int p = 0; p < AUTO_PHASES; p++) {
		const struct phase_cost *pc = &r->cost[p];
		if (!pc->reads && !pc->writes)
			continue;
		json_object(&j, auto_phase_name[p]);
		json_number(&j, "device_ns", pc->device_ns);
		json_uint(&j, "reads", pc->reads);
		json_uint(&j, "writes", pc->writes);
		json_uint(&j, "bytes_written", pc->bytes_written);
		json_end(&j);
	}
	json_end(&j);
	if (r->bound_ns > 0) {
		json_uint(&j, "bound_bytes", r->bound_bytes);
		json_uint(&j, "bound_ns", (uint64_t)llround(r->bound_ns));
	}
	if (r->bound_ns > 0 || r->budget_ns) {
		if (r->budget_ns)
			json_uint(&j, "budget_ns", r->budget_ns);
		for (int k = 0; k < 2; k++) {
			json_array(&j, k ? "left_out" : "cut_short");
			for (int p = 0; p < AUTO_PHASES; p++)
				if ((k ? r->skipped : r->cut) & 1u << p)
					json_string(&j, NULL, auto_phase_name[p]);
			json_end(&j);
		}
	}
	json_end(&j);
	json_finish(&j);
}

/* ------------------------------------------------------------ shared with --analyze */

void report_finding_text(FILE *f, const struct finding *x)
{
	finding_text(f, x);
}

void report_room_text(FILE *f, const struct finding *x)
{
	finding_text_as(f, x, format_size_floor);
}

void report_finding_json(struct json *j, const struct finding *x)
{
	json_finding(j, x, 0);
}

void report_align_measurements_json(struct json *j, const struct auto_report *r)
{
	json_align_measurements(j, r);
}

void report_trials_json(struct json *j, const char *key, const struct open_trial *t, size_t n)
{
	json_trials(j, key, t, n);
}
