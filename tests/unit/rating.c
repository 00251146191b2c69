/* tests/unit/rating.c — unit tests of --rating's parts, kept in a file of
 * their own while other engineers change dev.c's and auto.c's: the SD
 * register decoder (dev/sdreg.c) on real register dumps whose meaning is
 * published (each cited where it is used); the simulator's rating keys
 * and the truth of the rating zoo's cards (dev/sim_rating.c); the VM's
 * queue; the verdicts (auto/rating_verdict.c) on measurements made up to
 * sit on each side of each rule. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto/rating.h"
#include "dev.h"
#include "dev/sdreg.h"
#include "dev/sim.h"
#include "prog/progfile.h"
#include "tests/unit/unit.h"
#include "vm.h"

/* ------------------------------------------------------------ registers */

/* QEMU 7.2's emulated card, read by Debian's kernel in the lab
 * (/work/shared/notes/real-kernel-lab.md, "a. SD card"): the kernel showed
 * name QEMU!, manfid 0xaa, oemid 0x5859, date 02/2006, serial 0xdeadbeef, a
 * 512 MiB card, and an SD Status of 64 zero bytes. */
static void test_qemu_card(void)
{
	struct sd_cid c = { 0 };
	struct sd_csd d = { 0 };
	struct sd_scr s = { 0 };
	struct sd_ssr r = { 0 };
	const struct sd_mark *claims[SD_FAMILIES];
	char zeros[129];

	memset(zeros, '0', 128);
	zeros[128] = '\0';
	check(!sd_decode_cid("aa585951454d552101deadbeef006200\n", &c) && c.mid == 0xaa &&
		      !strcmp(c.oem, "XY") && !strcmp(c.name, "QEMU!") && c.serial == 0xdeadbeef &&
		      c.year == 2006 && c.month == 2 && !c.maker,
	      "sdreg: QEMU's CID (name, OEM, serial, date as the kernel shows them)",
	      "mid %#x oem %s name %s %u/%u", c.mid, c.oem, c.name, c.month, c.year);
	check(!sd_decode_csd("002600325f59e1ffffffdfff92600000", &d) && d.version == 1 &&
		      d.capacity == 512ull << 20 && d.max_rate_kbit == 25000,
	      "sdreg: QEMU's CSD is version 1.0 of 512MiB at 25Mbit/s", "v%u %llu bytes %u kbit/s",
	      d.version, (unsigned long long)d.capacity, d.max_rate_kbit);
	check(!sd_decode_scr("0225000000000000", &s) && !strcmp(s.spec, "2.00") &&
		      s.bus_widths == 5,
	      "sdreg: QEMU's SCR says spec 2.00, 1- and 4-bit bus", "%s widths %u", s.spec,
	      s.bus_widths);
	check(!sd_decode_ssr(zeros, &r) && r.blank && !r.au && sd_ssr_claims(&r, claims) == 0,
	      "sdreg: QEMU's blank SD Status claims nothing and states no AU", "blank %d au %llu",
	      r.blank, (unsigned long long)r.au);
}

/* linux-mmc, June 2023, thread "[PATCH] [RFC] Revert "mmc: core: Fixup
 * support for writeback-cache for eMMC and SD"" (Marek Vasut, Ulf Hansson,
 * Adrian Hunter): the SD Status of four cards sold as U3 V30 A2, three of
 * them named with their marks, whose cache flush (SSR bit 330, "the 2ff in
 * the 6th field") was under test; and one card's whole sysfs directory
 * with the kernel's own decoding beside the raw registers. */
