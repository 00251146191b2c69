/* modes.c — the table of modes, and what is read from it (modes.h). */
#include "modes.h"

#include <string.h>

#include "options.h"
#include "run/run.h"

const struct mode modes[] = {
	{ .name = "auto", .usage = " [OPTION]... DEVICE", .applies = FOR_AUTO, .run = run_auto,
	  .flags = MODE_DEVICE | MODE_WRITES_ASKED | MODE_JOURNAL_LATER | MODE_WHOLE_DEVICE },
	{ .name = "capacity", .usage = " [OPTION]... DEVICE", .applies = FOR_CAPACITY,
	  .run = run_capacity, .check_device = run_capacity_check_device,
	  .flags = MODE_DEVICE | MODE_WRITES | MODE_JOURNALED | MODE_JOURNAL_LATER |
		   MODE_WHOLE_DEVICE },
	{ .name = "rating", .usage = " [OPTION]... DEVICE", .applies = FOR_RATING, .run = run_rating,
	  .check_args = run_rating_check_args, .check_device = run_rating_check_device,
	  .flags = MODE_DEVICE | MODE_WRITES | MODE_JOURNAL_LATER | MODE_WHOLE_DEVICE },
	{ .name = "test", .usage = " [OPTION]... DEVICE", .run = run_test, .check = run_test_check,
	  .check_device = run_test_check_device, .build = run_test_build,
	  .flags = MODE_DEVICE | MODE_KIND },
	{ .name = "program", .usage = "=FILE [OPTION]... DEVICE", .applies = FOR_PROGRAM,
	  .run = run_test, .check_input = run_program_check, .build = run_program_build,
	  .flags = MODE_DEVICE | MODE_WRITES_PROGRAM },
	{ .name = "restore", .usage = "=FILE [--device-changed] DEVICE", .applies = FOR_RESTORE,
	  .run = run_restore, .check_args = run_restore_check_args,
	  .flags = MODE_DEVICE | MODE_WRITES | MODE_OWN_START },
	{ .name = "analyze", .usage = " [OPTION]... [FILE]", .applies = FOR_ANALYZE,
	  .run = run_analyze, .positional = run_analyze_args, .flags = MODE_SAVED },
	{ .name = "compare", .usage = " [OPTION]... A.json B.json...", .applies = FOR_COMPARE,
	  .run = run_compare, .positional = run_compare_args, .flags = MODE_SAVED },
	{ .name = NULL },
};

const struct mode *mode_named(const char *name)
{
	for (const struct mode *m = modes; m->name; m++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

static unsigned flags(const struct cli *c)
{
	return c->mode ? c->mode->flags : 0;
}

int mode_writes(const struct cli *c)
{
	unsigned f = flags(c);

	return (f & MODE_WRITES) || ((f & MODE_KIND) && c->kind->writes) ||
	       ((f & MODE_WRITES_ASKED) && c->write) ||
	       ((f & MODE_WRITES_PROGRAM) && c->program_writes);
}

int mode_journaled(const struct cli *c)
{
	return c->preserve || (flags(c) & MODE_JOURNALED);
}

int mode_journal_kept(const struct cli *c)
{
	return mode_journaled(c) || ((flags(c) & MODE_JOURNAL_LATER) && mode_writes(c));
}

int mode_later_room(const struct cli *c)
{
	return (flags(c) & MODE_JOURNAL_LATER) != 0;
}

int mode_whole_device(const struct cli *c)
{
	return (flags(c) & MODE_WHOLE_DEVICE) != 0;
}
