/* modes.c — the table of modes: the rows of modes.h's list. */
#include "modes.h"

#define MODES_ROW(name) &mode_##name,
const struct mode *const modes[NMODES + 1] = { MODES(MODES_ROW) NULL };