static void test_cards_with_marks(void)
{
	static const struct {
		const char *card, *ssr;
		uint64_t au;
		unsigned erase_size, erase_timeout, cq, cache, host_maint;
	} cards[] = {
		/* the sysfs ssr of the Kingston card (the same register Marek Vasut
		 * listed word by word, there with bus width bits 10) */
		{ "Kingston Canvas Go! Plus",
		  "000000000800000004009000011b391e000800000002ff000300000000000000"
		  "0000000000000000000000000000000000000000000000000000000000000000",
		  4 << 20, 1, 6, 32, 1, 1 },
		{ "SanDisk Extreme PRO A2 64GiB",
		  "8000000008000000040090000f05391e000800000002fc000300000000000000"
		  "0000000000000000000000000000000000000000000000000000000000000000",
		  4 << 20, 15, 1, 32, 1, 0 },
		{ "Goodram IRDM V30 A2 64GiB",
		  "80000000080000000400a00100fd3a1e0008000000023c000000000000000000"
		  "0000000000000000000000000000000000000000000000000000000000000000",
		  8 << 20, 256, 63, 8, 1, 0 },
		{ "Samsung Pro Plus 512GiB V30 A2",
		  "8000000008000000040090000811391e000800000002fc000000000000000000"
		  "0000000000000000000000000000000000000000000000000000000000000000",
		  4 << 20, 8, 4, 32, 1, 0 },
	};
	const struct sd_mark *claims[SD_FAMILIES];
	struct sd_cid c = { 0 };
	struct sd_csd d = { 0 };
	struct sd_scr s = { 0 };

	for (size_t i = 0; i < sizeof(cards) / sizeof(cards[0]); i++) {
		struct sd_ssr r = { 0 };
		char name[96];
		int ok = !sd_decode_ssr(cards[i].ssr, &r) && sd_ssr_claims(&r, claims) == 4;
		snprintf(name, sizeof(name), "sdreg: %s's SD Status claims C10 U3 V30 A2",
			 cards[i].card);
		check(ok && !strcmp(claims[SD_FAMILY_CLASS]->name, "C10") &&
			      !strcmp(claims[SD_FAMILY_UHS]->name, "U3") &&
			      !strcmp(claims[SD_FAMILY_VIDEO]->name, "V30") &&
			      !strcmp(claims[SD_FAMILY_APP]->name, "A2"),
		      name, "class %u uhs %u vsc %u app %u", r.speed_class, r.uhs_grade, r.vsc,
		      r.app_perf);
		snprintf(name, sizeof(name), "sdreg: %s's AU, erase and queue fields",
			 cards[i].card);
		check(ok && r.au == cards[i].au && r.uhs_au == cards[i].au &&
			      r.erase_size == cards[i].erase_size &&
			      r.erase_timeout == cards[i].erase_timeout &&
			      r.cq_depth == cards[i].cq && r.cache == (int)cards[i].cache &&
			      r.host_maint == (int)cards[i].host_maint && r.vsc_au_mib == 8 &&
			      r.su_mib == 8 && sd_ssr_au_for(&r, sd_mark_find("V30")) == 8 << 20 &&
			      sd_ssr_au_for(&r, sd_mark_find("U3")) == cards[i].au,
		      name,
		      "au %llu uhs_au %llu erase %u/%us cq %u cache %d maint %d vsc au %u su %u",
		      (unsigned long long)r.au, (unsigned long long)r.uhs_au, r.erase_size,
		      r.erase_timeout, r.cq_depth, r.cache, r.host_maint, r.vsc_au_mib, r.su_mib);
	}
	/* the Kingston card's sysfs (a card dated 04/2023): cid, csd, scr beside
	 * the kernel's date:04/2023 fwrev:0x1 hwrev:0x6 manfid:0x00009f
	 * name:SD64G oemid:0x5449 serial:0x4b1004af preferred_erase_size:4194304 */
	check(!sd_decode_cid("9f54495344363447614b1004af017400", &c) && c.mid == 0x9f &&
		      !strcmp(c.oem, "TI") && !strcmp(c.name, "SD64G") && c.hwrev == 6 &&
		      c.fwrev == 1 && c.serial == 0x4b1004af && c.year == 2023 && c.month == 4 &&
		      c.maker && strstr(c.maker, "Kingston"),
	      "sdreg: the Kingston card's CID as the kernel decoded it",
	      "%#x %s %s %u.%u %#x %u/%u %s", c.mid, c.oem, c.name, c.hwrev, c.fwrev, c.serial,
	      c.month, c.year, c.maker ? c.maker : "-");
	check(!sd_decode_csd("400e00325b590001cf9f7f800a400000", &d) && d.version == 2 &&
		      d.capacity == (0x1cf9full + 1) << 19,
	      "sdreg: the Kingston card's CSD: version 2.0, 58GiB", "v%u %llu", d.version,
	      (unsigned long long)d.capacity);
	check(!sd_decode_scr("0205848701006432", &s) && !strcmp(s.spec, "6.XX") &&
		      (s.cmd_support & 1),
	      "sdreg: the Kingston card's SCR: spec 6.XX, CMD20 supported", "%s cmd %#x", s.spec,
	      s.cmd_support);
}

/* armbian/build pull request 246 (Thomas Kaiser, 2016): armhwinfo's log of
 * a card's sysfs with the kernel's decoding: cid 2750484... name SD16G,
 * manfid 0x27, oemid 0x5048, date 11/2015, serial 0xda89b829, hwrev 0x3,
 * fwrev 0x0, a 16GB card; scr 0235800201000000. */
