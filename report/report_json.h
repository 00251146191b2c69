/* report_json.h — JSON of the tests (not --auto): the identity, the test's
 * name and parameters, the range written, and its results, each test kind
 * giving its own parameters and results (testkinds.c).  Formats only. */
#ifndef FLASHBENCH_REPORT_JSON_H
#define FLASHBENCH_REPORT_JSON_H

#include <stdio.h>

#include "prog/programs.h"
#include "report/identity.h"
#include "vm.h"

struct json;
struct test_kind;

/* plan gives the range written (write tests); root may be NULL (no
 * results); interrupted: a signal stopped the run, and the results are the
 * rows it completed ("interrupted": true) */
void report_test_json(FILE *f, const struct test_kind *k, const struct identity *id, const struct test_params *t,
		      const struct vm_result *root, const struct vm_plan *plan, int interrupted);

/* the test kinds' JSON parameters and results */
void json_params_open_au(struct json *j, const struct test_params *t);
void json_params_find_fat(struct json *j, const struct test_params *t);
void json_params_scatter(struct json *j, const struct test_params *t);
void json_params_interval(struct json *j, const struct test_params *t);
void json_results_align(struct json *j, const struct vm_result *root);
void json_results_scatter(struct json *j, const struct vm_result *root);
void json_results_find_fat(struct json *j, const struct vm_result *root);
void json_results_tree(struct json *j, const struct vm_result *root);
void json_results_strides(struct json *j, const struct vm_result *root);
void json_results_chunks(struct json *j, const struct vm_result *root);

#endif
