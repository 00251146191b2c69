/* unmapped.h — reads that never reach the flash.  eMMC, A1/A2 SD cards and
 * SSDs answer a read of sectors that hold no data (never written, or
 * discarded) from their mapping table: fast, and flat (no read-unit or
 * erase-block boundary costs anything), so the geometry shows only where
 * data are.  From reads spread over the device: are some answered without
 * the flash, and where are the data?  Pure functions over numbers. */
#ifndef FLASHBENCH_UNMAPPED_H
#define FLASHBENCH_UNMAPPED_H

#include <stddef.h>
#include <stdint.h>

/* One probe position: the time of a block read there (the best of its
 * tries) and the extra cost of the read across the boundary at it. */
struct data_probe {
	uint64_t pos;
	double level, cross;
};

struct data_split {
	int seen;           /* some reads never reached the flash */
	double threshold;   /* a read faster than this found no data */
	double fast, slow;  /* median read without data, with data */
	double noise;       /* robust spread of single reads */
	unsigned nfast;     /* probes without data */
	uint64_t lo, hi;    /* the longest run of probes with data: [lo, hi] */
};

/* Split the probes (sorted by position) into reads answered from the
 * mapping table and reads of data: two groups apart by far more than the
 * spread of single reads, the faster at most UNMAPPED_FASTER of the other,
 * and flat (when reads of data cost extra across a boundary, those without
 * cost less than a third of it: a FAT area read faster is still flash).
 * The longest run of probes with data gives where to read the geometry. */
void unmapped_split(const struct data_probe *p, size_t n, struct data_split *s);

#endif
