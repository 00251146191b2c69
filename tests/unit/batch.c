/* tests/unit/batch.c — many cards at once (auto/batch.h, dev/gate.h,
 * dev/simlink.h) on simulated cards: a shared link slows cards read
 * together and not cards that take turns; a batch on independent links
 * takes the device time of its slowest card, one on a shared USB 2.0 link
 * the sum, and every finding of each card is that of the card alone; the
 * check finds sharing the map cannot see; a failure ends only its card; a
 * stop ends a wait for a turn; 64 cards run in one batch; and a card's
 * name that comes to reach another disk, or none, is refused by the
 * identity check (over a dumped tree). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auto/batch.h"
#include "auto/characterize.h"
#include "dev/medium.h"
#include "dev/topology.h"
#include "dev.h"
#include "dev/gate.h"
#include "lib/board.h"
#include "report/batch_map.h"
#include "report/report_auto.h"
#include "tests/unit/unit.h"

/* ------------------------------------------------------------ the link */

/* Two cards on one bus: a read takes its share of the link while the
 * other card times too, and its own time when the other waits. */
static void link_cases(void)
{
	const char *spec = "sim:sd-4m,tread=0,tunit=0,tcross=0,rrate=400M,bus=t1,link=40M";
	struct dev *a = NULL, *b = NULL;
	struct fb_err e = { 0 };
	uint64_t alone = 0, both = 0, after = 0, len = 4 << 20;

	if (dev_open(&a, spec, DEV_READONLY, &e) || dev_open(&b, spec, DEV_READONLY, &e)) {
		check(0, "batch: a shared simulated link", "%s", e.msg);
		dev_close(a);
		return;
	}
	dev_phase(a, 1, &e);
	dev_read(a, 0, len, &alone);
	dev_phase(b, 1, &e);
	dev_read(a, 0, len, &both);
	dev_phase(b, 0, &e);
	dev_read(a, 0, len, &after);
	dev_phase(a, 0, &e);
	/* 4 MiB over 40 MiB/s: 100 ms alone, 200 ms with the other card timing */
	check(alone == 100000000 && both == 200000000 && after == alone,
	      "batch: a simulated link shared by two cards timing at once halves each one's rate", "alone %llu, "
	      "both %llu, after %llu ns", (unsigned long long)alone, (unsigned long long)both, (unsigned long long)after);
	dev_close(b);
	if (!dev_open(&b, "sim:sd-4m,bus=t1,link=41M", DEV_READONLY, &e))
		dev_close(b);
	check(strstr(e.msg, "bus=t1: link=41MiB/s here, but 40MiB/s on another card") != NULL,
	      "batch: two cards on one bus must give it one rate", "got %s", e.msg);
	dev_close(a);
}

/* ------------------------------------------------------------ runs */

static volatile sig_atomic_t stop_flag;

struct runs {
	struct batch *b;
	int write;
	int fail_index;              /* this card's run fails (-1: none) */
};

/* The findings of a report, as text (what a card's report says of it). */
static char *findings(const struct auto_report *r)
{
	const struct finding *f[] = { &r->page, &r->erase, &r->min_write, &r->open_linear, &r->open_random, &r->fat,
				      &r->cache_area };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		report_finding_text(m, f[i]);
	fprintf(m, "%s\ndevice %.0f ns\n", r->verdict_text, r->device_ns);
	fclose(m);
	return buf;
}

/* --auto (--write) of one card, alone or in a batch (b: then its turns) */
static int auto_of(struct batch *b, struct batch_card *c, const char *path, int write, struct auto_report *r,
		   struct fb_err *e)
{
	struct auto_options o = { .write = write, .stop = &stop_flag };
	struct dev *d = NULL;
	int rc;

	if (dev_open(&d, path, write ? DEV_READWRITE : DEV_READONLY, e))
		return -1;
	if (b && batch_attach(b, c, &d, e)) {
		dev_close(d);
		return -1;
	}
	rc = characterize(d, &o, r, e);
	if (!rc && r->interrupted)
		rc = -1;
	dev_close(d);
	return rc;
}

