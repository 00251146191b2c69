/* report_analyze.c — the --analyze report (see report_analyze.h). */
#include "report/report_analyze.h"

#include <string.h>

#include "lib/json.h"
#include "report/report_auto.h"
#include "lib/units.h"
#include "lib/wrap.h"

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

/* Where the -O tables' counts came from, when not from their own command
 * lines: the inference, once per kind. */
static void open_counts(FILE *f, const struct saved_text *t)
{
	unsigned n[NR_DEFAULT + 1] = { 0 }, first[NR_DEFAULT + 1] = { 0 };

	for (size_t k = 0; k < t->nopen; k++) {
		unsigned char from = t->open[k].nr_from;
		if (!n[from]++)
			first[from] = t->open[k].line;
	}
	if (n[NR_LABEL])
		report_evidence(f, "%u -O table%s from line %u: --open-au-nr read from the label line%s above %s (line %u: "
			"\"%s\")", n[NR_LABEL], n[NR_LABEL] == 1 ? "" : "s", first[NR_LABEL], n[NR_LABEL] == 1 ? "" : "s",
			n[NR_LABEL] == 1 ? "it" : "them", t->label_line, t->label);
	if (n[NR_ECHO])
		report_evidence(f, "%u -O table%s from line %u: --open-au-nr read from the line%s a loop printed",
			n[NR_ECHO], n[NR_ECHO] == 1 ? "" : "s", first[NR_ECHO], n[NR_ECHO] == 1 ? "" : "s");
	if (n[NR_DEFAULT])
		report_evidence(f, "%u -O table%s from line %u: --open-au-nr taken as %d, the classic default of -O (%s "
			"command line%s set%s none)", n[NR_DEFAULT], n[NR_DEFAULT] == 1 ? "" : "s", first[NR_DEFAULT],
			CLASSIC_OPEN_AU_NR, n[NR_DEFAULT] == 1 ? "its" : "their", n[NR_DEFAULT] == 1 ? "" : "s",
			n[NR_DEFAULT] == 1 ? "s" : "");
	if (n[NR_UNKNOWN])
		report_evidence(f, "%u -O table%s from line %u: no --open-au-nr (no command line, label or loop's echo "
			"gives it): not used", n[NR_UNKNOWN], n[NR_UNKNOWN] == 1 ? "" : "s", first[NR_UNKNOWN]);
}

/* What was read: the tables, or the saved --auto result. */
static void read_text(FILE *f, const struct saved_text *t, const struct saved_report *s)
{
	const struct saved_findings *found = s->found;
	char a[32], b[32], line[600] = "";

	if (found) {
		format_size(a, sizeof(a), found->size);
		if (found->device[0])
			snprintf(line, sizeof(line), " of %s (%s), %s", found->device, a,
				 found->wrote ? "with --write" : "read-only");
		report_evidence(f, "an --%s result from flashbench %s%s: its findings as that run made them, not "
				"analysed again", found->test, found->version[0] ? found->version : "(version not saved)",
				line);
		return;
	}
	if (t->json_results)
		snprintf(line, sizeof(line), "from %u --json result%s", t->json_results,
			 t->json_results == 1 ? "" : "s");
	else
		snprintf(line, sizeof(line), "from %u of %u lines", t->table_lines, t->lines);
	report_evidence(f, "read %zu align row%s in %zu run%s and %zu open-au row%s in %zu table%s, %s",
			align_rows_read(t), align_rows_read(t) == 1 ? "" : "s", t->nalign, t->nalign == 1 ? "" : "s",
			open_rows_read(t), open_rows_read(t) == 1 ? "" : "s", t->nopen, t->nopen == 1 ? "" : "s", line);
	for (size_t k = 0; k < t->nalign; k++) {
		const struct saved_align_run *run = &t->align[k];
		format_size(a, sizeof(a), run->bs);
		report_evidence(f, "-a run at line %u: %zu row%s, %s reads (%s)%s", run->line, run->n, run->n == 1 ? "" : "s", a,
			t->json_results ? "from its parameters" :
			run->bs_given ? "from the command line" : "half the smallest alignment",
			run->computed_diffs ? ", diffs cut off computed from pre, on and post" : "");
		if (run->card[0])
			wrap_printf(f, WRAP_REPORT, "        ", "          ", "of %s", run->card);
		if (run->copy_of)
			wrap_printf(f, WRAP_REPORT, "        ", "          ",
				    "a copy of the run at line %u (every row the same): not a second measurement",
				run->copy_of);
		for (int i = 0; i < run->nnotes; i++)
			wrap_printf(f, WRAP_REPORT, "        ", "          ", "%s", run->notes[i]);
	}
	open_counts(f, t);
	for (size_t k = 0; k < t->nfat; k++) {
		const struct saved_fat_table *tb = &t->fat[k];
		format_size(a, sizeof(a), tb->erase ? tb->erase : 4ULL << 20);
		format_size(b, sizeof(b), tb->n ? tb->size[tb->n - 1] : 0);
		report_evidence(f, "find-fat table at line %u: %zu rows down to %s, %u erase blocks of %s%s", tb->line,
				tb->n, b,
			tb->nblocks, a, tb->erase ? "" : " (the default)");
	}
	for (size_t k = 0; k < t->nother; k++)
		report_evidence(f, "--%s result at line %u: %zu rows, not analysed (no finding rests on it)",
			strcmp(t->other[k].test, "tree") ? t->other[k].test : "program", t->other[k].line, t->other[k].rows);
	for (int k = 0; k < t->nnotes; k++)
		report_evidence(f, "%s", t->notes[k]);
	if (t->notes_left)
		report_evidence(f, "(%u more notes like these)", t->notes_left);
}

