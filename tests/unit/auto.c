/* tests/unit/auto.c — unit tests of auto/: the analysis of measurements
 * (findings, write caches), the cost bound, the look for unmapped reads and
 * a --auto run stopped half way. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto/analyze.h"
#include "auto/budget.h"
#include "auto/characterize.h"
#include "auto/crosscheck.h"
#include "auto/unmapped.h"
#include "dev.h"
#include "tests/unit/unit.h"

static void test_analysis(void)
{
	struct finding f;
	struct chunk_time t[6] = {
		{ 1 << 20, 50300e3, 0 }, { 512 << 10, 25300e3, 0 }, { 256 << 10, 12800e3, 0 },
		{ 128 << 10, 6550e3, 0 }, { 64 << 10, 6550e3, 0 }, { 32 << 10, 6550e3, 0 },
	};
	struct fat_probe fat[4] = {
		{ { 400e3, 900e3, 300e3 }, { 1000e3, 2000e3, 1000e3 } }, /* faster for everything */
		{ { 1000e3, 900e3, 300e3 }, { 1000e3, 2000e3, 1000e3 } }, /* random-access mode */
		{ { 1000e3, 2000e3, 1000e3 }, { 1010e3, 2000e3, 990e3 } },
		{ { 1000e3, 2000e3, 1000e3 }, { 1000e3, 2010e3, 1000e3 } },
	};
	struct open_trial lin[4] = { { 1, 2e6, 0, 0, 0, 0, 0 }, { 2, 2e6, 0, 0, 0, 0, 0 }, { 3, 200e6, 1, 0, 0, 0, 0 },
				     { 2, 2e6, 0, 0, 0, 0, 0 } };

	/* write check: 200 ms extra at 20 MiB/s is 4 MiB of copying */
	finding_init(&f, "erase_block", "erase block size", 1);
	f.determined = 1;
	f.value = 4 << 20;
	f.conf = CONF_HIGH;
	erase_write_check(&f, 200e6, 20 << 20);
	check(f.conf == CONF_HIGH && strstr(f.evidence[0], "writes agree"), "analysis: writes agree with the erase size",
	      "%s", f.evidence[0]);
	f.nevidence = 0;
	erase_write_check(&f, 90e6, 20 << 20);
	check(f.conf == CONF_MEDIUM && strstr(f.evidence[0], "do not quite agree"),
	      "analysis: writes half an erase block off lower the confidence to medium", "%s", f.evidence[0]);
	f.nevidence = 0;
	erase_write_check(&f, 1600e6, 20 << 20);
	check(f.conf == CONF_LOW && strstr(f.evidence[0], "disagree"),
	      "analysis: writes copying eight erase blocks lower the confidence to low", "%s", f.evidence[0]);
	f.nevidence = 0;
	f.conf = CONF_HIGH;
	erase_write_check(&f, 50e6, 20 << 20);
	check(f.conf == CONF_MEDIUM, "analysis: a copy faster than writes is a doubt, not a refutation", "conf %d",
	      f.conf);

	analyze_min_write(t, 6, &f);
	check(f.determined && f.value == 128 << 10 && f.conf == CONF_HIGH,
	      "analysis: the smallest efficient write is where time stops shrinking", "value %llu conf %d",
	      (unsigned long long)f.value, f.conf);
	{
		/* below the minimum a write still pays its own bytes over the
		 * interface (80 MB/s; the flash programs 32 KiB at 26.7 MB/s):
		 * the knee is where the flash's time starts to grow, not the
		 * 3x2^n size below it that the flat model would pick */
		struct chunk_time ck[19];
		size_t nk = 0;
		for (uint64_t p2 = 1 << 20; p2 >= 2048 && nk < 19; p2 /= 2)
			for (int h = 0; h < 2 && nk < 19; h++) {
				uint64_t sz = h ? p2 * 3 / 4 : p2;
				if (sz < 2048 || (nk && sz >= ck[nk - 1].size))
					continue;
				ck[nk].size = sz;
				ck[nk].ns = 300e3 + (double)sz / 80e6 * 1e9 + (double)(sz > 32768 ? sz : 32768) / 26.7e6 * 1e9;
				ck[nk].spread = 0.01 * ck[nk].ns;
				nk++;
			}
		analyze_min_write(ck, nk, &f);
		check(f.determined && f.value == 32768 && f.conf == CONF_HIGH && strstr(f.evidence[0], "the interface"),
		      "analysis: writes that pay their own bytes below the minimum: the knee, high", "value %llu conf %d %s",
		      (unsigned long long)f.value, f.conf, f.evidence[0]);
	}
	{
		/* every size efficient: a fixed 300us plus 20MB/s is flash; small
		 * writes faster per byte than large ones (a cache) are not */
		struct chunk_time ck[6];
		struct finding page;
		for (int i = 0; i < 6; i++) {
			ck[i].size = (1u << 20) >> (2 * i);
			ck[i].ns = 300e3 + ck[i].size / 20e6 * 1e9;
			ck[i].spread = 0;
		}
		analyze_min_write(ck, 6, &f);
		check(f.at_most && f.conf == CONF_HIGH, "analysis: every size efficient on flash: high",
		      "at_most %d conf %d", f.at_most, f.conf);
		finding_init(&page, "page", "page size (read unit)", 1);
		page.determined = 1;
		page.value = 16384;
		page.conf = CONF_HIGH;
		min_write_plausible(&f, &page);
		check(f.conf == CONF_MEDIUM && strstr(f.evidence[f.nevidence - 1], "programs a page whole"),
		      "analysis: a minimum write below the read unit is medium at most", "conf %d", f.conf);
		for (int i = 0; i < 6; i++)
			ck[i].ns = ck[i].size / (i == 5 ? 16.5e6 : 8.3e6) * 1e9 + 1e3 * i;
		analyze_min_write(ck, 6, &f);
		check(f.conf <= CONF_MEDIUM && strstr(f.evidence[f.nevidence - 1], "faster per byte"),
		      "analysis: small writes faster per byte than large ones are not the flash's timing",
		      "conf %d", f.conf);
	}
	analyze_fat(fat, 4, 4 << 20, &f);
	check(f.determined && f.value == 2 && f.conf == CONF_HIGH && strstr(f.evidence[0], "small writes"),
	      "analysis: two leading FAT erase blocks, one faster, one in random-access mode",
	      "value %llu conf %d", (unsigned long long)f.value, f.conf);
	analyze_open(lin, 4, 16, 0, 32768, 2e6, &f);
	check(f.determined && f.value == 2 && !f.at_least && f.conf == CONF_HIGH,
	      "analysis: the open-AU knee, confirmed", "value %llu conf %d", (unsigned long long)f.value, f.conf);
	check(!write_collapsed(4e6, 2e6, 0) && write_collapsed(6e6, 2e6, 0) && write_collapsed(30e6, 2e6, 200e6) &&
	      !write_collapsed(15e6, 2e6, 200e6),
	      "analysis: collapse at 2.5x, or past the geometric middle of a known collapse", "wrong verdicts");
}

