/* row_hygiene.h — a pasted -a run's rows checked against themselves before
 * anything rests on them.  A row holds its own check: diff = on - (pre +
 * post) / 2.  A diff that disagrees with it by a unit's factor (µ lost in a
 * copy, "308s" beside pre, on and post in ms) is repaired; pre, on or post
 * far outside the other rows' values for the same field are repaired the
 * same way when a lost unit explains them; a row with a value that has no
 * unit (cut off: "post 1" where the page ended), or that nothing explains,
 * is dropped.  The run keeps notes saying what was repaired or dropped and
 * why.  Pure: no I/O. */
#ifndef FLASHBENCH_ROW_HYGIENE_H
#define FLASHBENCH_ROW_HYGIENE_H

#include "saved/classic_read.h"

/* Reads of one run read the same amount: a value more than this many times
 * from the run's median for its field is no read of that size. */
#define FIELD_APART 10.0
/* Printed times have 3 significant digits: each is within this share of
 * its true value, so a diff computed from printed pre, on and post is
 * within these shares of them (with room for a 4th digit's rounding). */
#define PRINT_SHARE 0.006

void row_hygiene(struct saved_align_run *run);

#endif
