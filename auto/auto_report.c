/* auto_report.c — the names of the --auto report's phases (auto_report.h),
 * as the text and JSON reports print them. */
#include "auto/auto_report.h"

const char *const auto_phase_name[AUTO_PHASES] = { "read", "cache", "min_write", "open_linear", "open_random",
						    "fat_area" };