/* A write cache shows in one burst (32 writes one per erase block, then
 * linear ones) as linear writes that wait for earlier work, or that slow
 * down for good once it is full; garbage collection paid at once shows none. */
static void test_analyze_cache(void)
{
	double t[128];
	struct write_cache w;
	enum cache_verdict v;

	for (int i = 0; i < 64; i++)
		t[i] = i >= 2 && i < 32 ? 200e6 : 2e6; /* two open erase blocks, then GC each */
	t[32] = 20e6;                               /* its own erase block's opening */
	t[49] = 150e6;                              /* a pause */
	v = analyze_cache(t, 64, 32, 65536, &w);
	check(v == CACHE_NONE && w.steady == 2e6, "analysis: garbage collection paid at once, a pause: no write cache",
	      "verdict %d", v);
	for (int i = 0; i < 8; i++)
		t[i] = 1.5e6;                       /* the cache takes 8 */
	for (int i = 32; i < 40; i++)
		t[i] = 100e6;                       /* queued collections retire */
	v = analyze_cache(t, 64, 32, 65536, &w);
	check(v == CACHE_SEEN && w.bytes == 8 * 65536 && w.late == 150e6,
	      "analysis: linear writes late after garbage collection show a write cache", "verdict %d, %llu bytes", v,
	      (unsigned long long)w.bytes);
	for (int i = 0; i < 128; i++)
		t[i] = i < 96 ? 1.5e6 : 3e6;
	t[100] = 150e6;
	v = analyze_cache(t, 96, 32, 65536, &w);
	check(v == CACHE_UNDECIDED, "analysis: writes at one speed throughout: no cache yet, and none ruled out",
	      "verdict %d", v);
	v = analyze_cache(t, 128, 32, 65536, &w);
	check(v == CACHE_SEEN && w.bytes == 96 * 65536,
	      "analysis: linear writes slowing for good show a write cache that filled", "verdict %d, %llu bytes", v,
	      (unsigned long long)w.bytes);
}

