/* sim.c — the simulated flash medium (see sim.h for the model). */
#include "dev/sim.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/simstore.h"
#include "lib/units.h"

struct open_au {
	int used;
	uint64_t au;        /* AU index */
	uint64_t wp;        /* linear write pointer inside the AU (bytes) */
	int random;         /* switched to random order */
	uint64_t written;   /* pages written (random mode) */
	uint64_t last_use;
	uint8_t *map;       /* written pages (random mode), one bit each */
};

struct sim {
	struct sim_params p;
	struct open_au *slot;
	size_t map_bytes;
	uint64_t tick;
	uint64_t rng;
	uint64_t rng2;      /* draws of the misbehaviour keys */
	uint64_t gc_bytes;
	double clock;       /* virtual time so far (ns), for the cache */
	/* the write cache: writes waiting for the flash, oldest first (a ring) */
	struct pending { uint64_t bytes; double done_at; } *queue;
	size_t qcap, qhead, qlen;
	uint64_t cache_fill;  /* bytes in the cache */
	double flash_free_at; /* when the flash has done all queued work */
	uint64_t last_unit; /* read unit held in the read buffer, plus one */
	/* what the card holds (fake cards' section, below) */
	struct simstore *store;   /* the flash, by physical sector */
	struct simstore *held;    /* fake=cache: what is kept past the real end, by address */
	uint64_t written;         /* bytes written so far that count for the cache (keepby) */
	uint64_t (*bad)[2];       /* fake=bad: the bad regions, sorted */
	size_t nbad;
	char *bad_text;           /* the same as text, "START-END ..." (bytes) */
	int data_used, data_lost; /* a data request was made; the store overflowed */
	int exact;                /* time this request without random draws (sim_exact) */
	/* unmapped: the byte ranges that hold data, sorted and apart */
	struct extent { uint64_t lo, hi; } *map;
	size_t nmap, capmap;
	uint64_t slc_fill;  /* bytes in the pSLC region */
	uint64_t sustained; /* bytes written since the last rest (throttle) */
	uint64_t aus_done;  /* ratings: AUs completed so far (stall, stallevery) */
};

/* ---------------------------------------------------------------- presets */

struct preset {
	const char *name;
	const char *desc;
	const char *spec;
};

static const struct preset presets[] = {
	{ "sd-4m", "SD card: 8 GiB, 4 MiB AUs, 8 KiB pages read in pairs, 2 open AUs (1 random), 16 MiB FAT area",
	  "size=8G,erase=4M,page=8K,planes=2,open=2,random=1,fat=4,minwrite=32K" },
	{ "usb-12m", "USB stick: 3.75 GiB, 12 MiB AUs (3x4 MiB), 3 open AUs (1 random), no FAT area",
	  "size=3840M,erase=12M,page=8K,planes=2,open=3,random=1,fat=0,minwrite=32K,wrate=24M,crate=24M" },
	{ "cf-16m", "Compact Flash: 29.7 GiB, 16 MiB AUs, 2 open AUs (both random), 64 KiB minimum write",
	  "size=30400M,erase=16M,page=8K,planes=2,open=2,random=2,fat=0,minwrite=64K,wrate=70M,crate=70M,rrate=60M" },
	{ "ssd", "good SSD: 64 GiB, alignment and write order do not matter",
	  "size=64G,erase=512K,page=4K,planes=1,open=64,random=64,fat=0,minwrite=4K,tread=60us,tunit=0,tcross=0,"
	  "twrite=30us,trandom=0,rrate=250M,wrate=200M,crate=200M" },
	/* fake cards (doc/simulator.md, "Keys for fake cards"), at SD-card speeds */
	{ "fake-wrap", "fake SD card: claims 2 GiB, has 512 MiB; writes past that wrap over the start",
	  "size=2G,real=512M,fake=wrap,wrate=10M,rrate=20M" },
	{ "fake-drop", "fake SD card: claims 2 GiB, has 768 MiB; writes past that are lost",
	  "size=2G,real=768M,fake=drop,wrate=10M,rrate=20M" },
	{ "fake-cache", "fake SD card: claims 2 GiB, has 1 GiB; writes past that last while among the latest 8 MiB",
	  "size=2G,real=1G,fake=cache,keep=8M,wrate=10M,rrate=20M" },
	{ NULL, NULL, NULL },
};

const char *sim_preset_name(unsigned i)
{
	return i < sizeof(presets) / sizeof(presets[0]) ? presets[i].name : NULL;
}

const char *sim_preset_description(const char *name)
{
	for (const struct preset *p = presets; p->name; p++)
		if (strcmp(p->name, name) == 0)
			return p->desc;
	return NULL;
}

void sim_defaults(struct sim_params *p)
{
	memset(p, 0, sizeof(*p));
	p->size = 2ULL << 30;
	p->sector = 512;
	p->erase = 4ULL << 20;
	p->page = 8 << 10;
	p->planes = 2;
	p->open = 2;
	p->random = 1;
	p->fat = 0;
	p->minwrite = 32 << 10;
	/* from the seeds: ~735 us for a 1 KiB read, ~160 us more per extra
	 * 16 KiB page pair, ~300 us more across an erase block */
	p->t_read = 550000;
	p->t_unit = 160000;
	p->t_cross = 300000;
	p->t_write = 300000;
	p->t_random = 500000;
	p->read_rate = 40ULL << 20;
	p->write_rate = 20ULL << 20;
	p->copy_rate = 20ULL << 20;
	p->noise = 0;
	p->seed = 1;
}

/* ---------------------------------------------------------------- parsing */

#define SIM_MAX_TIME_NS 3.6e12   /* a time key: at most an hour */
#define SIM_MAX_SIZE (1ULL << 60)

int sim_parse_time(const char *v, uint64_t *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || !isfinite(x) || x < 0)
		return -1;
	if (!*end || strcmp(end, "ns") == 0)
		;
	else if (strcmp(end, "us") == 0 || strcmp(end, "µs") == 0)
		x *= 1e3;
	else if (strcmp(end, "ms") == 0)
		x *= 1e6;
	else if (strcmp(end, "s") == 0)
		x *= 1e9;
	else
		return -1;
	if (x > SIM_MAX_TIME_NS) /* llround would overflow; no request takes an hour */
		return -1;
	*out = (uint64_t)llround(x);
	return 0;
}

static int set_keep_by(struct sim_params *p, const char *val, struct fb_err *e);
static int set_bus_key(struct sim_params *p, const char *key, const char *val, struct fb_err *e);

