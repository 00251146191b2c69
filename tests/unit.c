/* tests/unit.c — unit tests of sizes and units, the flash model and the VM.
 * Prints "PASS name" / "FAIL name: why" lines for tests/run to count. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auto/analyze.h"
#include "dev.h"
#include "dev/simstore.h"
#include "guard/preserve.h"
#include "lib/sig.h"
#include "lib/json_read.h"
#include "prog/programs.h"
#include "dev/sim.h"
#include "lib/svg.h"
#include "lib/units.h"
#include "vm.h"

static int failures;

static void check(int ok, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#include <stdarg.h>
static void check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
		return;
	}
	failures++;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* ------------------------------------------------------------ units */

struct parse_case {
	const char *in;
	uint64_t want;
};

/* A parser (parse_size, parse_time) against good inputs and bad ones. */
static void check_parser(const char *fn, int (*parse)(const char *, uint64_t *, const char **),
			 const struct parse_case *good, size_t ngood, const char *const *bad, size_t nbad)
{
	char name[64];

	for (size_t i = 0; i < ngood + nbad; i++) {
		const char *in = i < ngood ? good[i].in : bad[i - ngood];
		uint64_t v = 0;
		const char *why = NULL;
		int rc = parse(in, &v, &why);
		if (i < ngood) {
			snprintf(name, sizeof(name), "%s(\"%s\")", fn, in);
			check(rc == 0 && v == good[i].want, name, "rc %d value %llu, want %llu (%s)", rc,
			      (unsigned long long)v, (unsigned long long)good[i].want, why ? why : "");
		} else {
			snprintf(name, sizeof(name), "%s rejects \"%s\"", fn, in);
			check(rc != 0 && why && *why, name, "accepted as %llu", (unsigned long long)v);
		}
	}
}

static void test_parse_size(void)
{
	static const struct parse_case good[] = {
		{ "512", 512 }, { "24k", 24576 }, { "24K", 24576 }, { "3M", 3 << 20 }, { "12MiB", 12 << 20 },
		{ "1.5M", 1572864 }, { "2G", 2ULL << 30 }, { "16KiB", 16384 }, { "512B", 512 }, { "0", 0 },
		{ "1.5MiB", 1572864 }, { "4m", 4 << 20 }, { "1T", 1ULL << 40 }, { "0.5k", 512 },
	};
	static const char *const bad[] = { "", "-5", "abc", "4X", "1.3K", "12Mx", "1.", ".5M", "99999999999999999999", "20000000T", "1.5" };

	check_parser("parse_size", parse_size, good, sizeof(good) / sizeof(good[0]), bad, sizeof(bad) / sizeof(bad[0]));
}

static void test_parse_time(void)
{
	static const struct parse_case good[] = {
		{ "90s", 90000000000ULL }, { "2m", 120000000000ULL }, { "2min", 120000000000ULL },
		{ "1h", 3600000000000ULL }, { "1.5h", 5400000000000ULL }, { "500ms", 500000000ULL },
		{ "10", 10000000000ULL }, { "0.25s", 250000000ULL }, { "1.5ms", 1500000ULL },
	};
	static const char *const bad[] = { "", "-5s", "abc", "10x", "5 s", "0", "0s", "1.", ".5s", "9999999999999h",
					   "10sec", "s" };
	char name[64];

	check_parser("parse_time", parse_time, good, sizeof(good) / sizeof(good[0]), bad, sizeof(bad) / sizeof(bad[0]));
	{
		static const struct { uint64_t ns; const char *want; } d[] = {
			{ 3600000000000ULL, "1h" }, { 120000000000ULL, "2m" }, { 90000000000ULL, "90s" },
			{ 5400000000000ULL, "90m" }, { 500000000ULL, "500ms" },
		};
		for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
			char buf[32];
			snprintf(name, sizeof(name), "format_duration(%s)", d[i].want);
			check(!strcmp(format_duration(buf, sizeof(buf), d[i].ns), d[i].want), name, "got %s", buf);
		}
	}
}

static void test_format(void)
{
	static const struct { double ns; const char *want; } times[] = {
		{ 0, "0ns" }, { 123, "123ns" }, { -44, "-44ns" }, { 999.4, "999ns" }, { 999.6, "1µs" },
		{ 5850, "5.85µs" }, { 53300, "53.3µs" }, { 324000, "324µs" }, { 999999, "1ms" },
		{ 1000000, "1ms" }, { 1080000, "1.08ms" }, { 2345000000.0, "2.345s" }, { -2100, "-2.1µs" },
		{ -10525, "-10.5µs" }, { -514893, "-515µs" }, { -1500000, "-1.5ms" }, { 15000000000.0, "15s" },
	};
	static const struct { uint64_t b; const char *want; } sizes[] = {
		{ 512, "512B" }, { 1024, "1KiB" }, { 16384, "16KiB" }, { 1572864, "1.5MiB" }, { 12 << 20, "12MiB" },
		{ 786432, "768KiB" }, { 4ULL << 30, "4GiB" }, { 1000, "1000B" }, { 25165824, "24MiB" },
	};
	static const struct { double bps; const char *want; } rates[] = {
		{ 8790000, "8.79M/s" }, { 912000, "912K/s" }, { 70e6, "70M/s" }, { 999.6e3, "1M/s" },
		{ 596000, "596K/s" }, { 500, "500B/s" }, { 1.2e9, "1.2G/s" },
	};
	char buf[64], name[96];

	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		format_time(buf, sizeof(buf), times[i].ns);
		snprintf(name, sizeof(name), "format_time(%g)", times[i].ns);
		check(strcmp(buf, times[i].want) == 0, name, "got \"%s\", want \"%s\"", buf, times[i].want);
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		format_size(buf, sizeof(buf), sizes[i].b);
		snprintf(name, sizeof(name), "format_size(%llu)", (unsigned long long)sizes[i].b);
		check(strcmp(buf, sizes[i].want) == 0, name, "got \"%s\", want \"%s\"", buf, sizes[i].want);
	}
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		format_rate(buf, sizeof(buf), rates[i].bps);
		snprintf(name, sizeof(name), "format_rate(%g)", rates[i].bps);
		check(strcmp(buf, rates[i].want) == 0, name, "got \"%s\", want \"%s\"", buf, rates[i].want);
	}
}