static int run_card(void *ctx, struct batch_card *c, struct fb_err *e)
{
	struct runs *x = ctx;
	struct auto_report *r = calloc(1, sizeof(*r));

	if (!r)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	c->result = r;
	if ((int)c->index == x->fail_index)
		return fb_fail(e, EXIT_DEVICE, "%s: an I/O error at byte 4096 (planted)", c->path);
	return auto_of(x->b, c, c->path, x->write, r, e);
}

static void free_results(struct batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->card[i].result);
}

/* A batch of n cards, specs[i % nspecs] with ",bus=PREFIX<i / per>" added:
 * per cards on each bus (per 0: no bus key). */
static int batch_of(struct batch *b, char (*paths)[160], const char **ptrs, size_t n, const char *spec,
		    size_t per, const char *link, const struct batch_options *o)
{
	struct fb_err e = { 0 };

	for (size_t i = 0; i < n; i++) {
		if (per)
			snprintf(paths[i], 160, "%s,size=%lluM,bus=b%zu,link=%s", spec, 256ULL << (i % 3), i / per, link);
		else
			snprintf(paths[i], 160, "%s,size=%lluM", spec, 256ULL << (i % 3));
		ptrs[i] = paths[i];
	}
	if (batch_plan(b, ptrs, n, o, &e)) {
		check(0, "batch: plan", "%s", e.msg);
		return -1;
	}
	return 0;
}

/* 8 cards on links of their own: the batch takes the time of its slowest
 * card; 8 on one USB 2.0 link: their timing phases take turns, the batch
 * takes their sum, and each card's findings are those it has alone. */
static void timing_cases(void)
{
	char paths[8][160];
	const char *ptrs[8];
	struct batch b;
	struct batch_options o = { .stop = &stop_flag, .writes = 1 };
	struct runs x = { .b = &b, .write = 1, .fail_index = -1 };
	double slowest = 0, sum = 0;
	size_t bad, same = 0;
	char first[160] = "";

	if (batch_of(&b, paths, ptrs, 8, "sim:sd-4m,noise=0.02", 1, "41M", &o))
		return;
	bad = batch_run(&b, run_card, &x);
	for (size_t i = 0; i < 8; i++) {
		double t = b.card[i].times.device_ns + b.card[i].check_ns;
		slowest = t > slowest ? t : slowest;
		sum += t;
	}
	check(!bad && b.map.ngroups == 8 && b.device_ns >= slowest * 0.999 && b.device_ns <= slowest * 1.01 &&
	      b.device_ns < sum / 3,
	      "batch: 8 cards on links of their own take the device time of the slowest, not the sum",
	      "%zu failed, %zu groups; batch %.3fs, slowest %.3fs, sum %.3fs", bad, b.map.ngroups, b.device_ns / 1e9,
	      slowest / 1e9, sum / 1e9);
	printf("# batch: 8 cards on links of their own: device time %.2fs, slowest card %.2fs, sum %.2fs\n",
	       b.device_ns / 1e9, slowest / 1e9, sum / 1e9);
	free_results(&b);
	batch_free(&b);

	if (batch_of(&b, paths, ptrs, 8, "sim:sd-4m,noise=0.02", 8, "41M", &o))
		return;
	bad = batch_run(&b, run_card, &x);
	slowest = sum = 0;
	for (size_t i = 0; i < 8; i++) {
		struct auto_report *alone = calloc(1, sizeof(*alone));
		struct fb_err e = { 0 };
		char *a = NULL, *t = NULL;
		double ns = b.card[i].times.device_ns;
		sum += ns;
		if (alone && !auto_of(NULL, NULL, paths[i], 1, alone, &e) && b.card[i].result) {
			a = findings(alone);
			t = findings(b.card[i].result);
			same += a && t && !strcmp(a, t);
			if (a && t && strcmp(a, t) && !first[0])
				snprintf(first, sizeof(first), "card %zu differs", i);
		}
		free(a);
		free(t);
		free(alone);
	}
	check(!bad && b.map.ngroups == 1 && b.map.g[0].turns && same == 8,
	      "batch: 8 cards on one USB 2.0 link take turns, and every finding is that of the card alone",
	      "%zu failed, %zu groups, %zu of 8 the same %s", bad, b.map.ngroups, same, first);
	check(b.device_ns >= sum * 0.999 && b.device_ns <= (sum + 8 * b.card[0].check_ns) * 1.01,
	      "batch: 8 cards taking turns on one link take the sum of their device times", "batch %.3fs, sum %.3fs",
	      b.device_ns / 1e9, sum / 1e9);
	printf("# batch: 8 cards on one 41M link: device time %.2fs, sum of the cards' %.2fs, findings as alone: %zu "
	       "of 8\n", b.device_ns / 1e9, sum / 1e9, same);
	free_results(&b);
	batch_free(&b);
	/* the same, side by side as a caller may force it: a figure only (how
	 * the cards' runs overlap depends on the machine's threads) */
	o.side_by_side = 1;
	if (batch_of(&b, paths, ptrs, 8, "sim:sd-4m,noise=0.02", 8, "41M", &o))
		return;
	batch_run(&b, run_card, &x);
	same = 0;
	for (size_t i = 0; i < 8; i++) {
		struct auto_report *alone = calloc(1, sizeof(*alone));
		struct fb_err e = { 0 };
		char *a = NULL, *t = NULL, *p, *q;
		if (alone && !auto_of(NULL, NULL, paths[i], 1, alone, &e) && b.card[i].result) {
			a = findings(alone);
			t = findings(b.card[i].result);
			/* the findings, not the device time */
			if (a && t && (p = strstr(a, "\ndevice ")) && (q = strstr(t, "\ndevice ")))
				*p = *q = '\0';
			same += a && t && !strcmp(a, t);
		}
		free(a);
		free(t);
		free(alone);
	}
	printf("# batch: the same 8 side by side: device time %.2fs, findings as alone: %zu of 8\n", b.device_ns / 1e9,
	       same);
	free_results(&b);
	batch_free(&b);
}

