/* batch.h — many cards in one run.  Before any request the batch pins
 * each card (its name held to the file it named, lib/pin.h; its medium,
 * serial and USB path, dev/medium.h and dev/topology.h), refuses what it
 * must by name (the same card given twice; with writes, a card in use:
 * guard/safety.h's reasons) and lets the others go on, maps what the cards
 * share (dev/topology.h) and checks the map: it times a short read of each
 * card alone, then together with the cards it would run beside, and puts
 * cards that slow each other down beyond the noise in one group that takes
 * turns.  Then every card runs in a thread of its own (its own device,
 * claim, journal and outputs: the caller's run function, which calls
 * batch_attach on the device it opened), and the cards of a group that
 * takes turns run their timing phases one after the other (dev/gate.h).
 *
 * Each card is the card it was at the start for the whole run: before
 * every timing phase its name must still reach the same medium, with the
 * same serial and in the same port; a card that went away, or a name that
 * now reaches another disk, ends that card's run before its next request
 * (and says where the card is now, when it can be found by its serial).  A
 * failure ends only its card's run; a stop (the flag o->stop) ends every
 * card's at its next request, each card's run putting back its own data.
 * Memory and descriptors grow with the number of cards, not their size.
 * The batch never prints: the caller words what each card's state says. */
#ifndef FLASHBENCH_BATCH_H
#define FLASHBENCH_BATCH_H

#include <signal.h>
#include <stddef.h>

#include "dev/gate.h"
#include "dev/medium.h"
#include "dev/topology.h"
#include "lib/err.h"

struct dev;
struct gate;

enum batch_state {
	BATCH_READY,       /* planned, not run yet */
	BATCH_DONE,        /* its run ended well */
	BATCH_FAILED,      /* its run failed: err says why */
	BATCH_REFUSED,     /* never run: err says why (nothing of it was touched) */
	BATCH_STOPPED,     /* a stop ended its run */
};

#define BATCH_IDENTITY 200

struct batch_card {
	const char *path;            /* as given */
	size_t index;
	/* pinned at the start */
	int sim;                     /* a simulated card: nothing to pin */
	struct medium medium;
	struct topo topo;
	char identity[BATCH_IDENTITY]; /* "serial S0001, usb 1-1.1, Generic Flash Disk" */
	/* the plan */
	size_t group;                /* its group in the map (b->map.g[group]) */
	int turns;                   /* its timing phases take turns with its group's */
	/* the check (0 when it was not timed) */
	double alone_ns, together_ns; /* medians of its reads alone and with others */
	double check_ns;             /* its device time in the check (virtual clocks) */
	/* the outcome */
	enum batch_state state;
	struct fb_err err;
	struct gate_times times;     /* its turns and its place on the batch's timeline */
	void *result;                /* the run's own record */
};

struct batch_options {
	const volatile sig_atomic_t *stop;
	int writes;                  /* the runs write: a card in use is refused */
	int side_by_side;            /* the caller says no card shares a link: no turns, no check */
	int no_check;                /* trust the map: no timed check */
};

struct batch_check {
	int ran;                     /* the check was timed */
	size_t rounds;               /* rounds of cards read together */
	size_t joined;               /* cards it found sharing a link the map does not show */
	char why[160];               /* "" or why it did not run */
};

struct batch {
	struct batch_card *card;
	size_t n;
	struct topo_map map;
	struct gate **gate;          /* [map.ngroups]: NULL for a group that does not take turns */
	struct batch_options o;
	struct batch_check check;
	double wall_ns;              /* the runs' wall time */
	double device_ns;            /* the batch's device time: its latest card on the timeline (sims) */
	double sum_ns;               /* the cards' own device times added up (sims) */
};

/* Plan a batch of paths (kept; they must live as long as b): pin, check,
 * refuse, map and time the check.  0 (cards refused or failed say so in
 * their state), or -1 with e filled when nothing can run (memory). */
int batch_plan(struct batch *b, const char *const *paths, size_t n, const struct batch_options *o,
	       struct fb_err *e);

/* Run every card that is ready: run(ctx, card, e) in a thread per card, 0
 * or -1 with e filled; it opens the card's device, hands it to
 * batch_attach, runs and closes it.  Returns how many cards did not end
 * well (failed, refused, stopped). */
size_t batch_run(struct batch *b, int (*run)(void *ctx, struct batch_card *c, struct fb_err *e), void *ctx);

/* The card's device d, just opened (before any layer over it): wrapped in
 * its turns and identity checks.  0, or -1 with e filled. */
int batch_attach(struct batch *b, struct batch_card *c, struct dev **d, struct fb_err *e);

/* Is the card's name still the card it was at the start?  0, or -1 with
 * e saying what it is now (or where the card went). */
int batch_card_check(const struct batch_card *c, struct fb_err *e);

void batch_free(struct batch *b);

/* "done", "failed", ... */
const char *batch_state_name(enum batch_state s);

#endif