static int parse_unsigned(const char *v, unsigned *out)
{
	uint64_t x;
	const char *why;

	if (parse_count(v, &x, &why) || x > 1u << 20)
		return -1;
	*out = (unsigned)x;
	return 0;
}

static int set_key(struct sim_params *p, const char *key, const char *val, struct fb_err *e)
{
	const char *why = "bad value";
	int rating = sim_rating_key(p, key, val, e); /* the rating keys (sim_rating.c) */

	if (rating != 1)
		return rating;
	struct { const char *name; uint64_t *field; } sizes[] = {
		{ "size", &p->size }, { "sector", &p->sector }, { "erase", &p->erase },
		{ "page", &p->page }, { "minwrite", &p->minwrite }, { "rrate", &p->read_rate },
		{ "wrate", &p->write_rate }, { "crate", &p->copy_rate }, { "wbus", &p->bus_rate }, { "seed", &p->seed },
		{ "cache", &p->cache }, { "slc", &p->slc }, { "slcrate", &p->slc_rate }, { "slcidle", &p->slc_idle },
		{ "throttle", &p->throttle }, { "real", &p->real }, { "keep", &p->keep }, { "goodend", &p->goodend },
	};
	struct { const char *name; uint64_t *field; } times[] = {
		{ "tread", &p->t_read }, { "tunit", &p->t_unit }, { "tcross", &p->t_cross },
		{ "twrite", &p->t_write }, { "trandom", &p->t_random }, { "pausetime", &p->t_pause },
		{ "throttlerest", &p->t_throttle_rest }, { "twall", &p->t_wall },
	};
	struct { const char *name; unsigned *field; } counts[] = {
		{ "planes", &p->planes }, { "open", &p->open }, { "random", &p->random }, { "fat", &p->fat },
		{ "chips", &p->chips }, { "rbuf", &p->rbuf }, { "unmapped", &p->unmapped },
	};
	struct { const char *name; double *field; double max; } fractions[] = {
		{ "noise", &p->noise, 1 }, { "spread", &p->spread, 1 }, { "free", &p->free_share, 1 },
		{ "pause", &p->pause, 1 }, { "fatread", &p->fat_read, 100 }, { "tail", &p->tail, 1 },
		{ "data", &p->data, 1 }, { "throttlex", &p->throttle_x, 100 }, { "bad", &p->bad, 0.9 },
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (strcmp(key, sizes[i].name) == 0) {
			if (parse_size(val, sizes[i].field, &why) == 0)
				return 0;
			return fb_fail(e, EXIT_USAGE, "sim: %s=%s: %s", key, val, why);
		}
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		if (strcmp(key, times[i].name) == 0) {
			if (sim_parse_time(val, times[i].field) == 0)
				return 0;
			return fb_fail(e, EXIT_USAGE, "sim: %s=%s: expected a time such as 300us, 1.5ms or 800 (ns), at most "
				       "1 hour", key, val);
		}
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (strcmp(key, counts[i].name) == 0) {
			if (parse_unsigned(val, counts[i].field) == 0)
				return 0;
			return fb_fail(e, EXIT_USAGE, "sim: %s=%s: expected a whole number", key, val);
		}
	for (size_t i = 0; i < sizeof(fractions) / sizeof(fractions[0]); i++)
		if (strcmp(key, fractions[i].name) == 0) {
			char *end;
			double x = strtod(val, &end);
			if (end != val && *end == '%') {
				x /= 100;
				end++;
			}
			if (end == val || *end || !isfinite(x) || x < 0 || x > fractions[i].max)
				return fb_fail(e, EXIT_USAGE, "sim: %s=%s: expected a number from 0 to %g (0.05 or 5%%)",
					       key, val, fractions[i].max);
			*fractions[i].field = x;
			return 0;
		}
	if (strcmp(key, "fatmode") == 0) {
		if (strcmp(val, "linear") && strcmp(val, "random"))
			return fb_fail(e, EXIT_USAGE, "sim: fatmode=%s: expected linear or random", val);
		p->fat_random = strcmp(val, "random") == 0;
		return 0;
	}
	if (strcmp(key, "keepby") == 0)
		return set_keep_by(p, val, e);
	if (strcmp(key, "bus") == 0 || strcmp(key, "mapbus") == 0)
		return set_bus_key(p, key, val, e);
	if (strcmp(key, "fake") == 0) {
		for (unsigned k = 0; k < SIM_FAKES; k++)
			if (!strcmp(val, sim_fake_name(k))) {
				p->fake = k;
				return 0;
			}
		return fb_fail(e, EXIT_USAGE, "sim: fake=%s: expected none, wrap, drop, cache, end or bad", val);
	}
	return fb_fail(e, EXIT_USAGE,
		       "sim: unknown key '%s' (keys: size sector erase page planes open random fat minwrite noise seed "
		       "tread tunit tcross twrite trandom rrate wrate crate wbus chips spread free fatmode pause pausetime "
		       "cache rbuf fatread tail unmapped data slc slcrate slcidle throttle throttlex throttlerest fake real "
		       "keep keepby goodend bad bus mapbus twall " SIM_RATING_KEYS ")", key);
}

static int apply_spec(struct sim_params *p, const char *spec, int allow_preset, struct fb_err *e)
{
	char *copy = strdup(spec), *save = NULL, *tok;
	int first = 1, rc = 0;

	if (!copy)
		return fb_fail(e, EXIT_DEVICE, "sim: out of memory");
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save), first = 0) {
		char *eq = strchr(tok, '=');
		if (!eq) {
			const struct preset *pr;
			if (!first || !allow_preset) {
				rc = fb_fail(e, EXIT_USAGE, "sim: '%s' is not KEY=VALUE (a preset name may only come first)", tok);
				break;
			}
			for (pr = presets; pr->name && strcmp(pr->name, tok); pr++)
				;
			if (!pr->name && sim_rating_preset(tok)) { /* the rating zoo's */
				rc = apply_spec(p, sim_rating_preset(tok), 0, e);
				continue;
			}
			if (!pr->name) {
				rc = fb_fail(e, EXIT_USAGE, "sim: unknown preset '%s' (presets: sd-4m usb-12m "
					     "cf-16m ssd fake-wrap fake-drop fake-cache; the rating zoo's: "
					     "rating-*)", tok);
				break;
			}
			rc = apply_spec(p, pr->spec, 0, e);
			continue;
		}
		*eq = '\0';
		rc = set_key(p, tok, eq + 1, e);
	}
	free(copy);
	return rc;
}

static int validate_fake(const struct sim_params *p, struct fb_err *e);
static int validate_bus(const struct sim_params *p, struct fb_err *e);
static int place_bad(struct sim *s);