/* The map says the cards are apart (mapbus=), the link says they share
 * it: the check finds them slowed together and makes them take turns;
 * cards apart in truth are left apart. */
static void check_cases(void)
{
	const char *hidden[] = { "sim:sd-4m,bus=k,link=20M,mapbus=a", "sim:sd-4m,bus=k,link=20M,mapbus=b",
				 "sim:sd-4m,bus=k,link=20M,mapbus=c", "sim:sd-4m,bus=z,link=20M" };
	struct batch_options o = { .stop = &stop_flag };
	struct fb_err e = { 0 };
	struct batch b;
	char why[300] = "";

	if (batch_plan(&b, hidden, 4, &o, &e)) {
		check(0, "batch: the check", "%s", e.msg);
		return;
	}
	if (b.map.ngroups == 2)
		topo_group_why(&b.map.g[b.card[0].group], why, sizeof(why));
	check(b.check.ran && b.map.ngroups == 2 && b.card[0].group == b.card[1].group &&
	      b.card[1].group == b.card[2].group && b.card[3].group != b.card[0].group && b.card[0].turns &&
	      !b.card[3].turns && strstr(why, "take turns: reading together slowed them up to 3.0x") &&
	      strstr(why, "a link no map shows"),
	      "batch: the check finds three cards sharing a link the map does not show, and leaves the fourth apart",
	      "ran %d, %zu groups (%zu %zu %zu %zu): %s", b.check.ran, b.map.ngroups, b.card[0].group, b.card[1].group,
	      b.card[2].group, b.card[3].group, why);
	batch_free(&b);
}

