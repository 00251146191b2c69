/* batch_map.c — the map of a batch (batch_map.h). */
#include "report/batch_map.h"

#include <string.h>

#include "auto/batch.h"
#include "lib/json.h"

#define WRAP 76

void report_wrapped(FILE *f, unsigned first, unsigned indent, const char *text)
{
	unsigned at = first;
	const char *p = text;

	fprintf(f, "%*s", (int)first, "");
	while (*p) {
		size_t n = strcspn(p, " ");
		if (at > indent && at + 1 + n > WRAP && at != first) {
			fprintf(f, "\n%*s", (int)indent, "");
			at = indent;
		} else if (p != text) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", (int)n, p);
		at += (unsigned)n;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

/* "/dev/sdb: serial S0001, usb 1-1.1, Generic Flash Disk", and why the
 * map does not know it */
static void card_line(FILE *f, unsigned indent, const struct batch_card *c)
{
	char line[800];

	snprintf(line, sizeof(line), "%s: %s%s%s", c->path, c->identity, c->topo.known ? "" : "; not mapped: ",
		 c->topo.known ? "" : c->topo.why);
	report_wrapped(f, indent, indent + 4, line);
}

void batch_map_text(FILE *f, const struct batch *b)
{
	size_t refused = 0;

	fprintf(f, "%zu card%s; what they share (sysfs, and the check):\n", b->n, b->n == 1 ? "" : "s");
	for (size_t g = 0; g < b->map.ngroups; g++) {
		const struct topo_group *tg = &b->map.g[g];
		char why[400];
		topo_group_why(tg, why, sizeof(why));
		if (tg->turns) {
			report_wrapped(f, 2, 6, why);
			for (size_t i = 0; i < b->n; i++)
				if (b->card[i].state != BATCH_REFUSED && b->card[i].group == g)
					card_line(f, 4, &b->card[i]);
			continue;
		}
		for (size_t i = 0; i < b->n; i++)
			if (b->card[i].state != BATCH_REFUSED && b->card[i].group == g) {
				char line[600];
				snprintf(line, sizeof(line), "side by side: %s: %s", b->card[i].path, b->card[i].identity);
				report_wrapped(f, 2, 6, line);
			}
	}
	for (size_t i = 0; i < b->n; i++)
		refused += b->card[i].state == BATCH_REFUSED;
	if (refused) {
		fprintf(f, "  refused (nothing of them is touched):\n");
		for (size_t i = 0; i < b->n; i++)
			if (b->card[i].state == BATCH_REFUSED)
				report_wrapped(f, 4, 8, b->card[i].err.msg);
	}
	if (b->check.ran)
		fprintf(f, "  the check: %zu round%s of reads together; %s\n", b->check.rounds,
			b->check.rounds == 1 ? "" : "s", b->check.joined ? "it found cards sharing a link no map shows"
									 : "no card slowed another");
	else if (b->check.why[0])
		fprintf(f, "  the check: %s\n", b->check.why);
}

void batch_map_json(struct json *j, const struct batch *b)
{
	json_object(j, "topology");
	json_array(j, "groups");
	for (size_t g = 0; g < b->map.ngroups; g++) {
		const struct topo_group *tg = &b->map.g[g];
		char why[400];
		topo_group_why(tg, why, sizeof(why));
		json_object(j, NULL);
		json_bool(j, "turns", tg->turns);
		json_string(j, "why", why);
		json_string(j, "link", tg->turns && tg->by.id[0] ? tg->by.id : NULL);
		json_number(j, "link_rate", tg->turns && tg->by.rate > 0 ? tg->by.rate : 0.0 / 0.0);
		json_array(j, "cards");
		for (size_t i = 0; i < b->n; i++) {
			const struct batch_card *c = &b->card[i];
			if (c->state == BATCH_REFUSED || c->group != g)
				continue;
			json_object(j, NULL);
			json_string(j, "device", c->path);
			json_string(j, "identity", c->identity);
			json_string(j, "port", c->topo.port[0] ? c->topo.port : NULL);
			json_string(j, "serial", c->topo.serial[0] ? c->topo.serial : c->medium.serial[0] ? c->medium.serial : NULL);
			json_string(j, "not_mapped", c->topo.known ? NULL : c->topo.why);
			json_end(j);
		}
		json_end(j);
		json_end(j);
	}
	json_end(j);
	json_array(j, "refused");
	for (size_t i = 0; i < b->n; i++)
		if (b->card[i].state == BATCH_REFUSED) {
			json_object(j, NULL);
			json_string(j, "device", b->card[i].path);
			json_string(j, "why", b->card[i].err.msg);
			json_end(j);
		}
	json_end(j);
	json_object(j, "check");
	json_bool(j, "ran", b->check.ran);
	json_uint(j, "rounds", b->check.rounds);
	json_uint(j, "joined", b->check.joined);
	json_string(j, "why", b->check.why[0] ? b->check.why : NULL);
	json_end(j);
	json_end(j);
}
