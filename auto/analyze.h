/* analyze.h — turns measurements into claims about the medium: page (read
 * unit) size, erase-block size, smallest efficient write, open erase blocks
 * (linear and random order) and the FAT-optimised area, each with a
 * confidence and the evidence behind it; then formatting recommendations.
 * Pure functions over numbers: no I/O, no printing.  Nothing here knows the
 * simulator's presets; every threshold comes from the measured noise and
 * from how flash works (see doc/auto.md). */
#ifndef FLASHBENCH_ANALYZE_H
#define FLASHBENCH_ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#include "prog/results.h"

enum confidence { CONF_NONE = 0, CONF_LOW, CONF_MEDIUM, CONF_HIGH };
const char *confidence_name(enum confidence c);

#define EVIDENCE_MAX 6

struct finding {
	const char *key;            /* JSON name: "erase_block" */
	const char *title;          /* "erase block size" */
	int is_size;                /* value in bytes (else a count) */
	int determined;
	int at_least;               /* value is only a lower bound */
	int at_most;                /* value is only an upper bound ("N or less") */
	uint64_t value;
	enum confidence conf;
	char evidence[EVIDENCE_MAX][320];
	int nevidence;
	char why[320];              /* why not determined, or what it needs */
};

void finding_init(struct finding *f, const char *key, const char *title, int is_size);
/* The median of v[0..n) (sorts v; 0 when empty). */
double analyze_median(double *v, size_t n);
void finding_evidence(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void finding_not(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What the align rows say about read costs, used by later steps. */
struct read_levels {
	double noise;      /* typical difference of two equal reads (ns) */
	double step;       /* smallest diff that counts as a step (ns) */
	double page_diff;  /* diff at page-unit boundaries (ns) */
	uint64_t unit;     /* page (read unit) size, 0 if none found */
};

/* Page size from align rows at one or two block sizes (rows2 may be empty). */
void analyze_page(const struct align_row *rows, size_t n, uint64_t bs,
		  const struct align_row *rows2, size_t n2, uint64_t bs2,
		  struct finding *page, struct read_levels *lv);

/* A read unit larger than PAGE_MAX (no flash reads that much at once) or
 * than a quarter of the device is not plausible: not determined. */
#define PAGE_MAX (1ULL << 20)
void page_plausible(struct finding *page, uint64_t dev_size);

/* From align rows alone: the smallest alignment above the read unit from
 * which every diff is a clear step above the page level (the erase block,
 * or its power-of-two part); 0 when there is none. */
uint64_t align_upper_step(const struct align_row *rows, size_t n, const struct read_levels *lv);

/* The largest erase block considered (SDXC cards use up to 64 MiB). */
#define MAX_ERASE_BLOCK (64ULL << 20)

/* Boundary scan: at each power-of-two step A, the crossing cost d(j*A) for
 * j = 1..npoints (ns, page-crossing included). */
#define SCAN_POINTS 16
struct scan_level {
	uint64_t step;
	unsigned npoints;
	double d[SCAN_POINTS];
};
void analyze_erase(const struct scan_level *lv, size_t n, const struct read_levels *rl,
		   const struct align_row *rows, size_t nrows, uint64_t dev_size, struct finding *erase);

/* Time per write of each chunk size (largest first; powers of two and
 * 3x2^n sizes), written linearly in fresh erase blocks. */
struct chunk_time {
	uint64_t size;
	double ns;        /* median per write */
	double spread;    /* middle half of the writes: third to sixth of eight (ns) */
};
void analyze_min_write(const struct chunk_time *t, size_t n, struct finding *f);
/* The model of a write of s bytes when the minimum write is m: a fixed
 * cost plus the transfer of max(s, m) bytes, fit a + b*max(s, m) by
 * weighted least squares (weights w); returns chi^2. */
double hockey_fit(const struct chunk_time *t, const double *w, size_t n, uint64_t m, double *a, double *b);
/* ... and a card whose interface carries each write's own bytes before the
 * flash programs max(s, m): a + b*s + c*max(s, m), b >= 0 (the flat model,
 * b = 0, where the data give no bus slope or a negative one); chi^2.  A
 * write below the minimum then costs less than the minimum by what it does
 * not send, and the knee is where the flash's own time starts to grow. */
double hockey_fit_bus(const struct chunk_time *t, const double *w, size_t n, uint64_t m, double *a, double *b,
		      double *c);
/* The sigma of a size's median time (from its spread, never below a
 * floor of its time). */
double chunk_sigma(const struct chunk_time *t);
/* The same size timed twice, before and after a sweep of writes: did the
 * card change pace in between (beyond MINW_DRIFT and the writes' spread)? */
int write_drift(const struct chunk_time *before, const struct chunk_time *after);
/* A minimum write below the read unit that reads found (page, at medium or
 * better) is not what the flash does (a page is programmed whole): a cache
 * or buffer took the small writes.  At most medium, with the reason. */
void min_write_plausible(struct finding *min_write, const struct finding *page);

/* Open erase block trials: N blocks written in turn; the mean time per
 * write (after the first round) of the slowest of them. */
struct open_trial {
	unsigned n;
	double mean_ns;
	int collapsed;
	/* writes judged slow and judged in all, and in the erase block (or,
	 * behind a cache, the group) that decided; 0 when not counted */
	unsigned slow, writes, worst_slow, worst_writes;
};
/* Is a trial's mean write time a garbage-collection collapse?  ref is the
 * healthy time per write; collapse, when known (over 2.5x ref), the time per
 * write of a known collapse: then the geometric middle between the two
 * decides; otherwise 2.5x the healthy time. */
int write_collapsed(double mean, double ref, double collapse);
/* The time a write takes in a collapse with no other level known (above it:
 * write_collapsed) */
double write_collapse_level(double ref);
/* The same for the random-order trials past the first: one erase block too
 * many makes only one of them pay, so 1.5x the first counts too. */
int random_collapsed(double mean, double ref, double collapse);
void analyze_open(const struct open_trial *t, size_t n, unsigned limit, int random_order,
		  uint64_t chunk, double ref, struct finding *f);
/* A collapse that pauses could fake is not high: the share of slow writes
 * in the healthy trials (of t and of more, another search's trials) against
 * the slow writes of the trials that collapsed at the count too many. */
void open_pause_check(struct finding *f, const struct open_trial *t, size_t n, const struct open_trial *more,
		      size_t nmore);

/* Erase boundaries cost extra to read across because they are also read-
 * unit boundaries on another die or plane: when reads show no read-unit
 * steps at all, a boundary pattern has nothing to back it and may be noise
 * (a loop device, an SSD): low at most. */
void erase_needs_pages(const struct finding *page, struct finding *erase);

/* Cross-check the erase block size with writes: one erase block too many
 * makes every write copy about one erase block (garbage collection).
 * gc_ns is the extra time per write in that collapse, rate the card's write
 * speed (bytes/s); adds evidence to erase, and lowers its confidence when
 * the copy is not within 2x of one erase block (to low beyond 4x). */
void erase_write_check(struct finding *erase, double gc_ns, double rate);

/* FAT probe: in each of the first erase blocks, and just before it in an
 * ordinary erase block in the middle of the device (the reference, so that a
 * cache filling up or any drift hits both alike), the median time of three
 * kinds of write: linear chunks, chunks in random order, and small writes
 * (below the minimum write).  FAT areas come in two kinds: faster for linear
 * writes, or in random-access mode (small and random-order writes cost no
 * more than a linear one); either shows in one of the three. */
enum { FAT_LINEAR, FAT_RANDOM, FAT_SMALL, FAT_KINDS };
struct fat_probe {
	double ns[FAT_KINDS], ref[FAT_KINDS];
};
void analyze_fat(const struct fat_probe *p, size_t n, uint64_t erase, struct finding *f);
/* Which kinds of write are clearly faster in a probe than in its reference
 * (a bit mask of 1 << FAT_*); *most gets the largest ratio. */
unsigned fat_faster(const struct fat_probe *p, double *most);
/* A probe's write slower than this cannot count as faster than ref. */
double fat_not_faster(double ref);
/* The FAT area's rule, shared with --analyze of classic find-fat tables
 * (reanalyze.c; the numbers are in analyze.c's thresholds block).  High
 * confidence needs an area that ends sharply: weakest, the smallest ratio
 * between an area's erase block and an ordinary one, at least 2x, and
 * after, the ratio between the ordinary ones and the reference, under
 * 1.15x. */
int fat_ends_sharply(double weakest, double after);
/* In a classic table, an erase block is a FAT block when it writes this
 * many times faster or slower than the table's last one. */
double fat_table_apart(void);

/* Write cache: a card that acknowledges writes into a cache (RAM, or SLC
 * in front of slower flash) and does the work later.  t[0..n) are the times
 * of one burst of writes of `chunk` bytes from an idle card: the first
 * nsweep one to each of fresh erase blocks (garbage collection on most
 * cards), the rest linear in fresh erase blocks.  While the cache has room,
 * every write costs only its transfer; once it is full, writes wait for the
 * flash: late while queued garbage collections retire, then at the flash's
 * speed.  Without a cache, garbage collection is paid at once and linear
 * writes keep one speed.
 * SEEN: w->bytes is about what the cache held (the bytes of the burst before
 * writes went slow); NONE: garbage collection was paid at once and linear
 * writes were on time; UNDECIDED: linear writes kept one speed (no cache so
 * far: a longer burst may still fill one). */
enum cache_verdict { CACHE_UNDECIDED, CACHE_NONE, CACHE_SEEN };
struct write_cache {
	uint64_t bytes;          /* SEEN: about the bytes it held */
	uint64_t probed, chunk;  /* bytes of the burst, of each write */
	double fast, late, steady; /* time per write: on time, slowest late, at the end */
	int queued;              /* SEEN by late writes: work queued before them */
};
enum cache_verdict analyze_cache(const double *t, size_t n, size_t nsweep, uint64_t chunk, struct write_cache *w);
/* Did the later half of the sweep (one write to each of n fresh erase
 * blocks in turn) pay for garbage collection at once: its median more than
 * CACHE_GC_PAID linear writes?  (The sweep may stop as soon as it did.) */
int cache_sweep_paid(const double *sweep, size_t n, double linear);
/* Did one write of the sweep take that long (CACHE_GC_PAID linear writes)? */
int cache_write_paid(double t, double linear);
/* The finding "write cache or fast area" from the probe: its size (about:
 * where writes went slow), and whether it is a queue the flash works off
 * later or a fast area (fast_area: past it, writes went to the flash at
 * once).  Never high: where a burst goes slow depends on what came before. */
void analyze_cache_finding(const struct write_cache *w, enum cache_verdict v, int fast_area, double probe_ns,
			   struct finding *f);

/* Formatting advice derived from the findings. */
struct recommendations {
	int have;                  /* erase block known well enough */
	uint64_t start, align;     /* partition start and size multiple (bytes) */
	char sfdisk[512];
	char ext4[160], xfs[160], f2fs[200], vfat[200];
	char note[320];
};
void recommend(const struct finding *erase, const struct finding *page, const struct finding *minwrite,
	       const struct finding *open_linear, uint64_t dev_size, unsigned sector, struct recommendations *r);

#endif
