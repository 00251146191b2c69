/* report_capacity.h — the --capacity report: text (a person reads it),
 * JSON (a program does) and the --plot map of the
 * device (kept, lost, repeating).  Formats only. */
#ifndef FLASHBENCH_REPORT_CAPACITY_H
#define FLASHBENCH_REPORT_CAPACITY_H

#include <stdio.h>

#include "auto/capacity.h"
#include "prog/printer.h"
#include "report/identity.h"

void report_capacity_text(FILE *f, const struct identity *id, const struct capacity_report *r, double wall_ns);
void report_capacity_json(FILE *f, const struct identity *id, const struct capacity_report *r, double wall_ns);
/* The map: 0, or -1 when there is nothing to draw. */
int plot_capacity(FILE *f, const char *device, const struct capacity_report *r);

/* The "signatures" format of --program: one line (JSON: one object) per
 * signature request kept, with what its sectors held:
 * "sig-read 1048576\t4KiB\tgood 8\tmoved 0\tstale 0\tforeign 0\t735µs" */
text_printer report_signatures;
struct json;
void json_results_signatures(struct json *j, const struct vm_result *root);

/* The state of [lo, hi) on the map: '+' kept, 'x' lost, '~' reaches other
 * flash, '.' not probed (shared by the text map and the plot). */
char capacity_map_state(const struct capacity_report *r, uint64_t lo, uint64_t hi);

#endif