static void test_budget(void)
{
	struct budget b = { .bytes = 100 << 20, .ns = 10e9 };

	check(budget_default_bytes(8ULL << 30, 4 << 20) == 146ULL << 20 &&
		      budget_default_bytes(64ULL << 30, 4 << 20) == 320ULL << 20 &&
		      budget_default_bytes(2ULL << 30, 16 << 20) == 277ULL << 20,
	      "budget: 1% of the medium (at most 256MiB) plus what its erase blocks need, in MiB",
	      "%llu %llu %llu", (unsigned long long)budget_default_bytes(8ULL << 30, 4 << 20) >> 20,
	      (unsigned long long)budget_default_bytes(64ULL << 30, 4 << 20) >> 20,
	      (unsigned long long)budget_default_bytes(2ULL << 30, 16 << 20) >> 20);
	budget_spent(&b, 60 << 20, 4e9, 0.5e9, 1e6, 30, 1);
	check(budget_check(&b, 40 << 20, 1e9) == 0 && budget_check(&b, (40 << 20) + 1, 1e9) == 2 &&
		      budget_check(&b, 0, 5.4e9) == 0 && budget_check(&b, 0, 5.6e9) == 2,
	      "budget: a step passes only when its bytes and its time plus one slow write fit the bound", "wrong");
	budget_part(&b, 1, 4, 20 << 20);
	check(b.part_ns == 4e9 + 6e9 / 4 && b.part_bytes == 80 << 20 && !budget_part_spent(&b),
	      "budget: a part gets its share of the time left, the bytes left less what later parts need",
	      "%g %llu", b.part_ns, (unsigned long long)b.part_bytes);
	budget_spent(&b, 20 << 20, 0, 0, 0, 0, 1);
	check(budget_part_spent(&b), "budget: a part that wrote its share is spent", "not spent");
}