/* ------------------------------------------------------------ sim */

static struct sim *make_sim(const char *spec, struct sim_params *p)
{
	struct fb_err e;
	struct sim *s = NULL;

	if (sim_parse(spec, p, &e) || sim_create(&s, p, &e)) {
		printf("FAIL sim spec \"%s\": %s\n", spec, e.msg);
		failures++;
		return NULL;
	}
	return s;
}

static void test_sim_reads(void)
{
	struct sim_params p;
	struct sim *s = make_sim("erase=4M,page=8K,planes=2,tread=500us,tunit=100us,tcross=300us,rrate=1G", &p);
	uint64_t unit = 16384, e = 4 << 20, a, b, c;

	if (!s)
		return;
	a = sim_read(s, 10 * e - 2 * unit, 4096);        /* inside one unit */
	b = sim_read(s, 10 * e - unit - 2048, 4096);     /* across a unit boundary */
	c = sim_read(s, 10 * e - 2048, 4096);            /* across an erase block */
	check(b - a == p.t_unit, "sim: crossing a read unit costs tunit", "%llu vs %llu", (unsigned long long)b,
	      (unsigned long long)a);
	check(c - b == p.t_cross, "sim: crossing an erase block costs tcross more", "%llu vs %llu",
	      (unsigned long long)c, (unsigned long long)b);
	sim_destroy(s);
}

static void test_sim_writes(void)
{
	struct sim_params p;
	uint64_t e = 4 << 20, c = 64 << 10, t1, t2, gc;
	struct sim *s = make_sim("erase=4M,open=1,random=0,fat=0,minwrite=32K", &p);

	if (!s)
		return;
	/* half-write AU 10, then open AU 11: AU 10's unwritten half is copied */
	for (uint64_t o = 0; o < e / 2; o += c)
		sim_write(s, 10 * e + o, c);
	check(sim_gc_bytes(s) == 0, "sim: linear writes in one AU copy nothing", "gc %llu",
	      (unsigned long long)sim_gc_bytes(s));
	sim_write(s, 11 * e, c);
	check(sim_gc_bytes(s) == e / 2, "sim: evicting an open AU copies its unwritten rest", "gc %llu, want %llu",
	      (unsigned long long)sim_gc_bytes(s), (unsigned long long)e / 2);
	/* backwards inside AU 11 without a random slot: close and reopen */
	gc = sim_gc_bytes(s);
	sim_write(s, 11 * e + 3 * c, c); /* skip ahead: copies the 2c gap */
	sim_write(s, 11 * e + c, c);     /* backwards: GC */
	check(sim_gc_bytes(s) - gc == 2 * c + (e - 4 * c) + c, "sim: random order in a non-random AU forces GC",
	      "gc %llu", (unsigned long long)(sim_gc_bytes(s) - gc));
	sim_destroy(s);

	s = make_sim("erase=4M,open=2,random=1,fat=0,minwrite=32K,trandom=1ms", &p);
	if (!s)
		return;
	t1 = sim_write(s, 10 * e + 2 * c, c);
	gc = sim_gc_bytes(s);
	t2 = sim_write(s, 10 * e, c);
	check(sim_gc_bytes(s) == gc && t2 == t1 - (uint64_t)llround(2.0 * c * 1e9 / p.copy_rate) + p.t_random,
	      "sim: a random-order slot takes backwards writes without GC", "t1 %llu t2 %llu gc %llu",
	      (unsigned long long)t1, (unsigned long long)t2, (unsigned long long)(sim_gc_bytes(s) - gc));
	t1 = sim_write(s, 20 * e, 4096);
	t2 = sim_write(s, 20 * e + 4096, 32768);
	check(t1 == t2, "sim: writes below minwrite cost as much as minwrite", "%llu vs %llu",
	      (unsigned long long)t1, (unsigned long long)t2);
	sim_destroy(s);

	s = make_sim("erase=4M,open=2,fat=2", &p);
	if (!s)
		return;
	t1 = sim_write(s, 1 * e, 16384);
	t2 = sim_write(s, 5 * e, 16384);
	check(t1 < t2 / 2, "sim: FAT-area AUs take small writes faster", "fat %llu normal %llu",
	      (unsigned long long)t1, (unsigned long long)t2);
	sim_destroy(s);
}

static void test_sim_noise(void)
{
	struct sim_params p;
	struct sim *a = make_sim("noise=0.1,seed=7", &p), *b = make_sim("noise=0.1,seed=7", &p),
		   *c = make_sim("noise=0.1,seed=8", &p);
	int same = 1, differ = 0, spread = 0;
	uint64_t first = 0;

	if (!a || !b || !c)
		return;
	for (int i = 0; i < 200; i++) {
		uint64_t x = sim_read(a, 1 << 20, 4096), y = sim_read(b, 1 << 20, 4096), z = sim_read(c, 1 << 20, 4096);
		same &= x == y;
		differ |= x != z;
		if (i == 0)
			first = x;
		spread |= x != first;
	}
	check(same && differ && spread, "sim: noise is seeded and deterministic", "same %d differ %d spread %d",
	      same, differ, spread);
	sim_destroy(a);
	sim_destroy(b);
	sim_destroy(c);
}

