/* batch_map.h — the map a batch prints before its first request: its
 * cards by group (those that take turns, and why; those that run side by
 * side), each by name and identity (serial, port, product); what could
 * not be mapped and why; what was refused and why; what the check found.
 * Text fits 80 columns (reasons wrapped at 76 and indented); the same as
 * a JSON member ("topology").  Formats only. */
#ifndef FLASHBENCH_BATCH_MAP_H
#define FLASHBENCH_BATCH_MAP_H

#include <stdio.h>

struct batch;
struct json;

void batch_map_text(FILE *f, const struct batch *b);
/* "topology": {"groups": [...], "refused": [...], "check": {...}} */
void batch_map_json(struct json *j, const struct batch *b);

/* Print text wrapped at 76 columns, each line after the first indented
 * by indent spaces (the first by first). */
void report_wrapped(FILE *f, unsigned first, unsigned indent, const char *text);

#endif