static int validate(const struct sim_params *p, struct fb_err *e)
{
	if (p->sector < 512 || (p->sector & (p->sector - 1)))
		return fb_fail(e, EXIT_USAGE, "sim: sector must be a power of two of at least 512");
	if (!p->page)
		return fb_fail(e, EXIT_USAGE, "sim: page must not be zero (a page is the read and program unit, e.g. page=8K)");
	if (p->page % p->sector)
		return fb_fail(e, EXIT_USAGE, "sim: page must be a multiple of the sector size (%llu)",
			       (unsigned long long)p->sector);
	if (!p->planes)
		return fb_fail(e, EXIT_USAGE, "sim: planes must be at least 1");
	if (!p->erase)
		return fb_fail(e, EXIT_USAGE, "sim: erase must not be zero (the erase block size, e.g. erase=4M)");
	if (p->erase % (p->page * p->planes))
		return fb_fail(e, EXIT_USAGE, "sim: erase must be a multiple of page x planes");
	if (p->size > SIM_MAX_SIZE)
		return fb_fail(e, EXIT_USAGE, "sim: size must be at most 1EiB (1152921504606846976 bytes), larger than "
			       "any device");
	if (p->size < 2 * p->erase || p->size % p->sector)
		return fb_fail(e, EXIT_USAGE, "sim: size must be a multiple of the sector and hold two erase blocks");
	if (p->fat > p->size / p->erase)
		return fb_fail(e, EXIT_USAGE, "sim: fat=%u erase blocks exceed the device (%llu erase blocks of %llu "
			       "bytes)", p->fat, (unsigned long long)(p->size / p->erase), (unsigned long long)p->erase);
	if (!p->open || p->open > 1024)
		return fb_fail(e, EXIT_USAGE, "sim: open must be from 1 to 1024 (cards keep 1 to a few dozen erase "
			       "blocks open)");
	if (p->random > p->open)
		return fb_fail(e, EXIT_USAGE, "sim: random (%u) cannot exceed open (%u)", p->random, p->open);
	if (!p->read_rate || !p->write_rate || !p->copy_rate)
		return fb_fail(e, EXIT_USAGE, "sim: rates must not be zero");
	if (p->bus_rate && p->bus_rate <= p->write_rate)
		return fb_fail(e, EXIT_USAGE, "sim: wbus (the host interface) must be faster than wrate (the whole write: "
			       "interface and flash)");
	if (p->cache > (256ULL << 20))
		return fb_fail(e, EXIT_USAGE, "sim: a write cache of at most 256MiB is modelled");
	if (p->erase / p->page > (1u << 24))
		return fb_fail(e, EXIT_USAGE, "sim: too many pages per erase block");
	if (p->data > 0 && !p->unmapped)
		return fb_fail(e, EXIT_USAGE, "sim: data lays out what reads find where unmapped=1 (give both)");
	if (p->unmapped > 1)
		return fb_fail(e, EXIT_USAGE, "sim: unmapped is 0 or 1");
	if (p->slc > p->size / 2)
		return fb_fail(e, EXIT_USAGE, "sim: slc (a pSLC region) may hold at most half the device");
	if (sim_rating_validate(p, e))
		return -1;
	return validate_fake(p, e) || validate_bus(p, e) ? -1 : 0;
}

int sim_parse(const char *spec, struct sim_params *p, struct fb_err *e)
{
	sim_defaults(p);
	if (*spec && apply_spec(p, spec, 1, e))
		return -1;
	return validate(p, e);
}

static uint64_t mix64(uint64_t z);

/* ---------------------------------------------------------------- data map */

/* With unmapped=1 the card knows which bytes hold data: sorted, disjoint
 * extents [lo, hi).  A write maps its range, a discard unmaps it. */
