/* analyze.c — --analyze FILE: saved results (classic tables as posted, or
 * our JSON) read and judged as --auto judges; no device. */
#include "run/run.h"

#include "run/mode.h"

#include <errno.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "lib/json_read.h"
#include "lib/wrap.h"
#include "report/plot.h"
#include "report/report_analyze.h"
#include "saved/saved_json.h"

/* What follows --analyze: one file, or none for standard input. */
static int positional(struct cli *c, int argc, char **argv, struct fb_err *e)
{
	if (argc > (c->analyze ? 0 : 1))
		return fb_fail(e, EXIT_USAGE, "--analyze reads one file ('%s' is one too many)", argv[argc - 1]);
	if (!c->analyze)
		c->analyze = argc ? argv[0] : "-";
	return 0;
}

/* A FIFO in a file system (not the pipe of <(command)): opening it waits
 * for a writer that may never come. */
static int named_fifo(const char *path)
{
	struct stat st;
	struct statfs fs;

	return !stat(path, &st) && S_ISFIFO(st.st_mode) && !statfs(path, &fs) &&
	       (unsigned long)fs.f_type != PIPEFS_MAGIC;
}

/* --analyze FILE: saved results, no device */
static int run_analyze(struct run *r, struct fb_err *e)
{
	const struct cli *c = &r->c;
	int stdin_ = !strcmp(c->analyze, "-");
	const char *name = stdin_ ? "-" : c->analyze;
	FILE *in = stdin_ || named_fifo(c->analyze) ? stdin : fopen(c->analyze, "r");
	struct saved_text *t = malloc(sizeof(*t));
	struct saved_report *s = malloc(sizeof(*s));
	struct saved_findings *found = malloc(sizeof(*found));
	struct outfile out = { .f = NULL }, plot = { .f = NULL };
	char *text = NULL;
	size_t len;
	int rc = -1;

	if (!stdin_ && in == stdin)
		fb_fail(e, EXIT_USAGE, "--analyze=%s is a named FIFO, which may never get a writer: give a file, or "
			"read it as standard input (flashbench --analyze - < %s)", c->analyze, c->analyze);
	else if (!in)
		fb_fail(e, EXIT_USAGE, "cannot read %s: %s (--analyze takes a saved results file, or - for "
			"standard input)", c->analyze, strerror(errno));
	else if (!t || !s || !found)
		fb_fail(e, EXIT_DEVICE, "out of memory");
	else if (stdin_ && isatty(0) && note("--analyze: reading standard input (Ctrl-D ends it; "
					     "flashbench --analyze FILE reads a file)") < 0)
		fb_fail(e, EXIT_DEVICE, "cannot write to standard error: %s", strerror(errno));
	else if (!read_stream(in, stdin_ ? "standard input" : c->analyze, &text, &len, e) &&
		 !saved_read(text, len, stdin_ ? "standard input" : c->analyze, t, found, e)) {
		if (!found->have && !t->nalign && !t->nopen && !t->nfat && !t->nother)
			fb_fail(e, EXIT_USAGE, "%s: no flashbench -a, -O or --find-fat table found (%u lines read); give "
				"the saved output of flashbench -a, -O or --find-fat, or a --json result",
				stdin_ ? "standard input" : c->analyze, t->lines);
		else
			rc = 0;
	}
	if (!rc && !(rc = run_open_outputs(c, &out, &plot, e))) {
		if (found->have)
			reanalyze_findings(found, s);
		else
			reanalyze(t, s);
		if (c->json)
			report_analyze_json(out.f ? out.f : stdout, name, t, s);
		else
			report_analyze_text(out.f ? out.f : stdout, name, t, s);
		/* a chart with nothing to show loses only itself: the text
		 * asked for is written first */
		if (plot.f && (found->have ? plot_auto(plot.f, "--analyze", stdin_ ? "standard input" : name, &s->r)
					   : plot_saved(plot.f, stdin_ ? "standard input" : name, t, &s->r)) &&
		    !(rc = run_commit_out(&out, e)))
			rc = fb_fail(e, EXIT_USAGE, "%s: the results have nothing to draw (no align, open-au or find-fat "
				     "rows); the report was written", c->plot);
	}
	if (in && in != stdin)
		fclose(in);
	free(text);
	free(t);
	free(s);
	free(found);
	return run_close_outputs(&out, &plot, rc, e);
}

const struct mode mode_analyze = {
	.name = "analyze", .meta = "FILE", .field = offsetof(struct cli, analyze), .section = SEC_SAVED,
	.usage = " [OPTION]... [FILE]", .brief = "judge saved -a, -O, -f tables or --json results",
	.help = "read -a, -O and -f tables (as posted to a list or a\nbug tracker: quoted, wrapped, any "
		"units) or our\n--json results from FILE or standard input and\nsay what they show, as "
		"--auto does; --json and\n--plot work too",
	.takes = OPT_RESULTS, .flags = MODE_SAVED | MODE_ARG_OPTIONAL,
	.run = run_analyze, .positional = positional,
};
