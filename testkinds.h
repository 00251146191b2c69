/* testkinds.h — the one table of test kinds.  Each entry (prog/testkind.h's
 * record) says everything about one test: its name (the output format, the
 * JSON "test", the progress line), its option, whether it writes, the
 * program it runs, the shape of results its printers read, and its text,
 * JSON and plot printers.  The command line, the help, the output and the
 * plots loop over this table; a new test is one entry here plus its
 * program. */
#ifndef FLASHBENCH_TESTKINDS_H
#define FLASHBENCH_TESTKINDS_H

#include "prog/testkind.h"

extern const struct test_kind test_kinds[];    /* ends with a NULL name */

/* The kind of that name ("align", "tree"), or NULL. */
const struct test_kind *test_kind_named(const char *name);

/* The kinds' names, NULL-ended: the formats a program may name (the
 * program parser is handed them, prog_vars.formats). */
const char *const *test_kind_names(void);

#endif
