/* sim.h — a simulated flash medium: the geometry and timing model behind the
 * "sim:" devices.  Pure model, no I/O: each request returns how many
 * nanoseconds the modelled card would take, on a virtual clock.
 *
 * What is modelled (doc/simulator.md gives the keys and defaults):
 *  - reads cost a base time, a time per read unit (page x planes) touched,
 *    transfer time per byte, and a penalty per erase-block boundary crossed;
 *  - writes go to "open" erase blocks (allocation units, AUs).  The card keeps
 *    at most `open` AUs open (least recently used is closed first).  Closing an
 *    AU that was not completely written costs a copy (garbage collection) of its
 *    unwritten rest.  Writing backwards inside an open AU needs a random-order
 *    slot (at most `random` AUs at once); without one the AU is closed and
 *    reopened, which costs a copy of what lies before the write;
 *  - writes shorter than `minwrite` take as long as `minwrite`;
 *  - the first `fat` AUs are FAT-optimised: faster, no minimum write size, any
 *    order, and they do not use open-AU slots;
 *  - discard closes AUs at no copy cost;
 *  - optional multiplicative noise from a seeded generator (deterministic).
 *
 * Misbehaviour of real cards, each off by default (which real behaviour each
 * stands for: doc/simulator.md, "Keys for cards that misbehave"): boundaries
 * that do not all cost the same (chips, spread, free), a FAT area in random-access mode
 * (fatmode), garbage-collection pauses (pause, pausetime), a write cache
 * (cache), a read buffer holding the last read unit (rbuf), reads that
 * cost more or less in the FAT area (fatread) and heavy-tailed jitter (tail).
 * Their random draws come from a second generator, so switching one on does
 * not move the noise of the others.
 *
 * Fake cards (all off by default; doc/simulator.md, "Keys for fake cards"):
 * the card claims `size` but has only `real` bytes of flash, and what lies past them
 * wraps around onto the start (fake=wrap: byte x is byte x mod real), is
 * lost (drop: reads give zeros), is kept only among the latest `keep` bytes
 * written and then lost (cache; keepby says which writes count: all, those
 * past the end, or distinct sectors past the end), or is lost except a
 * working region of `goodend` bytes at the end (end); or the whole card is
 * real but a share `bad` of it lies in scattered bad regions that lose
 * their writes (bad).
 * Timing stays that of the address asked for.  To tell fakes, the sim
 * remembers what was written where (simstore.h): sparsely, bounded.
 *
 * Cards people buy today, each off by default too: reads of sectors that
 * hold no data answered from the mapping table (unmapped, with data laid out
 * in extents: data), a pseudo-SLC region that takes the first writes fast
 * and empties only while the card is idle (slc, slcrate, slcidle), and
 * throttling after sustained writes until the card rests (throttle,
 * throttlex, throttlerest).  Idle time passes only when the host rests
 * (sim_idle).
 *
 * Buses (off by default): cards given the same bus=NAME share one link of
 * link=RATE bytes/s, as sticks behind one USB 2.0 hub or the slots of one
 * reader do; a batch of sims then reproduces a hub (dev/simlink.h).
 * mapbus=NAME makes the topology map show another link than the one the
 * card is on: sharing that no map shows, for the batch's check. */
#ifndef FLASHBENCH_SIM_H
#define FLASHBENCH_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "dev/sdreg.h"
#include "lib/err.h"

#define SIM_BUS_NAME 32