static void test_armbian_card(void)
{
	struct sd_cid c = { 0 };
	struct sd_csd d = { 0 };
	struct sd_scr s = { 0 };

	check(!sd_decode_cid("275048534431364730da89b82900fb61", &c) && c.mid == 0x27 &&
		      !strcmp(c.oem, "PH") && !strcmp(c.name, "SD16G") && c.hwrev == 3 &&
		      c.fwrev == 0 && c.serial == 0xda89b829 && c.year == 2015 && c.month == 11 &&
		      c.maker && strstr(c.maker, "Phison"),
	      "sdreg: armhwinfo's card's CID as its kernel decoded it", "%#x %s %s %u/%u", c.mid,
	      c.oem, c.name, c.month, c.year);
	check(!sd_decode_csd("400e00325b59000073a77f800a4000eb", &d) && d.version == 2 &&
		      d.capacity == (0x73a7ull + 1) << 19,
	      "sdreg: armhwinfo's card's CSD: 14.5GiB (a 16GB card)", "v%u %llu", d.version,
	      (unsigned long long)d.capacity);
	check(!sd_decode_scr("0235800201000000", &s) && !strcmp(s.spec, "3.0X") &&
		      s.security == 3 && s.cmd_support == 2,
	      "sdreg: armhwinfo's card's SCR: spec 3.0X, SDHC security, CMD23", "%s sec %u cmd %#x",
	      s.spec, s.security, s.cmd_support);
}

/* ironsheep/P2-uSD-FS DOCs/cards/sandisk-sn64g-64gb.md (a "SanDisk Extreme
 * 64GB U3 A2 V30" read register by register: SanDisk, "SD", "SN64G", rev
 * 8.6, serial 0x7E650771, 2022-11, C_SIZE 121811, SD 6.x), and
 * linux-automation/usbsdmux tests/reference/1b534d47...text (a Samsung
 * card: C_SIZE 977919, 512711720960 bytes; "SM", "GF8S5", rev 3.0, serial
 * 3628491619, 2022). */
static void test_published_decodes(void)
{
	struct sd_cid c = { 0 };
	struct sd_csd d = { 0 };
	struct sd_scr s = { 0 };

	check(!sd_decode_cid("035344534E363447867E650771016B8D", &c) && c.mid == 3 &&
		      !strcmp(c.maker, "SanDisk") && !strcmp(c.oem, "SD") &&
		      !strcmp(c.name, "SN64G") && c.hwrev == 8 && c.fwrev == 6 &&
		      c.serial == 0x7e650771 && c.year == 2022 && c.month == 11,
	      "sdreg: a SanDisk Extreme's CID (upper-case hex)", "%#x %s %s %u.%u %#x %u/%u", c.mid,
	      c.oem, c.name, c.hwrev, c.fwrev, c.serial, c.month, c.year);
	check(!sd_decode_csd("400E0032DB790001DBD37F800A4040F9", &d) && d.version == 2 &&
		      d.capacity == 121812ull << 19 && d.max_rate_kbit == 25000,
	      "sdreg: a SanDisk Extreme's CSD: C_SIZE 121811", "v%u %llu", d.version,
	      (unsigned long long)d.capacity);
	check(!sd_decode_scr("0245848700000000", &s) && !strcmp(s.spec, "6.XX") && s.security == 4,
	      "sdreg: a SanDisk Extreme's SCR: SD 6.x, SDXC security", "%s %u", s.spec, s.security);
	check(!sd_decode_csd("400e0032db79000eebff7f800a400000", &d) &&
		      d.capacity == 512711720960ull,
	      "sdreg: a Samsung card's CSD: 512711720960 bytes", "%llu",
	      (unsigned long long)d.capacity);
	check(!sd_decode_cid("1b534d474638533530d8466363a16700", &c) &&
		      !strcmp(c.maker, "Samsung") && !strcmp(c.name, "GF8S5") && c.hwrev == 3 &&
		      c.fwrev == 0 && c.serial == 3628491619u && c.year == 2022 && c.month == 7,
	      "sdreg: a Samsung card's CID (MDT month field 7: July)", "%s %s %u.%u %u %u/%u",
	      c.maker ? c.maker : "-", c.name, c.hwrev, c.fwrev, c.serial, c.month, c.year);
}

static void test_bad_text(void)
{
	struct sd_cid c = { 0 };
	struct sd_ssr r = { 0 };

	check(sd_decode_cid("aa585951454d552101deadbeef0062", &c) &&
		      sd_decode_cid("aa585951454d552101deadbeef006200aa", &c) &&
		      sd_decode_cid("aa585951454d552101deadbeef00620g", &c) &&
		      sd_decode_cid("", &c) && sd_decode_cid(NULL, &c) && sd_decode_ssr("0000", &r),
	      "sdreg: short, long, non-hex and missing text is refused", "-");
}

