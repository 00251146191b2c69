/* rating.h — --rating: is the card as fast as its marks say?  The marks
 * (sdreg.h: C2-C10, U1/U3, V6-V90, A1/A2) are what the card's SD Status
 * claims, or the label (--claim), or, with neither, each family's marks
 * from the lowest up to the first the card does not keep.
 *
 * Measured the way the SD Physical Layer Simplified Specification 9.10
 * defines them (doc/rating.md gives the sections):
 *  - Pw: whole AUs (the card's, -e, or groups of 16 MiB when neither says)
 *    at places spread over the card, each discarded first where the device
 *    discards (a free AU, as the spec measures), written from its start in
 *    RUs of 512 KiB with no idle time; the speed of each 4 MiB sub-unit
 *    (the AU when smaller) and of each video SU, and every write's busy
 *    time (U marks: 250 ms at most); the first write of each recording may
 *    take up to 1 s more (preparation);
 *  - Pr: 256 reads of single RUs at random places, at least the mark;
 *  - FAT: 8 FAT update cycles (16 KiB, 16 KiB, 512 B near the start) in a
 *    recording: 100 ms on average, 750 ms each at most;
 *  - A1/A2: random 4 KiB reads and writes in a 256 MiB region, one at a
 *    time and 32 in flight (A2: with the host's queue and the card's),
 *    each run bounded in time;
 *  - sustained: a long recording (1 GiB, longer past a cache --auto
 *    found; bounded, announced apart) in RUs, its speed over time, so that
 *    a card fast only until its cache or pSLC fills is caught (and A1/A2's
 *    sustained 10 MB/s over 1 GiB in 4 MiB writes).
 * Every range goes through the device the caller gives: its preserve
 * layer saves each one first and puts it back.  Nothing here prints. */
#ifndef FLASHBENCH_RATING_H
#define FLASHBENCH_RATING_H

#include <signal.h>
#include <stdint.h>

#include "auto/analyze.h"
#include "dev.h"
#include "dev/sdreg.h"
#include "lib/err.h"
#include "lib/progress.h"

#define RATING_MAX_AUS 64               /* AUs of the Pw test at most */
#define RATING_MAX_UNITS 16             /* 4 MiB sub-units of one AU (64 MiB AUs) */
#define RATING_PR_READS 256             /* the spec's Pr: 256 random RUs */
#define RATING_FAT_CYCLES 8             /* TFW(ave) is a sliding average of 8 */
#define RATING_IOPS_SPAN (256ull << 20) /* the spec's RPTU */
#define RATING_QUEUE_DEPTH 32u          /* requests in flight for the queued IOPS */
#define RATING_MIN_SIZE (64ull << 20)   /* smaller devices are not rated */

enum rating_verdict { RATING_MEETS, RATING_FAILS, RATING_UNTESTABLE };
extern const char *const rating_verdict_name[3]; /* "meets", "fails", "untestable" */

/* Where a claim comes from. */
#define RATING_BY_SSR 1u   /* the card's SD Status */
#define RATING_BY_LABEL 2u /* --claim (the label) */

struct rating_report;

/* What the caller asks. */
struct rating_options {
	const volatile sig_atomic_t *stop;
	const struct sd_mark
		*claim[SD_FAMILIES]; /* --claim: the label's highest of each family (NULL: none) */
	uint64_t au; /* -e: the AU to test in (0: the card's word, else 16 MiB groups) */
	uint64_t
		sustained; /* the long recording's length (0: RATING_SUSTAINED, or past cache_hint) */
	uint64_t cache_hint; /* a write cache or pSLC --auto found, bytes (0: none known) */
	uint64_t seed;       /* the places drawn (0: from the device size, the same each run) */
	/* called once before the first write with what may be written; non-zero cancels */
	int (*before_writes)(void *ctx, const struct rating_report *r, struct fb_err *e);
	void *ctx;
	/* where the check is: requests so far, its part (of five), the share
	 * of its estimated device time spent (late: past it) */
	void (*progress)(void *ctx, const struct progress_now *now);
	void *progress_ctx;
};

#define RATING_SUSTAINED (1ull << 30)
/* Each part is bounded in device time: its bytes at this speed (a card
 * slower than C2's 2 MB/s is cut short; what it did counts), plus a
 * second of preparation; the announcement's estimate is at RATING_TYPICAL. */
#define RATING_SLOWEST 2e6
#define RATING_TYPICAL 20e6
#define RATING_IOPS_TIME 2e9 /* ns of device time per IOPS run at most */

/* One AU of the Pw test. */
struct rating_au {
	uint64_t off;
	double unit[RATING_MAX_UNITS]; /* bytes/s of each 4 MiB sub-unit (the AU when smaller) */
	unsigned nunits;
	double su_low;  /* bytes/s of its slowest video SU (0: the AU is not a whole SU) */
	double busy;    /* ns: its longest write (the first's preparation set aside) */
	double prepare; /* ns: what its first write took beyond the others (at most 1 s forgiven) */
	double speed;   /* bytes/s over the whole AU */
};

