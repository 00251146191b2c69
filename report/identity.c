/* identity.c — the device's identity record in the outputs: its JSON, and the text
 * reports' heading (see identity.h). */
#include "report/identity.h"

#include <string.h>

#include "dev/sdreg.h"
#include "lib/units.h"
#include "lib/wrap.h"

/* The card's word, decoded once for the heading and the JSON. */
struct card_word {
	int has_cid, has_csd, has_scr, has_ssr;
	struct sd_cid cid;
	struct sd_csd csd;
	struct sd_scr scr;
	struct sd_ssr ssr;
	const struct sd_mark *claims[SD_FAMILIES];
	char marks[64];
};

static void decode(const struct identity *id, struct card_word *w)
{
	size_t n = 0;

	memset(w, 0, sizeof(*w));
	w->has_cid = id->card.cid[0] && !sd_decode_cid(id->card.cid, &w->cid);
	w->has_csd = id->card.csd[0] && !sd_decode_csd(id->card.csd, &w->csd);
	w->has_scr = id->card.scr[0] && !sd_decode_scr(id->card.scr, &w->scr);
	w->has_ssr = id->card.ssr[0] && !sd_decode_ssr(id->card.ssr, &w->ssr);
	if (w->has_ssr)
		sd_ssr_claims(&w->ssr, w->claims);
	for (int f = 0; f < SD_FAMILIES; f++)
		if (w->claims[f])
			n += (size_t)snprintf(w->marks + n, sizeof(w->marks) - n, "%s%s", n ? " " : "",
					      w->claims[f]->name);
}

const char *identity_card_name(const struct identity *id, char *buf, size_t len)
{
	struct sd_cid c;

	if (!id->card.cid[0] || sd_decode_cid(id->card.cid, &c))
		return NULL;
	if (c.maker)
		snprintf(buf, len, "%.*s %s", (int)strcspn(c.maker, " ("), c.maker, c.name);
	else
		snprintf(buf, len, "MID 0x%02x %s", c.mid, c.name);
	return buf;
}

/* The AUs of the speed grades beside the basic one, where they differ
 * from it (--rating writes whole AUs of the grade it checks):
 * " (UHS 8MiB, video 8MiB)", " (video 8MiB)", "" */
static const char *other_aus(char *buf, size_t len, const struct sd_ssr *s)
{
	uint64_t uhs = s->uhs_au, video = (uint64_t)s->vsc_au_mib << 20;
	char u[32], v[32];

	uhs = uhs != s->au ? uhs : 0;
	video = video != s->au ? video : 0;
	if (uhs && video == uhs)
		snprintf(buf, len, " (UHS and video %s)", format_size(u, sizeof(u), uhs));
	else if (uhs || video)
		snprintf(buf, len, " (%s%s%s%s%s)", uhs ? "UHS " : "", uhs ? format_size(u, sizeof(u), uhs) : "",
			 uhs && video ? ", " : "", video ? "video " : "", video ? format_size(v, sizeof(v), video) : "");
	else
		buf[0] = '\0';
	return buf;
}

/* The text heading's lines of the card's word (none for a card that
 * shows nothing). */
static void card_text(FILE *f, const struct identity *id)
{
	struct card_word w;
	char a[32], b[32];

	decode(id, &w);
	if (w.has_cid)
		report_evidence(f, "card: %s (manufacturer ID 0x%02x), OEM \"%s\", product \"%s\" rev %u.%u, serial "
			"0x%08x, made %02u/%u", w.cid.maker ? w.cid.maker : "not in the table", w.cid.mid, w.cid.oem,
			w.cid.name, w.cid.hwrev, w.cid.fwrev, (unsigned)w.cid.serial, w.cid.month, w.cid.year);
	if (w.has_csd || w.has_scr)
		report_evidence(f, "card: %s%s%s%s", w.has_scr ? "SD spec " : "", w.has_scr ? w.scr.spec : "",
			w.has_scr && w.has_csd ? ", " : "",
			w.has_csd ? (snprintf(b, sizeof(b), "CSD %u.0, %s", w.csd.version,
					      format_size(a, sizeof(a), w.csd.capacity)), b) : "");
	if (w.has_ssr && !w.ssr.blank)
		report_evidence(f, "card: its SD Status claims %s, AU %s%s%s%s", w.marks[0] ? w.marks : "no mark",
			w.ssr.au ? format_size(a, sizeof(a), w.ssr.au) : "not stated", other_aus(b, sizeof(b), &w.ssr),
			w.ssr.cq_depth ? ", a command queue" : "", w.ssr.cache ? ", a cache" : "");
	else if (w.has_ssr)
		report_evidence(f, "card: its SD Status says nothing (all zero)");
}

