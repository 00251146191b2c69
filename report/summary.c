/* summary.c — --auto --summary (see summary.h).  A finding prints as its
 * value, with "?" when it is less than highly sure, ">=" before a lower
 * bound, and "-" when not determined. */
#include "report/summary.h"

#include <math.h>
#include <string.h>

#include "lib/units.h"

static const char *finding(char *buf, size_t len, const struct finding *f)
{
	char v[32];

	if (!f->determined)
		return "-";
	if (f->is_size)
		format_size(v, sizeof(v), f->value);
	else
		snprintf(v, sizeof(v), "%llu", (unsigned long long)f->value);
	snprintf(buf, len, "%s%s%s", f->at_least ? ">=" : "", v, f->conf == CONF_HIGH ? "" : "?");
	return buf;
}

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
	for (char *p = buf; *p; p++)
		if (*p == '|')
			*p = '/'; /* would split the cell */
}

void summary_line(FILE *f, const struct identity *id, const struct auto_report *r)
{
	char name[160], size[32], erase[40], page[40], minw[40], lin[40], rnd[40], fat[40], rd[32], wr[32];
	const struct chunk_time *big = NULL;

	device_name(name, sizeof(name), id);
	format_size(size, sizeof(size), id->size);
	if (isnan(r->read_bps))
		snprintf(rd, sizeof(rd), "-");
	else
		format_rate(rd, sizeof(rd), r->read_bps);
	for (size_t i = 0; i < r->nchunks; i++)
		if (r->chunks[i].ns > 0 && (!big || r->chunks[i].size > big->size))
			big = &r->chunks[i];
	if (big)
		format_rate(wr, sizeof(wr), big->size * 1e9 / big->ns);
	else
		snprintf(wr, sizeof(wr), "-");
	finding(fat, sizeof(fat), &r->fat);
	if (r->fat.determined && r->erase.determined && !r->fat.at_least && r->fat.value) { /* as a size */
		format_size(fat, sizeof(fat), r->fat.value * r->erase.value);
		if (r->fat.conf != CONF_HIGH || r->erase.conf != CONF_HIGH)
			strcat(fat, "?");
	} else if (!r->fat.determined) {
		snprintf(fat, sizeof(fat), "-");
	}
	fprintf(f, "| %s | %s | %s | %s | %s | %s/%s | %s | %s | %s |\n", name, size,
		finding(erase, sizeof(erase), &r->erase), finding(page, sizeof(page), &r->page),
		finding(minw, sizeof(minw), &r->min_write), finding(lin, sizeof(lin), &r->open_linear),
		finding(rnd, sizeof(rnd), &r->open_random), fat, rd, wr);
}
