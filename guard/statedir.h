/* statedir.h — the state directory: where the index of unfinished
 * --preserve journals and the lock files of the run's claim live
 * ($FLASHBENCH_STATE_DIR, else /var/lib/flashbench for root, else
 * $XDG_STATE_HOME/flashbench or ~/.local/state/flashbench). */
#ifndef FLASHBENCH_STATEDIR_H
#define FLASHBENCH_STATEDIR_H

#include <stddef.h>

#include "lib/err.h"

void state_dir(char *buf, size_t len);

/* The state directory, created (mode 0700) when missing: 0, or -1 with e
 * saying what to do. */
int state_dir_make(char *buf, size_t len, const char *why, struct fb_err *e);

#endif
