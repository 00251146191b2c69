/* report_auto.h — the --auto report as text (a person reads it) and as JSON
 * (a program does), and JSON for the classic tests.  Formats only. */
#ifndef FLASHBENCH_REPORT_AUTO_H
#define FLASHBENCH_REPORT_AUTO_H

#include <stdio.h>

#include "characterise.h"
#include "devinfo.h"
#include "programs.h"
#include "vm.h"

void report_auto_text(FILE *f, const struct identity *id, const struct auto_report *r, int wrote, double wall_ns);
void report_auto_json(FILE *f, const struct identity *id, const struct auto_report *r, int wrote, double wall_ns);

/* JSON for a classic test ("align", "open-au", ...); plan gives the range
 * written (write tests) */
void report_test_json(FILE *f, const char *test, const struct identity *id, const struct test_params *t,
		      const struct vm_result *root, const struct vm_plan *plan);

#endif