/* A card whose run fails ends alone; the others finish. */
static void failure_case(void)
{
	char paths[4][160];
	const char *ptrs[4];
	struct batch b;
	struct batch_options o = { .stop = &stop_flag };
	struct runs x = { .b = &b, .write = 0, .fail_index = 2 };
	size_t bad;

	if (batch_of(&b, paths, ptrs, 4, "sim:sd-4m", 2, "41M", &o))
		return;
	bad = batch_run(&b, run_card, &x);
	check(bad == 1 && b.card[0].state == BATCH_DONE && b.card[1].state == BATCH_DONE &&
	      b.card[2].state == BATCH_FAILED && b.card[3].state == BATCH_DONE &&
	      strstr(b.card[2].err.msg, "an I/O error at byte 4096 (planted)"),
	      "batch: a failure ends its card's run and the others finish", "%zu not done; card 2 %s: %s", bad,
	      batch_state_name(b.card[2].state), b.card[2].err.msg);
	free_results(&b);
	batch_free(&b);
}

/* A stop: a card waiting for its turn stops waiting, and a batch stopped
 * before it runs runs nothing. */
struct waiter {
	struct dev *d;
	int rc;
	struct fb_err e;
};

static void *wait_turn(void *arg)
{
	struct waiter *w = arg;

	w->rc = dev_phase(w->d, 1, &w->e);
	return NULL;
}

static void stop_cases(void)
{
	volatile sig_atomic_t stop = 0;
	struct gate *g = NULL;
	struct dev *a = NULL, *bd = NULL;
	struct waiter w = { 0 };
	struct fb_err e = { 0 };
	pthread_t th;

	if (gate_new(&g, &stop, &e) || dev_open(&a, "sim:sd-4m", DEV_READONLY, &e) ||
	    dev_open(&bd, "sim:sd-4m", DEV_READONLY, &e) || gate_wrap(&a, g, NULL, NULL, NULL, &e) ||
	    gate_wrap(&bd, g, NULL, NULL, NULL, &e)) {
		check(0, "batch: a stop ends a wait for the turn", "%s", e.msg);
		goto out;
	}
	dev_phase(a, 1, &e); /* a has the turn and keeps it */
	w.d = bd;
	if (pthread_create(&th, NULL, wait_turn, &w)) {
		check(0, "batch: a stop ends a wait for the turn", "no thread");
		goto out;
	}
	stop = 1;
	pthread_join(th, NULL);
	check(w.rc == -1 && !strcmp(w.e.msg, "stopped by a signal"), "batch: a stop ends a wait for the turn",
	      "rc %d: %s", w.rc, w.e.msg);
	dev_phase(a, 0, &e);
out:
	dev_close(a);
	dev_close(bd);
	gate_free(g);
}

/* 64 cards in one batch, eight on each of eight links. */
static void many_case(void)
{
	static char paths[64][160];
	const char *ptrs[64];
	struct batch b;
	struct batch_options o = { .stop = &stop_flag };
	struct runs x = { .b = &b, .write = 0, .fail_index = -1 };
	size_t bad, turns = 0;

	if (batch_of(&b, paths, ptrs, 64, "sim:sd-4m,size=64M", 8, "41M", &o))
		return;
	bad = batch_run(&b, run_card, &x);
	for (size_t i = 0; i < 64; i++)
		turns += b.card[i].turns;
	check(!bad && b.map.ngroups == 8 && turns == 64, "batch: 64 simulated cards on 8 links run in one batch",
	      "%zu not done, %zu groups, %zu taking turns", bad, b.map.ngroups, turns);
	free_results(&b);
	batch_free(&b);
}

/* ------------------------------------------------------------ identity */

/* Replace the file rel under root with text (NULL: remove it). */
static void put(const char *root, const char *rel, const char *text)
{
	char p[8400];
	FILE *f;

	snprintf(p, sizeof(p), "%.4095s/%.4095s", root, rel);
	if (!text) {
		remove(p);
		return;
	}
	if ((f = fopen(p, "w"))) {
		fprintf(f, "%s\n", text);
		fclose(f);
	}
}

