/* simlink.h — links that simulated cards share (the sim keys bus= and
 * link=): the one USB 2.0 link behind a hub, or a reader's, in one process.
 * A link is known by its name, made when the first card on it opens and
 * gone when the last closes.  The model is a fluid one: while k cards use
 * a link at once, each has k-th of its rate, so a request of n bytes takes
 * at least k * n / rate (the card's own time when that is longer: a link
 * only shows when it is the slower part).  A card uses its link while it
 * is inside a timing phase (dev_phase) and during each of its requests; a
 * card that waits for its turn does not, so cards that take turns are
 * timed as if alone, and cards timed together slow each other down as they
 * would behind a real hub.  Safe to use from several threads. */
#ifndef FLASHBENCH_SIMLINK_H
#define FLASHBENCH_SIMLINK_H

#include <stdint.h>

#include "lib/err.h"

struct simlink;

/* The link of that name (made with rate bytes/s when new).  0, or -1 with
 * e filled: another card gave the name another rate, or memory ran out. */
int simlink_attach(const char *name, uint64_t rate, struct simlink **out, struct fb_err *e);
void simlink_detach(struct simlink *l);

/* A card starts (+1) or stops (-1) using the link. */
void simlink_use(struct simlink *l, int delta);

/* How many cards use it now. */
unsigned simlink_users(struct simlink *l);

/* The time of a request of bytes that the card alone takes own_ns for,
 * with the users the link has now (the caller among them). */
uint64_t simlink_cost(struct simlink *l, uint64_t bytes, uint64_t own_ns);

#endif
