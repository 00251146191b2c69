/* tests/unit/dev.c — unit tests of dev/: the flash model (sim.c) reads,
 * writes, noise, spec errors, its misbehaving cards and the cards of today
 * (unmapped reads, pSLC, throttling); the medium's identity (medium.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "dev/medium.h"
#include "dev/sim.h"
#include "dev/simstore.h"
#include "lib/sig.h"
#include "tests/unit/unit.h"

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

	/* wbus: the interface carries each write's own bytes, the flash
	 * programs the minimum: a smaller write saves its bytes' transfer */
	s = make_sim("erase=4M,open=2,minwrite=32K,wrate=20M,wbus=80M,twrite=300us", &p);
	if (s) {
		uint64_t t3;
		t1 = sim_write(s, 30 * e, 8192);
		t2 = sim_write(s, 30 * e + 8192, 32768);
		t3 = sim_write(s, 30 * e + 40960, 65536);
		check(t2 == 300000 + (uint64_t)llround(32768 * 1e9 / p.write_rate) &&
		      t1 == t2 - (uint64_t)llround(24576 * 1e9 / p.bus_rate) &&
		      t3 == 300000 + (uint64_t)llround(65536 * 1e9 / p.write_rate),
		      "sim: wbus: a write below the minimum costs less by its missing bytes over the interface",
		      "%llu %llu %llu", (unsigned long long)t1, (unsigned long long)t2, (unsigned long long)t3);
		sim_destroy(s);
	}

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
					   "noise=2", "nosuchpreset", "size=1M,erase=4M", "page=1000",
					   "data=0.3", "unmapped=2", "size=1G,slc=600M", "data=1.5,unmapped=1",
					   "keepby=writes", "size=256M,real=96M,fake=drop,keepby=past",
					   "size=256M,real=96M,fake=cache,keep=1M,keepby=lru" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sim_params p;
		struct fb_err e = { 0 };
		char name[96];
		snprintf(name, sizeof(name), "sim: spec \"%s\" is refused", bad[i]);
		check(sim_parse(bad[i], &p, &e) != 0 && e.msg[0] && e.status == EXIT_USAGE, name, "accepted");
	}
}

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
	store_write(s, 4, 4, NULL, 3, 8192);   /* sectors 4-7 again, last */
	store_keep_latest(s, 7);               /* 4-7 and the newest three of 10-15 */
	store_read(s, 0, 16, out);
	check(store_changed(s) == 7 && out[4 * 512] == 3 && out[7 * 512] == 3 && out[12 * 512] == 0 &&
		      out[13 * 512] == 2 && out[15 * 512] == 2,
	      "simstore: keeping the latest sectors counts each sector by its own stamp", "%llu held: %d %d %d",
	      (unsigned long long)store_changed(s), out[4 * 512], out[12 * 512], out[13 * 512]);
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

/* fake=cache: what pushes the sectors held past the real end out (keepby).
 * A signature sector just past real, then 2 MiB below real, the same 64 KiB
 * past real 32 times, or 2 MiB of distinct sectors past real: which modes
 * still hold it. */
