/* report_json.c — JSON of the tests (see report_json.h). */
#include "report/report_json.h"

#include "lib/json.h"
#include "report/identity.h"
#include "prog/results.h"
#include "prog/testkind.h"

static void json_stats(struct json *j, const struct vm_stats *st)
{
	json_uint(j, "requests", st->count);
	json_uint(j, "bytes", st->bytes);
	json_uint(j, "min_ns", st->min_ns);
	json_number(j, "avg_ns", st->count ? st->total_ns / (double)st->count : 0);
	json_uint(j, "max_ns", st->max_ns);
	json_number(j, "total_ns", st->total_ns);
	json_number(j, "bytes_per_second", st->total_ns > 0 ? (double)st->bytes * 1e9 / st->total_ns : 0);
}

void json_params_open_au(struct json *j, const struct test_params *t)
{
	json_uint(j, "open_au_nr", t->open_au_nr);
	json_bool(j, "random", t->random);
}

void json_params_find_fat(struct json *j, const struct test_params *t)
{
	json_uint(j, "fat_nr", t->fat_nr);
}

void json_params_scatter(struct json *j, const struct test_params *t)
{
	json_uint(j, "scatter_order", t->scatter_order);
	json_uint(j, "scatter_span", t->scatter_span);
}

void json_params_interval(struct json *j, const struct test_params *t)
{
	json_uint(j, "interval_order", t->interval_order);
}

void json_results_align(struct json *j, const struct vm_result *root)
{
	for (size_t i = 0; i < root->nkid; i++) {
		struct align_row a;
		align_row_of(&root->kid[i], &a);
		json_object(j, NULL);
		json_uint(j, "align", a.align);
		json_number(j, "diff_ns", a.diff);
		for (int k = 0; k < 3; k++) {
			json_object(j, k == 0 ? "pre" : k == 1 ? "on" : "post");
			json_number(j, "ns", k == 0 ? a.pre : k == 1 ? a.on : a.post);
			json_stats(j, &a.leg[k]);
			json_end(j);
		}
		json_end(j);
	}
}

void json_results_scatter(struct json *j, const struct vm_result *root)
{
	const struct vm_result *pos = scatter_points(root);

	for (size_t i = 0; pos && i < pos->nkid; i++) {
		json_object(j, NULL);
		json_uint(j, "offset", pos->kid[i].off);
		json_number(j, "ns", pos->kid[i].value);
		json_stats(j, &pos->kid[i].st);
		json_end(j);
	}
}

void json_results_find_fat(struct json *j, const struct vm_result *root)
{
	for (size_t i = 0; i < root->nkid; i++) {
		const struct vm_result *aus = fat_blocks(&root->kid[i]);
		json_object(j, NULL);
		json_uint(j, "chunk", root->kid[i].unit);
		json_array(j, "erase_blocks");
		for (size_t k = 0; aus && k < aus->nkid; k++) {
			json_object(j, NULL);
			json_uint(j, "offset", aus->kid[k].off);
			json_stats(j, &aus->kid[k].st);
			json_end(j);
		}
		json_end(j);
		json_end(j);
	}
}

/* A program's kept result nodes as nested objects. */
void json_results_tree(struct json *j, const struct vm_result *r)
{
	json_object(j, NULL);
	json_string(j, "op", vm_opcode_name(r->op->code));
	json_string(j, "label", r->op->label);
	json_uint(j, "offset", r->off);
	json_uint(j, "length", r->len);
	json_uint(j, "unit", r->unit);
	json_number(j, "value_ns", r->value);
	json_stats(j, &r->st);
	if (r->nkid) {
		json_array(j, "children");
		for (size_t i = 0; i < r->nkid; i++)
			json_results_tree(j, &r->kid[i]);
		json_end(j);
	}
	json_end(j);
}

/* one row per unit: its stats */
static void unit_rows(struct json *j, const struct vm_result *root, const char *key)
{
	for (size_t i = 0; i < root->nkid; i++) {
		json_object(j, NULL);
		json_uint(j, key, root->kid[i].unit);
		json_stats(j, &root->kid[i].st);
		json_end(j);
	}
}

void json_results_strides(struct json *j, const struct vm_result *root)
{
	unit_rows(j, root, "stride");
}

void json_results_chunks(struct json *j, const struct vm_result *root)
{
	unit_rows(j, root, "chunk");
}

void report_test_json(FILE *f, const struct test_kind *k, const struct identity *id, const struct test_params *t,
		      const struct vm_result *root, const struct vm_plan *plan, int interrupted)
{
	struct json j;

	json_start(&j, f);
	json_identity(&j, id);
	json_string(&j, "test", k->name);
	if (interrupted)
		json_bool(&j, "interrupted", 1);
	json_object(&j, "parameters");
	json_uint(&j, "blocksize", t->blocksize);
	json_uint(&j, "erasesize", t->erasesize);
	json_uint(&j, "count", t->count);
	if (k->json_params)
		k->json_params(&j, t);
	json_end(&j);
	if (plan && plan->bytes_written) {
		json_object(&j, "written");
		json_uint(&j, "from", plan->write_lo);
		json_uint(&j, "to", plan->write_hi - 1);
		json_uint(&j, "bytes", plan->bytes_written);
		json_end(&j);
	}
	json_array(&j, "results");
	if (root)
		k->json_results(&j, root);
	json_end(&j);
	json_finish(&j);
}
