/* auto_report.c — the names of the --auto report's phases (auto_report.h),
 * as the text and JSON reports print them. */
#include "auto/auto_report.h"

const char *const auto_phase_name[AUTO_PHASES] = { "read", "cache", "probe_area", "min_write", "open_linear",
						    "open_random", "fat_area" };
const char *const auto_phase_title[AUTO_PHASES] = { "reads for the page and erase block", "write cache",
						     "area written and read back", "smallest efficient write",
						     "open erase blocks, linear", "open erase blocks, random order", "FAT area" };

const char *auto_stop_name(const struct auto_report *r)
{
	return r->stopped_in_check ? "capacity_check" : auto_phase_name[r->stopped_in];
}

const char *auto_stop_title(const struct auto_report *r)
{
	return r->stopped_in_check ? "capacity check" : auto_phase_title[r->stopped_in];
}
