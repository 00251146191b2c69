/* tests/ratingrun.c — a test program that drives --rating's parts until
 * the mode has its row in the CLI (issue 27's mode table): runs the check
 * on a device and prints its report.  For the tests only: it makes none
 * of the CLI's refusals (mounted, held devices), so it runs on simulated
 * cards and on the tests' own files and loop devices.
 *
 *   ratingrun [--claim=C10,U3] [-e SIZE] [--sustained=SIZE] [--cache=SIZE]
 *             [--json|--summary] [--plot=FILE] [--journal=FILE] DEVICE
 *
 * --journal keeps the --preserve journal there: every range written is
 * saved first and put back at the end (a real device's data).
 *
 *   ratingrun --truth sim:SPEC
 *
 * prints what the simulated card truly keeps (sim_truth, from its keys
 * alone), one line per mark: "MARK keeps|breaks FIGURE VALUE host|-". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "auto/rating.h"
#include "dev.h"
#include "dev/devinfo.h"
#include "dev/sim.h"
#include "guard/layer.h"
#include "guard/place.h"
#include "guard/restore.h"
#include "guard/save.h"
#include "lib/units.h"
#include "report/identity.h"
#include "report/report_rating.h"

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int announce(void *ctx, const struct rating_report *r, struct fb_err *e)
{
	char a[32], b[32];

	(void)ctx;
	(void)e;
	fprintf(stderr,
		"ratingrun: writes at most %s (of it %s the recording), each range saved first "
		"when journaled\n",
		format_size(a, sizeof(a), r->max_bytes), format_size(b, sizeof(b), r->sus_bytes));
	return 0;
}

static int truth(const char *spec)
{
	struct sim_params p;
	struct sim_truth t;
	struct fb_err e;

	if (strncmp(spec, "sim:", 4) || sim_parse(spec + 4, &p, &e)) {
		fprintf(stderr, "ratingrun: --truth takes sim:SPEC\n");
		return 2;
	}
	sim_truth(&p, &t);
	for (unsigned i = 0; i < SD_MARKS; i++)
		printf("%s %s %s %g %s\n", sd_marks[i].name, t.mark[i].keeps ? "keeps" : "breaks",
		       t.mark[i].figure ? sd_figure_name[t.mark[i].figure] : "-", t.mark[i].value,
		       t.mark[i].host ? "host" : "-");
	return 0;
}

static int usage(const char *why)
{
	fprintf(stderr,
		"ratingrun: %s\nusage: ratingrun [--claim=MARKS] [-e SIZE] [--sustained=SIZE] "
		"[--cache=SIZE] [--json|--summary] [--plot=FILE] [--journal=FILE] DEVICE\n",
		why);
	return 2;
}

int main(int argc, char **argv)
{
	struct rating_options o = { .before_writes = announce };
	struct rating_report *r = calloc(1, sizeof(*r));
	const char *device = NULL, *plot = NULL, *journal = NULL, *why;
	int json = 0, summary = 0, rc;
	struct dev *d = NULL;
	struct fb_err e = { 0, "" };
	struct identity id;
	double t0 = wall();

	if (!r)
		return 1;
	if (argc == 3 && !strcmp(argv[1], "--truth")) {
		free(r);
		return truth(argv[2]);
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strncmp(a, "--claim=", 8)) {
			if (rating_parse_claims(a + 8, o.claim, &e))
				return usage(e.msg);
		} else if (!strcmp(a, "-e") && i + 1 < argc) {
			if (parse_size(argv[++i], &o.au, &why))
				return usage(why);
		} else if (!strncmp(a, "--sustained=", 12)) {
			if (parse_size(a + 12, &o.sustained, &why))
				return usage(why);
		} else if (!strncmp(a, "--cache=", 8)) {
			if (parse_size(a + 8, &o.cache_hint, &why))
				return usage(why);
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "--summary")) {
			summary = 1;
		} else if (!strncmp(a, "--plot=", 7)) {
			plot = a + 7;
		} else if (!strncmp(a, "--journal=", 10)) {
			journal = a + 10;
		} else if (a[0] == '-' || device) {
			return usage("unknown argument");
		} else {
			device = a;
		}
	}
	if (!device)
		return usage("no device");
	if (dev_open(&d, device, DEV_READWRITE, &e)) {
		fprintf(stderr, "ratingrun: %s\n", e.msg);
		return 1;
	}
	if (journal) {
		struct journal *j;
		if (save_create(&j, journal, d, device, PLACE_VOLATILE_OK, &e) ||
		    layer_wrap(&d, j, &e)) {
			fprintf(stderr, "ratingrun: %s\n", e.msg);
			dev_close(d);
			return 1;
		}
	}
	rc = rating_check(d, &o, r, &e);
	if (journal && !rc) {
		struct restore_report put;
		r->saved = save_total(layer_journal(d));
		if (layer_finish(d, &put, &e) < 0)
			rc = -1;
		r->put_back = put.bytes;
	}
	if (rc) {
		fprintf(stderr, "ratingrun: %s\n", e.msg);
		dev_close(d);
		rating_free(r);
		free(r);
		return e.status ? e.status : 1;
	}
	rating_account(r, d);
	memset(&id, 0, sizeof(id));
	id.path = device;
	id.size = dev_size(d);
	id.sector = dev_sector(d);
	id.physical = dev_physical_sector(d);
	id.simulated = (dev_caps(d) & DEV_CAP_VIRTUAL_CLOCK) != 0;
	dev_describe(d, id.model);
	if (!id.simulated)
		devinfo_read(device, &id.info);
	if (summary)
		report_rating_summary(stdout, &id, r);
	else if (json)
		report_rating_json(stdout, &id, r, wall() - t0);
	else
		report_rating_text(stdout, &id, r, wall() - t0);
	if (plot) {
		FILE *f = fopen(plot, "w");
		if (!f || plot_rating(f, device, r) || fclose(f)) {
			fprintf(stderr, "ratingrun: %s: %s\n", plot,
				f ? "nothing to draw" : strerror(errno));
			rc = 1;
		}
	}
	dev_close(d);
	rating_free(r);
	free(r);
	return rc ? 1 : 0;
}