struct sim_params {
	uint64_t size;      /* bytes */
	uint64_t sector;    /* logical sector size */
	uint64_t erase;     /* erase block (AU) size; any multiple of page */
	uint64_t page;      /* flash page */
	unsigned planes;    /* pages read together: read unit = page * planes */
	unsigned open;      /* AUs open for linear writing */
	unsigned random;    /* of those, how many accept random order */
	unsigned fat;       /* leading FAT-optimised AUs */
	uint64_t minwrite;  /* minimum efficient write */
	/* timing (ns, bytes per second) */
	uint64_t t_read;    /* per read request */
	uint64_t t_unit;    /* per read unit touched */
	uint64_t t_cross;   /* per erase-block boundary crossed by a read */
	uint64_t t_write;   /* per write request */
	uint64_t t_random;  /* extra per write in random order */
	uint64_t read_rate, write_rate, copy_rate;
	uint64_t t_wall;    /* real time each request also takes (0: none): a run a person or a
	                       terminal test can watch, its device time still the virtual clock's */
	uint64_t bus_rate;  /* wbus: the bytes of a write cross the host interface at this rate, and
	                       the flash programs max(len, minwrite) in the rest of 1/wrate (0: all of
	                       1/wrate is the flash's: a write below minwrite costs as much as minwrite) */
	double noise;       /* relative spread, 0 = exact */
	uint64_t seed;
	/* misbehaviour (0 = off) */
	unsigned chips;     /* interleaved chips: boundary k costs (1 + k % chips) x tcross */
	double spread;      /* each boundary's cost x a factor in [1-spread, 1+spread] */
	double free_share;  /* share of boundaries that cost nothing extra */
	unsigned fat_random;/* FAT area in random-access mode (else: faster linear writes) */
	double pause;       /* probability of a garbage-collection pause per write */
	uint64_t t_pause;   /* its mean duration (spread 1/3 to 5/3 of it) */
	uint64_t cache;     /* write cache (bytes); the flash empties it at its own speed */
	unsigned rbuf;      /* a read inside the last read unit costs no unit time */
	double fat_read;    /* reads in the FAT area cost this factor (0 = 1) */
	double tail;        /* probability of a heavy-tailed (Pareto) slow request */
	/* fake cards (0 = a genuine card) */
	unsigned fake;      /* SIM_FAKE_* */
	uint64_t real;      /* bytes of flash it really has */
	uint64_t keep;      /* fake=cache: the latest bytes written are kept this long */
	unsigned keep_by;   /* fake=cache: which writes count toward keep, SIM_KEEP_BY_* (0: not given) */
	uint64_t goodend;   /* fake=end: the working region at the end */
	double bad;         /* fake=bad: share of the card in bad regions */
	/* cards of today (0 = off) */
	unsigned unmapped;  /* reads of sectors without data never reach the flash */
	double data;        /* share of the device that held data before the run */
	uint64_t slc;       /* pseudo-SLC region: bytes taken fast after a rest */
	uint64_t slc_rate;  /* its write speed (0: 4 x write_rate) */
	uint64_t slc_idle;  /* how fast it empties while idle, bytes/s (0: write_rate) */
	uint64_t throttle;  /* bytes of writes without a rest after which writes slow down */
	double throttle_x;  /* by this factor (0: 3) */
	uint64_t t_throttle_rest; /* until the card rests this long (0: 2 s) */
	/* ratings (--rating; sim_rating.c, doc/simulator.md; 0 = off):
	 * the SD Status the card reports, how it keeps its marks, its host */
	char ssr[129];      /* ssr=HEX: the SD Status as given (128 hex digits; "": none) */
	uint32_t ssr_marks; /* ssr=C10+U3+V30+A2: bit i claims sd_marks[i] (encoded when made) */
	uint64_t t_stall;   /* stall=TIME: busy time of the write completing an AU (its GC) */
	unsigned stall_every; /* stallevery=N: only every Nth AU completed stalls (0: each) */
	uint64_t au_fast;   /* aufast=SIZE: the first bytes of each AU go at wrate, the rest at */
	uint64_t au_slow;   /* auslow=RATE */
	unsigned riops;     /* riops=N: a read up to 64 KiB: 1/N s in place of tread + tunit */
	unsigned wiops;     /* wiops=N: a write up to 64 KiB: a page-mapped area, 1/N s */
	unsigned cq;        /* cq=N: requests the card works on at once (its command queue; 0: 1) */
	unsigned host_qd;   /* hostqd=N: requests its host keeps in flight (0: 32; 1: USB) */
	uint64_t link;      /* link=RATE: bytes per second its host's link carries (0: no limit);
	                     * with bus=NAME the link is shared (dev/simlink.h) */
	/* a link shared with other simulated cards (the bus keys, their own
	 * block of sim.c) */
	char bus[SIM_BUS_NAME];     /* bus=NAME: the link it is on ("": a link of its own) */
	char mapbus[SIM_BUS_NAME];  /* mapbus=NAME: the link the topology map shows ("": bus) */
};

