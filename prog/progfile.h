/* progfile.h — VM programs written as text (flashbench --program FILE).
 *
 *   # comment                      one operation per line; the lines indented
 *   format align                   deeper below an operation are its body
 *   unit-halve $spacing 2*$blocksize keep
 *     seq keep
 *       len $blocksize label=pre
 *         off-linear $spacing 7 avg
 *
 * An operation is an opcode of vm.h's table VM_OPCODES (its name, and
 * arguments of the kinds the table gives), then any of: sum min avg max
 * (the reduction), keep, label=NAME.  Arguments are numbers with size
 * suffixes (512, 24k, 1.5M), variables from the command line and the
 * device (listed in doc/program.md), joined with * and /, with an optional
 * leading minus; off-list takes such arguments separated by commas, and a
 * list variable there stands for all its values.
 * An optional first line "format NAME" chooses how results are printed;
 * the names it may give are the caller's (prog_vars.formats: the test
 * kinds' names, which this parser does not know). */
#ifndef FLASHBENCH_PROGFILE_H
#define FLASHBENCH_PROGFILE_H

#include <stdint.h>

#include "lib/err.h"
#include "vm.h"

#define PROG_VARS 32

struct prog_vars {
	const char *name[PROG_VARS];    /* static strings */
	uint64_t value[PROG_VARS];
	const int64_t *list[PROG_VARS]; /* a list variable's values (off-list), or NULL */
	size_t nlist[PROG_VARS];
	int n;
	/* the names a "format NAME" line may give, NULL-ended; NULL when the
	 * caller has no use for the format (then *format is NULL and a format
	 * line's name is not checked) */
	const char *const *formats;
};

/* Set variable NAME (without '$'), adding it if new; -1 when full. */
int prog_vars_set(struct prog_vars *v, const char *name, uint64_t value);
/* Make NAME a list of n values (the caller keeps them alive while parsing),
 * which off-list expands; -1 when full. */
int prog_vars_set_list(struct prog_vars *v, const char *name, const int64_t *list, size_t n);

/* Parse a program; *format gets the format name (one of vars->formats,
 * "tree" when the program names none).  Errors name file:line:column and
 * what was expected. */
int progfile_parse(const char *file, const char *text, const struct prog_vars *vars, struct vm_op **out,
		   const char **format, struct fb_err *e);

/* Read the file and parse it. */
int progfile_load(const char *file, const struct prog_vars *vars, struct vm_op **out, const char **format,
		  struct fb_err *e);

/* Does the program write or erase anything? */
int program_writes(const struct vm_op *op);
/* Does it hold a rewrite (a write that changes nothing)? */
int program_rewrites(const struct vm_op *op);

#endif