/* One verdict. */
struct rating_mark {
	const struct sd_mark *mark;
	unsigned by; /* RATING_BY_*; 0: not claimed (checked up to the first it misses) */
	enum rating_verdict verdict;
	enum sd_figure figure; /* fails: the figure it breaks (the worst by its margin) */
	double value, limit;   /* that figure and its limit (bytes/s, ns or IOPS) */
	uint64_t where;        /* fails: the offset on the card it was seen at */
	enum confidence conf;
	char evidence[EVIDENCE_MAX][320];
	int nevidence;
};

struct rating_report {
	uint64_t size;
	unsigned sector;
	/* the card's own word and its host */
	struct dev_card card;
	int has_ssr; /* the host shows an SD Status that says something */
	struct sd_ssr ssr;
	const struct sd_mark *claimed[SD_FAMILIES]; /* the SD Status's claims (NULL: none) */
	const struct sd_mark *label[SD_FAMILIES];   /* --claim's */
	/* the plan */
	uint64_t au; /* the group written whole */
	const char *
		au_from; /* "the SD Status", "-e", "the kernel's preferred_erase_size", "assumed: ..." */
	uint64_t su; /* the video sub-unit */
	uint64_t ru;
	int discarded; /* the AUs were discarded first (free, as the spec measures) */
	unsigned naus;
	struct rating_au aus[RATING_MAX_AUS];
	uint64_t iops_off,
		iops_span; /* the region of the IOPS runs (256 MiB, less on a smaller device) */
	unsigned iops_reads, iops_writes; /* requests planned per run */
	uint64_t sus_off, sus_len;        /* the long recording */
	uint64_t fat_off;                 /* where the FAT update cycles write */
	uint64_t max_bytes;               /* the most written (each range saved first) */
	uint64_t sus_bytes;               /* of them, the long recording's */
	double bound_ns, sus_bound_ns; /* the most device time it takes; of it the recording's */
	double estimate_ns, sus_estimate_ns; /* at RATING_TYPICAL (putting back not counted) */
	unsigned cut_short;          /* the parts stopped at their bound: bit i of phase_ns[i] */
	/* what was measured */
	double pr;     /* bytes/s of 256 random RU reads */
	double pr_low; /* bytes/s of the slowest single RU read */
	double fat_avg,
		fat_max; /* ns: the FAT update cycles' worst sliding average of 8, and longest */
	double riops1, wiops1, riops_q,
		wiops_q;                 /* 4 KiB IOPS, one at a time and RATING_QUEUE_DEPTH deep */
	unsigned riops_n[2], wiops_n[2]; /* requests they counted */
	int iops_bounded;                /* an IOPS run stopped at its time bound */
	int queued_writes_refused;       /* the journal could not see queued writes: not measured */
	unsigned queued_skipped;     /* bit 0 reads, 1 writes: too slow one at a time, not queued (at most depth x) */
	double *sus_speed;               /* bytes/s of each 4 MiB of the long recording, in order */
	unsigned nsus;
	double sus_busy;             /* ns: its longest write */
	double sus_low4, sus_low_su; /* its slowest 4 MiB and video SU */
	uint64_t sus_low_at;         /* where the slowest 4 MiB began (bytes into the recording) */
	double sus_first_avg;        /* bytes/s over its first quarter, */
	double sus_last_avg;         /* and its last */
	double pssw;                 /* bytes/s: its slowest 1 GiB (or all of it when shorter) */
	double pw4, pw_su;           /* bytes/s: the lowest sub-unit, SU over the Pw test's AUs */
	uint64_t pw4_at, pw_su_at;   /* where */
	double busy;                 /* ns: the longest write of the Pw test */
	uint64_t busy_at;
	double read_speed; /* bytes/s: what reads reached (the link carries at least this) */
	/* the verdicts */
	struct rating_mark marks[SD_MARKS];
	unsigned nmarks;
	/* what it cost */
	uint64_t reads, writes, bytes_written;
	double device_ns, sus_ns; /* the device's time; of it, the long recording's */
	double phase_ns
		[5]; /* of it: Pr, Pw, FAT, IOPS, the recording (putting back not included) */
	double clock0;
	int virtual_clock;
	uint64_t saved, put_back; /* set by the caller (the journal) */
	int interrupted;          /* a signal stopped it before its verdicts (set by the caller): no marks,
	                             what it measured so far, the data put back after */
};

/* Plan, announce (before_writes), measure and judge.  r->sus_speed is
 * allocated: rating_free. */
int rating_check(struct dev *d, const struct rating_options *o, struct rating_report *r,
		 struct fb_err *e);
void rating_free(struct rating_report *r);

/* The device time from the start of the check until now (after the data
 * were put back): r->device_ns. */
void rating_account(struct rating_report *r, const struct dev *d);

/* The verdicts (rating_verdict.c) from what was measured: r->marks. */
void rating_judge(struct rating_report *r);

/* Parse a --claim list ("C10,U3,V30,A2"): the highest of each family into
 * out; 0, or -1 with e naming the word that is no mark. */
int rating_parse_claims(const char *text, const struct sd_mark *out[SD_FAMILIES], struct fb_err *e);

#endif