enum { SIM_FAKE_NONE, SIM_FAKE_WRAP, SIM_FAKE_DROP, SIM_FAKE_CACHE, SIM_FAKE_END, SIM_FAKE_BAD, SIM_FAKES };
/* "wrap", "drop", ... (NULL past the last) */
const char *sim_fake_name(unsigned fake);
/* fake=cache's keepby: every write counts (a write-back buffer; also when
 * not given), only writes past the real end (a pool of flash they take in
 * turn), or the latest distinct sectors written past the end */
enum { SIM_KEEP_BY_UNSET, SIM_KEEP_BY_WRITES, SIM_KEEP_BY_PAST, SIM_KEEP_BY_ADDRESS, SIM_KEEP_BYS };

struct sim;

/* Parse "KEY=VALUE,..." or "PRESET[,KEY=VALUE...]" (without the "sim:"
 * prefix) into params.  Returns 0 or -1 with e filled. */
int sim_parse(const char *spec, struct sim_params *p, struct fb_err *e);

/* Fill params with the built-in defaults (an SD card with 4 MiB AUs). */
void sim_defaults(struct sim_params *p);

/* The i-th preset's name (NULL past the last) and a one-line description. */
const char *sim_preset_name(unsigned i);
const char *sim_preset_description(const char *name);

int sim_create(struct sim **out, const struct sim_params *p, struct fb_err *e);
void sim_destroy(struct sim *s);
const struct sim_params *sim_params_of(const struct sim *s);

/* Cost of one request in ns (the caller checked bounds). */
uint64_t sim_read(struct sim *s, uint64_t off, uint64_t len);
uint64_t sim_write(struct sim *s, uint64_t off, uint64_t len);
uint64_t sim_discard(struct sim *s, uint64_t off, uint64_t len);

/* Bytes the model copied for garbage collection so far (for tests). */
uint64_t sim_gc_bytes(const struct sim *s);

/* Time the next requests without random draws (noise, tail, pause): data
 * requests (signatures, copies) are timed so, so that a capacity check
 * before the measurements leaves their random draws as they were. */
void sim_exact(struct sim *s, int on);

/* The host does nothing for ns: the card's background work goes on (a pSLC
 * region empties, a throttled card cools down). */
void sim_idle(struct sim *s, uint64_t ns);
/* The same, and the card tidies up: its write cache drains, then it closes
 * its open erase blocks (copying what they lack) as far as the time allows
 * (the rest after --auto --write's quick capacity check). */
void sim_rest(struct sim *s, uint64_t ns);

/* The virtual clock: device time spent so far (ns). */
double sim_clock(const struct sim *s);

/* What the card holds.  Write len bytes at off: buf's, or the pattern byte
 * when buf is NULL; 0, or -ENOSPC when the sim could not remember more
 * (pattern writes are then no longer tracked and data requests fail). */
int sim_data_write(struct sim *s, uint64_t off, uint64_t len, const void *buf, int pattern);
/* Read len bytes at off into buf: 0, or -ENOSPC (see above). */
int sim_data_read(struct sim *s, uint64_t off, uint64_t len, void *buf);
/* Has any data request been made (and how many sectors hold something else
 * than the card came with)? */
int sim_data_used(const struct sim *s);
uint64_t sim_data_changed(const struct sim *s);
/* The bad regions of fake=bad as [start, end) byte ranges (the truth the
 * zoo scores against): up to max into out; returns how many there are. */