void report_analyze_text(FILE *f, const char *source, const struct saved_text *t, const struct saved_report *s)
{
	const struct auto_report *r = &s->r;
	const struct finding *all[] = { &r->page, &r->erase, &r->min_write, &r->open_linear, &r->open_random, &r->fat };

	report_para(f, "flashbench --analyze: %s", source);
	read_text(f, t, s);
	if (t->dropped)
		report_evidence(f, "%u row%s beyond what --analyze keeps were skipped", t->dropped,
				t->dropped == 1 ? "" : "s");
	if (t->cut_rows)
		report_evidence(f, "%u row%s of a table of columns had fewer cells than the rows above (cut off) "
				"and %s dropped", t->cut_rows, t->cut_rows == 1 ? "" : "s", t->cut_rows == 1 ? "was" : "were");
	fputc('\n', f);
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		report_finding_text(f, all[i]);
	for (size_t c = 0; c < s->ncards; c++) {
		const struct saved_card *k = &s->cards[c];
		fputc('\n', f);
		report_para(f, "card \"%s\" (%s line %u)", k->name,
			    k->column ? "its column of the table at" : "its tables from", k->line);
		if (k->align) {
			report_finding_text(f, &k->page);
			report_finding_text(f, &k->erase);
		}
		if (k->linear)
			report_finding_text(f, &k->open_linear);
		if (k->random)
			report_finding_text(f, &k->open_random);
		if (k->fat)
			report_finding_text(f, &k->fat_area);
	}
	if (s->cards_left) {
		fputc('\n', f);
		report_para(f, "%u more column%s of card tables not analysed (at most %d cards are)", s->cards_left,
			    s->cards_left == 1 ? "" : "s", SAVED_CARDS);
	}
	report_recommendations_text(f, &r->rec, 512);
	if (s->nnext) {
		fprintf(f, "\nnext steps\n");
		for (int i = 0; i < s->nnext; i++)
			report_evidence(f, "%s", s->next[i]);
	}
}

static const char *nr_from_name(unsigned char from)
{
	static const char *const names[] = { NULL, "command line", "loop echo", "label line", "classic default" };
	return from < sizeof(names) / sizeof(names[0]) ? names[from] : NULL;
}