static void test_sim_spec_errors(void)
{
	static const char *const bad[] = { "erase=3K,page=8K", "open=0", "random=3,open=2", "bogus=1",
					   "noise=2", "nosuchpreset", "size=1M,erase=4M", "page=1000" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sim_params p;
		struct fb_err e = { 0, "" };
		char name[96];
		snprintf(name, sizeof(name), "sim: spec \"%s\" is refused", bad[i]);
		check(sim_parse(bad[i], &p, &e) != 0 && e.msg[0] && e.status == EXIT_USAGE, name, "accepted");
	}
}

/* ------------------------------------------------------------ vm */

static struct dev *open_sim(const char *spec)
{
	struct dev *d = NULL;
	struct fb_err e;

	if (dev_open(&d, spec, DEV_READONLY, &e)) {
		printf("FAIL open %s: %s\n", spec, e.msg);
		failures++;
	}
	return d;
}

static void test_vm_series(void)
{
	struct dev *d = open_sim("sim:erase=1M,page=4K,planes=1,size=64M");
	struct vm_result *r = NULL;
	struct fb_err e;
	struct vm_op *prog;
	int ok;

	if (!d)
		return;
	/* linear: offsets 4096 + i*8192 */
	prog = vm_new(VM_LEN, 4096, 0, VM_KEEP,
		      vm_new(VM_OFF, 4096, 0, VM_KEEP,
			     vm_new(VM_OFF_LINEAR, 8192, 5, VM_KEEP, vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL), NULL);
	ok = prog && vm_run(prog, d, NULL, &r, &e) == 0;
	if (ok) {
		const struct vm_result *lin = &r->kid[0].kid[0];
		ok = lin->nkid == 5 && r->st.count == 5 && r->st.bytes == 5 * 4096;
		for (size_t i = 0; ok && i < 5; i++)
			ok = lin->kid[i].off == 4096 + i * 8192 && lin->kid[i].len == 4096;
	}
	check(ok, "vm: off-linear visits offset + i*step", "wrong offsets");
	vm_result_free(r);
	vm_free(prog);

	/* unit-halve on a 3x2^n size: 12K 6K 3K 1.5K */
	prog = vm_new(VM_UNIT_HALVE, 12288, 1024, VM_KEEP,
		      vm_new(VM_LEN_UNIT, 0, 0, 0, vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL);
	r = NULL;
	ok = prog && vm_run(prog, d, NULL, &r, &e) == 0 && r->nkid == 4 && r->kid[0].unit == 12288 &&
	     r->kid[3].unit == 1536 && r->kid[3].len == 1536;
	check(ok, "vm: unit-halve steps 12K 6K 3K 1.5K", "%zu steps", r ? r->nkid : 0);
	vm_result_free(r);
	vm_free(prog);

	/* shuffle visits every step exactly once, not in order */
	prog = vm_new(VM_UNIT_HALVE, 4096, 4096, 0,
		      vm_new(VM_LEN_UNIT, 0, 0, 0,
			     vm_new(VM_OFF_SHUFFLE, 1 << 20, 3, VM_KEEP, vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL),
		      NULL);
	r = NULL;
	ok = prog && vm_run(prog, d, NULL, &r, &e) == 0;
	if (ok) {
		/* root kept nothing; walk again keeping the shuffle node */
		vm_result_free(r);
		r = NULL;
		prog->flags = VM_KEEP;
		prog->body[0]->flags = VM_KEEP;
		ok = vm_run(prog, d, NULL, &r, &e) == 0;
	}
	if (ok) {
		const struct vm_result *sh = &r->kid[0].kid[0];
		static unsigned char seen[256];
		int inorder = 1;
		memset(seen, 0, sizeof(seen));
		ok = sh->nkid == 256;
		for (size_t i = 0; ok && i < sh->nkid; i++) {
			uint64_t k = sh->kid[i].off / 4096;
			if (k >= 256 || seen[k]) {
				ok = 0;
				break;
			}
			seen[k] = 1;
			inorder &= k == i;
		}
		ok = ok && !inorder;
	}
	check(ok, "vm: off-shuffle visits every step once, out of order", "bad permutation");
	vm_result_free(r);
	vm_free(prog);
	dev_close(d);
}

static void test_vm_reduce(void)
{
	/* noise makes the 8 tries differ: check min <= avg <= max against stats */
	struct dev *d = open_sim("sim:noise=0.2,seed=3");
	struct fb_err e;
	unsigned how[3] = { VM_MIN, VM_AVG, VM_MAX };
	double v[3] = { 0, 0, 0 };
	uint64_t mn = 0, mx = 0;
	double total = 0;

	if (!d)
		return;
	for (int i = 0; i < 3; i++) {
		struct vm_result *r = NULL;
		struct dev *fresh = open_sim("sim:noise=0.2,seed=3");
		struct vm_op *prog = vm_new(VM_LEN, 4096, 0, 0,
					    vm_new(VM_REPEAT, 8, 0, how[i], vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL);
		if (fresh && prog && vm_run(prog, fresh, NULL, &r, &e) == 0) {
			v[i] = r->value; /* LEN sums its one child, the REPEAT */
			mn = r->st.min_ns;
			mx = r->st.max_ns;
			total = r->st.total_ns;
		}
		vm_result_free(r);
		vm_free(prog);
		dev_close(fresh);
	}
	check(v[0] == (double)mn && v[2] == (double)mx && fabs(v[1] - total / 8) < 1e-6 && mn < mx,
	      "vm: min/avg/max reductions match the request statistics", "min %g avg %g max %g", v[0], v[1], v[2]);
	dev_close(d);
}

static void test_vm_plan(void)
{
	struct vm_plan plan;
	struct fb_err e = { 0, "" };
	struct test_params t;
	struct vm_op *prog;
	int rc;

	test_defaults(&t);
	t.erasesize = 4 << 20;
	t.blocksize = 1 << 20;
	t.open_au_nr = 3;
	prog = program_open_au(&t);
	rc = vm_plan(prog, 1ULL << 30, 512, &plan, &e);
	check(rc == 0 && plan.write_lo == 16 << 20 && plan.write_hi == 28 << 20 && plan.max_len == 4 << 20 &&
	      plan.bytes_written == 3 * 12ULL << 20,
	      "vm: plan of open-au gives the written range and bytes", "rc %d lo %llu hi %llu bytes %llu", rc,
	      (unsigned long long)plan.write_lo, (unsigned long long)plan.write_hi,
	      (unsigned long long)plan.bytes_written);
	rc = vm_plan(prog, 20 << 20, 512, &plan, &e);
	check(rc != 0 && strstr(e.msg, "device has only"), "vm: plan refuses a program past the device end", "%s", e.msg);
	vm_free(prog);

	prog = vm_new(VM_REPEAT, 1000000, 0, 0,
		      vm_new(VM_REPEAT, 1000, 0, 0, vm_new(VM_LEN, 512, 0, 0, vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL),
		      NULL);
	rc = vm_plan(prog, 1 << 30, 512, &plan, &e);
	check(rc != 0 && strstr(e.msg, "requests"), "vm: plan refuses a program that would not end", "%s", e.msg);
	vm_free(prog);

	prog = vm_new(VM_LEN, 700, 0, 0, vm_new(VM_READ, 0, 0, 0, NULL), NULL);
	rc = vm_plan(prog, 1 << 30, 512, &plan, &e);
	check(rc != 0 && strstr(e.msg, "sector"), "vm: plan refuses a request that is not whole sectors", "%s", e.msg);
	vm_free(prog);
}

/* ------------------------------------------------------------ analysis */

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

/* ------------------------------------------------------------ sim misbehaviour (ANA) */

/* Cost of a read across erase boundary k minus one across no boundary. */
static double boundary_extra(struct sim *s, uint64_t e, uint64_t k)
{
	uint64_t in = sim_read(s, k * e + e / 2, 1024), on = sim_read(s, k * e - 512, 1024);
	return (double)on - (double)in;
}

static void test_sim_misbehaviour(void)
{
	struct sim_params p;
	struct sim *s;
	uint64_t e = 4 << 20, t1, t2, t3;
	const char *base = "erase=4M,page=8K,planes=2,tread=500us,tunit=100us,tcross=300us,rrate=1G";
	char spec[256];
	int ok = 1, nfree = 0;
	double lo = 1e300, hi = 0;

	snprintf(spec, sizeof(spec), "%s,chips=2", base);
	if ((s = make_sim(spec, &p))) {
		for (uint64_t k = 1; k < 9; k++)
			ok &= boundary_extra(s, e, k) == (k % 2 ? 2 : 1) * 300000.0 + 100000;
		check(ok, "sim: chips=2 makes every second boundary cost double", "wrong costs");
		sim_destroy(s);
	}
	snprintf(spec, sizeof(spec), "%s,spread=0.6,free=0.2,size=4G", base);
	if ((s = make_sim(spec, &p))) {
		for (uint64_t k = 1; k < 400; k++) {
			double x = boundary_extra(s, e, k) - 100000;
			if (x == 0)
				nfree++;
			else {
				lo = fmin(lo, x);
				hi = fmax(hi, x);
			}
			ok &= x == boundary_extra(s, e, k) - 100000; /* a property of the boundary */
		}
		check(ok && nfree > 40 && nfree < 120 && lo >= 0.4 * 300000 && hi <= 1.6 * 300000 && lo < 0.6 * 300000 &&
			      hi > 1.4 * 300000,
		      "sim: spread and free spread the boundary costs, fixed per boundary",
		      "%d free, costs %.0f to %.0f", nfree, lo, hi);
		sim_destroy(s);
	}
	if ((s = make_sim("fat=2,fatmode=random,minwrite=32K,twrite=300us,wrate=20M", &p))) {
		t1 = sim_write(s, 0 + 64 * 1024, 4096);          /* small, in the FAT area */
		t2 = sim_write(s, 0, 4096);                       /* backwards */
		t3 = sim_write(s, 10 * e + 4096, 4096);           /* small, elsewhere */
		check(t1 == t2 && t1 == 300000 + (uint64_t)llround(4096 * 1e9 / (20 << 20)) && t3 > t1 &&
			      sim_gc_bytes(s) == 4096,
		      "sim: a random-access FAT area takes small writes in any order at the normal speed",
		      "%llu %llu %llu gc %llu", (unsigned long long)t1, (unsigned long long)t2, (unsigned long long)t3,
		      (unsigned long long)sim_gc_bytes(s));
		t1 = sim_write(s, e, 65536);
		t2 = sim_write(s, 20 * e, 65536);
		check(t1 == t2, "sim: a random-access FAT area writes linear chunks at the normal speed", "%llu vs %llu",
		      (unsigned long long)t1, (unsigned long long)t2);
		sim_destroy(s);
	}
	if ((s = make_sim("crate=80M,wrate=20M,open=1", &p))) {
		sim_write(s, 10 * e, 65536);
		t1 = sim_write(s, 11 * e, 65536); /* closes the first: copies e - 64K at crate */
		t2 = sim_write(s, 12 * e, 65536) - (uint64_t)llround((double)(e - 65536) * 1e9 / (80 << 20));
		check(t1 > t2 && t2 == p.t_write + (uint64_t)llround(65536 * 1e9 / (20 << 20)),
		      "sim: crate sets the copy speed apart from the write speed", "%llu %llu", (unsigned long long)t1,
		      (unsigned long long)t2);
		sim_destroy(s);
	}
	if ((s = make_sim("pause=0.1,pausetime=100ms", &p))) {
		int pauses = 0;
		for (int i = 0; i < 1000; i++)
			pauses += sim_write(s, 10 * e + (uint64_t)i * 4096 * 8, 32768) > 30000000;
		check(pauses > 60 && pauses < 140, "sim: pause makes about that share of writes pause", "%d of 1000",
		      pauses);
		sim_destroy(s);
	}
	if ((s = make_sim("cache=256K,twrite=300us,wrate=20M,rrate=40M,open=1", &p))) {
		/* uncached, a 32 KiB write costs 300us + 32K at 20M/s = 1.86ms */
		int fast = 0;
		uint64_t sum = 0;
		for (int i = 0; i < 16; i++)
			fast += sim_write(s, 10 * e + (uint64_t)i * 32768, 32768) < 1000000;
		for (int i = 16; i < 116; i++)
			sum += sim_write(s, 10 * e + (uint64_t)i * 32768, 32768);
		for (int i = 0; i < 200; i++)
			sim_read(s, 0, 1 << 20); /* time passes: the flash empties the cache */
		t2 = sim_write(s, 10 * e + 116 * 32768, 32768);
		check(fast >= 8 && fast < 20 && sum > 100 * 1800000ULL && sum < 100 * 1920000ULL && t2 < 1000000,
		      "sim: a write cache absorbs a burst, then writes go at the flash's own speed; idle time empties it",
		      "%d fast, then %llu per write, then %llu", fast, (unsigned long long)(sum / 100),
		      (unsigned long long)t2);
		sim_destroy(s);
	}
	snprintf(spec, sizeof(spec), "%s,rbuf=1", base);
	if ((s = make_sim(spec, &p))) {
		t1 = sim_read(s, 10 * e + 1024, 1024);
		t2 = sim_read(s, 10 * e + 4096, 1024); /* the same read unit */
		t3 = sim_read(s, 10 * e + 65536, 1024);
		check(t1 - t2 == p.t_unit && t3 == t1, "sim: rbuf holds the last read unit", "%llu %llu %llu",
		      (unsigned long long)t1, (unsigned long long)t2, (unsigned long long)t3);
		sim_destroy(s);
	}
	snprintf(spec, sizeof(spec), "%s,fat=2,fatread=0.5", base);
	if ((s = make_sim(spec, &p))) {
		t1 = sim_read(s, e, 1024);
		t2 = sim_read(s, 10 * e, 1024);
		check(2 * t1 == t2, "sim: fatread scales the cost of reads in the FAT area", "%llu vs %llu",
		      (unsigned long long)t1, (unsigned long long)t2);
		sim_destroy(s);
	}
	if ((s = make_sim("tail=0.05", &p))) {
		int slow = 0;
		uint64_t worst = 0, one = sim_read(s, 1 << 20, 4096);
		for (int i = 0; i < 2000; i++) {
			uint64_t t = sim_read(s, 1 << 20, 4096);
			slow += t > one;
			worst = t > worst ? t : worst;
		}
		check(slow > 50 && slow < 200 && worst > 3 * one, "sim: tail adds a few heavy-tailed slow requests",
		      "%d slow, worst %llu", slow, (unsigned long long)worst);
		sim_destroy(s);
	}
	if ((s = make_sim("sd-4m,sector=4096", &p))) {
		check(p.sector == 4096, "sim: 4096-byte sectors", "sector %llu", (unsigned long long)p.sector);
		sim_destroy(s);
	}
}

/* ------------------------------------------------------------ reading JSON */

static void test_json_read(void)
{
	static const char doc[] = "{\n  \"test\": \"auto\",\n  \"n\": -1.5e3, \"big\": 8589934592,\n"
				  "  \"s\": \"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00b5\\ud83d\\ude00\",\n"
				  "  \"list\": [ {\"x\": 1}, [], {}, true, false, null ],\n  \"list\": 7\n}\n";
	static const struct { const char *text, *want; } bad[] = {
		{ "", "t:1:1: invalid JSON: expected a value, got the end of the input" },
		{ "{\"a\" 1}", "t:1:6: invalid JSON: expected ':', got '1'" },
		{ "[1,\n 2,\n 3 4]", "t:3:4: invalid JSON: expected ',' or ']', got '4'" },
		{ "{\"a\": 1,}", "t:1:9: invalid JSON: expected a string, got '}'" },
		{ "\"ab\ncd\"", "t:1:4: invalid JSON: expected a closing '\"' (control characters must be escaped), got byte 0x0a" },
		{ "\"\\x\"", "t:1:3: invalid JSON: expected an escape" },
		{ "\"\\u0000\"", "t:1:3: invalid JSON: expected a \\u escape of a character other than NUL" },
		{ "\"\\ud800x\"", "t:1:3: invalid JSON: expected a \\u escape" },
		{ "01", "t:1:2: invalid JSON: expected the end of the input after the value, got '1'" },
		{ "1.", "t:1:3: invalid JSON: expected a digit after '.', got the end of the input" },
		{ "-", "t:1:2: invalid JSON: expected a value, got the end" },
		{ "1e+", "t:1:4: invalid JSON: expected a digit in the exponent" },
		{ "tru", "t:1:1: invalid JSON: expected a value, got 't'" },
		{ "nul", "t:1:1: invalid JSON: expected a value" },
		{ "{} {}", "t:1:4: invalid JSON: expected the end of the input after the value, got '{'" },
		{ "[\"a\" \"b\"]", "t:1:6: invalid JSON: expected ',' or ']', got '\"'" },
		{ "{\"a\":1", "t:1:7: invalid JSON: expected ',' or '}', got the end of the input" },
	};
	struct json_value *v = NULL;
	const struct json_value *x;
	struct fb_err e = { 0, "" };
	char deep[512], name[160];
	int ok;

	ok = json_parse(doc, sizeof(doc) - 1, "doc.json", &v, &e) == 0;
	check(ok, "json_read: parses a document", "%s", e.msg);
	if (!ok)
		return;
	x = json_get(v, "s");
	check(x && x->type == JSON_STRING && !strcmp(x->text, "a\"\\/\b\f\n\r\t\xc2\xb5\xf0\x9f\x98\x80"),
	      "json_read: string escapes decode to UTF-8", "got '%s'", x ? x->text : "(none)");
	x = json_get(v, "n");
	check(x && x->type == JSON_NUMBER && x->number == -1500 && !strcmp(x->text, "-1.5e3") && x->line == 3 &&
		      x->column == 8,
	      "json_read: numbers keep their text and where they start", "got %s at %u:%u", x ? x->text : "-",
	      x ? x->line : 0, x ? x->column : 0);
	x = json_get(v, "big");
	check(x && x->number == 8589934592.0, "json_read: large whole numbers exact", "got %g", x ? x->number : 0);
	x = json_get(v, "list.0.x");
	check(x && x->type == JSON_NUMBER && x->number == 1, "json_read: path through an array index", "not found");
	check(json_get(v, "list")->type == JSON_ARRAY && json_get(v, "list")->n == 6 &&
		      json_get(v, "list.1")->type == JSON_ARRAY && json_get(v, "list.2")->type == JSON_OBJECT &&
		      json_get(v, "list.3")->boolean && !json_get(v, "list.4")->boolean &&
		      json_get(v, "list.5")->type == JSON_NULL && json_get(v, "") == v,
	      "json_read: arrays, objects, literals; the first member of a name wins", "wrong tree");
	check(!json_get(v, "list.6") && !json_get(v, "list.x") && !json_get(v, "missing") && !json_get(v, "n.0") &&
		      !json_get(v, "list.-1") && !json_get(v, "list.0x"),
	      "json_read: missing paths give NULL", "found something");
	x = json_want(v, "test", JSON_NUMBER, "doc.json", &e);
	check(!x && !strcmp(e.msg, "doc.json:2:11: field test is a string, not a number") && e.status == EXIT_USAGE,
	      "json_read: json_want names the file, place and field of a wrong type", "'%s'", e.msg);
	x = json_want(v, "findings.page", JSON_OBJECT, "doc.json", &e);
	check(!x && !strcmp(e.msg, "doc.json: no field findings.page"), "json_read: json_want names a missing field",
	      "'%s'", e.msg);
	json_free(v);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = NULL;
		e.msg[0] = '\0';
		ok = json_parse(bad[i].text, strlen(bad[i].text), "t", &v, &e) < 0 && !v &&
		     !strncmp(e.msg, bad[i].want, strlen(bad[i].want));
		snprintf(name, sizeof(name), "json_read rejects '%s'", bad[i].text);
		for (char *c = name; *c; c++)
			if (*c == '\n')
				*c = '|'; /* one line per test */
		check(ok, name, "got '%s', want '%s...'", e.msg, bad[i].want);
		json_free(v);
	}
	ok = json_parse("1\0", 2, "t", &v, &e) < 0 && strstr(e.msg, "got byte 0x00");
	check(ok, "json_read rejects a NUL byte", "'%s'", e.msg);
	memset(deep, '[', sizeof(deep));
	ok = json_parse(deep, sizeof(deep), "t", &v, &e) < 0 && strstr(e.msg, "t:1:201: invalid JSON: nested deeper");
	check(ok, "json_read refuses nesting deeper than 200 levels", "'%s'", e.msg);
}

/* Charts of degenerate data end and draw only finite numbers (svg.c's
 * ticks() used to loop forever on some of these; alarm() bounds a hang). */
static void test_svg_degenerate(void)
{
	static const double bad[][3] = {
		{ 0, 0, 0 }, { -1, -5, -2 }, { NAN, NAN, NAN }, { INFINITY, 1, 2 }, { -INFINITY, 0, 1 },
		{ 1e308, 1e308, 1e308 }, { 1e-310, 1e-310, 1e-310 }, { 5, 5, 5 }, { 1e15, 1e15 + 1, 1e15 },
	};
	FILE *f = tmpfile();

	alarm(20);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		for (int logs = 0; logs < 4; logs++) {
			struct chart c;
			char name[80], buf[4096];
			size_t n;
			memset(&c, 0, sizeof(c));
			c.title = c.xlabel = c.ylabel = "t";
			c.xunit = logs & 1 ? AXIS_BYTES : AXIS_PLAIN;
			c.yunit = AXIS_NS;
			c.xlog = logs & 1;
			c.ylog = logs >> 1 & 1;
			c.s[0].x = bad[i];
			c.s[0].y = bad[(i + 1) % (sizeof(bad) / sizeof(bad[0]))];
			c.s[0].n = 3;
			c.ns = 1;
			c.m[0].x = bad[i][0];
			c.nm = 1;
			rewind(f);
			svg_chart(f, &c);
			fflush(f);
			n = (size_t)ftell(f);
			rewind(f);
			n = fread(buf, 1, n < sizeof(buf) - 1 ? n : sizeof(buf) - 1, f);
			buf[n] = '\0';
			snprintf(name, sizeof(name), "svg chart of degenerate data %zu (log %d) ends, no nan/inf", i, logs);
			{ const char *bad_at = strstr(buf, "nan") ? strstr(buf, "nan") : strstr(buf, "inf"); check(n > 0 && !bad_at, name, "%.120s", bad_at ? (bad_at - buf > 60 ? bad_at - 60 : buf) : buf); }
		}
	alarm(0);
	if (f)
		fclose(f);
}

/* The README lists every opcode exactly as vm.h's table says. */
static void test_opcode_docs(void)
{
	FILE *f = fopen("README", "r");
	static char text[1 << 20];
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;

	if (f)
		fclose(f);
	text[n] = '\0';
	for (int c = 0; c < VM_NOPCODES; c++) {
		const struct vm_opinfo *i = vm_opinfo((enum vm_opcode)c);
		char head[64], line[200], name[80];
		snprintf(head, sizeof(head), "%s%s%s", i->name, *i->args ? " " : "", i->args);
		snprintf(line, sizeof(line), "\n    %-26s%s\n", head, i->meaning);
		snprintf(name, sizeof(name), "README lists opcode %s as vm.h does", i->name);
		check(strstr(text, line) != NULL, name, "no line '%.*s'", (int)strlen(line) - 2, line + 1);
	}
}

/* ------------------------------------------------------------ capacity */

/* Signatures: the right one passes; moved, stale, foreign and damaged
 * sectors are told apart. */
static void test_sig(void)
{
	static unsigned char buf[4096], other[4096];
	struct sig_tally t;

	sig_fill(buf, 1 << 20, sizeof(buf), 512, 42, 1);
	memset(&t, 0, sizeof(t));
	sig_check(buf, 1 << 20, sizeof(buf), 512, 42, 1, &t);
	check(t.good == 8 && !t.moved && !t.stale && !t.foreign, "sig: its own signature is good", "%u good", t.good);
	memset(&t, 0, sizeof(t));
	sig_check(buf, 3 << 20, sizeof(buf), 512, 42, 1, &t);
	check(t.moved == 8 && t.moved_from == 1 << 20 && t.moved_at == 3 << 20, "sig: read elsewhere it is moved, from its offset",
	      "%u moved from %llu at %llu", t.moved, (unsigned long long)t.moved_from, (unsigned long long)t.moved_at);
	memset(&t, 0, sizeof(t));
	sig_check(buf, 1 << 20, sizeof(buf), 512, 42, 2, &t);
	check(t.stale == 8, "sig: another pass is stale", "%u stale", t.stale);
	memset(&t, 0, sizeof(t));
	sig_check(buf, 1 << 20, sizeof(buf), 512, 43, 1, &t);
	check(t.foreign == 8, "sig: another run's salt is foreign", "%u foreign", t.foreign);
	memcpy(other, buf, sizeof(buf));
	other[700] ^= 1;       /* the stream of sector 1 */
	other[1024 + 20] ^= 1; /* the header of sector 2 */
	memset(other + 3072, 0, 512);
	memset(&t, 0, sizeof(t));
	sig_check(other, 1 << 20, sizeof(other), 512, 42, 1, &t);
	check(t.good == 5 && t.foreign == 3, "sig: a flipped bit or zeros are foreign", "%u good %u foreign", t.good, t.foreign);
}

/* The sim's store: what is written reads back, overwrites split, a cache
 * forgets, bounds hold. */
static void test_simstore(void)
{
	static unsigned char in[8192], out[8192], made[512];
	struct simstore *s;
	int ok = 1;

	if (store_create(&s, 512, 7, 1)) {
		check(0, "simstore: create", "failed");
		return;
	}
	store_read(s, 100, 1, out);
	store_made(s, 100, made);
	check(!memcmp(out, made, 512) && store_changed(s) == 0, "simstore: an unwritten sector holds what the card came with",
	      "differs");
	sig_fill(in, 100 * 512, sizeof(in), 512, 9, 3);
	store_write(s, 100, 16, in, 0, 0);
	store_read(s, 100, 16, out);
	check(!memcmp(in, out, sizeof(in)) && store_changed(s) == 16, "simstore: signatures read back", "changed %llu",
	      (unsigned long long)store_changed(s));
	store_write(s, 104, 2, NULL, 0x5a, 0);
	store_read(s, 100, 16, out);
	for (int i = 0; i < 16; i++)
		ok &= i == 4 || i == 5 ? out[i * 512] == 0x5a && out[i * 512 + 511] == 0x5a :
					!memcmp(out + i * 512, in + i * 512, 512);
	check(ok, "simstore: a pattern in the middle splits the signatures", "wrong sector");
	for (int i = 0; i < 16; i++)
		store_made(s, 100 + (uint64_t)i, in + i * 512);
	store_write(s, 100, 16, in, 0, 0);
	check(store_changed(s) == 0, "simstore: the card's own data put back leave nothing changed", "%llu sectors",
	      (unsigned long long)store_changed(s));
	store_made(s, 5, in);
	store_write(s, 6, 1, in, 0, 0);
	store_read(s, 6, 1, out);
	check(!memcmp(in, out, 512) && store_changed(s) == 1, "simstore: a copy of another sector's data is kept",
	      "changed %llu", (unsigned long long)store_changed(s));
	for (int i = 0; i < 512; i++)
		in[i] = (unsigned char)(i * 7);
	check(store_write(s, 50, 1, in, 0, 0) == 0, "simstore: raw data are taken", "refused");
	store_read(s, 50, 1, out);
	check(!memcmp(in, out, 512), "simstore: raw data read back", "differ");
	store_destroy(s);

	store_create(&s, 512, 7, 0);
	store_write(s, 0, 8, NULL, 1, 0);      /* written when 0 bytes had gone by */
	store_write(s, 8, 8, NULL, 2, 4096);   /* then these */
	store_forget(s, 4096 + 1024);          /* forget what is older than that */
	store_read(s, 0, 16, out);
	check(out[0] == 0 && out[7 * 512] == 0 && out[8 * 512] == 0 && out[10 * 512] == 2 && out[15 * 512] == 2,
	      "simstore: a cache forgets the oldest sectors first", "%d %d %d %d", out[0], out[8 * 512], out[10 * 512],
	      out[15 * 512]);
	store_destroy(s);
}

/* Fake cards: where a write lands. */
static void test_sim_fakes(void)
{
	static const struct { const char *spec, *name; uint64_t at, look; int same; } c[] = {
		{ "size=256M,real=96M,fake=wrap", "sim fake: wrap reaches the start again", 100 << 20, 4 << 20, 1 },
		{ "size=256M,real=96M,fake=drop", "sim fake: drop loses writes past the real size", 100 << 20, 100 << 20, 0 },
		{ "size=256M,real=96M,fake=end,goodend=8M", "sim fake: end keeps the working end", 250 << 20, 250 << 20, 1 },
		{ "size=256M,real=96M,fake=end,goodend=8M", "sim fake: end loses the middle", 200 << 20, 200 << 20, 0 },
		{ "size=256M,real=96M,fake=cache,keep=1M", "sim fake: cache keeps the latest writes", 100 << 20, 100 << 20, 1 },
	};
	static unsigned char in[4096], out[4096];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct sim_params p;
		struct sim *s;
		struct fb_err e;
		if (sim_parse(c[i].spec, &p, &e) || sim_create(&s, &p, &e)) {
			check(0, c[i].name, "%s", e.msg);
			continue;
		}
		sig_fill(in, c[i].at, sizeof(in), 512, 5, 1);
		sim_data_write(s, c[i].at, sizeof(in), in, 0);
		sim_data_read(s, c[i].look, sizeof(out), out);
		check((memcmp(in, out, sizeof(in)) == 0) == c[i].same, c[i].name, "read back %s", c[i].same ? "differs" : "the same");
		if (strstr(c[i].spec, "cache")) {
			sim_data_write(s, 0, 1 << 20, NULL, 0);     /* another MiB goes by */
			sim_data_read(s, c[i].look, sizeof(out), out);
			check(memcmp(in, out, sizeof(in)) != 0, "sim fake: cache then loses them", "still there");
		}
		sim_destroy(s);
	}
}

/* A card that wraps around: a run saves y, writes it, then saves y + P (which
 * reads y's new data) and writes it.  Put back, the card must hold what it
 * held before: the journal puts its records back last saved first. */
static void test_journal_aliases(void)
{
	const char *spec = "sim:size=256M,real=96M,fake=wrap";
	char dir[] = "/tmp/flashbench-unit.XXXXXX", path[64];
	static unsigned char before[8192], after[8192];
	struct fb_err e = { 0, "" };
	struct journal *j;
	struct dev *d;
	uint64_t restored = 0;
	int rc = -1;

	if (!mkdtemp(dir) || dev_open(&d, spec, DEV_READWRITE, &e)) {
		check(0, "journal: aliasing flash keeps its original", "setup: %s", e.msg);
		return;
	}
	setenv("FLASHBENCH_STATE_DIR", dir, 1);
	snprintf(path, sizeof(path), "%s/j", dir);
	dev_copy_out(d, before, 8 << 20, sizeof(before));
	if (!journal_create(&j, path, d, spec, 1 << 20, JOURNAL_VOLATILE_OK, &e) && !dev_preserve(&d, j, &e)) {
		struct vm_run how = { .salt = 77 };
		rc = 0;
		for (int k = 0; k < 2 && !rc; k++) { /* y = 8 MiB, then y + P */
			struct vm_op *prog = vm_new(VM_OFF, (int64_t)((8 << 20) + k * (96 << 20)), 0, 0,
						    vm_new(VM_LEN, 8192, 0, 0, vm_new(VM_SIG_WRITE, 0, 0, 0, NULL), NULL), NULL);
			struct vm_result *res = NULL;
			rc = vm_run(prog, d, &how, &res, &e);
			vm_result_free(res);
			vm_free(prog);
		}
		if (!rc)
			rc = dev_preserve_finish(d, &restored, &e) == 1 ? 0 : -1;
	}
	dev_copy_out(d, after, 8 << 20, sizeof(after));
	check(!rc && restored == 16384 && !memcmp(before, after, sizeof(before)), "journal: aliasing flash keeps its original",
	      "rc %d, %llu bytes put back, data %s (%s)", rc, (unsigned long long)restored,
	      memcmp(before, after, sizeof(before)) ? "differ" : "equal", e.msg);
	dev_close(d);
	rmdir(dir);
}

int main(void)
{
	test_opcode_docs();
	test_svg_degenerate();
	test_parse_size();
	test_parse_time();
	test_format();
	test_sim_reads();
	test_sim_writes();
	test_sim_noise();
	test_sim_spec_errors();
	test_vm_series();
	test_vm_reduce();
	test_vm_plan();
	test_analysis();
	test_sim_misbehaviour();
	test_analyze_cache();
	test_json_read();
	test_sig();
	test_simstore();
	test_sim_fakes();
	test_journal_aliases();
	return failures ? 1 : 0;
}