static void test_marks(void)
{
	const struct sd_mark *claims[SD_FAMILIES] = { sd_mark_find("c10"), sd_mark_find("U3"),
						      sd_mark_find("v60"), sd_mark_find("A1") };
	const struct sd_mark *back[SD_FAMILIES];
	struct sd_ssr r = { 0 };
	char hex[129];

	check(claims[0] && claims[0]->mbps == 10 && claims[1]->mbps == 30 &&
		      claims[2]->level == 60 && claims[3]->read_iops == 1500 &&
		      claims[3]->write_iops == 500 && sd_mark_find("10") == claims[0] &&
		      !sd_mark_find("U2") && !sd_mark_find("UHS-I"),
	      "sdreg: marks by name with what they promise", "-");
	check(sd_mark_below(claims[1]) == sd_mark_find("U1") &&
		      !sd_mark_below(sd_mark_find("U1")) &&
		      sd_mark_below(sd_mark_find("A2")) == claims[3] &&
		      !sd_mark_below(sd_mark_find("V6")) && !sd_mark_below(sd_mark_find("U1")),
	      "sdreg: the mark below stays in its family", "-");
	sd_ssr_encode(hex, claims, 16 << 20, 8, 1);
	check(strlen(hex) == 128 && !sd_decode_ssr(hex, &r) && sd_ssr_claims(&r, back) == 4 &&
		      back[0] == claims[0] && back[1] == claims[1] && back[2] == claims[2] &&
		      back[3] == claims[3] && r.au == 16 << 20 && r.uhs_au == 16 << 20 &&
		      r.vsc_au_mib == 16 && r.su_mib == 8 && r.cq_depth == 8 && r.cache,
	      "sdreg: an encoded SD Status decodes to what it claims", "%s", hex);
}

/* ------------------------------------------------------------ the simulator */

static struct sim *rating_sim(const char *spec, struct sim_params *p)
{
	struct fb_err e;
	struct sim *s = NULL;

	if (sim_parse(spec, p, &e) || sim_create(&s, p, &e)) {
		check(0, "sim: a rating card", "\"%s\": %s", spec, e.msg);
		return NULL;
	}
	return s;
}

static void test_sim_keys(void)
{
	struct sim_params p;
	struct sim_ssr_case {
		const char *spec;
		const char *want;
	} bad[] = {
		{ "ssr=U2", "no mark" },        { "ssr=00ff", "128 hex" },
		{ "aufast=1M", "go together" }, { "stallevery=4", "stall=TIME" },
		{ "cq=33", "0 to 32" },         { "aufast=8M,auslow=1M", "less than the erase" },
		{ "riops=x", "whole number" },  { "stall=2h", "at most 1 hour" },
	};
	struct fb_err e;
	struct sd_ssr r;
	const struct sd_mark *claims[SD_FAMILIES];
	char hex[129];
	struct sim *s;
	uint64_t a, b;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char name[96];
		snprintf(name, sizeof(name), "sim: %s is refused, saying why", bad[i].spec);
		check(sim_parse(bad[i].spec, &p, &e) && strstr(e.msg, bad[i].want), name, "%s",
		      e.msg);
	}
	check(!sim_parse("rating-u3", &p, &e) && (sim_ssr(&p, hex), !sd_decode_ssr(hex, &r)) &&
		      sd_ssr_claims(&r, claims) == 3 &&
		      !strcmp(claims[SD_FAMILY_UHS]->name, "U3") &&
		      !strcmp(claims[SD_FAMILY_VIDEO]->name, "V30") && r.au == 4 << 20 &&
		      r.uhs_au == 4 << 20,
	      "sim: rating-u3 reports an SD Status of C10 U3 V30 with its 4MiB AU", "%s", hex);
	check(!sim_parse("rating-u3,ssr=none", &p, &e) && (sim_ssr(&p, hex), !hex[0]),
	      "sim: ssr=none reports no SD Status (a USB reader's card)", "%s", hex);
	if ((s = rating_sim("erase=4M,riops=2000,wiops=500,link=20M", &p))) {
		a = sim_read(s, 64 << 20, 4096);
		b = sim_write(s, 96 << 20, 4096);
		/* riops: 1/N s for the read, its transfer at rrate (40M) on top */
		check(a == 500000 + 97656 && b == 2000000,
		      "sim: riops and wiops time a 4KiB request at 1/N s", "%llu %llu",
		      (unsigned long long)a, (unsigned long long)b);
		a = sim_read(s, 128 << 20, 4 << 20);
		check(a == 200000000, "sim: link=20M carries 4MiB in 200ms however fast the card",
		      "%llu", (unsigned long long)a);
		sim_destroy(s);
	}
	if ((s = rating_sim("erase=4M,wrate=20M,open=2,stall=400ms,stallevery=2", &p))) {
		uint64_t most[4] = { 0 };
		for (unsigned au = 0; au < 4; au++)
			for (uint64_t o = 0; o < 4 << 20; o += SD_RU) {
				uint64_t t = sim_write(s, (uint64_t)(10 + au) * (4 << 20) + o,
						       SD_RU);
				most[au] = t > most[au] ? t : most[au];
			}
		check(most[0] < 100000000 && most[1] > 400000000 && most[2] < 100000000 &&
			      most[3] > 400000000,
		      "sim: stall=400ms,stallevery=2 stalls the write completing every 2nd AU",
		      "%llu %llu %llu %llu", (unsigned long long)most[0],
		      (unsigned long long)most[1], (unsigned long long)most[2],
		      (unsigned long long)most[3]);
		sim_destroy(s);
	}
	if ((s = rating_sim("erase=16M,wrate=40M,aufast=4M,auslow=10M", &p))) {
		a = sim_write(s, 32 << 20, SD_RU);
		b = sim_write(s, (32 << 20) + (4 << 20), SD_RU);
		check(b > 3 * a,
		      "sim: aufast=4M,auslow=10M writes past an AU's first 4MiB at 10M/s",
		      "%llu %llu", (unsigned long long)a, (unsigned long long)b);
		sim_destroy(s);
	}
}