static void test_unmapped(void)
{
	struct data_probe p[64];
	struct data_split s;

	/* a used card: reads where data are cost 700us and 160us more across
	 * a boundary; elsewhere 150us, flat */
	for (int i = 0; i < 64; i++) {
		int data = i >= 20 && i < 40;
		p[i].pos = (uint64_t)i << 24;
		p[i].level = (data ? 700e3 : 150e3) + (i % 5) * 1e3;
		p[i].cross = data ? 160e3 + (i % 3) * 1e3 : (i % 3) * 1e3;
	}
	unmapped_split(p, 64, &s);
	check(s.seen && s.nfast == 44 && s.lo == 20ULL << 24 && s.hi == 39ULL << 24 && s.threshold > 160e3 &&
		      s.threshold < 690e3, "unmapped: fast flat reads are told from reads of data, and where the data are",
	      "seen %d nfast %u [%llu, %llu] threshold %g", s.seen, s.nfast, (unsigned long long)s.lo,
	      (unsigned long long)s.hi, s.threshold);
	for (int i = 0; i < 64; i++) /* a FAT area read twice as fast: still flash */
		if (p[i].level < 300e3)
			p[i].cross = 80e3 + (i % 3) * 1e3;
	unmapped_split(p, 64, &s);
	check(!s.seen, "unmapped: reads faster but not flat (a FAT area in faster blocks) are flash", "seen");
	for (int i = 0; i < 64; i++) {
		p[i].level = 700e3 + (i % 7) * 3e3;
		p[i].cross = 160e3;
	}
	unmapped_split(p, 64, &s);
	check(!s.seen, "unmapped: reads that cost the same everywhere show nothing", "seen");
}

/* Scan points whose reads found no data (not a number) are left out: a 4 MiB
 * erase block still shows when a third of the points in the scan are. */
static void test_scan_without_data(void)
{
	struct scan_level lv[8];
	struct read_levels rl = { .noise = 2000, .step = 10000, .page_diff = 160000, .unit = 16384 };
	struct finding f;
	size_t n = 0;

	for (uint64_t a = 512 << 10; a <= (64ULL << 20) && n < 8; a *= 2, n++) {
		lv[n].step = a;
		lv[n].npoints = SCAN_POINTS;
		for (unsigned j = 1; j <= SCAN_POINTS; j++)
			lv[n].d[j - 1] = (j * 7 + n) % 3 == 0 ? NAN : (j * a) % (4 << 20) ? 160000 + (j % 3) * 1000 : 460000;
	}
	analyze_erase(lv, n, &rl, NULL, 0, 8ULL << 30, &f);
	check(f.determined && f.value == 4 << 20, "analysis: scan points without data (NaN) are left out",
	      "determined %d value %llu: %s", f.determined, (unsigned long long)f.value, f.why);
}

/* A signal stops --auto --write during the cache probe (here: after the
 * requests of the reads and a few more): the reads' findings stay, the
 * write findings say the run was interrupted. */
static volatile sig_atomic_t auto_stop;
static void stop_after(void *ctx, const struct auto_progress *now)
{
	if (now->requests > *(const uint64_t *)ctx)
		auto_stop = 1;
}

static void test_auto_stopped(void)
{
	struct dev *d = NULL;
	struct auto_report *r = malloc(sizeof(*r));
	uint64_t after = 4824 + 20;
	struct auto_options o = { .write = 1, .stop = &auto_stop, .progress = stop_after, .progress_ctx = &after };
	struct fb_err e;
	int rc;

	if (dev_open(&d, "sim:sd-4m", DEV_READWRITE, &e) || !r) {
		check(0, "auto: open sim:sd-4m", "%s", r ? e.msg : "out of memory");
		free(r);
		dev_close(d);
		return;
	}
	rc = characterize(d, &o, r, &e);
	check(rc == 0 && r->interrupted && r->stopped_in == PHASE_CACHE && r->page.determined && r->erase.determined &&
		      r->erase.value == 4 << 20 && !r->min_write.determined &&
		      strstr(r->min_write.why, "interrupted: the run was stopped by a signal before it was measured") &&
		      strstr(r->cache_area.why, "while measuring it") && strstr(r->fat.why, "interrupted") && r->rec.have &&
		      r->bound_bytes == 146ULL << 20,
	      "auto: a run stopped in the write tests keeps the reads' findings, the rest say it was interrupted",
	      "rc %d interrupted %d in %d page %d erase %llu min_write '%s'", rc, r->interrupted, (int)r->stopped_in,
	      r->page.determined, (unsigned long long)r->erase.value, r->min_write.why);
	free(r);
	dev_close(d);
}

/* Issue 20's hostile findings G1, G2, G11, G12, G13: a finding is never
 * surer than the data it rests on. */
