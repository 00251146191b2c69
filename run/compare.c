/* compare.c — --compare A.json B.json...: saved --json results side by
 * side; no device. */
#include "run/run.h"

#include "run/mode.h"

#include "saved/compare.h"

/* --compare A.json B.json ...: no device; -o, --json and --plot apply */
static int run_compare(struct run *r, struct fb_err *e)
{
	const struct cli *c = &r->c;
	struct outfile out = { .f = NULL }, plot = { .f = NULL };
	int rc = run_open_outputs(c, &out, &plot, e);

	if (!rc)
		rc = compare_files(c->files, c->nfiles, c->json ? COMPARE_JSON : COMPARE_TEXT, out.f ? out.f : stdout,
				   plot.f, e);
	return run_close_outputs(&out, &plot, rc, e);
}

/* What follows --compare: two or more files. */
static int positional(struct cli *c, int argc, char **argv, struct fb_err *e)
{
	c->files = (const char *const *)argv;
	c->nfiles = argc;
	return c->nfiles < 2 ? fb_fail(e, EXIT_USAGE, "--compare needs two or more files written with --json "
				       "(flashbench --compare A.json B.json)") : 0;
}

const struct mode mode_compare = {
	.name = "compare", .section = SEC_PARAM, .help_after = "summary",
	.usage = " [OPTION]... A.json B.json...", .brief = "saved --json results side by side",
	.help = "flashbench --compare A.json B.json...: saved --json\nresults side by side, differences "
		"marked (no device)",
	.takes = OPT_RESULTS, .flags = MODE_SAVED, .run = run_compare, .positional = positional,
};
