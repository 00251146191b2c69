/* batch.c — one mode over many cards (a row with MODE_DEVICES, several
 * devices or --all-removable): the cards planned by auto/batch.h (pinned,
 * refused by name, mapped, the map checked), the map printed first, then a
 * thread per card running the mode between the shared start and end of a
 * run (start.c), each card's device wrapped in its turns once opened for
 * the run; at the end one table with a row per card, then each card's own
 * report (--json: JSON Lines, the map's line then one line per card, each
 * the mode's own JSON with a "card" member first); -o DIR: a file per card
 * and the table in DIR/batch.txt (batch.jsonl).  A failure ends only its
 * card; a signal stops every card at its next request, each putting back
 * its own data. */
#include "run/run.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "auto/batch.h"
#include "dev.h"
#include "guard/place.h"
#include "guard/preserve.h"
#include "lib/board.h"
#include "lib/json.h"
#include "lib/sysroot.h"
#include "lib/units.h"
#include "report/batch_map.h"
#include "run/mode.h"

#define BATCH_MAX 256

/* A card's run: its own struct run, its report and its table row. */
struct card_run {
	struct run r;
	struct batch *b;
	struct batch_card *card;
	char journal[4096];
	FILE *mem, *rowf;
	char *report, *row;
	size_t report_len, row_len;
	int stopped;
	struct board *board;
};

struct batch_run {
	const struct run *proto;
	struct batch *b;
	struct card_run *cards;
	struct board *board;         /* each card's progress, a line each (NULL: none) */
};

/* --all-removable: the whole disks sysfs says are removable and hold
 * something (a reader's empty slot has size 0), as /dev/NAME. */
static int removable_disks(char ***out, size_t *n, struct fb_err *e)
{
	char dir[64], path[400], line[32];
	struct dirent *de;
	char **v = NULL;
	DIR *dp;

	*n = 0;
	sysroot_path(dir, sizeof(dir), SYSROOT_BLOCK, NULL);
	if (!(dp = sysroot_opendir(dir)))
		return fb_fail(e, EXIT_DEVICE, "--all-removable: %s: %s (no block devices to look at)", dir,
			       strerror(errno));
	while ((de = readdir(dp))) {
		FILE *f;
		int removable = 0;
		unsigned long long size = 0;
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%.200s/partition", dir, de->d_name);
		if (!access(path, F_OK))
			continue; /* whole disks only */
		snprintf(path, sizeof(path), "%s/%.200s/removable", dir, de->d_name);
		if ((f = fopen(path, "r"))) {
			removable = fgets(line, sizeof(line), f) && line[0] == '1';
			fclose(f);
		}
		snprintf(path, sizeof(path), "%s/%.200s/size", dir, de->d_name);
		if (removable && (f = fopen(path, "r"))) {
			if (!fgets(line, sizeof(line), f) || sscanf(line, "%llu", &size) != 1)
				size = 0;
			fclose(f);
		}
		if (!removable || !size || *n >= BATCH_MAX)
			continue;
		char **w = realloc(v, (*n + 1) * sizeof(*v));
		if (!w || !(w[*n] = malloc(strlen(de->d_name) + 6))) {
			free(w ? w : v);
			closedir(dp);
			return fb_fail(e, EXIT_DEVICE, "out of memory");
		}
		v = w;
		sprintf(v[(*n)++], "/dev/%s", de->d_name);
	}
	closedir(dp);
	if (!*n)
		return fb_fail(e, EXIT_USAGE, "--all-removable: no removable disk with a medium in it is attached "
			       "(name the devices instead)");
	*out = v;
	return 0;
}

/* A file name for a card: its place in the batch and its name, with what
 * a file name should not hold made '_' ("02-sim_sd-4m_size_256M"). */
static void card_file(char *buf, size_t len, const struct batch_card *c)
{
	const char *base = strrchr(c->path, '/');
	size_t k = (size_t)snprintf(buf, len, "%02zu-", c->index + 1);

	base = base && strncmp(c->path, "sim:", 4) ? base + 1 : c->path;
	for (; *base && k + 1 < len; base++)
		buf[k++] = strchr(":,=/ ", *base) ? '_' : *base;
	buf[k] = '\0';
}

/* The terminal's width for the board (80 when not known). */
static unsigned term_width(void)
{
	struct winsize ws;

	return ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 ? ws.ws_col : 80;
}

/* A card's progress line, onto its line of the board. */
static void board_line(void *ctx, const char *line, int part_changed)
{
	struct card_run *cr = ctx;

	board_set(cr->board, cr->card->index, line, part_changed);
}

