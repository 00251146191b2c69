/* calibration.c — the promise of each confidence level and the levels each
 * finding may be shown at (calibration.h).  Every row is backed by the
 * figures bench/confidence prints (doc/confidence.md has the table of the
 * last run): change a row when those figures change. */
#include "auto/calibration.h"

#include <stdio.h>
#include <string.h>

static const unsigned promise[] = { [CONF_NONE] = 1000, [CONF_LOW] = 500, [CONF_MEDIUM] = 50, [CONF_HIGH] = 0 };

/* mode, finding, highest and lowest level its measured error rates meet */
static const struct cal_row {
	enum cal_mode mode;
	const char *key;
	enum confidence top, bottom;
} rows[] = {
	{ CAL_AUTO, "page", CONF_HIGH, CONF_LOW },
	{ CAL_AUTO, "erase_block", CONF_HIGH, CONF_LOW },
	{ CAL_AUTO, "min_write", CONF_HIGH, CONF_LOW },
	{ CAL_AUTO, "open_linear", CONF_HIGH, CONF_LOW },
	{ CAL_AUTO, "open_random", CONF_HIGH, CONF_LOW },
	{ CAL_AUTO, "fat_area", CONF_HIGH, CONF_LOW },
	/* -a alone never says high about the page or the erase block (a read
	 * unit or erase block three times the size shows the same steps):
	 * high is not measured there, and not shown */
	{ CAL_ANALYZE, "page", CONF_MEDIUM, CONF_LOW },
	{ CAL_ANALYZE, "erase_block", CONF_MEDIUM, CONF_LOW },
	/* no input of the calibration sets gets high from --analyze (two
	 * sweeps at other erase sizes that count alike; a find-fat area that
	 * ends sharply over half the rows): a level never measured has no rate
	 * to meet, and is not shown until it is */
	{ CAL_ANALYZE, "open_linear", CONF_MEDIUM, CONF_LOW },
	{ CAL_ANALYZE, "open_random", CONF_MEDIUM, CONF_LOW },
	{ CAL_ANALYZE, "fat_area", CONF_MEDIUM, CONF_LOW },
};

static const char *const mode_name[CAL_MODES] = { "--auto", "--analyze" };

unsigned cal_promise_permille(enum confidence c)
{
	return promise[c];
}

int cal_levels(enum cal_mode mode, const char *key, enum confidence *top, enum confidence *bottom)
{
	for (size_t i = 0; key && i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].mode == mode && !strcmp(rows[i].key, key)) {
			*top = rows[i].top;
			*bottom = rows[i].bottom;
			return 1;
		}
	return 0;
}

void calibrate(struct finding *f, enum cal_mode mode)
{
	enum confidence top, bottom;

	if (!f->determined || !cal_levels(mode, f->key, &top, &bottom))
		return;
	if (f->conf > top) {
		finding_evidence(f, "%s at most: what %s's calibration bears out for this finding (doc/confidence.md)",
				 confidence_name(top), mode_name[mode]);
		f->conf = top;
	}
	if (f->conf < bottom)
		finding_not(f, "found at %s confidence, a level %s does not show for this finding: measured, it is wrong "
			    "more often than %u in 1000 (doc/confidence.md)", confidence_name(f->conf), mode_name[mode],
			    promise[f->conf]);
}

void calibrate_report(struct auto_report *r, enum cal_mode mode)
{
	struct finding *all[] = { &r->page, &r->erase, &r->min_write, &r->open_linear, &r->open_random, &r->fat };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		calibrate(all[i], mode);
}
