/* modes.h — the list of modes: the ways flashbench runs (the classic
 * tests, --program, --auto, --capacity, --rating, --restore, --analyze,
 * --compare).
 * A row's shape is run/mode.h's; each mode's row is in its own file,
 * run/NAME.c (`const struct mode mode_NAME`), with its option, its help,
 * the options that go with it, its flags and its functions.  Adding a mode
 * is a line here and that file.  The order is the one --help lists the
 * modes in and errors list the runs an option goes with. */
#ifndef FLASHBENCH_MODES_H
#define FLASHBENCH_MODES_H

#include "run/mode.h"

#define MODES(X) X(auto) X(capacity) X(rating) X(test) X(program) X(restore) X(analyze) X(compare)

#define MODES_DECLARE(name) extern const struct mode mode_##name;
MODES(MODES_DECLARE)
#undef MODES_DECLARE

#define MODES_ONE(name) +1
enum { NMODES = 0 MODES(MODES_ONE) };
#undef MODES_ONE

/* The rows, in their order; NULL after the last. */
extern const struct mode *const modes[NMODES + 1];

#endif
