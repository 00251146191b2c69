/* compare.c — --compare A.json B.json...: saved --json results side by
 * side; no device. */
#include "run/run.h"

#include "saved/compare.h"

/* --compare A.json B.json ...: no device; -o, --json and --plot apply */
int run_compare(struct run *r, struct fb_err *e)
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
int run_compare_args(struct cli *c, int argc, char **argv, struct fb_err *e)
{
	c->files = (const char *const *)argv;
	c->nfiles = argc;
	return c->nfiles < 2 ? fb_fail(e, EXIT_USAGE, "--compare needs two or more files written with --json "
				       "(flashbench --compare A.json B.json)") : 0;
}
