/* tests/unit/auto.c — unit tests of auto/: the analysis of measurements
 * (findings, write caches). */
#include <stdio.h>
#include <string.h>

#include "auto/analyze.h"
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
	struct open_trial lin[4] = { { 1, 2e6, 0 }, { 2, 2e6, 0 }, { 3, 200e6, 1 }, { 2, 2e6, 0 } };

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


void unit_auto(void)
{
	test_analysis();
	test_analyze_cache();
}
