/* auto_report.h — the --auto report record: the findings, the
 * recommendations, the measurements behind them and what the run cost,
 * with the limits of its arrays.  The planner (characterize.c) fills it;
 * the offline readers (saved/) rebuild parts of it from saved results; the
 * reports (report/) print it.  Data only: nothing here drives a device. */
#ifndef FLASHBENCH_AUTO_REPORT_H
#define FLASHBENCH_AUTO_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "auto/analyze.h"

#define AUTO_MAX_ROWS 64
#define AUTO_MAX_LEVELS 40
#define AUTO_MAX_TRIALS 48
#define AUTO_MAX_FAT 32
#define AUTO_MAX_BURST 2048    /* writes of the cache burst kept for the chart */

/* The parts of --auto, each with what it cost. */
enum auto_phase { PHASE_READ, PHASE_CACHE, PHASE_AREA, PHASE_MIN_WRITE, PHASE_OPEN_LINEAR, PHASE_OPEN_RANDOM,
		  PHASE_FAT, AUTO_PHASES };
extern const char *const auto_phase_name[AUTO_PHASES];   /* JSON keys: "open_linear" */
extern const char *const auto_phase_title[AUTO_PHASES];  /* for people: "open erase blocks, linear" */
struct auto_report;
/* Where a stopped run stopped: a phase's name or title, or the capacity
 * check --auto --write makes before its write tests. */
const char *auto_stop_name(const struct auto_report *r);
const char *auto_stop_title(const struct auto_report *r);
struct phase_cost {
	uint64_t reads, writes, bytes_written;
	double device_ns;
};

/* What the medium is, as far as the run can tell. */
enum verdict {
	VERDICT_FLASH,          /* flash-like behaviour (or not known otherwise) */
	VERDICT_NO_FLASH_READS, /* not flash: a file, or reads show none anywhere (also where --write
				   wrote data first) */
	VERDICT_SSD_LIKE,       /* no erase-block, open-AU or FAT penalty measurable: stopped early */
};

/* Reads that never reach the flash: a card answers sectors that hold no
 * data from its mapping table. */
struct data_look {
	unsigned probes, unmapped;          /* reads spread over the device; answered without the flash */
	double fast_ns, slow_ns;            /* a read there, and where data are */
	uint64_t lo, hi;                    /* where the geometry was read (lo == hi: where it always is) */
	int written;                        /* --write wrote that area first */
};

struct auto_report {
	struct finding page, erase, min_write, open_linear, open_random, fat;
	struct finding cache_area;          /* write cache or fast (pSLC) area */
	struct recommendations rec;
	enum verdict verdict;
	char verdict_text[1024];
	int on_file;                        /* the target is a file, or a loop device over one */
	char file_how[520];                 /* "a loop device over /x/a.img", "a file" */
	struct data_look data;
	int alignment_matters;              /* some read boundary costs extra */
	int erase_assumed;                  /* write tests used a stand-in size */
	int erase_set_aside;                /* ... as the low-confidence size read found did not fit */
	unsigned open_limit;                /* open-AU search bound (device room: may be below 16) */
	uint64_t write_erase;               /* erase size the write tests used */
	/* the measurements, for JSON and plots */
	uint64_t bs, bs2;
	struct align_row rows[AUTO_MAX_ROWS], rows2[AUTO_MAX_ROWS];
	size_t nrows, nrows2;
	struct read_levels levels;
	struct scan_level scan[AUTO_MAX_LEVELS];
	size_t nscan;
	unsigned scan_tries;                /* 4, or 16 when a second look was needed */
	struct chunk_time chunks[32];
	size_t nchunks;
	uint64_t trial_chunk;
	double write_ref;                   /* healthy time per trial write */
	struct open_trial lin[AUTO_MAX_TRIALS], rnd[AUTO_MAX_TRIALS];
	size_t nlin, nrnd;
	struct fat_probe fat_probe[AUTO_MAX_FAT];
	size_t nfat;
	uint64_t fat_chunk, fat_small;      /* sizes the FAT probe wrote */
	uint64_t cache;                     /* bytes a write cache absorbed (0: none seen) */
	enum cache_verdict cache_verdict;   /* UNDECIDED: steady up to the largest sought */
	struct write_cache wcache;          /* what the cache probe saw */
	double burst_ns[AUTO_MAX_BURST];    /* its burst, write by write (every burst_every-th) */
	size_t nburst, burst_every;
	uint64_t warmup;                    /* bytes written before each write measurement */
	/* the burst slowed down for good with no cache or fast area (the
	 * cautious probe paid at once): 1 fast again after a rest
	 * (throttling), 2 still slow; after slow_after bytes, slow_x times
	 * slower, slow_rested per write after the rest */
	int slowed;
	uint64_t slow_after;
	double slow_x, slow_rested;
	/* --summary: bytes per second of 1 MiB reads in turn over 16 MiB from
	 * the middle of the device (a quarter of a smaller one); NAN when not
	 * measured (not asked for, or a device under 4 MiB) */
	double read_bps;
	/* what it cost */
	uint64_t reads, writes, bytes_written;
	uint64_t written_lo, written_hi;    /* lo == hi: nothing written */
	double device_ns;                   /* time the device spent */
	struct phase_cost cost[AUTO_PHASES];
	/* the quick capacity check before the write tests (its own journal,
	 * putting back and rest included): apart from device_ns, inside the
	 * bound (0: none made) */
	double check_ns;
	uint64_t check_bytes;               /* ... what it wrote: in bytes_written and the bound */
	unsigned check_left_out;            /* the halves of the bound too small for it (BUDGET_*: none made) */
	uint64_t budget_ns;                 /* --budget (0: none) */
	uint64_t bound_bytes;               /* announced: the most the run writes (0: read-only) */
	double bound_ns;                    /* announced: the most device time it takes */
	unsigned cut, skipped;              /* phases (1 << phase) the budget cut short, or left out */
	unsigned cut_by;                    /* the halves of the bound that did it (budget.h: BUDGET_*) */
	int fast_area;                      /* the cache is a fast area: writes past it go to the flash at once */
	int cache_unprobed;                 /* the bound cut the cache probe before it could tell */
	int fat_lagged;                     /* the FAT probe timed each kind by the writes after it (a cache) */
	double drift;                       /* the sweep's reference went this much slower (0: steady) */
	int bound_given;                    /* --budget set the bound (1 time, 2 bytes) */
	int interrupted;                    /* a signal stopped the run: findings not finished say so */
	enum auto_phase stopped_in;         /* ... in this phase */
	int stopped_in_check;               /* ... in the capacity check before the write tests */
};

#endif