static void card_json(struct json *j, const struct identity *id)
{
	struct card_word w;
	char rev[16], date[16];

	decode(id, &w);
	if (!w.has_cid && !w.has_csd && !w.has_scr && !w.has_ssr)
		return;
	json_object(j, "card");
	if (w.has_cid) {
		snprintf(rev, sizeof(rev), "%u.%u", w.cid.hwrev, w.cid.fwrev);
		snprintf(date, sizeof(date), "%u-%02u", w.cid.year, w.cid.month);
		json_string(j, "cid", id->card.cid);
		json_uint(j, "manufacturer_id", w.cid.mid);
		json_string(j, "manufacturer", w.cid.maker);
		json_string(j, "oem", w.cid.oem);
		json_string(j, "product", w.cid.name);
		json_string(j, "revision", rev);
		json_uint(j, "serial", w.cid.serial);
		json_string(j, "date", date);
	}
	if (w.has_csd) {
		json_string(j, "csd", id->card.csd);
		json_uint(j, "csd_version", w.csd.version);
		json_uint(j, "capacity", w.csd.capacity);
	}
	if (w.has_scr) {
		json_string(j, "scr", id->card.scr);
		json_string(j, "spec", w.scr.spec);
	}
	if (w.has_ssr) {
		json_string(j, "ssr", id->card.ssr);
		json_string(j, "claims", w.marks[0] ? w.marks : NULL);
		json_uint(j, "au", w.ssr.au);
		json_uint(j, "uhs_au", w.ssr.uhs_au);
		json_uint(j, "video_au", (uint64_t)w.ssr.vsc_au_mib << 20);
		json_uint(j, "command_queue", w.ssr.cq_depth);
		json_bool(j, "cache", w.ssr.cache);
	}
	if (id->card.preferred_erase)
		json_uint(j, "preferred_erase_size", id->card.preferred_erase);
	json_end(j);
}

void json_identity(struct json *j, const struct identity *id)
{
	json_tool(j);
	json_object(j, "device");
	json_string(j, "path", id->path);
	json_uint(j, "size", id->size);
	json_uint(j, "logical_sector", id->sector);
	json_uint(j, "physical_sector", id->physical);
	json_bool(j, "simulated", id->simulated);
	if (id->file[0])
		json_string(j, "file", id->file);
	for (int i = 0; i < id->info.n; i++)
		json_string(j, id->info.name[i], id->info.value[i]);
	if (id->model[0].key)
		json_record(j, "model", id->model);
	card_json(j, id);
	json_end(j);
}

void identity_text(FILE *f, const char *mode, const struct identity *id)
{
	char sz[32];

	format_size(sz, sizeof(sz), id->size);
	report_para(f, "flashbench --%s: %s, %s (%llu bytes), %u-byte sectors", mode, id->path, sz,
		    (unsigned long long)id->size, id->sector);
	for (int i = 0; i < id->info.n; i++)
		report_evidence(f, "%s: %s", id->info.name[i], id->info.value[i]);
	if (id->file[0])
		report_evidence(f, "%s: a file, not a flash device", id->file);
	card_text(f, id);
	fputc('\n', f);
}