static int attach(void *ctx, struct dev **d, struct fb_err *e)
{
	struct card_run *cr = ctx;

	return batch_attach(cr->b, cr->card, d, e);
}

/* One card: the mode between the shared start and end, its report held. */
static int card_run(void *ctx, struct batch_card *c, struct fb_err *e)
{
	struct batch_run *br = ctx;
	struct card_run *cr = &br->cards[c->index];
	struct run *r = &cr->r;
	const struct cli *pc = &br->proto->c;
	int rc;

	memset(r, 0, sizeof(*r));
	r->c = *pc;
	r->c.device = c->path;
	r->c.devices = NULL;
	r->c.ndevices = 0;
	r->c.out = NULL;
	r->c.summary = 0;
	r->c.progress = 0;
	if (pc->preserve && pc->journal) { /* --preserve=DIR: each card's journal in it */
		run_batch_journal(c->path, pc->journal, cr->journal, sizeof(cr->journal));
		r->c.journal = cr->journal;
	}
	cr->b = br->b;
	cr->card = c;
	r->opened = attach;
	r->opened_ctx = cr;
	if ((cr->board = br->board)) {
		r->pr.to = board_line;
		r->pr.to_ctx = cr;
	}
	if (!(cr->mem = open_memstream(&cr->report, &cr->report_len)) ||
	    !(cr->rowf = open_memstream(&cr->row, &cr->row_len)))
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	r->out = cr->mem;
	r->row = cr->rowf;
	rc = run_prepare(r, e) || r->c.mode->run(r, e) || run_finish(r, e) ? -1 : 0;
	if (rc) {
		struct fb_err why = *e;
		if (run_end_guard(r, 0, &why))
			snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg), "; %s", why.msg);
	}
	cr->stopped = r->stopped || run_stop > 0;
	run_release(r);
	fclose(cr->mem);
	fclose(cr->rowf);
	cr->mem = cr->rowf = NULL;
	if (!rc && cr->stopped)
		return fb_fail(e, EXIT_DEVICE, "stopped by a signal (%s): what it measured is in its report; its "
			       "data were put back", fb_signal_name(run_stop));
	return rc;
}

/* The cells of a --summary line after the first (the device's name),
 * trimmed, joined by " | ": the table's last column. */
static void row_cells(char *out, size_t len, const char *line)
{
	size_t k = 0;
	int cell = 0;

	out[0] = '\0';
	for (const char *p = line; p && *p && *p != '\n';) {
		const char *end;
		while (*p == '|' || *p == ' ')
			p++;
		end = p;
		while (*end && *end != '|' && *end != '\n')
			end++;
		size_t n = (size_t)(end - p);
		while (n && p[n - 1] == ' ')
			n--;
		if (n && cell++ > 0)
			k += (size_t)snprintf(out + k, k < len ? len - k : 0, "%s%.*s", k ? " | " : "", (int)n, p);
		p = end;
	}
	if (!out[0])
		snprintf(out, len, "-");
}

