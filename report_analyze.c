/* report_analyze.c — the --analyze report (see report_analyze.h). */
#include "report_analyze.h"

#include "json.h"
#include "report_auto.h"
#include "units.h"
#include "version.h"

static size_t align_rows_read(const struct saved_text *t)
{
	size_t n = 0;

	for (size_t k = 0; k < t->nalign; k++)
		n += t->align[k].n;
	return n;
}

static size_t open_rows_read(const struct saved_text *t)
{
	size_t n = 0;

	for (size_t k = 0; k < t->nopen; k++)
		n += t->open[k].n;
	return n;
}

void report_analyze_text(FILE *f, const char *source, const struct saved_text *t, const struct saved_report *s)
{
	const struct auto_report *r = &s->r;
	const struct finding *all[] = { &r->page, &r->erase, &r->min_write, &r->open_linear, &r->open_random, &r->fat };
	char a[32];

	fprintf(f, "flashbench --analyze: %s\n", source);
	fprintf(f, "    read %zu align row%s in %zu run%s and %zu open-au row%s in %zu table%s, from %u of %u lines\n",
		align_rows_read(t), align_rows_read(t) == 1 ? "" : "s", t->nalign, t->nalign == 1 ? "" : "s",
		open_rows_read(t), open_rows_read(t) == 1 ? "" : "s", t->nopen, t->nopen == 1 ? "" : "s",
		t->table_lines, t->lines);
	for (size_t k = 0; k < t->nalign; k++) {
		const struct saved_align_run *run = &t->align[k];
		format_size(a, sizeof(a), run->bs);
		fprintf(f, "    -a run at line %u: %zu rows, %s reads (%s)%s\n", run->line, run->n, a,
			run->bs_given ? "from the command line" : "half the smallest alignment",
			run->computed_diffs ? ", diffs cut off computed from pre, on and post" : "");
	}
	if (t->fat_rows)
		fprintf(f, "    %u find-fat row%s skipped\n", t->fat_rows, t->fat_rows == 1 ? "" : "s");
	if (t->dropped)
		fprintf(f, "    %u row%s beyond what --analyze keeps were skipped\n", t->dropped, t->dropped == 1 ? "" : "s");
	fputc('\n', f);
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		report_finding_text(f, all[i]);
	report_recommendations_text(f, &r->rec, 512);
	if (s->nnext) {
		fprintf(f, "\nnext steps\n");
		for (int i = 0; i < s->nnext; i++)
			fprintf(f, "    %s\n", s->next[i]);
	}
}

void report_analyze_json(FILE *f, const char *source, const struct saved_text *t, const struct saved_report *s)
{
	const struct auto_report *r = &s->r;
	const struct finding *all[] = { &r->page, &r->erase, &r->min_write, &r->open_linear, &r->open_random, &r->fat };
	struct json j;

	json_start(&j, f);
	json_object(&j, "tool");
	json_string(&j, "name", "flashbench");
	json_string(&j, "version", FLASHBENCH_VERSION);
	json_end(&j);
	json_string(&j, "test", "analyze");
	json_object(&j, "source");
	json_string(&j, "file", source);
	json_uint(&j, "lines", t->lines);
	json_uint(&j, "table_lines", t->table_lines);
	json_uint(&j, "align_rows", align_rows_read(t));
	json_uint(&j, "open_au_rows", open_rows_read(t));
	json_uint(&j, "find_fat_rows", t->fat_rows);
	json_array(&j, "align_runs");
	for (size_t k = 0; k < t->nalign; k++) {
		json_object(&j, NULL);
		json_uint(&j, "line", t->align[k].line);
		json_uint(&j, "rows", t->align[k].n);
		json_uint(&j, "blocksize", t->align[k].bs);
		json_bool(&j, "blocksize_given", t->align[k].bs_given);
		json_end(&j);
	}
	json_end(&j);
	json_array(&j, "open_au_tables");
	for (size_t k = 0; k < t->nopen; k++) {
		json_object(&j, NULL);
		json_uint(&j, "line", t->open[k].line);
		json_uint(&j, "rows", t->open[k].n);
		json_uint(&j, "open_au_nr", t->open[k].nr);
		json_bool(&j, "random", t->open[k].random);
		json_uint(&j, "erasesize", t->open[k].erase);
		json_bool(&j, "interrupted", t->open[k].interrupted);
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
	json_object(&j, "findings");
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		report_finding_json(&j, all[i]);
	json_bool(&j, "alignment_matters", r->alignment_matters);
	json_end(&j);
	report_recommendations_json(&j, &r->rec);
	json_array(&j, "next_steps");
	for (int i = 0; i < s->nnext; i++)
		json_string(&j, NULL, s->next[i]);
	json_end(&j);
	json_object(&j, "measurements");
	report_align_rows_json(&j, "align", r->rows, r->nrows);
	report_align_rows_json(&j, "align2", r->rows2, r->nrows2);
	json_number(&j, "read_noise_ns", r->levels.noise);
	json_number(&j, "read_step_ns", r->levels.step);
	json_uint(&j, "trial_chunk", r->trial_chunk);
	json_number(&j, "healthy_write_ns", r->write_ref);
	report_trials_json(&j, "open_linear", r->lin, r->nlin);
	report_trials_json(&j, "open_random", r->rnd, r->nrnd);
	json_end(&j);
	json_finish(&j);
}
