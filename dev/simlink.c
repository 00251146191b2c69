/* simlink.c — the links simulated cards share (simlink.h): a list of them
 * by name, under one lock. */
#include "dev/simlink.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/sim.h"
#include "lib/units.h"

struct simlink {
	char name[SIM_BUS_NAME];
	uint64_t rate;          /* bytes/s in all */
	unsigned cards;         /* attached */
	unsigned users;         /* using it now */
	struct simlink *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct simlink *links;

int simlink_attach(const char *name, uint64_t rate, struct simlink **out, struct fb_err *e)
{
	struct simlink *l;
	char a[32], b[32];
	int rc = 0;

	pthread_mutex_lock(&lock);
	for (l = links; l && strcmp(l->name, name); l = l->next)
		;
	if (l && l->rate != rate) {
		format_size(a, sizeof(a), rate);
		format_size(b, sizeof(b), l->rate);
		rc = fb_fail(e, EXIT_USAGE, "sim: bus=%s: link=%s/s here, but %s/s on another card on that bus (give "
			     "every card on one bus the same link)", name, a, b);
	} else if (!l && !(l = calloc(1, sizeof(*l)))) {
		rc = fb_fail(e, EXIT_DEVICE, "out of memory");
	} else if (!l->cards) {
		snprintf(l->name, sizeof(l->name), "%s", name);
		l->rate = rate;
		l->next = links;
		links = l;
	}
	if (!rc) {
		l->cards++;
		*out = l;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

void simlink_detach(struct simlink *l)
{
	struct simlink **p;

	if (!l)
		return;
	pthread_mutex_lock(&lock);
	if (--l->cards == 0) {
		for (p = &links; *p && *p != l; p = &(*p)->next)
			;
		if (*p)
			*p = l->next;
		free(l);
	}
	pthread_mutex_unlock(&lock);
}

void simlink_use(struct simlink *l, int delta)
{
	pthread_mutex_lock(&lock);
	if (delta > 0 || l->users >= (unsigned)-delta)
		l->users += (unsigned)delta;
	pthread_mutex_unlock(&lock);
}

unsigned simlink_users(struct simlink *l)
{
	unsigned n;

	pthread_mutex_lock(&lock);
	n = l->users;
	pthread_mutex_unlock(&lock);
	return n;
}

uint64_t simlink_cost(struct simlink *l, uint64_t bytes, uint64_t own_ns)
{
	unsigned k = simlink_users(l);
	double ns = (double)(k ? k : 1) * (double)bytes * 1e9 / (double)l->rate;

	return ns > (double)own_ns ? (uint64_t)ns : own_ns;
}
