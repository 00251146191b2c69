/* report_auto.h — the --auto report as text (a person reads it) and as JSON
 * (a program does).  Formats only. */
#ifndef FLASHBENCH_REPORT_AUTO_H
#define FLASHBENCH_REPORT_AUTO_H

#include <stdio.h>

#include "auto/auto_report.h"
#include "report/identity.h"
#include "prog/programs.h"
#include "vm.h"

void report_auto_text(FILE *f, const struct identity *id, const struct auto_report *r, int wrote, double wall_ns);
void report_auto_json(FILE *f, const struct identity *id, const struct auto_report *r, int wrote, double wall_ns);

struct json;

/* Parts shared with --analyze (report_analyze.c), so both print findings
 * and recommendations the same way. */
void report_finding_text(FILE *f, const struct finding *x);
/* A finding that promises room (--capacity's usable size): as
 * report_finding_text, its size never shown above its value. */
void report_room_text(FILE *f, const struct finding *x);
void report_finding_json(struct json *j, const struct finding *x);
void report_recommendations_text(FILE *f, const struct recommendations *rec, unsigned sector);
void report_recommendations_json(struct json *j, const struct recommendations *rec);
void report_align_measurements_json(struct json *j, const struct auto_report *r);
void report_trials_json(struct json *j, const char *key, const struct open_trial *t, size_t n);

#endif