#define STICK1 "sys/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1.1/serial"
#define STICK2 "sys/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1.2/serial"
#define ID "serial S0001, usb 1-1.1, Generic Flash Disk"
#define WAS "(it was " ID ")"

/* A card pinned at the start: its name reaching another card (a serial
 * that changed, another disk's number), or none (the card came back as
 * another name: said by its serial), is refused before the next phase. */
static void identity_cases(void)
{
	struct batch_card c;
	struct fb_err e = { 0 };
	char root[4096], why[512];
	int ok;

	if (unit_tree("usb-hub", root, sizeof(root), why, sizeof(why))) {
		check(0, "batch: identity", "%s", why);
		return;
	}
	memset(&c, 0, sizeof(c));
	c.path = "/dev/sdb";
	medium_of(c.path, &c.medium);
	topo_of(c.path, &c.topo);
	snprintf(c.identity, sizeof(c.identity), "serial S0001, usb 1-1.1, Generic Flash Disk");
	ok = !batch_card_check(&c, &e);
	check(ok, "batch: identity: the card as it was passes", "%s", e.msg);
	put(root, STICK1, "X9");
	ok = batch_card_check(&c, &e) && !strcmp(e.msg, "/dev/sdb is no longer the card it was at the start (" ID ")"
						  ": it now reaches another disk (serial X9, usb 1-1.1, Generic Flash "
						  "Disk); nothing more is written to it");
	check(ok, "batch: identity: another card in the same port (another serial) is refused", "got %s", e.msg);
	put(root, STICK1, "S0001");
	put(root, "dev/sdb", "block 8:32");
	ok = batch_card_check(&c, &e) && strstr(e.msg, "/dev/sdb is no longer the card it was at the start (" ID ")"
						 ": it now reaches another disk (serial S0002, usb 1-1.2,");
	check(ok, "batch: identity: a name that now reaches another disk is refused", "got %s", e.msg);
	put(root, "dev/sdb", NULL);
	put(root, STICK2, "S0001"); /* the card came back on the other port, as sdc */
	ok = batch_card_check(&c, &e) && !strcmp(e.msg, "/dev/sdb went away " WAS "; the card is now /dev/sdc: run "
						  "it again under that name: nothing more is written to it");
	check(ok, "batch: identity: a card gone is refused, and where it came back is said", "got %s", e.msg);
	unit_tree_end(root);
}

/* The map a batch prints first: groups with why, side by side, not
 * mapped, the check (two sims of one spec are two cards). */
static void map_case(void)
{
	const char *cards[] = { "sim:sd-4m,bus=hub1,link=41M", "sim:sd-4m,bus=hub1,link=41M,seed=2",
				"sim:usb-12m,bus=port2,link=41M", "sim:sd-4m", "sim:sd-4m,bus=hub1,link=41M", "sim:cf-16m" };
	struct batch_options o = { .stop = &stop_flag };
	struct fb_err e = { 0 };
	struct batch b;
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	const char *want =
		"6 cards; what they share (sysfs, and the check):\n"
		"  take turns: simulated link hub1 carries 43M/s in all; the 3 cards on it\n"
		"      could move 126M/s\n"
		"    sim:sd-4m,bus=hub1,link=41M: simulated, sim bus hub1\n"
		"    sim:sd-4m,bus=hub1,link=41M,seed=2: simulated, sim bus hub1\n"
		"    sim:sd-4m,bus=hub1,link=41M: simulated, sim bus hub1\n"
		"  side by side: sim:usb-12m,bus=port2,link=41M: simulated, sim bus port2\n"
		"  one at a time: where these 2 are plugged in is not known\n"
		"    sim:sd-4m: simulated; not mapped: a simulated card with no bus= key:\n"
		"        where it is plugged in is not known\n"
		"    sim:cf-16m: simulated; not mapped: a simulated card with no bus= key:\n"
		"        where it is plugged in is not known\n"
		"  the check: 2 rounds of reads together; no card slowed another\n";

	if (batch_plan(&b, cards, 6, &o, &e) || !(m = open_memstream(&text, &len))) {
		check(0, "batch: the map", "%s", e.msg);
		return;
	}
	batch_map_text(m, &b);
	fclose(m);
	check(!strcmp(text, want), "batch: the map a batch prints first", "got\n%s\nwant\n%s", text, want);
	free(text);
	batch_free(&b);
}