static void test_crosscheck(void)
{
	struct chunk_time t[6] = {
		{ 65536, 3425000, 0 }, { 49152, 2643750, 0 }, { 32768, 1862500, 0 },
		{ 24576, 1471875, 500000 }, { 16384, 1581250, 0 }, { 8192, 1581250, 0 },
	};
	struct finding f, from;
	struct open_trial tr[2] = { { .n = 1, .mean_ns = 1862500 }, { .n = 2, .mean_ns = 6080000, .collapsed = 1 } };
	struct read_levels rl = { .page_diff = 85714 };
	struct scan_level lv = { .step = 2 << 20, .npoints = 16 };

	finding_init(&f, "min_write", "smallest efficient write", 1);
	f.determined = 1, f.value = 24576, f.conf = CONF_HIGH;
	min_write_order(t, 6, &f);
	check(f.conf == CONF_MEDIUM && strstr(f.evidence[0], "24KiB writes disagree among themselves"),
	      "crosscheck: a minimum resting on a size whose writes are mixed is not high", "conf %d '%s'", f.conf,
	      f.evidence[0]);
	t[3].spread = 0, t[3].ns = 1581250, t[4].ns = 1700000;
	f.conf = CONF_HIGH, f.nevidence = 0;
	min_write_order(t, 6, &f);
	check(f.conf == CONF_MEDIUM && strstr(f.evidence[0], "a 16KiB write took longer than a 24KiB write"),
	      "crosscheck: a smaller write slower than a larger one (beyond both spreads) is not high", "conf %d",
	      f.conf);
	t[4].ns = 1581250;
	f.conf = CONF_HIGH, f.nevidence = 0;
	min_write_order(t, 6, &f);
	check(f.conf == CONF_HIGH && !f.nevidence, "crosscheck: consistent sizes keep a high minimum", "conf %d", f.conf);

	finding_init(&f, "open_linear", "open erase blocks, linear", 0);
	f.determined = 1, f.value = 16, f.at_least = 1, f.conf = CONF_HIGH;
	open_baseline(&f, 99135357, 1862500, 32768);
	check(f.conf == CONF_MEDIUM, "crosscheck: a healthy baseline 50x the sweep's time for that size is not a promise",
	      "conf %d", f.conf);
	f.conf = CONF_HIGH;
	open_baseline(&f, 1900000, 1862500, 32768);
	check(f.conf == CONF_HIGH, "crosscheck: a baseline at the sweep's pace keeps the count", "conf %d", f.conf);

	finding_init(&f, "open_random", "open erase blocks, random order", 0);
	f.determined = 1, f.value = 1, f.conf = CONF_HIGH;
	open_collapse_is_gc(&f, tr, 2, 1080000, 200e6);
	check(f.conf == CONF_LOW, "crosscheck: 5ms more per write is no copy of a 200ms erase block: low", "conf %d",
	      f.conf);
	f.conf = CONF_HIGH, tr[1].mean_ns = 190e6;
	open_collapse_is_gc(&f, tr, 2, 1080000, 200e6);
	check(f.conf == CONF_HIGH, "crosscheck: a collapse that copies about an erase block stays", "conf %d", f.conf);

	finding_init(&f, "page", "page size (read unit)", 1);
	f.determined = 1, f.value = 1 << 20, f.conf = CONF_HIGH;
	for (unsigned j = 0; j < 16; j++)
		lv.d[j] = (j + 1) % 3 ? 0 : 300000;
	check(page_not_every_multiple(&f, &rl, &lv, 1),
	      "crosscheck: a read unit that most of its multiples do not show is a larger boundary", "%s", "returned 0");
	for (unsigned j = 0; j < 16; j++)
		lv.d[j] = 85714 + ((j + 1) % 3 ? 0 : 300000);
	check(!page_not_every_multiple(&f, &rl, &lv, 1), "crosscheck: a read unit at every multiple stays", "%s", "returned 1");

	finding_init(&from, "erase_block", "erase block size", 1);
	from.determined = 1, from.value = 96 << 10, from.conf = CONF_MEDIUM;
	finding_init(&f, "min_write", "smallest efficient write", 1);
	f.determined = 1, f.value = 48 << 10, f.conf = CONF_HIGH;
	finding_cap(&f, from.conf, "no surer than the %s it was measured with", from.title);
	check(f.conf == CONF_MEDIUM && f.nevidence == 1, "crosscheck: a finding is capped with its reason", "conf %d",
	      f.conf);
}

