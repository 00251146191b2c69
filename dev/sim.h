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
	/* a link shared with other simulated cards (the bus keys, their own
	 * block of sim.c; dev/simlink.h models the sharing) */
	char bus[SIM_BUS_NAME];     /* bus=NAME: the link it is on ("": a link of its own) */
	uint64_t link;              /* link=RATE: what the link carries in all, bytes/s */
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

#endif