uint64_t sim_bad_regions(const struct sim *s, uint64_t (*out)[2], uint64_t max);
/* The same as text: "START-END START-END ..." in bytes ("" for other cards). */
const char *sim_bad_text(const struct sim *s);

/* ---------------------------------------------------------------- ratings
 * (sim_rating.c) The rating keys: set_key hands each key to
 * sim_rating_key first (1: not one of them), validate to
 * sim_rating_validate. */
int sim_rating_key(struct sim_params *p, const char *key, const char *val, struct fb_err *e);
int sim_rating_validate(const struct sim_params *p, struct fb_err *e);
#define SIM_RATING_KEYS "ssr stall stallevery aufast auslow riops wiops cq hostqd link"
/* A time key's value ("400ms", "300us", "2s"; a plain number is ns): 0,
 * or -1 when it is none or past an hour. */
int sim_parse_time(const char *v, uint64_t *out);

/* The rating zoo's presets (sim:rating-u3, ...): a preset's spec (NULL: no
 * such name), and the i-th name and description (NULL past the last). */
const char *sim_rating_preset(const char *name);
const char *sim_rating_preset_name(unsigned i);
const char *sim_rating_preset_description(unsigned i);

/* The SD Status the card reports: 128 hex digits, or "" (none, as behind
 * a USB reader). */
void sim_ssr(const struct sim_params *p, char buf[129]);

/* Requests the card and its host work on at once when depth are in
 * flight: min(depth, hostqd, cq), at least 1. */
unsigned sim_concurrency(const struct sim_params *p, unsigned depth);

/* n requests with up to depth in flight (a host queue, the card's command
 * queue): each costs what it costs alone (lat[i], may be NULL), and they
 * overlap sim_concurrency at a time; returns the time from the first to
 * the last (the virtual clock moves on by that). */
struct sim_req { uint64_t off, len; int write; };
uint64_t sim_queue(struct sim *s, const struct sim_req *r, size_t n, unsigned depth, uint64_t *lat);

/* The hooks of the rating keys in the model (sim.c calls them): a read's
 * fixed cost (tread, or for a small read with riops 1/riops s less the
 * tunit the model adds: its units and crossings still cost), a small write
 * at a fixed rate (wiops: 1 with *ns set; 0 when the model times it), the
 * time of an AU write's slow part (aufast/auslow), the link's floor. */
double sim_rating_read_base(const struct sim_params *p, uint64_t len);
int sim_rating_write(const struct sim_params *p, uint64_t len, double *ns);
double sim_rating_au_slow(const struct sim_params *p, uint64_t pos, uint64_t len);
double sim_rating_link(const struct sim_params *p, uint64_t len, double ns);

/* What a simulated card truly keeps, from its keys alone (the zoo's
 * truth): each mark's figures as the spec measures them, computed from
 * the model's formulas with no request made. */
struct sim_truth_mark {
	int keeps;          /* the card keeps the mark */
	int figure;         /* enum sd_figure: what it breaks first (SD_FIG_NONE: keeps it) */
	double value, limit;/* that figure and the mark's limit (bytes/s, ns or IOPS) */
	const char *host;   /* the simulated host cannot show the mark: why (NULL: it can) */
};
struct sim_truth {
	double pw4, pw_su;  /* bytes/s: the lowest 4 MiB sub-unit, the lowest 8 MiB video SU */
	double first4, first_su;    /* the same before a pSLC fills or throttling starts */
	double busy;        /* ns: the longest RU write */
	double pr;          /* bytes/s: random RU reads */
	double riops1, wiops1, riops_q, wiops_q; /* 4 KiB IOPS at depth 1 and queued (depth 32) */
	double pssw;        /* bytes/s: 4 MiB writes over 1 GiB past any cache */
	struct sim_truth_mark mark[SD_MARKS];
};
void sim_truth(const struct sim_params *p, struct sim_truth *t);

#endif
