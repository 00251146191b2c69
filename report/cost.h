/* cost.h — the one `cost:` line every mode's report ends with
 * (doc/style.md), and the parts of the run under it:
 *   cost: 4824 reads, 739 writes (32.3MiB); device time 10.12s, took 36ms
 *       read            4.066s    4824 reads       0 writes        0B
 *       capacity        10.66s    quick check, data put back (in the bound)
 * "device time" is what the device spent on the requests (a simulated
 * card's own clock), "took" the wall time.  Formats only. */
#ifndef FLASHBENCH_COST_H
#define FLASHBENCH_COST_H

#include <stdint.h>
#include <stdio.h>

struct cost_part {
	const char *name;
	double device_ns;
	int counted;               /* reads, writes and bytes are known */
	uint64_t reads, writes, written;
	const char *note;          /* said instead of the counts (NULL: none) */
};

struct cost {
	uint64_t reads, writes, written;
	double device_ns, wall_ns;
	const struct cost_part *part;
	int nparts;
};

void report_cost_text(FILE *f, const struct cost *c);

#endif