static void seconds(char *buf, size_t len, double ns)
{
	if (ns < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
}

/* One table for the batch: a row per card (wiki table syntax, as
 * --summary's lines). */
static void table_text(FILE *f, const struct batch_run *br)
{
	const struct batch *b = br->b;
	const struct cli *cl = &br->proto->c;
	char t[32], cells[512];

	fprintf(f, "\nthe batch: %zu card%s, %s\n| card | identity | state | timing phases | device time | ", b->n,
		b->n == 1 ? "" : "s", cl->mode_option);
	if (cl->mode->takes & OPT_SUMMARY)
		fprintf(f, "%s --summary ... |\n", cl->mode_option);
	else
		fprintf(f, "results |\n");
	for (size_t i = 0; i < b->n; i++) {
		const struct batch_card *c = &b->card[i];
		const struct card_run *cr = &br->cards[i];
		seconds(t, sizeof(t), c->state == BATCH_DONE || c->state == BATCH_STOPPED ? c->times.device_ns : -1);
		if (cr->row && cr->row[0])
			row_cells(cells, sizeof(cells), cr->row);
		else
			snprintf(cells, sizeof(cells), "%s", c->state == BATCH_DONE ? "below" : c->err.msg);
		fprintf(f, "| %s | %s | %s | %s | %s | %s |\n", c->path, c->identity, batch_state_name(c->state),
			c->state == BATCH_REFUSED ? "-" : c->turns ? "took turns" : "side by side", t, cells);
	}
	seconds(t, sizeof(t), b->device_ns);
	fprintf(f, "device time of the batch: %s", t);
	if (b->sum_ns > 0)
		fprintf(f, " (the cards' own added up: %.2fs)", b->sum_ns / 1e9);
	fprintf(f, "; wall time %.2fs\n", b->wall_ns / 1e9);
}

/* A JSON string, escaped. */
static void json_text(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* The member "card": the card's place, name, identity and outcome. */
static void card_member(FILE *f, const struct batch_card *c)
{
	fprintf(f, "\"card\":{\"index\":%zu,\"device\":", c->index + 1);
	json_text(f, c->path);
	fputs(",\"identity\":", f);
	json_text(f, c->identity);
	fprintf(f, ",\"state\":\"%s\",\"turns\":%s,\"device_time_s\":", batch_state_name(c->state),
		c->turns ? "true" : "false");
	if (c->state != BATCH_REFUSED && c->times.device_ns >= 0)
		fprintf(f, "%.6f", c->times.device_ns / 1e9);
	else
		fputs("null", f);
	if (c->state != BATCH_DONE) {
		fputs(",\"error\":", f);
		json_text(f, c->err.msg);
	}
	fputc('}', f);
}

/* Copy a JSON document onto one line (whitespace outside strings
 * dropped), with the member "card" first in its top object when c. */
static void json_line(FILE *f, const char *text, const struct batch_card *c)
{
	int in_str = 0, esc = 0, first = 1;

	for (const char *p = text; *p; p++) {
		if (in_str) {
			fputc(*p, f);
			if (esc)
				esc = 0;
			else if (*p == '\\')
				esc = 1;
			else if (*p == '"')
				in_str = 0;
			continue;
		}
		if (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
			continue;
		fputc(*p, f);
		in_str = *p == '"';
		if (*p == '{' && first && c) {
			const char *q = p + 1;
			card_member(f, c);
			while (*q == ' ' || *q == '\n' || *q == '\t')
				q++;
			if (*q != '}')
				fputc(',', f);
		}
		if (*p == '{')
			first = 0;
	}
	fputc('\n', f);
}

/* The map's line: {"format":..,"tool":..,"mode":"batch","topology":{...}} */
static void map_json(FILE *f, const struct batch *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct json j;

	if (!m)
		return;
	json_start(&j, m);
	json_tool(&j);
	json_string(&j, "mode", "batch");
	batch_map_json(&j, b);
	json_finish(&j);
	fclose(m);
	if (buf)
		json_line(f, buf, NULL);
	free(buf);
}

/* The batch's last JSON line: its times and each card's outcome. */
static void end_json(FILE *f, const struct batch *b)
{
	fputs("{\"format\":1,\"mode\":\"batch\",\"cards\":[", f);
	for (size_t i = 0; i < b->n; i++) {
		fputs(i ? ",{" : "{", f);
		card_member(f, &b->card[i]);
		fputc('}', f);
	}
	fputs("],\"device_time_s\":", f);
	if (b->device_ns >= 0)
		fprintf(f, "%.6f", b->device_ns / 1e9);
	else
		fputs("null", f);
	fprintf(f, ",\"sum_s\":%.6f,\"wall_s\":%.6f}\n", b->sum_ns / 1e9, b->wall_ns / 1e9);
}

void run_batch_journal(const char *device, const char *dir, char *buf, size_t len)
{
	char name[1024];
	const char *base;

	place_default_path(device, name, sizeof(name));
	base = strrchr(name, '/');
	if ((size_t)snprintf(buf, len, "%s/%s", dir, base ? base + 1 : name) >= len)
		buf[0] = '\0';
}

/* Each card's report, under a heading (text) or as its line (JSON). */
static void card_report(FILE *f, const struct batch_run *br, size_t i, int heading)
{
	const struct batch_card *c = &br->b->card[i];
	const struct card_run *cr = &br->cards[i];

	if (br->proto->c.json) {
		if (cr->report && cr->report_len && strchr(cr->report, '{'))
			json_line(f, cr->report, c);
		else
			json_line(f, "{\"format\": 1}", c);
		return;
	}
	if (heading)
		fprintf(f, "\n== %s (%s): %s ==\n", c->path, c->identity, batch_state_name(c->state));
	if (cr->report && cr->report_len)
		fwrite(cr->report, 1, cr->report_len, f);
	else if (c->state != BATCH_DONE)
		fprintf(f, "%s\n", c->err.msg);
}

/* -o DIR: a file per card, and the map and table in batch.txt (.jsonl). */
static int write_dir(const struct batch_run *br, struct fb_err *e)
{
	const struct cli *c = &br->proto->c;
	char path[4096], name[300];
	FILE *f;
	int rc = 0;

	for (size_t i = 0; i < br->b->n && !rc; i++) {
		card_file(name, sizeof(name), &br->b->card[i]);
		snprintf(path, sizeof(path), "%s/%s.%s", c->out, name, c->json ? "json" : "txt");
		if (!(f = fopen(path, "w")))
			return fb_fail(e, EXIT_USAGE, "-o %s: %s: %s", c->out, path, strerror(errno));
		card_report(f, br, i, 0);
		if (fclose(f))
			rc = fb_fail(e, EXIT_DEVICE, "-o %s: %s: %s", c->out, path, strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/batch.%s", c->out, c->json ? "jsonl" : "txt");
	if (rc || !(f = fopen(path, "w")))
		return rc ? rc : fb_fail(e, EXIT_USAGE, "-o %s: %s: %s", c->out, path, strerror(errno));
	if (c->json) {
		map_json(f, br->b);
		end_json(f, br->b);
	} else {
		batch_map_text(f, br->b);
		table_text(f, br);
	}
	if (fclose(f))
		return fb_fail(e, EXIT_DEVICE, "-o %s: %s: %s", c->out, path, strerror(errno));
	return 0;
}

/* -o DIR must be a directory that can be written, checked before any card
 * is touched. */
static int check_dir(const char *dir, struct fb_err *e)
{
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return fb_fail(e, EXIT_USAGE, "-o %s: with several devices -o names a directory (a file per card "
			       "and batch.txt); %s", dir, errno == ENOENT ? "it does not exist: make it first" :
			       "it is not one");
	if (access(dir, W_OK | X_OK))
		return fb_fail(e, EXIT_USAGE, "-o %s: %s", dir, strerror(errno));
	return 0;
}

int run_batch(struct run *proto, int *stopped, struct fb_err *e)
{
	const struct cli *c = &proto->c;
	struct batch b;
	struct batch_options o = { .stop = &run_stop, .writes = mode_writes(c), .side_by_side = c->side_by_side };
	struct batch_run br = { .proto = proto, .b = &b };
	char **found = NULL;
	const char *const *paths = c->devices;
	size_t n = (size_t)c->ndevices, bad;
	FILE *out = stdout;
	int rc = 0;

	*stopped = 0;
	if (c->plot)
		return fb_fail(e, EXIT_USAGE, "--plot draws one device's results: with several devices, leave it "
			       "out (or run each card alone)");
	if (c->out && check_dir(c->out, e))
		return -1;
	if (c->preserve && c->journal && check_dir(c->journal, e))
		return -1;
	if (c->all_removable) {
		if (removable_disks(&found, &n, e))
			return -1;
		paths = (const char *const *)found;
	}
	if (n > BATCH_MAX) {
		rc = fb_fail(e, EXIT_USAGE, "%zu devices: a batch takes at most %d", n, BATCH_MAX);
		goto out;
	}
	if (batch_plan(&b, paths, n, &o, e)) {
		rc = -1;
		goto out;
	}
	if (!(br.cards = calloc(n, sizeof(*br.cards)))) {
		batch_free(&b);
		rc = fb_fail(e, EXIT_DEVICE, "out of memory");
		goto out;
	}
	/* the map first, before any request */
	if (c->json && !c->out)
		map_json(out, &b);
	else
		batch_map_text(c->out ? stderr : out, &b);
	fflush(c->out ? stderr : out);
	if (board_new(&br.board, stderr, n, paths, isatty(2), term_width(), c->progress)) {
		rc = fb_fail(e, EXIT_DEVICE, "out of memory");
		goto done;
	}
	bad = batch_run(&b, card_run, &br);
	board_draw(br.board);
	board_end(br.board);
	*stopped = run_stop > 0;
	if (c->out) {
		rc = write_dir(&br, e);
		table_text(stderr, &br);
	} else {
		if (!c->json)
			table_text(out, &br);
		for (size_t i = 0; i < n; i++)
			card_report(out, &br, i, 1);
		if (c->json)
			end_json(out, &b);
		if (fflush(out))
			rc = fb_fail(e, EXIT_DEVICE, "standard output: %s", strerror(errno));
	}
	for (size_t i = 0; !rc && bad && i < n; i++)
		if (b.card[i].state == BATCH_FAILED || b.card[i].state == BATCH_REFUSED) {
			rc = fb_fail(e, b.card[i].err.status ? b.card[i].err.status : EXIT_DEVICE,
				     "%zu of %zu cards did not finish: %s: %s", bad, n, b.card[i].path, b.card[i].err.msg);
			break;
		}
done:
	for (size_t i = 0; i < n; i++) {
		free(br.cards[i].report);
		free(br.cards[i].row);
	}
	free(br.cards);
	batch_free(&b);
out:
	for (size_t i = 0; found && i < n; i++)
		free(found[i]);
	free(found);
	return rc;
}
