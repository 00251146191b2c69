/* budget.h — the cost bound of --auto --write: the most it may write and the
 * device time it may take, fixed and announced before the first write and
 * never exceeded.  Each part of the run gets a share of what is left; a step
 * (one program) runs only when its bytes, known exactly beforehand, and its
 * time, estimated from the slowest request seen so far, fit both its share
 * and the whole bound.  Pure arithmetic: no device, no printing. */
#ifndef FLASHBENCH_BUDGET_H
#define FLASHBENCH_BUDGET_H

#include <stdint.h>

/* The default bound on bytes written: small against the medium (1% of it,
 * at most BUDGET_SHARE_MAX) plus what erase blocks of size `erase` need: the
 * open-AU search may write into 16 of them, and a write cache or fast area
 * is sought through up to 64 MiB of fresh ones, whichever is more; at most
 * half the medium. */
#define BUDGET_SHARE_MAX (256ULL << 20)
#define BUDGET_ERASE_BLOCKS 16
#define BUDGET_BURST (64ULL << 20)
uint64_t budget_default_bytes(uint64_t dev_size, uint64_t erase);
/* The default bound on device time, reads included: long enough for the
 * garbage collection of slow cards with large erase blocks (a 32 MiB erase
 * block copied at 5 MB/s takes 6.4 s per collapsed write); a medium that
 * shows nothing stops long before (the SSD-like verdict). */
#define BUDGET_DEFAULT_NS 600e9

struct budget {
	uint64_t bytes;          /* most the run may write (0: no bound) */
	double ns;               /* most device time the run may take (0: no bound) */
	uint64_t written;        /* so far */
	double elapsed;          /* device time so far, reads included */
	double worst_write, worst_read; /* the slowest single request seen */
	double fast_write_per_byte;      /* the fastest write seen, per byte (0: none yet) */
	double write_floor;      /* a write may always take this long (a garbage collection) */
	unsigned refused;        /* steps refused so far */
	/* the part running now may write up to part_bytes and run up to
	 * part_ns (totals, like written and elapsed) */
	uint64_t part_bytes;
	double part_ns;
};

/* Start a part: it may spend the time left times weight / weights_left
 * (its own included), and the bytes left less reserve (what the parts after
 * it need at least). */
void budget_part(struct budget *b, double weight, double weights_left, uint64_t reserve);

/* May a step that writes `bytes` and is expected to take est_ns run?  To the
 * whole bound it adds one surprise: a single request as slow as the slowest
 * write seen, or write_floor.  0: yes; 2: it would pass the whole bound.
 * (The part's share is soft: budget_part_spent says when a part should
 * stop.) */
int budget_check(const struct budget *b, uint64_t bytes, double est_ns);
/* Has the running part spent its share (time or bytes)? */
int budget_part_spent(const struct budget *b);
/* Which half of the bound a step would pass (budget_check), or the running
 * part has spent its share of (budget_part_spent): a set of these, so that
 * a cut says which half of --budget to raise (0: none). */
enum { BUDGET_BYTES = 1, BUDGET_TIME = 2 };
unsigned budget_over(const struct budget *b, uint64_t bytes, double est_ns);
unsigned budget_part_over(const struct budget *b);
/* The expected time of `writes` writes of `per_write` ns each and `reads`
 * reads as slow as the slowest seen. */
double budget_estimate(const struct budget *b, uint64_t writes, double per_write, uint64_t reads);

/* A step ran: what it wrote and took, its slowest and fastest request, and
 * how many requests it made. */
void budget_spent(struct budget *b, uint64_t bytes, double ns, double slowest, double fastest, uint64_t requests,
		  int writes);

#endif