/* One card named twice (a file and a symlink to it): the second name is
 * refused, the first runs. */
static void duplicate_case(void)
{
	char dir[4096], file[4200], link[4200];
	const char *two[2] = { file, link };
	struct batch_options o = { .stop = &stop_flag, .no_check = 1 };
	struct fb_err e = { 0 };
	struct batch b;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/flashbench-batch.XXXXXX", unit_scratch());
	if (!mkdtemp(dir)) {
		check(0, "batch: one card named twice", "mkdtemp failed");
		return;
	}
	snprintf(file, sizeof(file), "%s/card.img", dir);
	snprintf(link, sizeof(link), "%s/other-name", dir);
	if ((f = fopen(file, "w")))
		fclose(f);
	if (truncate(file, 1 << 20) || symlink(file, link) || batch_plan(&b, two, 2, &o, &e)) {
		check(0, "batch: one card named twice", "setup: %s", e.msg);
	} else {
		char want[13000];
		snprintf(want, sizeof(want), "%s is the same card as %s (given twice): it runs once, as %s", link, file,
			 file);
		check(b.card[0].state == BATCH_READY && b.card[1].state == BATCH_REFUSED &&
		      !strcmp(b.card[1].err.msg, want), "batch: one card named twice: the second name is refused",
		      "%s, %s: %s", batch_state_name(b.card[0].state), batch_state_name(b.card[1].state),
		      b.card[1].err.msg);
		batch_free(&b);
	}
	unlink(link);
	unlink(file);
	rmdir(dir);
}

/* The progress board: on a terminal both lines drawn, then redrawn in
 * place (cut to the width); plain lines when forced, a card's next only
 * when its part changes; nothing otherwise. */
static void board_case(void)
{
	const char *labels[] = { "/dev/sdb", "sim:sd-4m" };
	struct board *bd;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	const char *want = "\r/dev/sdb   --auto: reads, 10% of the plan\033[K\n"
			   "\rsim:sd-4m  \033[K\n"
			   "\033[2A\r/dev/sdb   --auto: reads, 10% of the plan\033[K\n"
			   "\rsim:sd-4m  --auto: open erase blocks, linear (par\033[K\n";

	if (!m || board_new(&bd, m, 2, labels, 1, 50, 0)) {
		check(0, "batch: the progress board", "no memory");
		return;
	}
	board_set(bd, 0, "--auto: reads, 10% of the plan", 1);
	board_set(bd, 1, "--auto: open erase blocks, linear (part 4 of 6)", 1);
	board_end(bd);
	fflush(m);
	check(!strcmp(text, want), "batch: the progress board redraws a line per card in place on a terminal",
	      "got %s", text);
	fclose(m);
	free(text);
	text = NULL;
	m = open_memstream(&text, &len);
	if (!m || board_new(&bd, m, 2, labels, 0, 80, 1)) {
		check(0, "batch: the progress board", "no memory");
		return;
	}
	board_set(bd, 0, "--capacity: writing, 5%", 1);
	board_set(bd, 0, "--capacity: writing, 6%", 0);
	board_set(bd, 1, "--capacity: reading, 1%", 1);
	board_end(bd);
	fflush(m);
	check(!strcmp(text, "flashbench: /dev/sdb   --capacity: writing, 5%\n"
		      "flashbench: sim:sd-4m  --capacity: reading, 1%\n"),
	      "batch: the progress board writes plain lines when forced off a terminal", "got %s", text);
	fclose(m);
	free(text);
}

void unit_batch(void)
{
	board_case();
	map_case();
	duplicate_case();
	identity_cases();
	link_cases();
	timing_cases();
	check_cases();
	failure_case();
	stop_cases();
	many_case();
}