static void test_sim_queue(void)
{
	struct sim_params p;
	struct sim_req req[64];
	struct sim *s;
	uint64_t t[3];
	const char *specs[3] = { "rating-a2", "rating-a2,hostqd=1", "rating-a2,cq=0" };

	for (int k = 0; k < 3; k++) {
		t[k] = 0;
		if (!(s = rating_sim(specs[k], &p)))
			return;
		for (int i = 0; i < 64; i++)
			req[i] = (struct sim_req){ (uint64_t)(1000 + 17 * i) << 12, 4096, 0 };
		t[k] = sim_queue(s, req, 64, 32, NULL);
		sim_destroy(s);
	}
	check(t[0] * 2 == t[1] && t[1] == t[2] &&
		      llabs((long long)t[1] - 64 * (1000000000ll / 3000 + 4096000000000ll / (95 << 20))) < 256,
	      "sim: 64 queued reads overlap two at a time with cq=2; one at a time with hostqd=1 "
	      "or no queue",
	      "%llu %llu %llu", (unsigned long long)t[0], (unsigned long long)t[1],
	      (unsigned long long)t[2]);
}

/* The VM's queue: the requests of its body overlap as the device queues
 * them; its node holds them with the queue's time. */
static double queued_reads(const char *spec, const char *text, int *failed, char *msg)
{
	struct dev *d = NULL;
	struct fb_err e = { 0 };
	struct vm_op *prog = NULL;
	struct vm_result *res = NULL;
	struct prog_vars v = { .n = 0 };
	const char *format;
	double t = -1;

	*failed = dev_open(&d, spec, DEV_READWRITE, &e) ||
		  progfile_parse("t", text, &v, &prog, &format, &e) ||
		  vm_run(prog, d, NULL, &res, &e);
	if (!*failed)
		t = res->st.total_ns;
	if (!*failed && res->st.count != 64)
		t = -2;
	snprintf(msg, 200, "%.199s", e.msg);
	vm_result_free(res);
	vm_free(prog);
	dev_close(d);
	return t;
}

static void test_vm_queue(void)
{
	const char *q2 = "queue 32 keep\n  len 4K\n    off-linear 4M 64\n      read\n";
	const char *nested = "queue 4\n  queue 4\n    len 4K\n      read\n";
	const char *sig = "queue 4\n  len 4K\n    sig-write\n";
	char msg[200];
	int failed;
	double a = queued_reads("sim:rating-a2", q2, &failed, msg), b, c;

	b = queued_reads("sim:rating-a2,hostqd=1", q2, &failed, msg);
	c = queued_reads("sim:rating-a2", "len 4K\n  off-linear 4M 64\n    read\n", &failed, msg);
	check(a > 0 && fabs(b - 2 * a) < 64 && fabs(c - b) < 64,
	      "vm: queue 32 overlaps the card's 2 at once; a host of one at a time gains nothing",
	      "%g %g %g (%s)", a, b, c, msg);
	queued_reads("sim:rating-a2", nested, &failed, msg);
	check(failed && strstr(msg, "inside a queue"), "vm: a queue inside a queue is refused",
	      "%s", msg);
	queued_reads("sim:rating-a2", sig, &failed, msg);
	check(failed && strstr(msg, "reads and writes only"),
	      "vm: a queue takes reads and writes only", "%s", msg);
}

