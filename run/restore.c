/* restore.c — --restore JOURNAL DEVICE: put back what a killed run saved,
 * under a claim of its own (the journal it reads is the one a write run
 * must find absent); with several devices, each card of a batch from its
 * journal in a directory. */
#include "run/run.h"

#include "run/mode.h"

#include <stdio.h>
#include <unistd.h>

#include "dev.h"
#include "guard/claim.h"
#include "guard/place.h"
#include "guard/restore.h"
#include "lib/units.h"

/* Put back what the journal at journal saved of device. */
static int restore_one(const struct cli *c, const char *journal, const char *device, struct fb_err *e)
{
	struct claim *claim = NULL;
	struct dev *d = NULL;
	struct restore_report r;
	char sz[32];
	int rc;

	if (place_check_target(device, e) || claim_take_for(device, SAFETY_RESTORE, 0, 0, &claim, e) ||
	    dev_open(&d, device, DEV_READWRITE, e) || claim_recheck(claim, e)) {
		dev_close(d);
		claim_release(claim);
		return -1;
	}
	rc = restore_journal(journal, d, device, c->device_changed ? RESTORE_DEVICE_CHANGED : 0, &r, e);
	dev_close(d);
	claim_release(claim);
	if (r.warning[0])
		fprintf(stderr, "flashbench: warning: %s\n", r.warning);
	if (rc)
		return -1;
	format_size(sz, sizeof(sz), r.bytes);
	printf("restored %llu bytes (%s) in %u range%s from %s to %s, read back and verified; journal removed\n",
	       (unsigned long long)r.bytes, sz, r.ranges, r.ranges == 1 ? "" : "s", journal, device);
	if (r.torn)
		printf("the journal's last record was incomplete: the run was stopped while saving it, "
		       "before that range was overwritten, so it needed no restoring\n");
	return 0;
}

/* --restore=DIR DEVICE...: a batch's journals (where --preserve=DIR, or
 * the current directory, put them), each card's found by the medium its
 * header names, whatever the card's name now; a card with none there had
 * nothing left to put back.  Each card apart: one that fails says so and
 * the others go on. */
static int restore_batch(const struct cli *c, struct fb_err *e)
{
	char journal[4096];
	int failed = 0, restored = 0;
	struct fb_err first = { 0 };

	for (int i = 0; i < c->ndevices; i++) {
		struct fb_err one = { 0 };
		int found = place_journal_for(c->journal, c->devices[i], journal, sizeof(journal), &one);
		if (!found) {
			printf("%s: no journal of it in %s: nothing to put back\n", c->devices[i], c->journal);
			continue;
		}
		if (found < 0 || restore_one(c, journal, c->devices[i], &one)) {
			fprintf(stderr, "flashbench: %s: %s\n", c->devices[i], one.msg);
			if (!failed++)
				first = one;
		} else {
			restored++;
		}
	}
	if (failed)
		return fb_fail(e, first.status ? first.status : EXIT_DEVICE, "%d of %d cards could not be put back "
			       "(their journals are kept); %d restored", failed, c->ndevices, restored);
	return 0;
}

/* --restore JOURNAL DEVICE, or --restore=DIR DEVICE... */
static int run_restore(struct run *run, struct fb_err *e)
{
	const struct cli *c = &run->c;

	run_restoring = 1;
	if (c->devices)
		return restore_batch(c, e);
	return restore_one(c, c->journal, c->device, e);
}

/* --restore=FILE: the journal's name. */
static int check_args(const struct cli *c, struct fb_err *e)
{
	if (!c->journal || !*c->journal)
		return fb_fail(e, EXIT_USAGE, "--restore needs the journal's file name (flashbench --restore=FILE DEVICE)");
	return 0;
}

const struct mode mode_restore = {
	.name = "restore", .meta = "FILE", .field = offsetof(struct cli, journal), .section = SEC_KEEP,
	.help_after = "preserve", .usage = "=FILE [--device-changed] DEVICE...",
	.brief = "put back what a killed --preserve run saved",
	.help = "put back what a killed run saved: flashbench\n--restore=FILE DEVICE; a batch's: --restore=DIR\nDEVICE..., each card from its own journal in DIR",
	.takes = OPT_DEVICE_CHANGED, .flags = MODE_DEVICE | MODE_DEVICES | MODE_WRITES | MODE_OWN_START,
	.run = run_restore, .check_args = check_args,
};
