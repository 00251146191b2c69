/* mode.c — what is read from a run's mode row (mode.h). */
#include "run/mode.h"

#include "run/run.h"

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
