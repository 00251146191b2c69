/* options.h — the one table of command-line options.  Each entry gives the
 * option's long name, letter, kind of argument, range, where its value goes,
 * its group (the modes whose rows take that group, run/mode.h) and its help
 * line; each mode's own option is made from its row (modes.h).  getopt's
 * strings, parsing, ranges, --help and the "does not apply" errors all come
 * from it (the tests themselves come from the test kind table,
 * testkinds.h).  Adding an option is one entry (designated initializers:
 * only what it has); its default is set in test_defaults (prog/programs.c)
 * and "{}" in its help shows it from there. */
#ifndef FLASHBENCH_OPTIONS_H
#define FLASHBENCH_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/err.h"
#include "modes.h"
#include "run/run.h"
#include "prog/programs.h"
#include "testkinds.h"

/* Parse argv into c (defaults first).  Returns 0 to run, 1 when done
 * (--help, --version: printed to stdout), -1 with e filled. */
int cli_parse(int argc, char **argv, struct cli *c, struct fb_err *e);

/* The help that lists every option (--help -v). */
void cli_usage(FILE *f);

/* A test kind's program reaches past the end of the device (e->kind
 * FB_PAST_END): its advice names the options given (not at their defaults)
 * that took it there, "(use a smaller --fat-nr or --erasesize)".  -1. */
int cli_name_reach(const struct cli *c, struct fb_err *e);

#endif
