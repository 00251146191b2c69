/* summary.c — --summary's row, the same columns in every mode (see
 * summary.h). */
#include "report/summary.h"

#include <math.h>
#include <string.h>

#include "lib/units.h"

enum { COL_DEVICE, COL_SIZE, COL_VERDICT, COL_ERASE, COL_PAGE, COL_MIN_WRITE, COL_OPEN, COL_FAT, COL_READ,
       COL_WRITE, COLUMNS };

const char summary_header[] =
	"| device | size | verdict | erase block | page | min write | open | FAT | read MB/s | write MB/s |\n"
	"|---|---|---|---|---|---|---|---|---|---|\n";

struct row {
	char cell[COLUMNS][96];
};

/* The card's maker and product (its CID), the name sysfs gives (SD/MMC:
 * name; else vendor and model), else the path. */
static void device_name(char *buf, size_t len, const struct identity *id)
{
	const char *name = NULL, *vendor = NULL, *model = NULL;

	for (int i = 0; i < id->info.n; i++) {
		if (!strcmp(id->info.name[i], "name"))
			name = id->info.value[i];
		else if (!strcmp(id->info.name[i], "vendor"))
			vendor = id->info.value[i];
		else if (!strcmp(id->info.name[i], "model"))
			model = id->info.value[i];
	}
	if (identity_card_name(id, buf, len)) /* the card's own word: maker and product */
		;
	else if (name)
		snprintf(buf, len, "%s", name);
	else if (vendor || model)
		snprintf(buf, len, "%s%s%s", vendor ? vendor : "", vendor && model ? " " : "", model ? model : "");
	else
		snprintf(buf, len, "%s", id->path);
}

/* A row with the device's name and size, every other cell "-". */
static void row_start(struct row *w, const struct identity *id)
{
	for (int i = 0; i < COLUMNS; i++)
		snprintf(w->cell[i], sizeof(w->cell[i]), "-");
	device_name(w->cell[COL_DEVICE], sizeof(w->cell[COL_DEVICE]), id);
	format_size(w->cell[COL_SIZE], sizeof(w->cell[COL_SIZE]), id->size);
}

static void row_print(FILE *f, struct row *w)
{
	for (int i = 0; i < COLUMNS; i++) {
		for (char *p = w->cell[i]; *p; p++)
			if (*p == '|')
				*p = '/'; /* would split the cell */
		fprintf(f, "| %s ", w->cell[i]);
	}
	fputs("|\n", f);
}

/* A speed in MB/s (10^6 bytes per second), three figures. */
static void mbps(char *buf, size_t len, double bps)
{
	double v = bps / 1e6;

	if (!(v > 0))
		return;
	snprintf(buf, len, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
}

static void finding(char *buf, size_t len, const struct finding *f)
{
	char v[32];

	if (!f->determined)
		return;
	if (f->is_size)
		format_size(v, sizeof(v), f->value);
	else
		snprintf(v, sizeof(v), "%llu", (unsigned long long)f->value);
	snprintf(buf, len, "%s%s%s", f->at_least ? ">=" : "", v, f->conf == CONF_HIGH ? "" : "?");
}

void summary_auto(FILE *f, const struct identity *id, const struct auto_report *r)
{
	static const char *const verdict[] = { [VERDICT_FLASH] = "flash", [VERDICT_NO_FLASH_READS] = "no flash",
					       [VERDICT_SSD_LIKE] = "SSD-like" };
	const struct chunk_time *big = NULL;
	char lin[40] = "-", rnd[40] = "-";
	struct row w;

	row_start(&w, id);
	snprintf(w.cell[COL_VERDICT], sizeof(w.cell[0]), "%s", verdict[r->verdict]);
	finding(w.cell[COL_ERASE], sizeof(w.cell[0]), &r->erase);
	finding(w.cell[COL_PAGE], sizeof(w.cell[0]), &r->page);
	finding(w.cell[COL_MIN_WRITE], sizeof(w.cell[0]), &r->min_write);
	finding(lin, sizeof(lin), &r->open_linear);
	finding(rnd, sizeof(rnd), &r->open_random);
	if (r->open_linear.determined || r->open_random.determined)
		snprintf(w.cell[COL_OPEN], sizeof(w.cell[0]), "%s/%s", lin, rnd);
	finding(w.cell[COL_FAT], sizeof(w.cell[0]), &r->fat);
	if (!isnan(r->read_bps))
		mbps(w.cell[COL_READ], sizeof(w.cell[0]), r->read_bps);
	for (size_t i = 0; i < r->nchunks; i++)
		if (r->chunks[i].ns > 0 && (!big || r->chunks[i].size > big->size))
			big = &r->chunks[i];
	if (big)
		mbps(w.cell[COL_WRITE], sizeof(w.cell[0]), big->size * 1e9 / big->ns);
	row_print(f, &w);
}

void summary_capacity(FILE *f, const struct identity *id, const struct capacity_report *r)
{
	const char *sure = r->verdict.conf == CONF_HIGH ? "" : "?";
	char usable[32];
	struct row w;

	row_start(&w, id);
	/* the usable size: never rounded up (2047MiB is "1.99GiB") */
	format_size_floor(usable, sizeof(usable), r->usable.value);
	if (r->kind == CAP_GENUINE)
		snprintf(w.cell[COL_VERDICT], sizeof(w.cell[0]), "genuine%s", sure);
	else
		snprintf(w.cell[COL_VERDICT], sizeof(w.cell[0]), "fake: %s %s%s%s", cap_kind_name[r->kind],
			 r->usable.at_most ? "<=" : "", usable, sure);
	row_print(f, &w);
}

void summary_rating(FILE *f, const struct identity *id, const struct rating_report *r)
{
	char *v;
	size_t at = 0, len;
	unsigned seen = 0; /* the families whose highest mark met is given */
	struct row w;

	row_start(&w, id);
	v = w.cell[COL_VERDICT];
	len = sizeof(w.cell[0]);
	v[0] = '\0';
	/* the marks met, the highest of each family; the claimed ones that
	 * fail or cannot be tested here */
	for (unsigned i = 0; i < r->nmarks && at < len; i++) {
		const struct rating_mark *m = &r->marks[i];
		const char *mark = m->verdict == RATING_FAILS ? "!" : m->verdict == RATING_UNTESTABLE ? "~" : "";
		int highest = 1;
		if (m->verdict == RATING_MEETS) {
			for (unsigned k = 0; k < r->nmarks; k++)
				if (r->marks[k].verdict == RATING_MEETS && r->marks[k].mark->family == m->mark->family &&
				    r->marks[k].mark->level > m->mark->level)
					highest = 0;
			if (!highest || (seen & 1u << m->mark->family))
				continue;
			seen |= 1u << m->mark->family;
		} else if (!m->by) {
			continue; /* not claimed: where the search for the highest stopped */
		}
		at += (size_t)snprintf(v + at, len - at, "%s%s%s%s", at ? " " : "", mark, m->mark->name,
				       m->conf == CONF_HIGH ? "" : "?");
	}
	if (!at)
		snprintf(v, len, "no mark");
	mbps(w.cell[COL_READ], sizeof(w.cell[0]), r->pr);
	mbps(w.cell[COL_WRITE], sizeof(w.cell[0]), r->pw4);
	row_print(f, &w);
}
