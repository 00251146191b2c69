/* restore.c — --restore JOURNAL DEVICE: put back what a killed run saved,
 * under a claim of its own (the journal it reads is the one a write run
 * must find absent). */
#include "run/run.h"

#include "run/mode.h"

#include <stdio.h>

#include "dev.h"
#include "guard/claim.h"
#include "guard/place.h"
#include "guard/restore.h"
#include "lib/units.h"

/* --restore JOURNAL DEVICE */
static int run_restore(struct run *run, struct fb_err *e)
{
	const struct cli *c = &run->c;
	struct claim *claim = NULL;
	struct dev *d = NULL;
	struct restore_report r;
	char sz[32];
	int rc;

	run_restoring = 1;
	if (place_check_target(c->device, e) || claim_take_for(c->device, SAFETY_RESTORE, 0, 0, &claim, e) ||
	    dev_open(&d, c->device, DEV_READWRITE, e) || claim_recheck(claim, e)) {
		dev_close(d);
		claim_release(claim);
		return -1;
	}
	rc = restore_journal(c->journal, d, c->device, c->device_changed ? RESTORE_DEVICE_CHANGED : 0, &r, e);
	dev_close(d);
	claim_release(claim);
	if (r.warning[0])
		fprintf(stderr, "flashbench: warning: %s\n", r.warning);
	if (rc)
		return -1;
	format_size(sz, sizeof(sz), r.bytes);
	printf("restored %llu bytes (%s) in %u range%s from %s to %s, read back and verified; journal removed\n",
	       (unsigned long long)r.bytes, sz, r.ranges, r.ranges == 1 ? "" : "s", c->journal, c->device);
	if (r.torn)
		printf("the journal's last record was incomplete: the run was stopped while saving it, "
		       "before that range was overwritten, so it needed no restoring\n");
	return 0;
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
	.help_after = "preserve", .usage = "=FILE [--device-changed] DEVICE",
	.brief = "put back what a killed --preserve run saved",
	.help = "put back what a killed run saved: flashbench\n--restore=FILE DEVICE",
	.takes = OPT_DEVICE_CHANGED, .flags = MODE_DEVICE | MODE_WRITES | MODE_OWN_START,
	.run = run_restore, .check_args = check_args,
};