/* The hostile test of issue 22 (F2, F3, F6): findings surer than the data
 * on noisy and pausing cards, and evidence that contradicts itself. */
static void test_misbehaving(void)
{
	struct finding f;

	{ /* a pause made the first look at one erase block collapse; two more
	   * looks were healthy, and two erase blocks collapsed twice */
		struct open_trial t[6] = { { 1, 20e6, 1, 2, 5, 2, 5 }, { 1, 2e6, 0, 0, 6, 0, 6 }, { 1, 2e6, 0, 0, 6, 0, 6 },
					   { 2, 190e6, 1, 2, 4, 2, 2 }, { 1, 2e6, 0, 0, 6, 0, 6 }, { 2, 190e6, 1, 2, 4, 2, 2 } };
		analyze_open(t, 6, 16, 1, 32768, 2e6, &f);
		check(f.determined && f.value == 1 && f.conf == CONF_MEDIUM && strstr(f.evidence[f.nevidence - 1], "outvoted"),
		      "analysis: an open-AU count whose trials disagree is the majority's, medium",
		      "value %llu conf %d", (unsigned long long)f.value, f.conf);
	}
	{ /* one erase block in random order collapsed twice, each time in 2
	   * writes of a few, while healthy trials had no slow write in 24 */
		struct open_trial lin[2] = { { 1, 2e6, 0, 0, 12, 0, 12 }, { 2, 2e6, 0, 0, 12, 0, 6 } };
		struct open_trial t[2] = { { 1, 50e6, 1, 2, 5, 2, 5 }, { 1, 48e6, 1, 2, 3, 2, 3 } };
		analyze_open(t, 2, 16, 1, 32768, 2e6, &f);
		open_pause_check(&f, t, 2, lin, 2);
		check(f.determined && f.value == 0 && f.conf == CONF_MEDIUM && strstr(f.evidence[f.nevidence - 1], "pauses"),
		      "analysis: a collapse that pauses could make (2 slow writes of 5, then of 3) is not high",
		      "value %llu conf %d", (unsigned long long)f.value, f.conf);
		t[0].worst_writes = t[1].worst_writes = 2;
		analyze_open(t, 2, 16, 1, 32768, 2e6, &f);
		open_pause_check(&f, t, 2, lin, 2);
		check(f.conf == CONF_HIGH, "analysis: every write slow in both collapsed trials, none in 24 healthy: high",
		      "conf %d", f.conf);
	}
	{ /* sizes that fit "a fixed time plus the transfer" only with a fixed
	   * time below zero */
		struct chunk_time t[6];
		for (int i = 0; i < 6; i++) {
			t[i].size = (1u << 20) >> i;
			t[i].ns = (i >= 4 ? (1u << 20) >> 4 : t[i].size) / 20e6 * 1e9 - 1e6;
			t[i].spread = 0;
		}
		analyze_min_write(t, 6, &f);
		check(f.determined && f.value == 64 << 10 && f.conf <= CONF_MEDIUM && !strstr(f.evidence[0], "fixed -"),
		      "analysis: a minimum write whose fit needs a fixed time below zero is medium at most",
		      "value %llu conf %d: %s", (unsigned long long)f.value, f.conf, f.evidence[0]);
		t[4].ns = 90e6; /* the size below the minimum hit a pause */
		analyze_min_write(t, 6, &f);
		check(!strstr(f.evidence[0], "about as long as"),
		      "analysis: the evidence does not call 90ms about as long as 2.3ms", "%s", f.evidence[0]);
	}
	{ /* a 12 MiB erase block read with a little noise: two odd multiples of
	   * 6 MiB a little above the others must not make it 6 MiB */
		struct scan_level lv[12];
		struct read_levels rl = { .noise = 1400, .step = 14500, .page_diff = 155000, .unit = 16384 };
		size_t n = 0;
		for (uint64_t a = 32 << 10; a <= (64ULL << 20) && n < 12; a *= 2, n++) {
			lv[n].step = a;
			lv[n].npoints = SCAN_POINTS;
			for (unsigned j = 1; j <= SCAN_POINTS; j++)
				lv[n].d[j - 1] = (j * a) % (12 << 20) ? 150000 + (j * 37 + n * 11) % 10 * 1000 : 455000;
		}
		lv[6].d[2] = 180000;  /* 6 MiB */
		lv[6].d[14] = 174000; /* 30 MiB */
		analyze_erase(lv, n, &rl, NULL, 0, 3840ULL << 20, &f);
		check(f.determined && f.value == 12 << 20, "analysis: odd multiples of 6MiB barely above the rest do not make "
		      "a 12MiB erase block 6MiB", "determined %d value %llu", f.determined, (unsigned long long)f.value);
	}
	{ /* the block after the FAT area hit a pause: not "like the middle" */
		struct fat_probe fat[2] = {
			{ { 400e3, 900e3, 300e3 }, { 1000e3, 2000e3, 1000e3 } },
			{ { 120e6, 130e6, 120e6 }, { 1000e3, 2000e3, 1000e3 } },
		};
		analyze_fat(fat, 2, 4 << 20, &f);
		check(f.value == 1 && f.conf == CONF_MEDIUM && strstr(f.evidence[0], "erase block 0 (the first 4MiB) is") &&
		      strstr(f.evidence[1], "slower than the middle"),
		      "analysis: a FAT area whose next block was disturbed is medium, and says so", "conf %d: %s", f.conf,
		      f.nevidence > 1 ? f.evidence[1] : "");
	}
}