static size_t map_first_after(const struct sim *s, uint64_t off)
{
	size_t lo = 0, hi = s->nmap;

	while (lo < hi) { /* the first extent ending after off */
		size_t mid = (lo + hi) / 2;
		if (s->map[mid].hi <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int map_holds(const struct sim *s, uint64_t off, uint64_t len)
{
	size_t i = map_first_after(s, off);

	return i < s->nmap && s->map[i].lo < off + len;
}

static void map_cut(struct sim *s, uint64_t lo, uint64_t hi);

static void map_add(struct sim *s, uint64_t lo, uint64_t hi)
{
	size_t i;

	if (lo >= hi)
		return;
	map_cut(s, lo, hi);
	if (s->nmap == s->capmap) {
		size_t cap = s->capmap ? 2 * s->capmap : 64;
		struct extent *m = realloc(s->map, cap * sizeof(*m));
		if (!m)
			abort(); /* as the page maps: the model cannot go on */
		s->map = m;
		s->capmap = cap;
	}
	i = map_first_after(s, lo);
	memmove(s->map + i + 1, s->map + i, (s->nmap - i) * sizeof(*s->map));
	s->map[i] = (struct extent){ lo, hi };
	s->nmap++;
	/* join the neighbours it touches */
	if (i + 1 < s->nmap && s->map[i + 1].lo == hi) {
		s->map[i].hi = s->map[i + 1].hi;
		memmove(s->map + i + 1, s->map + i + 2, (s->nmap - i - 2) * sizeof(*s->map));
		s->nmap--;
	}
	if (i > 0 && s->map[i - 1].hi == lo) {
		s->map[i - 1].hi = s->map[i].hi;
		memmove(s->map + i, s->map + i + 1, (s->nmap - i - 1) * sizeof(*s->map));
		s->nmap--;
	}
}

/* Remove [lo, hi) from the map (an extent it splits keeps both ends). */
static void map_cut(struct sim *s, uint64_t lo, uint64_t hi)
{
	size_t i = map_first_after(s, lo);

	while (i < s->nmap && s->map[i].lo < hi) {
		struct extent x = s->map[i];
		if (x.lo < lo && x.hi > hi) { /* split in two */
			s->map[i].hi = lo;
			map_add(s, hi, x.hi);
			return;
		}
		if (x.lo < lo) {
			s->map[i++].hi = lo;
		} else if (x.hi > hi) {
			s->map[i].lo = hi;
			return;
		} else {
			memmove(s->map + i, s->map + i + 1, (s->nmap - i - 1) * sizeof(*s->map));
			s->nmap--;
		}
	}
}

/* A used card: the partition table and FAT at the start, then files in
 * extents of 256 KiB to 256 MiB (log-uniform; larger in proportion on
 * devices above 8 GiB, so that a huge one has no more extents) with holes
 * between them (deleted files, free space) so that about `data` of the
 * device holds data; a generator of its own, so the other draws stay as
 * they were. */
static void map_layout(struct sim *s)
{
	const struct sim_params *p = &s->p;
	uint64_t g = p->seed * 0xa0761d6478bd642fULL + 0xe7037ed1a0b428dbULL, pos, want, have, grain = 4096;
	double ratio = p->data < 1 ? (1 - p->data) / p->data : 0;
	double scale = p->size > (8ULL << 30) ? (double)p->size / (double)(8ULL << 30) : 1;

	if (p->data <= 0)
		return;
	if (grain < p->sector)
		grain = p->sector;
	want = (uint64_t)(p->data * (double)p->size);
	pos = p->size / 512 < (4ULL << 20) ? p->size / 512 / grain * grain : 4ULL << 20;
	map_add(s, 0, pos ? pos : grain);
	have = pos;
	while (have < want && pos < p->size) {
		double u1 = (double)(mix64(g += 0x9e3779b97f4a7c15ULL) >> 11) / (double)(1ULL << 53);
		double u2 = (double)(mix64(g += 0x9e3779b97f4a7c15ULL) >> 11) / (double)(1ULL << 53);
		uint64_t ext = (uint64_t)(ldexp(1, 18 + (int)(u1 * 10)) * (1 + u1) * scale) / grain * grain;
		uint64_t hole = (uint64_t)(ldexp(1, 18 + (int)(u2 * 10)) * (1 + u2) * ratio * scale) / grain * grain;
		pos += hole;
		if (pos >= p->size)
			break;
		if (ext > p->size - pos)
			ext = p->size - pos;
		if (ext > want - have)
			ext = (want - have + grain - 1) / grain * grain < p->size - pos ? (want - have + grain - 1) / grain * grain
										       : p->size - pos;
		map_add(s, pos, pos + ext);
		have += ext;
		pos += ext;
	}
}

/* ---------------------------------------------------------------- model */

int sim_create(struct sim **out, const struct sim_params *p, struct fb_err *e)
{
	struct sim *s;

	if (validate(p, e))
		return -1;
	s = calloc(1, sizeof(*s));
	if (!s)
		return fb_fail(e, EXIT_DEVICE, "sim: out of memory");
	s->p = *p;
	s->map_bytes = (size_t)((p->erase / p->page + 7) / 8);
	s->slot = calloc(p->open, sizeof(*s->slot));
	if (!s->slot) {
		free(s);
		return fb_fail(e, EXIT_DEVICE, "sim: out of memory");
	}
	if (p->cache) {
		s->qcap = (size_t)(p->cache / p->sector) + 1;
		s->queue = calloc(s->qcap, sizeof(*s->queue));
		if (!s->queue) {
			free(s->slot);
			free(s);
			return fb_fail(e, EXIT_DEVICE, "sim: out of memory");
		}
	}
	s->rng = p->seed ^ 0x9e3779b97f4a7c15ULL;
	s->rng2 = p->seed * 0xd1b54a32d192ed03ULL + 0x8bb84b93962eacc9ULL;
	if (p->unmapped)
		map_layout(s);
	if (p->fake == SIM_FAKE_BAD && place_bad(s)) {
		sim_destroy(s);
		return fb_fail(e, EXIT_DEVICE, "sim: out of memory");
	}
	*out = s;
	return 0;
}

void sim_destroy(struct sim *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->p.open; i++)
		free(s->slot[i].map);
	free(s->slot);
	free(s->queue);
	store_destroy(s->store);
	store_destroy(s->held);
	free(s->bad);
	free(s->bad_text);
	free(s->map);
	free(s);
}

const struct sim_params *sim_params_of(const struct sim *s)
{
	return &s->p;
}

uint64_t sim_gc_bytes(const struct sim *s)
{
	return s->gc_bytes;
}

static uint64_t next_random(struct sim *s)
{
	return mix64(s->rng += 0x9e3779b97f4a7c15ULL);
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform draw in [0, 1) from the misbehaviour generator. */
static double uniform2(struct sim *s)
{
	return (double)(mix64(s->rng2 += 0x9e3779b97f4a7c15ULL) >> 11) / (double)(1ULL << 53);
}

/* Real requests are disturbed by interrupts and housekeeping: spread each
 * cost by +-noise, and now and then add a slow outlier.  With `tail`, some
 * requests are slower by a Pareto-distributed factor (a few very slow ones,
 * as when the card's firmware does housekeeping now and then). */
static uint64_t noisy(struct sim *s, double ns)
{
	if (s->exact)
		;
	else if (s->p.noise > 0) {
		double u = (double)(next_random(s) >> 11) / (double)(1ULL << 53);
		ns *= 1 + s->p.noise * (2 * u - 1);
		if ((next_random(s) & 63) == 0)
			ns *= 1 + 4 * s->p.noise;
	}
	if (!s->exact && s->p.tail > 0 && uniform2(s) < s->p.tail)
		ns *= fmin(1000, pow(1 - uniform2(s), -1 / 1.2));
	if (ns < 1)
		ns = 1;
	s->clock += ns;
	return (uint64_t)llround(ns);
}

/* The extra cost of crossing erase-block boundary k (k * erase): fixed per
 * boundary (a hash of k and the seed), as a property of the card. */
static double boundary_cost(const struct sim *s, uint64_t k)
{
	const struct sim_params *p = &s->p;
	double c = (double)p->t_cross;
	uint64_t h = mix64(k * 0x9e3779b97f4a7c15ULL ^ p->seed ^ 0x5851f42d4c957f2dULL);

	if (p->chips > 1)
		c *= (double)(1 + k % p->chips);
	if (p->spread > 0)
		c *= 1 + p->spread * (2 * (double)(h >> 11) / (double)(1ULL << 53) - 1);
	if (p->free_share > 0 && (double)(mix64(h) >> 11) / (double)(1ULL << 53) < p->free_share)
		c = 0;
	return c;
}

static double transfer(uint64_t bytes, uint64_t rate)
{
	return (double)bytes * 1e9 / (double)rate;
}

uint64_t sim_read(struct sim *s, uint64_t off, uint64_t len)
{
	const struct sim_params *p = &s->p;
	uint64_t unit = p->page * p->planes;
	double ns;

	uint64_t first = off / unit, last = (off + len - 1) / unit;

	if (!len)
		return noisy(s, (double)p->t_read);
	if (p->unmapped && !map_holds(s, off, len)) /* answered from the mapping table */
		return noisy(s, sim_rating_link(p, len,
						(double)p->t_read / 4 + transfer(len, p->read_rate)));
	/* riops: the fixed cost of a small read in place of tread and a tunit */
	ns = sim_rating_read_base(p, len) + transfer(len, p->read_rate);
	if (!(p->rbuf && first == last && s->last_unit == first + 1))
		ns += (double)p->t_unit * (double)(last - first + 1);
	s->last_unit = last + 1;
	if (p->chips > 1 || p->spread > 0 || p->free_share > 0) {
		for (uint64_t k = off / p->erase + 1; k <= (off + len - 1) / p->erase; k++)
			ns += boundary_cost(s, k);
	} else {
		ns += (double)p->t_cross * (double)((off + len - 1) / p->erase - off / p->erase);
	}
	if (p->fat_read > 0 && off < p->fat * p->erase)
		ns *= p->fat_read;
	return noisy(s, sim_rating_link(p, len, ns));
}

/* A write's transfer: all of it at wrate, padded to the minimum write; or
 * with wbus its own bytes over the interface and the padded bytes at the
 * flash's share of wrate (1/wrate = 1/wbus + 1/flash), so that writes of
 * the minimum and above cost what they cost without it, and smaller ones
 * less by what they do not send. */
static double write_transfer(const struct sim_params *p, uint64_t len, uint64_t eff)
{
	double flash;

	if (!p->bus_rate)
		return transfer(eff, p->write_rate);
	flash = 1e9 / (1e9 / (double)p->write_rate - 1e9 / (double)p->bus_rate);
	return transfer(len, p->bus_rate) + (double)eff * 1e9 / flash;
}

static double copy_cost(struct sim *s, uint64_t bytes)
{
	s->gc_bytes += bytes;
	return transfer(bytes, s->p.copy_rate);
}

static void mark_pages(struct sim *s, struct open_au *a, uint64_t from, uint64_t to)
{
	for (uint64_t pg = from / s->p.page; pg < (to + s->p.page - 1) / s->p.page; pg++)
		if (!(a->map[pg / 8] & (1u << (pg % 8)))) {
			a->map[pg / 8] |= (uint8_t)(1u << (pg % 8));
			a->written++;
		}
}

/* Closing an AU: the card copies whatever the host did not write into the
 * new block (linear mode), or merges the whole block (random mode). */
static double close_au(struct sim *s, struct open_au *a)
{
	double ns = 0;

	if (a->random)
		ns = a->written * s->p.page >= s->p.erase ? 0 : copy_cost(s, s->p.erase);
	else if (a->wp < s->p.erase)
		ns = copy_cost(s, s->p.erase - a->wp);
	a->used = 0;
	a->random = 0;
	a->wp = 0;
	a->written = 0;
	return ns;
}

static struct open_au *find_open(struct sim *s, uint64_t au)
{
	for (unsigned i = 0; i < s->p.open; i++)
		if (s->slot[i].used && s->slot[i].au == au)
			return &s->slot[i];
	return NULL;
}

static struct open_au *open_au(struct sim *s, uint64_t au, double *ns)
{
	struct open_au *victim = NULL;

	for (unsigned i = 0; i < s->p.open; i++) {
		struct open_au *a = &s->slot[i];
		if (!a->used) {
			victim = a;
			break;
		}
		if (!victim || a->last_use < victim->last_use)
			victim = a;
	}
	if (victim->used)
		*ns += close_au(s, victim);
	victim->used = 1;
	victim->au = au;
	victim->wp = 0;
	victim->random = 0;
	victim->written = 0;
	return victim;
}

static unsigned random_in_use(const struct sim *s)
{
	unsigned n = 0;
	for (unsigned i = 0; i < s->p.open; i++)
		n += s->slot[i].used && s->slot[i].random;
	return n;
}

static double write_in_au(struct sim *s, uint64_t au, uint64_t pos, uint64_t len)
{
	const struct sim_params *p = &s->p;
	uint64_t eff = len < p->minwrite ? p->minwrite : len;
	struct open_au *a;
	double ns = 0;

	if (au < p->fat && p->fat_random) /* random access: any size, any order, normal speed */
		return (double)p->t_write + transfer(len, p->write_rate);
	if (au < p->fat) /* FAT area: SLC-like, any order, no slot */
		return (double)p->t_write / 4 + transfer(len, 2 * p->write_rate);

	a = find_open(s, au);
	if (!a)
		a = open_au(s, au, &ns);
	a->last_use = ++s->tick;
	ns += (double)p->t_write + write_transfer(p, len, eff) + sim_rating_au_slow(p, pos, len);

	if (a->random) {
		ns += (double)p->t_random;
		mark_pages(s, a, pos, pos + len);
	} else if (pos >= a->wp) {
		if (pos > a->wp) /* skipping ahead: fill the gap from the old block */
			ns += copy_cost(s, pos - a->wp);
		a->wp = pos + len;
	} else if (random_in_use(s) < p->random) {
		if (!a->map && !(a->map = calloc(1, s->map_bytes)))
			abort();
		memset(a->map, 0, s->map_bytes);
		a->random = 1;
		a->written = 0;
		mark_pages(s, a, 0, a->wp);
		mark_pages(s, a, pos, pos + len);
		ns += (double)p->t_random;
	} else {
		/* no random slot: close (copying the rest), reopen, and copy
		 * everything in front of this write into the new block */
		ns += close_au(s, a);
		a->used = 1;
		a->au = au;
		a->last_use = s->tick;
		if (pos)
			ns += copy_cost(s, pos);
		a->wp = pos + len;
	}
	if ((!a->random && a->wp >= p->erase) || (a->random && a->written * p->page >= p->erase)) {
		close_au(s, a); /* completely written: nothing to copy */
		if (p->t_stall && ++s->aus_done % (p->stall_every ? p->stall_every : 1) == 0)
			ns += (double)p->t_stall; /* its garbage collection (stall, stallevery) */
	}
	return ns;
}

/* A write cache, as real cards have: a write that fits costs only its
 * transfer over the bus (at the read speed), and the flash does its work
 * (`work` ns, what it would have cost uncached) in the background, one
 * write after the other, as virtual time passes.  A write that does not fit
 * waits until the oldest writes are done; one larger than the cache waits
 * for the flash to be idle and is written through.  So a burst is fast up
 * to the cache size, and a long run goes at the flash's own speed. */
static void cache_retire(struct sim *s, double until)
{
	while (s->qlen && s->queue[s->qhead].done_at <= until) {
		s->cache_fill -= s->queue[s->qhead].bytes;
		s->qhead = (s->qhead + 1) % s->qcap;
		s->qlen--;
	}
}

static double cached(struct sim *s, uint64_t len, double work)
{
	const struct sim_params *p = &s->p;
	double now = s->clock, ready = now;

	cache_retire(s, now);
	if (len > p->cache) {
		double wait = s->flash_free_at > now ? s->flash_free_at - now : 0;
		cache_retire(s, now + wait);
		s->flash_free_at = now + wait + work;
		return wait + work;
	}
	while (s->cache_fill + len > p->cache || s->qlen == s->qcap) {
		ready = s->queue[s->qhead].done_at;
		cache_retire(s, ready);
	}
	ready += (double)p->t_write / 4 + transfer(len, p->read_rate);
	s->flash_free_at = (s->flash_free_at > ready ? s->flash_free_at : ready) + work;
	s->queue[(s->qhead + s->qlen++) % s->qcap] = (struct pending){ len, s->flash_free_at };
	s->cache_fill += len;
	return ready - now;
}

/* A pSLC region: while it has room, a write costs its transfer at the
 * region's speed, in any order, and leaves the erase blocks alone; the
 * card folds it into its flash only while idle (sim_idle). */
static int slc_takes(struct sim *s, uint64_t len, double *ns)
{
	const struct sim_params *p = &s->p;

	if (!p->slc || s->slc_fill + len > p->slc)
		return 0;
	s->slc_fill += len;
	*ns = (double)p->t_write / 4 + transfer(len, p->slc_rate ? p->slc_rate : 4 * p->write_rate);
	return 1;
}

/* ---------------------------------------------------------------- throttling
 * A card that slows down when it has written for long (heat, or a
 * controller that paces sustained writing), whatever it writes and
 * wherever: after `throttle` bytes written without a rest, every write
 * takes `throttlex` times as long (default 3), until the host rests for
 * `throttlerest` (default 2 s), which lets it cool down completely.  Its
 * own block: the keys change nothing else of the model.  It also serves as
 * "a rate that drops after N bytes" (a card whose sustained speed is
 * lower than its burst speed): throttle=N,throttlex=X, with a throttlerest
 * longer than any test rests (600s) when the rate should not come back. */

static void throttle_count(struct sim *s, uint64_t len)
{
	s->sustained += len;
}

static double throttle_factor(const struct sim *s)
{
	if (!s->p.throttle || s->sustained <= s->p.throttle) /* cool */
		return 1;
	return s->p.throttle_x > 0 ? s->p.throttle_x : 3;
}

static void throttle_rest(struct sim *s, uint64_t ns)
{
	if (ns >= (s->p.t_throttle_rest ? s->p.t_throttle_rest : 2000000000ULL))
		s->sustained = 0;
}

/* ---------------------------------------------------------------- writes */

uint64_t sim_write(struct sim *s, uint64_t off, uint64_t len)
{
	uint64_t n0 = len;
	double ns = 0;

	s->last_unit = 0;
	if (s->p.unmapped)
		map_add(s, off, off + len);
	throttle_count(s, len);
	if (slc_takes(s, len, &ns) || sim_rating_write(&s->p, len, &ns)) /* pSLC; wiops */
		len = 0;
	while (len) {
		uint64_t au = off / s->p.erase, pos = off % s->p.erase;
		uint64_t n = s->p.erase - pos < len ? s->p.erase - pos : len;
		ns += write_in_au(s, au, pos, n);
		off += n;
		len -= n;
	}
	if (s->p.cache)
		ns = cached(s, n0, ns);
	if (!s->exact && s->p.pause > 0 && uniform2(s) < s->p.pause)
		ns += (double)s->p.t_pause * (1 + 4 * uniform2(s)) / 3;
	ns *= throttle_factor(s); /* hot: slower until it rests */
	return noisy(s, sim_rating_link(&s->p, n0, ns));
}

uint64_t sim_discard(struct sim *s, uint64_t off, uint64_t len)
{
	uint64_t first = off / s->p.erase, last = len ? (off + len - 1) / s->p.erase : first;

	if (s->p.unmapped)
		map_cut(s, off, off + len);
	for (unsigned i = 0; i < s->p.open; i++) {
		struct open_au *a = &s->slot[i];
		if (a->used && a->au >= first && a->au <= last) {
			a->used = 0;
			a->random = 0;
			a->wp = 0;
			a->written = 0;
		}
	}
	return noisy(s, (double)s->p.t_write * (double)(last - first + 1));
}

/* ---------------------------------------------------------------- fake cards
 * What the card holds, and where a fake card puts it.  The flash is a
 * simstore by physical sector (absent sectors hold what the card came with);
 * an address past the real flash maps onto the start (wrap), onto nothing
 * (drop, end: reads give zeros), or onto a store of what is kept for a
 * while (cache: the latest `keep` bytes written; keepby says what counts:
 * every write, as a write-back buffer's; only the bytes written past the
 * end, as a pool of spare flash they take in turn; or the distinct sectors
 * written past the end, a sector written again being the latest again); a
 * bad region (bad) loses writes and reads whatever the flash held before.
 * Only data move through here; the time of each request is the model's
 * above, for the address asked. */

static const char *const fake_names[SIM_FAKES] = { "none", "wrap", "drop", "cache", "end", "bad" };

const char *sim_fake_name(unsigned fake)
{
	return fake < SIM_FAKES ? fake_names[fake] : NULL;
}

/* fake=cache's keepby values, by SIM_KEEP_BY_* */
static const char *const keep_by_names[SIM_KEEP_BYS] = { "", "writes", "past", "address" };

static int set_keep_by(struct sim_params *p, const char *val, struct fb_err *e)
{
	for (unsigned k = SIM_KEEP_BY_WRITES; k < SIM_KEEP_BYS; k++)
		if (!strcmp(val, keep_by_names[k])) {
			p->keep_by = k;
			return 0;
		}
	return fb_fail(e, EXIT_USAGE, "sim: keepby=%s: expected writes, past or address", val);
}

static int validate_fake(const struct sim_params *p, struct fb_err *e)
{
	const char *name = fake_names[p->fake < SIM_FAKES ? p->fake : 0];

	if (p->keep_by && p->fake != SIM_FAKE_CACHE)
		return fb_fail(e, EXIT_USAGE, "sim: keepby=%s goes with fake=cache", keep_by_names[p->keep_by]);
	if (!p->fake) {
		if (p->real || p->keep || p->goodend || p->bad > 0)
			return fb_fail(e, EXIT_USAGE, "sim: real, keep, goodend and bad describe a fake card: add "
				       "fake=wrap, drop, cache, end or bad");
		return 0;
	}
	if (p->fake == SIM_FAKE_BAD) {
		if (p->bad <= 0)
			return fb_fail(e, EXIT_USAGE, "sim: fake=bad needs bad=SHARE, the share of the card in bad regions "
				       "(e.g. bad=10%%)");
		if (p->real || p->keep || p->goodend)
			return fb_fail(e, EXIT_USAGE, "sim: fake=bad takes bad=SHARE only (the whole card is real)");
		if (p->size / p->erase > (1u << 24))
			return fb_fail(e, EXIT_USAGE, "sim: fake=bad: too many erase blocks");
		return 0;
	}
	if (p->bad > 0)
		return fb_fail(e, EXIT_USAGE, "sim: bad=SHARE goes with fake=bad");
	if (!p->real || p->real >= p->size || p->real % p->sector)
		return fb_fail(e, EXIT_USAGE, "sim: fake=%s needs real=SIZE: the flash it really has, less than size and "
			       "a whole number of sectors", name);
	if ((p->fake == SIM_FAKE_CACHE) != (p->keep > 0))
		return fb_fail(e, EXIT_USAGE, p->keep ? "sim: keep=SIZE goes with fake=cache" :
			       "sim: fake=cache needs keep=SIZE: how many of the latest bytes written it keeps");
	if (p->keep > (1ULL << 30))
		return fb_fail(e, EXIT_USAGE, "sim: keep=SIZE: at most 1GiB is modelled");
	if ((p->fake == SIM_FAKE_END) != (p->goodend > 0))
		return fb_fail(e, EXIT_USAGE, p->goodend ? "sim: goodend=SIZE goes with fake=end" :
			       "sim: fake=end needs goodend=SIZE: the working region at the end");
	if (p->goodend && (p->goodend % p->sector || p->real + p->goodend >= p->size))
		return fb_fail(e, EXIT_USAGE, "sim: goodend=SIZE must be whole sectors and leave a lost part between "
			       "real and the end");
	return 0;
}

/* The bad regions: runs of 1 to 8 erase blocks at places drawn from the
 * seed, until they cover the share asked for. */
static int place_bad(struct sim *s)
{
	const struct sim_params *p = &s->p;
	uint64_t aus = p->size / p->erase, want = (uint64_t)(p->bad * (double)aus + 0.5), have = 0;
	uint64_t x = p->seed * 0x2545f4914f6cdd1dULL + 0x632be59bd9b4e019ULL;
	uint8_t *map = calloc((size_t)(aus + 7) / 8, 1);
	size_t n = 0;

	if (!map)
		return -1;
	if (!want)
		want = 1;
	while (have < want) {
		uint64_t at = mix64(x += 0x9e3779b97f4a7c15ULL) % aus, len = 1 + mix64(x += 0x9e3779b97f4a7c15ULL) % 8;
		for (uint64_t a = at; a < at + len && a < aus && have < want; a++)
			if (!(map[a / 8] & (1u << (a % 8)))) {
				map[a / 8] |= (uint8_t)(1u << (a % 8));
				have++;
			}
	}
	for (uint64_t a = 0; a < aus; a++)
		if ((map[a / 8] & (1u << (a % 8))) && (a == 0 || !(map[(a - 1) / 8] & (1u << ((a - 1) % 8)))))
			n++;
	if (!(s->bad = calloc(n, sizeof(*s->bad)))) {
		free(map);
		return -1;
	}
	for (uint64_t a = 0; a < aus; a++) {
		int in = map[a / 8] & (1u << (a % 8)), before = a && (map[(a - 1) / 8] & (1u << ((a - 1) % 8)));
		if (in && !before)
			s->bad[s->nbad][0] = a * p->erase;
		if (in)
			s->bad[s->nbad][1] = (a + 1) * p->erase;
		if (in && (a + 1 == aus || !(map[(a + 1) / 8] & (1u << ((a + 1) % 8)))))
			s->nbad++;
	}
	free(map);
	if (!(s->bad_text = malloc(s->nbad * 44 + 1)))
		return -1;
	s->bad_text[0] = '\0';
	for (size_t i = 0, at = 0; i < s->nbad; i++)
		at += (size_t)sprintf(s->bad_text + at, "%s%llu-%llu", i ? " " : "", (unsigned long long)s->bad[i][0],
				      (unsigned long long)s->bad[i][1]);
	return 0;
}

const char *sim_bad_text(const struct sim *s)
{
	return s->bad_text ? s->bad_text : "";
}

uint64_t sim_bad_regions(const struct sim *s, uint64_t (*out)[2], uint64_t max)
{
	for (size_t i = 0; i < s->nbad && i < max; i++) {
		out[i][0] = s->bad[i][0];
		out[i][1] = s->bad[i][1];
	}
	return s->nbad;
}

enum place { AT_FLASH, AT_LOST, AT_HELD };

/* Where the first piece of [off, off+len) lands: returns its length, with
 * its place and (on the flash) the physical offset.  Writes into a bad
 * region are lost; reads there find the flash as it was. */
static uint64_t place_of(const struct sim *s, uint64_t off, uint64_t len, int writing, enum place *pl,
			 uint64_t *phys)
{
	const struct sim_params *p = &s->p;
	uint64_t lost_end = p->fake == SIM_FAKE_END ? p->size - p->goodend : p->size, n = len;

	*pl = AT_FLASH;
	*phys = off;
	switch (p->fake) {
	case SIM_FAKE_WRAP:
		*phys = off % p->real;
		n = p->real - *phys;
		break;
	case SIM_FAKE_DROP:
	case SIM_FAKE_CACHE:
	case SIM_FAKE_END:
		if (off < p->real)
			n = p->real - off;
		else if (off < lost_end) {
			*pl = p->fake == SIM_FAKE_CACHE ? AT_HELD : AT_LOST;
			n = lost_end - off;
		}
		break;
	case SIM_FAKE_BAD:
		for (size_t i = 0; i < s->nbad; i++) {
			if (s->bad[i][1] <= off)
				continue;
			if (s->bad[i][0] > off) {
				n = s->bad[i][0] - off;
			} else {
				n = s->bad[i][1] - off;
				*pl = writing ? AT_LOST : AT_FLASH;
			}
			break;
		}
		break;
	default:
		break;
	}
	return n < len ? n : len;
}

static int data_stores(struct sim *s)
{
	unsigned ss = (unsigned)s->p.sector;

	if (!s->store && store_create(&s->store, ss, s->p.seed, 1))
		return -1;
	if (s->p.fake == SIM_FAKE_CACHE && !s->held && store_create(&s->held, ss, s->p.seed, 0))
		return -1;
	if (s->p.fake == SIM_FAKE_BAD && !s->bad && place_bad(s))
		return -1;
	return 0;
}

/* fake=cache: the held sectors past the latest `keep` bytes written go
 * (the counter's bytes, or with keepby=address the distinct sectors). */
static void cache_push_out(struct sim *s)
{
	if (s->p.keep_by == SIM_KEEP_BY_ADDRESS)
		store_keep_latest(s->held, s->p.keep / s->p.sector);
	else if (s->written > s->p.keep)
		store_forget(s->held, s->written - s->p.keep);
}

int sim_data_write(struct sim *s, uint64_t off, uint64_t len, const void *buf, int pattern)
{
	const unsigned char *p = buf;
	unsigned ss = (unsigned)s->p.sector;

	if (buf)
		s->data_used = 1;
	if (s->data_lost)
		return buf ? -ENOSPC : 0;
	if (data_stores(s))
		return -ENOMEM;
	while (len) {
		enum place pl;
		uint64_t phys, n = place_of(s, off, len, 1, &pl, &phys);
		int rc = 0;
		if (pl == AT_FLASH)
			rc = store_write(s->store, phys / ss, n / ss, p, pattern, phys); /* stamps unused: kept contiguous */
		else if (pl == AT_HELD)
			rc = store_write(s->held, off / ss, n / ss, p, pattern, s->written);
		if (rc) {
			s->data_lost = 1;
			return buf ? rc : 0;
		}
		if (pl == AT_HELD || s->p.keep_by <= SIM_KEEP_BY_WRITES) /* past, address: only what is held */
			s->written += n;
		off += n;
		len -= n;
		if (p)
			p += n;
	}
	if (s->held)
		cache_push_out(s);
	return 0;
}

int sim_data_read(struct sim *s, uint64_t off, uint64_t len, void *buf)
{
	unsigned char *p = buf;
	unsigned ss = (unsigned)s->p.sector;

	s->data_used = 1;
	if (s->data_lost)
		return -ENOSPC;
	if (data_stores(s))
		return -ENOMEM;
	while (len) {
		enum place pl;
		uint64_t phys, n = place_of(s, off, len, 0, &pl, &phys);
		if (pl == AT_FLASH)
			store_read(s->store, phys / ss, n / ss, p);
		else if (pl == AT_HELD)
			store_read(s->held, off / ss, n / ss, p);
		else
			memset(p, 0, n);
		off += n;
		len -= n;
		p += n;
	}
	return 0;
}

int sim_data_used(const struct sim *s)
{
	return s->data_used;
}

uint64_t sim_data_changed(const struct sim *s)
{
	return s->store ? store_changed(s->store) : 0;
}

double sim_clock(const struct sim *s)
{
	return s->clock;
}

/* Idle time: a pSLC region empties, a throttled card cools down. */
void sim_idle(struct sim *s, uint64_t ns)
{
	const struct sim_params *p = &s->p;
	double drained = (double)ns * (double)(p->slc_idle ? p->slc_idle : p->write_rate) / 1e9;

	s->clock += (double)ns;
	s->slc_fill = drained >= (double)s->slc_fill ? 0 : s->slc_fill - (uint64_t)drained;
	throttle_rest(s, ns);
}

/* A rest that lets the card tidy up (after --auto --write's quick capacity
 * check): idle time, in which the write cache drains and then the card
 * closes its open erase blocks in the background (least recently used
 * first, as long as the time covers their copies), as cards that clean up
 * when left alone do. */
void sim_rest(struct sim *s, uint64_t ns)
{
	double left, from = s->clock > s->flash_free_at ? s->clock : s->flash_free_at;

	sim_idle(s, ns);
	if (s->p.cache)
		cache_retire(s, s->clock);
	left = s->clock - from;
	for (;;) {
		struct open_au *oldest = NULL;
		for (unsigned i = 0; i < s->p.open; i++)
			if (s->slot[i].used && (!oldest || s->slot[i].last_use < oldest->last_use))
				oldest = &s->slot[i];
		if (!oldest)
			break;
		uint64_t rest = oldest->random ? s->p.erase : s->p.erase - oldest->wp;
		if (transfer(rest, s->p.copy_rate) > left)
			break;
		left -= close_au(s, oldest);
	}
}

void sim_exact(struct sim *s, int on)
{
	s->exact = on;
}

/* ---------------------------------------------------------------- buses */

/* The bus keys: bus=NAME puts the card on a link shared with every other
 * simulated card of that name (in this process: dev/simlink.h); link=RATE
 * (a rating key, sim_rating.c) is then what the link carries in all (33M:
 * the writes of a USB 2.0 hub, 41M its reads), mapbus=NAME is the link the topology map shows for the card
 * when it differs (a hub inside a reader, which no map sees).  The model
 * of the card itself knows nothing of them. */
static int bus_name(char *out, const char *key, const char *val, struct fb_err *e)
{
	size_t n = strlen(val);

	if (!n || n >= SIM_BUS_NAME || strspn(val, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != n)
		return fb_fail(e, EXIT_USAGE, "sim: %s=%s: expected a name of 1 to %d letters, digits, '.', '_' or '-'",
			       key, val, SIM_BUS_NAME - 1);
	memcpy(out, val, n + 1);
	return 0;
}

static int set_bus_key(struct sim_params *p, const char *key, const char *val, struct fb_err *e)
{
	return bus_name(!strcmp(key, "bus") ? p->bus : p->mapbus, key, val, e);
}

static int validate_bus(const struct sim_params *p, struct fb_err *e)
{
	if (p->bus[0] && !p->link)
		return fb_fail(e, EXIT_USAGE, "sim: bus=%s needs link=RATE, what the link carries in all (33M: a USB "
			       "2.0 hub's writes)", p->bus);
	if (!p->bus[0] && p->mapbus[0])
		return fb_fail(e, EXIT_USAGE, "sim: mapbus needs bus=NAME, the link the card shares with others");
	return 0;
}

/* Queued requests (sim.h): each is timed alone, and they overlap. */
uint64_t sim_queue(struct sim *s, const struct sim_req *r, size_t n, unsigned depth, uint64_t *lat)
{
	unsigned c = sim_concurrency(&s->p, depth);
	double sum = 0, longest = 0, t;

	for (size_t i = 0; i < n; i++) {
		uint64_t ns = r[i].write ? sim_write(s, r[i].off, r[i].len)
					 : sim_read(s, r[i].off, r[i].len);
		if (lat)
			lat[i] = ns;
		sum += (double)ns;
		if ((double)ns > longest)
			longest = (double)ns;
	}
	t = sum / c > longest ? sum / c : longest;
	s->clock -= sum - t;
	return (uint64_t)llround(t);
}
