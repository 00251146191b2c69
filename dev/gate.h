/* gate.h — turns on a shared link, for a batch of cards run at once
 * (auto/batch.h).  Cards whose timings would spoil each other's (they
 * share a link too slow for them together: dev/topology.h) share one gate;
 * each card's device is wrapped in a layer that takes the gate's turn for
 * every timing phase (dev_phase: vm_run brackets each program with it), so
 * their timing phases run one after the other, while requests outside a
 * phase (the journal's copies, the put-back) go side by side whenever no
 * card of the gate is timing.  A card keeps its turn while it keeps timing:
 * one that begins its next phase within GATE_LINGER_MS of its last keeps
 * the turn, so a card's whole sequence of tests runs as it would alone
 * unless it pauses; turns are handed on in the order they were asked for.
 * A wait ends at a stop (the batch's Ctrl-C) within GATE_POLL_MS: a phase
 * then fails as a stopped request does, and requests outside a phase no
 * longer wait (the data going back matter more than any timing).
 *
 * Before every phase, once it has its turn, the layer calls the card's
 * check (the batch: is the device still the card it pinned at the start?);
 * a check that fails ends the phase before its first request.
 *
 * A simulated card's clock is its own: the layer keeps each card's place
 * on the batch's timeline (its device time, plus the time it waited for
 * turns, taken from the virtual clocks of the cards it waited for), so the
 * batch's device time is known for sims as a wall clock would give it for
 * real cards.  Safe to use from one thread per card. */
#ifndef FLASHBENCH_GATE_H
#define FLASHBENCH_GATE_H

#include <signal.h>
#include <stdint.h>

#include "lib/err.h"

#define GATE_LINGER_MS 100
#define GATE_POLL_MS 20

struct dev;
struct gate;

/* A gate for one group of cards (stop: the batch's stop flag).  0, or -1
 * with e filled. */
int gate_new(struct gate **out, const volatile sig_atomic_t *stop, struct fb_err *e);
void gate_free(struct gate *g);

struct gate_times;

/* Wrap *d in the layer: its phases take g's turn (g NULL: a card that runs
 * side by side, which only checks and keeps its timeline); check(ctx, e)
 * before each phase (NULL: none); the card's times go to *final when the
 * layer is closed or taken off (NULL: nowhere).  0, or -1 with e filled
 * (*d unchanged).  Closing the layer gives up its turn and closes the
 * device below. */
int gate_wrap(struct dev **d, struct gate *g, int (*check)(void *ctx, struct fb_err *e), void *ctx,
	      struct gate_times *final, struct fb_err *e);
/* Take the layer off (anywhere in d's stack of layers: the top is
 * returned, with the layer gone); any other device is returned as it is. */
struct dev *gate_unwrap(struct dev *d);

struct gate_times {
	double timeline_ns;  /* where the card is on the batch's timeline: virtual clocks only (else < 0) */
	double waited_ns;    /* wall time it waited for turns */
	unsigned phases;     /* timing phases it ran */
	unsigned turns;      /* turns it was given (phases run in a turn it kept are not counted again) */
	double device_ns;    /* its own device time (virtual clocks only, else < 0) */
};
/* The card's times, from the gate layer anywhere in d's stack (all zero
 * when there is none). */
void gate_times(const struct dev *d, struct gate_times *t);

/* Move a card's timeline to at least ns (the check's reads before it). */
void gate_start_at(struct dev *d, double ns);

#endif