static void test_sim_keepby(void)
{
	static const struct { const char *by; int kept[3]; } c[] = {
		{ "writes", { 0, 0, 0 } }, { "past", { 1, 0, 0 } }, { "address", { 1, 1, 0 } },
	};
	static const char *const after[3] = { "2MiB below real", "64KiB past real 32 times",
					      "2MiB of distinct sectors past real" };
	static unsigned char in[512], out[512], older[1024];
	const uint64_t mib = 1 << 20, real = 128 * mib;
	struct sim_params p;
	struct sim *s;
	char spec[96], name[160];

	sig_fill(in, real, sizeof(in), 512, 5, 1);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (int step = 0; step < 3; step++) {
			snprintf(spec, sizeof(spec), "size=256M,real=128M,fake=cache,keep=1M,keepby=%s", c[i].by);
			if (!(s = make_sim(spec, &p)))
				break;
			sim_data_write(s, real, sizeof(in), in, 0);
			for (uint64_t k = 0; k < 32; k++)
				sim_data_write(s, step == 0 ? k * 65536 : step == 1 ? real + 64 * mib : real + mib + k * 65536,
					       65536, NULL, 0x5a);
			sim_data_read(s, real, sizeof(out), out);
			snprintf(name, sizeof(name), "sim fake: cache, keepby=%s %s the first sector after %s", c[i].by,
				 c[i].kept[step] ? "keeps" : "loses", after[step]);
			check((memcmp(in, out, sizeof(in)) == 0) == c[i].kept[step], name, "%s",
			      c[i].kept[step] ? "lost" : "still there");
			sim_destroy(s);
		}
	/* keepby=address: a held sector written again is the latest again */
	if ((s = make_sim("size=256M,real=128M,fake=cache,keep=1M,keepby=address", &p))) {
		sim_data_write(s, real, sizeof(in), in, 0);
		sim_data_write(s, real + mib, 768 << 10, NULL, 1);
		sim_data_write(s, real, sizeof(in), in, 0);
		sim_data_write(s, real + 2 * mib, 768 << 10, NULL, 2);
		sim_data_read(s, real, sizeof(out), out);
		/* 2048 sectors kept: 1536 written last, the one written again, and
		 * the last 511 of the first 1536 (from their sector 1025 on) */
		sim_data_read(s, real + mib + 1024 * 512, sizeof(older), older);
		check(!memcmp(in, out, sizeof(in)) && older[0] == 0 && older[512] == 1,
		      "sim fake: cache, keepby=address keeps a sector written again, losing older distinct ones first",
		      "the sector written again %s; older ones %d %d", memcmp(in, out, sizeof(in)) ? "lost" : "kept",
		      older[0], older[512]);
		sim_destroy(s);
	}
}

/* The cards of today: unmapped reads, pSLC, throttling (sim.h). */
static void test_sim_today(void)
{
	struct sim_params p;
	struct sim *s;
	uint64_t e = 4 << 20, t1, t2, t3, t4;

	if ((s = make_sim("erase=4M,unmapped=1,tread=400us,tunit=100us,tcross=300us,rrate=1G", &p))) {
		t1 = sim_read(s, 10 * e - 2048, 4096); /* across an erase block, never written */
		t2 = sim_read(s, 10 * e + 8192, 4096);
		sim_write(s, 10 * e - 65536, 131072);
		t3 = sim_read(s, 10 * e - 2048, 4096);
		sim_discard(s, 10 * e - 65536, 65536);
		t4 = sim_read(s, 10 * e - 8192, 4096);
		check(t1 == t2 && t1 == 100000 + (uint64_t)llround(4096 * 1e9 / (1 << 30)) &&
			      t3 == 400000 + 2 * 100000 + 300000 + (uint64_t)llround(4096 * 1e9 / (1 << 30)) && t4 == t1,
		      "sim: unmapped reads are flat and fast until written, again after a discard",
		      "%llu %llu %llu %llu", (unsigned long long)t1, (unsigned long long)t2, (unsigned long long)t3,
		      (unsigned long long)t4);
		sim_destroy(s);
	}
	if ((s = make_sim("size=8G,unmapped=1,data=0.3,seed=5,tread=400us", &p))) {
		unsigned held = 0, n = 2048;
		for (unsigned i = 0; i < n; i++)
			held += sim_read(s, (uint64_t)i * (p.size / n), 512) > 200000;
		check(held > n / 5 && held < n * 2 / 5 && sim_read(s, 4096, 512) > 200000,
		      "sim: data=0.3 puts data in about 30% of the device, the start included", "%u of %u held",
		      held, n);
		sim_destroy(s);
	}
	if ((s = make_sim("size=2G,open=1,wrate=12M,slc=8M,slcrate=96M,twrite=300us", &p))) {
		int fast = 0, slow = 0;
		for (int i = 0; i < 256; i++) { /* 8 MiB in 64 AUs, any order: the region takes them */
			t1 = sim_write(s, (uint64_t)(i % 64) * e + (uint64_t)(i / 64) * 131072, 32768);
			fast += t1 < 500000;
		}
		for (int i = 0; i < 16; i++)
			slow += sim_write(s, 100 * e + (uint64_t)i * 32768, 32768) > 2500000;
		sim_idle(s, 1000000000); /* a second's rest folds 12 MB: the region is empty again */
		t2 = sim_write(s, 200 * e, 32768);
		check(fast == 256 && slow == 16 && t2 < 500000 && sim_gc_bytes(s) == 0,
		      "sim: a pSLC region takes the first writes fast in any order, empties only while idle",
		      "%d fast, %d slow, after the rest %llu", fast, slow, (unsigned long long)t2);
		sim_destroy(s);
	}
	if ((s = make_sim("throttle=1M,twrite=300us,wrate=20M,open=4", &p))) {
		t1 = sim_write(s, 10 * e, 65536);
		for (int i = 1; i < 20; i++)
			sim_write(s, 10 * e + (uint64_t)i * 65536, 65536);
		t2 = sim_write(s, 10 * e + 20 * 65536, 65536);
		sim_idle(s, 500000000);
		t3 = sim_write(s, 10 * e + 21 * 65536, 65536);
		sim_idle(s, 2000000000);
		t4 = sim_write(s, 10 * e + 22 * 65536, 65536);
		check(t2 == 3 * t1 && t3 == t2 && t4 == t1, "sim: throttle slows writes 3x until a rest of 2 s",
		      "%llu %llu %llu %llu", (unsigned long long)t1, (unsigned long long)t2, (unsigned long long)t3,
		      (unsigned long long)t4);
		sim_destroy(s);
	}
}