/* The zoo's truth: what each card keeps, and the figure it breaks first. */
static void test_sim_truth(void)
{
	static const struct {
		const char *spec, *mark;
		int keeps, figure;
		double lo, hi; /* the figure's value (0, 0: not checked) */
		int host;
	} want[] = {
		{ "rating-c10", "C10", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-u1", "U1", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-u3", "U3", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-u3", "V30", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-v60", "V60", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-a1", "A1", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-a2", "A2", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-a2,hostqd=1", "A2", 1, SD_FIG_NONE, 0, 0, 1 },
		{ "rating-a2,hostqd=1", "A1", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-u3,link=20M", "U3", 1, SD_FIG_NONE, 0, 0, 1 },
		{ "rating-u3,link=20M", "U1", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-lie-u3-cache", "U3", 0, SD_FIG_SUSTAINED, 11.5e6, 12.6e6, 0 },
		{ "rating-lie-u3-cache", "V30", 0, SD_FIG_SUSTAINED, 11.5e6, 12.6e6, 0 },
		{ "rating-lie-u3-cache", "U1", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-lie-u3-cache", "C10", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-lie-a2", "A2", 0, SD_FIG_WRITE_IOPS_Q, 1199, 1201, 0 },
		{ "rating-lie-a2", "A1", 0, SD_FIG_WRITE_IOPS, 299, 301, 0 },
		{ "rating-lie-a2", "U3", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-lie-c10-gc", "C10", 0, SD_FIG_PW, 6.8e6, 7.1e6, 0 },
		{ "rating-lie-v30-su", "V30", 0, SD_FIG_PW, 14e6, 15e6, 0 },
		{ "rating-lie-v30-su", "U3", 0, SD_FIG_PW, 14e6, 15e6, 0 },
		{ "rating-lie-v30-su", "V10", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-lie-v30-su", "C10", 1, SD_FIG_NONE, 0, 0, 0 },
		{ "rating-lie-u1-busy", "U1", 0, SD_FIG_BUSY, 280e6, 300e6, 0 },
		{ "rating-lie-u1-busy", "C10", 1, SD_FIG_NONE, 0, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct sim_params p;
		struct sim_truth t;
		struct fb_err e;
		const struct sd_mark *m = sd_mark_find(want[i].mark);
		const struct sim_truth_mark *k;
		char name[128];

		if (sim_parse(want[i].spec, &p, &e)) {
			check(0, "sim: truth", "%s: %s", want[i].spec, e.msg);
			continue;
		}
		sim_truth(&p, &t);
		k = &t.mark[m - sd_marks];
		snprintf(name, sizeof(name), "sim truth: %s %s %s%s%s", want[i].spec,
			 want[i].keeps ? "keeps" : "breaks", want[i].mark,
			 want[i].figure ? " by " : "", sd_figure_name[want[i].figure]);
		check(k->keeps == want[i].keeps && k->figure == want[i].figure &&
			      (!want[i].hi || (k->value >= want[i].lo && k->value <= want[i].hi)) &&
			      !k->host == !want[i].host,
		      name, "keeps %d figure %s value %g (limit %g) host %s", k->keeps,
		      sd_figure_name[k->figure], k->value, k->limit, k->host ? k->host : "-");
	}
}

/* ------------------------------------------------------------ verdicts */

/* A card that keeps everything by far, on a host that says it queues and
 * has no slow link; claims set by the caller. */
static void good_report(struct rating_report *r)
{
	memset(r, 0, sizeof(*r));
	r->size = 32ull << 30;
	r->au = 4 << 20;
	r->au_from = "the SD Status";
	r->su = 8 << 20;
	r->ru = SD_RU;
	r->discarded = 1;
	r->naus = 64;
	r->card.queue_known = r->card.link_known = 1;
	r->card.queue_depth = 32;
	r->pw4 = r->pw_su = r->sus_low4 = r->sus_low_su = r->sus_first_avg = r->pssw = 100e6;
	r->pr = r->read_speed = 120e6;
	r->busy = r->sus_busy = 20e6;
	r->fat_avg = r->fat_max = 2e6;
	r->riops1 = 5000;
	r->wiops1 = 2000;
	r->riops_q = 20000;
	r->wiops_q = 8000;
	r->riops_n[0] = r->riops_n[1] = r->wiops_n[0] = r->wiops_n[1] = 1000;
	r->sus_len = 1ull << 30;
}

static const struct rating_mark *verdict_of(const struct rating_report *r, const char *mark)
{
	for (unsigned i = 0; i < r->nmarks; i++)
		if (!strcmp(r->marks[i].mark->name, mark))
			return &r->marks[i];
	return NULL;
}

/* check that mark's verdict is want (NULL: no verdict for it) */
static void want_verdict(const struct rating_report *r, const char *what, const char *mark,
			 const char *want, int figure, enum confidence conf)
{
	const struct rating_mark *m = verdict_of(r, mark);
	char name[160];

	snprintf(name, sizeof(name), "rating verdict: %s: %s %s", what, mark,
		 want ? want : "not judged");
	if (!want) {
		check(!m, name, "judged %s", m ? rating_verdict_name[m->verdict] : "");
		return;
	}
	check(m && !strcmp(rating_verdict_name[m->verdict], want) &&
		      (figure < 0 || (int)m->figure == figure) &&
		      (conf == CONF_NONE || m->conf == conf),
	      name, "%s figure %s conf %s (%s)", m ? rating_verdict_name[m->verdict] : "none",
	      m ? sd_figure_name[m->figure] : "-", m ? confidence_name(m->conf) : "-",
	      m && m->nevidence ? m->evidence[0] : "");
}

static void test_verdicts(void)
{
	struct rating_report *r = calloc(1, sizeof(*r));

	if (!r)
		return;
	good_report(r);
	r->claimed[SD_FAMILY_UHS] = sd_mark_find("U3");
	r->claimed[SD_FAMILY_APP] = sd_mark_find("A2");
	rating_judge(r);
	want_verdict(r, "a card far above its marks", "U3", "meets", SD_FIG_NONE, CONF_HIGH);
	want_verdict(r, "a card far above its marks", "A2", "meets", SD_FIG_NONE, CONF_HIGH);
	want_verdict(r, "a mark met is not followed by the one below", "U1", NULL, 0, 0);

	/* a host that does not say its link: slow reads and writes close to
	 * them may be the link's; writes far below the reads are the card's */
	good_report(r);
	r->claimed[SD_FAMILY_UHS] = sd_mark_find("U3");
	r->card.queue_known = r->card.link_known = 0;
	r->read_speed = r->pr = 21e6;
	r->pw4 = r->sus_low4 = 19e6;
	rating_judge(r);
	want_verdict(r, "reads of 21 MB/s, writes of 19, the link not known", "U3", "untestable",
		     -1, CONF_MEDIUM);
	want_verdict(r, "reads of 21 MB/s, writes of 19, the link not known", "U1", "meets", -1,
		     CONF_NONE);
	good_report(r);
	r->claimed[SD_FAMILY_UHS] = sd_mark_find("U3");
	r->card.queue_known = r->card.link_known = 0;
	r->read_speed = r->pr = 25e6;
	r->pw4 = r->sus_low4 = 12e6;
	rating_judge(r);
	want_verdict(r, "reads of 25 MB/s, writes of 12, the link not known", "U3", "fails",
		     SD_FIG_PW, CONF_HIGH);
	good_report(r);
	r->claimed[SD_FAMILY_UHS] = sd_mark_find("U3");
	r->card.link_rate = 20000000;
	rating_judge(r);
	want_verdict(r, "a host whose link carries 20 MB/s", "U3", "untestable", -1, CONF_HIGH);

	/* A2: a host of one command at a time; a host that queues and a card
	 * that gains nothing; a host that does not say */
	good_report(r);
	r->claimed[SD_FAMILY_APP] = sd_mark_find("A2");
	r->card.queue_depth = 1;
	r->riops_q = r->riops1;
	r->wiops_q = r->wiops1;
	rating_judge(r);
	want_verdict(r, "a USB reader", "A2", "untestable", -1, CONF_HIGH);
	want_verdict(r, "a USB reader", "A1", "meets", -1, CONF_HIGH);
	r->card.queue_depth = 32;
	rating_judge(r);
	want_verdict(r, "a host that queues, a card that gains nothing", "A2", "fails",
		     SD_FIG_QUEUE, CONF_HIGH);
	r->card.queue_known = r->card.link_known = 0;
	r->card.queue_depth = 0;
	rating_judge(r);
	want_verdict(r, "no gain and a host that does not say", "A2", "untestable", -1,
		     CONF_MEDIUM);
	good_report(r);
	r->claimed[SD_FAMILY_APP] = sd_mark_find("A2");
	r->queued_writes_refused = 1;
	rating_judge(r);
	want_verdict(r, "queued writes the journal cannot see", "A2", "untestable", -1, CONF_NONE);

	/* the figures in the spec's order, and how sure */
	good_report(r);
	r->claimed[SD_FAMILY_UHS] = sd_mark_find("U1");
	r->busy = 290e6;
	rating_judge(r);
	want_verdict(r, "a write busy 290 ms", "U1", "fails", SD_FIG_BUSY, CONF_HIGH);
	good_report(r);
	r->claimed[SD_FAMILY_CLASS] = sd_mark_find("C10");
	r->busy = 290e6;
	rating_judge(r);
	want_verdict(r, "a write busy 290 ms (C10 has no busy limit)", "C10", "meets", -1,
		     CONF_HIGH);
	good_report(r);
	r->claimed[SD_FAMILY_CLASS] = sd_mark_find("C10");
	r->pw4 = 9.5e6;
	rating_judge(r);
	want_verdict(r, "Pw 5% short", "C10", "fails", SD_FIG_PW, CONF_MEDIUM);
	want_verdict(r, "Pw 5% short: the mark below", "C6", "meets", -1, CONF_HIGH);
	r->pw4 = 9.9e6;
	rating_judge(r);
	want_verdict(r, "Pw 1% short", "C10", "fails", SD_FIG_PW, CONF_LOW);
	r->pw4 = 10.5e6;
	rating_judge(r);
	want_verdict(r, "Pw 5% over the mark", "C10", "meets", -1, CONF_MEDIUM);
	r->pw4 = 30e6;
	r->sus_low4 = 6e6;
	rating_judge(r);
	want_verdict(r, "fast AUs, a slow recording", "C10", "fails", SD_FIG_SUSTAINED, CONF_HIGH);
	r->sus_low4 = 30e6;
	r->fat_avg = 150e6;
	rating_judge(r);
	want_verdict(r, "FAT writes of 150 ms on average", "C10", "fails", SD_FIG_FAT, CONF_HIGH);
	good_report(r);
	r->claimed[SD_FAMILY_CLASS] = sd_mark_find("C10");
	r->discarded = 0;
	r->pw4 = 8e6;
	rating_judge(r);
	want_verdict(r, "AUs not freed first", "C10", "fails", SD_FIG_PW, CONF_MEDIUM);
	good_report(r);
	r->claimed[SD_FAMILY_CLASS] = sd_mark_find("C10");
	r->au_from = "assumed (no AU known)";
	rating_judge(r);
	want_verdict(r, "the AU assumed", "C10", "meets", -1, CONF_MEDIUM);

	/* whose claims: the SD Status and the label side by side; none */
	good_report(r);
	r->claimed[SD_FAMILY_VIDEO] = sd_mark_find("V10");
	r->label[SD_FAMILY_VIDEO] = sd_mark_find("V30");
	r->pw_su = r->sus_low_su = 20e6;
	rating_judge(r);
	want_verdict(r, "the label says V30, the card V10", "V30", "fails", SD_FIG_PW, CONF_HIGH);
	want_verdict(r, "the label says V30, the card V10", "V10", "meets", -1, CONF_HIGH);
	check(verdict_of(r, "V30")->by == RATING_BY_LABEL &&
		      verdict_of(r, "V10")->by == RATING_BY_SSR,
	      "rating verdict: each claim says where it comes from", "%u %u",
	      verdict_of(r, "V30")->by, verdict_of(r, "V10")->by);
	good_report(r);
	r->pw4 = r->sus_low4 = r->pw_su = r->sus_low_su = 20e6;
	r->wiops1 = 300;
	rating_judge(r);
	want_verdict(r, "no claim: each family up to the first not met", "U1", "meets", -1,
		     CONF_HIGH);
	want_verdict(r, "no claim: each family up to the first not met", "U3", "fails", SD_FIG_PW,
		     CONF_HIGH);
	want_verdict(r, "no claim: each family up to the first not met", "V30", "fails", SD_FIG_PW,
		     CONF_HIGH);
	want_verdict(r, "no claim: each family up to the first not met", "V60", NULL, 0, 0);
	want_verdict(r, "no claim: each family up to the first not met", "A1", "fails",
		     SD_FIG_WRITE_IOPS, CONF_HIGH);
	want_verdict(r, "no claim: each family up to the first not met", "A2", NULL, 0, 0);
	free(r);
}

static void test_claims(void)
{
	const struct sd_mark *m[SD_FAMILIES];
	struct fb_err e;

	check(!rating_parse_claims("C10,U3,V30,A2", m, &e) && !strcmp(m[0]->name, "C10") &&
		      !strcmp(m[1]->name, "U3") && !strcmp(m[2]->name, "V30") &&
		      !strcmp(m[3]->name, "A2"),
	      "rating: --claim=C10,U3,V30,A2", "-");
	check(!rating_parse_claims("u1,U3,c6", m, &e) && !strcmp(m[1]->name, "U3") &&
		      !strcmp(m[0]->name, "C6") && !m[2] && !m[3],
	      "rating: --claim keeps each family's highest", "-");
	check(rating_parse_claims("C10,UHS-I", m, &e) && strstr(e.msg, "'UHS-I' is no mark"),
	      "rating: --claim names the word that is no mark", "%s", e.msg);
}

void unit_rating(void)
{
	test_qemu_card();
	test_cards_with_marks();
	test_armbian_card();
	test_published_decodes();
	test_bad_text();
	test_marks();
	test_sim_keys();
	test_sim_queue();
	test_vm_queue();
	test_sim_truth();
	test_verdicts();
	test_claims();
}