void report_analyze_json(FILE *f, const char *source, const struct saved_text *t, const struct saved_report *s)
{
	const struct auto_report *r = &s->r;
	const struct finding *all[] = { &r->page, &r->erase, &r->min_write, &r->open_linear, &r->open_random, &r->fat };
	struct json j;

	json_start(&j, f);
	json_tool(&j);
	json_string(&j, "test", "analyze");
	json_object(&j, "source");
	json_members(&j, (const struct json_member[]){ { "file", JM_STRING, .string = source },
		{ "lines", JM_UINT, .uint = t->lines }, { "table_lines", JM_UINT, .uint = t->table_lines },
		{ "align_rows", JM_UINT, .uint = align_rows_read(t) },
		{ "open_au_rows", JM_UINT, .uint = open_rows_read(t) }, { "find_fat_rows", JM_UINT, .uint = t->fat_rows },
		{ "json_results", JM_UINT, .uint = t->json_results }, { "cut_rows", JM_UINT, .uint = t->cut_rows }, JM_END });
	json_array(&j, "align_runs");
	for (size_t k = 0; k < t->nalign; k++) {
		const struct saved_align_run *run = &t->align[k];
		json_object(&j, NULL);
		json_members(&j, (const struct json_member[]){ { "line", JM_UINT, .uint = run->line },
			{ "rows", JM_UINT, .uint = run->n }, { "blocksize", JM_UINT, .uint = run->bs },
			{ "blocksize_given", JM_BOOL, .uint = run->bs_given }, { "repaired", JM_UINT, .uint = run->repaired },
			{ "dropped", JM_UINT, .uint = run->dropped },
			{ "card", JM_STRING, .string = run->card[0] ? run->card : NULL },
			{ "copy_of_line", JM_UINT, .uint = run->copy_of }, JM_END });
		json_array(&j, "notes");
		for (int i = 0; i < run->nnotes; i++)
			json_string(&j, NULL, run->notes[i]);
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);
	json_array(&j, "open_au_tables");
	for (size_t k = 0; k < t->nopen; k++)
		json_record(&j, NULL, (const struct json_member[]){ { "line", JM_UINT, .uint = t->open[k].line },
			{ "rows", JM_UINT, .uint = t->open[k].n }, { "open_au_nr", JM_UINT, .uint = t->open[k].nr },
			{ "open_au_nr_from", JM_STRING, .string = nr_from_name(t->open[k].nr_from) },
			{ "open_au_nr_line", JM_UINT, .uint = t->open[k].nr_line },
			{ "random", JM_BOOL, .uint = t->open[k].random }, { "erasesize", JM_UINT, .uint = t->open[k].erase },
			{ "interrupted", JM_BOOL, .uint = t->open[k].interrupted },
			{ "column", JM_UINT, .uint = t->open[k].column },
			{ "card", JM_STRING, .string = t->open[k].card[0] ? t->open[k].card : NULL }, JM_END });
	json_end(&j);
	json_array(&j, "find_fat_tables");
	for (size_t k = 0; k < t->nfat; k++)
		json_record(&j, NULL, (const struct json_member[]){ { "line", JM_UINT, .uint = t->fat[k].line },
			{ "rows", JM_UINT, .uint = t->fat[k].n }, { "erase_blocks", JM_UINT, .uint = t->fat[k].nblocks },
			{ "erasesize", JM_UINT, .uint = t->fat[k].erase },
			{ "card", JM_STRING, .string = t->fat[k].card[0] ? t->fat[k].card : NULL }, JM_END });
	json_end(&j);
	json_array(&j, "notes");
	for (int k = 0; k < t->nnotes; k++)
		json_string(&j, NULL, t->notes[k]);
	json_end(&j);
	json_array(&j, "not_analysed");
	for (size_t k = 0; k < t->nother; k++)
		json_record(&j, NULL, (const struct json_member[]){ { "test", JM_STRING, .string = t->other[k].test },
			{ "line", JM_UINT, .uint = t->other[k].line }, { "rows", JM_UINT, .uint = t->other[k].rows },
			JM_END });
	json_end(&j);
	if (s->found) {
		const struct saved_findings *found = s->found;
		json_record(&j, "saved_findings", (const struct json_member[]){
			{ "test", JM_STRING, .string = found->test },
			{ "version", JM_STRING, .string = found->version[0] ? found->version : NULL },
			{ "device", JM_STRING, .string = found->device[0] ? found->device : NULL },
			{ "write", JM_BOOL, .uint = found->wrote }, JM_END });
	} else {
		json_string(&j, "saved_findings", NULL);
	}
	json_end(&j);
	json_object(&j, "findings");
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		report_finding_json(&j, all[i]);
	json_end(&j);
	json_bool(&j, "alignment_matters", r->alignment_matters);
	json_array(&j, "cards");
	for (size_t c = 0; c < s->ncards; c++) {
		json_object(&j, NULL);
		json_string(&j, "name", s->cards[c].name);
		json_uint(&j, "line", s->cards[c].line);
		json_uint(&j, "tables", s->cards[c].tables);
		json_object(&j, "findings");
		if (s->cards[c].align) {
			report_finding_json(&j, &s->cards[c].page);
			report_finding_json(&j, &s->cards[c].erase);
		}
		report_finding_json(&j, &s->cards[c].open_linear);
		report_finding_json(&j, &s->cards[c].open_random);
		if (s->cards[c].fat)
			report_finding_json(&j, &s->cards[c].fat_area);
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);
	report_recommendations_json(&j, &r->rec);
	json_array(&j, "next_steps");
	for (int i = 0; i < s->nnext; i++)
		json_string(&j, NULL, s->next[i]);
	json_end(&j);
	json_object(&j, "measurements");
	report_align_measurements_json(&j, r);
	json_uint(&j, "trial_chunk", r->trial_chunk);
	json_number(&j, "healthy_write_ns", r->write_ref);
	report_trials_json(&j, "open_linear", r->lin, r->nlin);
	report_trials_json(&j, "open_random", r->rnd, r->nrnd);
	json_end(&j);
	json_finish(&j);
}
