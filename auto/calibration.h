/* calibration.h — what a confidence level promises, and the levels each
 * finding may be shown at.  A level is a measured error rate (high: none
 * wrong, medium: at most 1 in 20, low: at most 1 in 2), per finding and
 * per mode, on the calibration sets: the friendly and hostile zoos for
 * --auto, generated tables and the real posts for --analyze
 * (doc/confidence.md).  A level whose rate is not met is not shown: the
 * finding is lowered to the highest level that is, or not determined when
 * none is.  The rows are data; bench/confidence measures the rates and
 * names a row whose level the data do not bear out. */
#ifndef FLASHBENCH_CALIBRATION_H
#define FLASHBENCH_CALIBRATION_H

#include "auto/analyze.h"
#include "auto/auto_report.h"

enum cal_mode { CAL_AUTO, CAL_ANALYZE, CAL_MODES };

/* The most wrong findings of 1000 a level promises (CONF_NONE: none). */
unsigned cal_promise_permille(enum confidence c);

/* The highest and lowest level finding `key` may be shown at in a mode;
 * 0 when the table has no row for it (no cap). */
int cal_levels(enum cal_mode mode, const char *key, enum confidence *top, enum confidence *bottom);

/* Holds f to its row: above the highest level, lowered to it (saying so);
 * below the lowest, not determined (saying so). */
void calibrate(struct finding *f, enum cal_mode mode);

/* calibrate() on every finding of a report. */
void calibrate_report(struct auto_report *r, enum cal_mode mode);

#endif