/* A medium's identity: written and read back, matched by serial or
 * numbers, windows meeting or not; a file is its device and inode. */
static void test_medium_identity(void)
{
	struct medium a = { .kind = MEDIUM_DISK, .dev = makedev(8, 16), .offset = 1048576, .size = 1 << 20 };
	struct medium b, f, none;
	char text[192];
	struct stat st;

	snprintf(a.serial, sizeof(a.serial), "0x1b534d3030303030");
	medium_identity(&a, text, sizeof(text));
	check(!strcmp(text, "medium=disk:8:16;offset=1048576;serial=0x1b534d3030303030"), "medium: a disk's identity",
	      "%s", text);
	check(!medium_parse_identity(text, &b) && medium_matches(&b, &a, 1), "medium: an identity reads back", "%s",
	      text);
	b.dev = makedev(8, 32); /* replugged as sdc: the serial decides */
	check(medium_matches(&b, &a, 1), "medium: a disk under a new number matches by its serial", "%s", text);
	b.offset = 0;
	check(!medium_matches(&b, &a, 1) && medium_matches(&b, &a, 0), "medium: another window matches only loosely",
	      "offsets %llu %llu", (unsigned long long)b.offset, (unsigned long long)a.offset);
	check(medium_parse_identity("loop=file:1:2;loop_offset=0", &b) == -1, "medium: an older journal's identity is "
	      "not taken for one", "parsed");
	medium_of("tests/unit/dev.c", &f);
	stat("tests/unit/dev.c", &st);
	check(f.kind == MEDIUM_FILE && f.dev == st.st_dev && f.ino == st.st_ino && f.size == (uint64_t)st.st_size,
	      "medium: a file is its device and inode", "kind %d", (int)f.kind);
	medium_identity(&f, text, sizeof(text));
	check(!medium_parse_identity(text, &b) && medium_matches(&b, &f, 1) && !strstr(text, "serial"),
	      "medium: a file's identity reads back", "%s", text);
	b.ino++;
	check(!medium_matches(&b, &f, 0), "medium: another inode on the same file system is another medium", "%s", text);
	medium_of("/nonexistent/flashbench", &none);
	check(none.kind == MEDIUM_NONE && !medium_same(&none, &none), "medium: what does not exist is no medium",
	      "kind %d", (int)none.kind);
	b = a;
	b.offset = a.offset + a.size;
	check(medium_same(&a, &b) && !medium_overlap(&a, &b), "medium: windows side by side do not meet", "at %llu", (unsigned long long)b.offset);
	b.offset--;
	check(medium_overlap(&a, &b), "medium: windows sharing a byte meet", "at %llu", (unsigned long long)b.offset);
}

void unit_dev(void)
{
	test_simstore();
	test_sim_fakes();
	test_sim_keepby();
	test_medium_identity();
	test_sim_reads();
	test_sim_writes();
	test_sim_noise();
	test_sim_spec_errors();
	test_sim_misbehaviour();
	test_sim_today();
}
