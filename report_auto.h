/* report_auto.h — the --auto report as text (a person reads it) and as JSON
 * (a program does).  Formats only. */
#ifndef FLASHBENCH_REPORT_AUTO_H
#define FLASHBENCH_REPORT_AUTO_H

#include <stdio.h>

#include "characterise.h"
#include "devinfo.h"
#include "programs.h"
#include "vm.h"

void report_auto_text(FILE *f, const struct identity *id, const struct auto_report *r, int wrote, double wall_ns);
void report_auto_json(FILE *f, const struct identity *id, const struct auto_report *r, int wrote, double wall_ns);

struct json;
/* "tool" and "device" objects, first in every JSON output */
void json_identity(struct json *j, const struct identity *id);

#endif