/* The progress line's time left must not grow while a part runs past its
 * usual time (F10): a part whose share of the plan reached its cap says it
 * is late; each part starts on time. */
struct progress_log {
	unsigned n, late, late_at_start;
	int phase;
};
static void log_progress(void *ctx, const struct auto_progress *now)
{
	struct progress_log *l = ctx;
	if ((!l->n || (int)now->phase != l->phase) && now->late)
		l->late_at_start++;
	l->late += now->late != 0;
	l->phase = (int)now->phase;
	l->n++;
}

static void test_progress_late(void)
{
	struct dev *d = NULL;
	struct auto_report *r = malloc(sizeof(*r));
	struct progress_log l = { 0 };
	struct auto_options o = { .write = 1, .progress = log_progress, .progress_ctx = &l };
	struct fb_err e;

	if (dev_open(&d, "sim:sd-4m,pause=0.3,pausetime=400ms,seed=2", DEV_READWRITE, &e) || !r) {
		check(0, "auto: open a pausing sim", "%s", r ? e.msg : "out of memory");
		free(r);
		dev_close(d);
		return;
	}
	characterize(d, &o, r, &e);
	check(l.n > 100 && l.late > 0 && l.late_at_start == 0,
	      "auto: progress: a part past its usual time says it is late (no time left that grows)",
	      "%u updates, %u late, %u late at a part's start", l.n, l.late, l.late_at_start);
	free(r);
	dev_close(d);
}

void unit_auto(void)
{
	test_analysis();
	test_analyze_cache();
	test_budget();
	test_unmapped();
	test_scan_without_data();
	test_auto_stopped();
	test_crosscheck();
	test_misbehaving();
	test_progress_late();
}
