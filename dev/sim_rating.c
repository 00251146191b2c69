/* sim_rating.c — the simulator's rating keys (sim.h, "ratings"): the SD
 * Status a simulated card reports, the ways it keeps or breaks its marks
 * (garbage-collection stalls at AU close, AUs fast only in their first
 * part, fixed random IOPS, a command queue), its host's limits (queue
 * depth, link rate), and the truth the rating zoo scores against: what
 * the card keeps, computed from its keys alone.  A rate that drops after N
 * bytes is the pSLC keys' (slc, slcrate) and throttling's (throttle,
 * throttlex), which sim.c models already. */
#include "dev/sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/units.h"

#define SMALL_IO (64u << 10) /* riops, wiops: requests up to this go at the fixed rate */
#define IOPS_UNIT 4096u      /* ... for their first 4 KiB */
#define HOST_QD 32u          /* hostqd's default: a host that queues (an SD host with CQ, NVMe) */
#define TRUTH_DEPTH 32u      /* queued IOPS are the truth at this depth */

/* ------------------------------------------------------------ the zoo's cards
 * Cards that keep their marks and cards that lie, each with the SD Status
 * it reports: sim:rating-NAME (kept apart from sim.c's presets, which
 * --help lists and every zoo runs). */
static const struct {
	const char *name, *desc, *spec;
} rating_presets[] = {
	{ "rating-c10", "SD card that keeps C10: 16 GiB, 4 MiB AUs, 14.5 MB/s in free AUs",
	  "size=16G,erase=4M,fat=4,wrate=14M,crate=14M,rrate=40M,ssr=C10" },
	{ "rating-u1", "SD card that keeps C10 U1 V10: 32 GiB, 4 MiB AUs, 20 MB/s",
	  "size=32G,erase=4M,fat=4,wrate=20M,crate=20M,rrate=45M,ssr=C10+U1+V10" },
	{ "rating-u3", "SD card that keeps C10 U3 V30: 32 GiB, 4 MiB AUs, 46 MB/s",
	  "size=32G,erase=4M,fat=4,wrate=45M,crate=45M,rrate=90M,ssr=C10+U3+V30" },
	{ "rating-v60", "SD card that keeps C10 U3 V60: 64 GiB, 8 MiB AUs, 85 MB/s",
	  "size=64G,erase=8M,fat=2,tunit=40us,wrate=85M,crate=85M,rrate=170M,ssr=C10+U3+V60" },
	{ "rating-a1", "SD card that keeps C10 U1 V10 A1: 2400/800 IOPS at depth 1",
	  "size=32G,erase=4M,fat=4,wrate=20M,crate=20M,rrate=45M,riops=2400,wiops=800,ssr=C10+U1+"
	  "V10+A1" },
	{ "rating-a2",
	  "SD card that keeps C10 U3 V30 A2: 3000/1300 IOPS at depth 1, a command queue of 2",
	  "size=64G,erase=4M,fat=4,wrate=60M,crate=60M,rrate=95M,riops=3000,wiops=1300,cq=2,ssr="
	  "C10+U3+V30+A2" },
	{ "rating-lie-u3-cache",
	  "SD card that claims U3 V30 and falls to 12.5 MB/s past its 512 MiB pSLC",
	  "size=32G,erase=4M,fat=4,wrate=12M,crate=200M,rrate=90M,slc=512M,slcrate=80M,ssr=C10+U3+"
	  "V30" },
	{ "rating-lie-a2", "SD card that claims A2 with 300 write IOPS (1200 queued)",
	  "size=64G,erase=4M,fat=4,wrate=60M,crate=60M,rrate=95M,riops=3000,wiops=300,cq=4,ssr=C10+"
	  "U3+V30+A2" },
	{ "rating-lie-c10-gc",
	  "SD card that claims C10 and stalls 400 ms in garbage collection every 4th AU",
	  "size=16G,erase=4M,fat=4,wrate=20M,crate=20M,rrate=40M,stall=400ms,stallevery=4,ssr="
	  "C10" },
	{ "rating-lie-v30-su",
	  "SD card that claims U3 V30 and keeps 41 MB/s only in the first 4 MiB of each 16 MiB AU",
	  "size=64G,erase=16M,fat=1,wrate=40M,crate=40M,rrate=90M,aufast=4M,auslow=14M,ssr=C10+U3+"
	  "V30" },
	{ "rating-lie-u1-busy",
	  "SD card that claims U1 and keeps 11 MB/s, but one write in each AU is busy 290 ms",
	  "size=32G,erase=16M,fat=1,wrate=40M,crate=40M,rrate=80M,stall=280ms,ssr=C10+U1" },
};

const char *sim_rating_preset(const char *name)
{
	for (size_t i = 0; i < sizeof(rating_presets) / sizeof(rating_presets[0]); i++)
		if (!strcmp(rating_presets[i].name, name))
			return rating_presets[i].spec;
	return NULL;
}

const char *sim_rating_preset_name(unsigned i)
{
	return i < sizeof(rating_presets) / sizeof(rating_presets[0]) ? rating_presets[i].name
								      : NULL;
}

const char *sim_rating_preset_description(unsigned i)
{
	return i < sizeof(rating_presets) / sizeof(rating_presets[0]) ? rating_presets[i].desc
								      : NULL;
}

/* ------------------------------------------------------------ keys */

static int set_ssr(struct sim_params *p, const char *val, struct fb_err *e)
{
	char copy[128], *save = NULL;
	struct sd_ssr r;

	p->ssr[0] = '\0';
	p->ssr_marks = 0;
	if (!strcmp(val, "none"))
		return 0;
	if (strlen(val) == 128 && !sd_decode_ssr(val, &r)) {
		memcpy(p->ssr, val, 129);
		return 0;
	}
	if (strspn(val, "0123456789abcdefABCDEF") == strlen(val) && strlen(val) > 3)
		return fb_fail(e, EXIT_USAGE,
			       "sim: ssr=%.20s%s: an SD Status is 128 hex digits, not %zu", val,
			       strlen(val) > 20 ? "..." : "", strlen(val));
	if (strlen(val) >= sizeof(copy))
		return fb_fail(e, EXIT_USAGE,
			       "sim: ssr=%.20s...: expected none, 128 hex digits or marks such as "
			       "C10+U3+V30+A2",
			       val);
	strcpy(copy, val);
	for (char *m = strtok_r(copy, "+", &save); m; m = strtok_r(NULL, "+", &save)) {
		const struct sd_mark *k = sd_mark_find(m);
		if (!k)
			return fb_fail(e, EXIT_USAGE,
				       "sim: ssr=%s: '%s' is no mark (marks: C2 C4 C6 C10 U1 U3 V6 "
				       "V10 V30 "
				       "V60 V90 A1 A2, joined by +)",
				       val, m);
		p->ssr_marks |= 1u << (k - sd_marks);
	}
	return 0;
}

int sim_rating_key(struct sim_params *p, const char *key, const char *val, struct fb_err *e)
{
	struct {
		const char *name;
		uint64_t *field;
	} sizes[] = {
		{ "aufast", &p->au_fast },
		{ "auslow", &p->au_slow },
		{ "link", &p->link },
	};
	struct {
		const char *name;
		unsigned *field;
		unsigned max;
	} counts[] = {
		{ "stallevery", &p->stall_every, 1u << 20 },
		{ "riops", &p->riops, 10000000 },
		{ "wiops", &p->wiops, 10000000 },
		{ "cq", &p->cq, 32 },
		{ "hostqd", &p->host_qd, 1024 },
	};
	const char *why = "bad value";
	uint64_t x;

	if (!strcmp(key, "ssr"))
		return set_ssr(p, val, e);
	if (!strcmp(key, "stall")) {
		if (sim_parse_time(val, &p->t_stall) == 0)
			return 0;
		return fb_fail(e, EXIT_USAGE,
			       "sim: stall=%s: expected a time such as 400ms, at most 1 hour", val);
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (!strcmp(key, sizes[i].name)) {
			if (parse_size(val, sizes[i].field, &why) == 0)
				return 0;
			return fb_fail(e, EXIT_USAGE, "sim: %s=%s: %s", key, val, why);
		}
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (!strcmp(key, counts[i].name)) {
			if (parse_count(val, &x, &why) == 0 && x <= counts[i].max) {
				*counts[i].field = (unsigned)x;
				return 0;
			}
			return fb_fail(e, EXIT_USAGE,
				       "sim: %s=%s: expected a whole number from 0 to %u", key, val,
				       counts[i].max);
		}
	return 1;
}

int sim_rating_validate(const struct sim_params *p, struct fb_err *e)
{
	if ((p->au_fast > 0) != (p->au_slow > 0))
		return fb_fail(
			e, EXIT_USAGE,
			"sim: aufast=SIZE and auslow=RATE go together (the first bytes of each AU "
			"at wrate, the rest at auslow)");
	if (p->au_fast && (p->au_fast >= p->erase || p->au_fast % p->sector))
		return fb_fail(e, EXIT_USAGE,
			       "sim: aufast must be whole sectors and less than the erase block");
	if (p->stall_every && !p->t_stall)
		return fb_fail(e, EXIT_USAGE,
			       "sim: stallevery=N says which AUs stall: give stall=TIME too");
	return 0;
}

void sim_ssr(const struct sim_params *p, char buf[129])
{
	const struct sd_mark *claims[SD_FAMILIES] = { NULL, NULL, NULL, NULL };

	if (p->ssr[0]) {
		memcpy(buf, p->ssr, 129);
		return;
	}
	buf[0] = '\0';
	if (!p->ssr_marks)
		return;
	for (unsigned i = 0; i < SD_MARKS; i++) /* lowest first: the highest of each family stays */
		if (p->ssr_marks & (1u << i))
			claims[sd_marks[i].family] = &sd_marks[i];
	sd_ssr_encode(buf, claims, p->erase, p->cq,
		      claims[SD_FAMILY_APP] && claims[SD_FAMILY_APP]->level >= 2);
}

unsigned sim_concurrency(const struct sim_params *p, unsigned depth)
{
	unsigned c = depth ? depth : 1, hq = p->host_qd ? p->host_qd : HOST_QD,
		 cq = p->cq ? p->cq : 1;

	if (c > hq)
		c = hq;
	return c > cq ? cq : c;
}

/* ------------------------------------------------------------ model hooks */

static double transfer(uint64_t bytes, uint64_t rate)
{
	return (double)bytes * 1e9 / (double)rate;
}

double sim_rating_read_base(const struct sim_params *p, uint64_t len)
{
	if (!p->riops || len > SMALL_IO)
		return (double)p->t_read;
	return 1e9 / p->riops - (double)p->t_unit;
}

int sim_rating_write(const struct sim_params *p, uint64_t len, double *ns)
{
	if (!p->wiops || len > SMALL_IO)
		return 0;
	*ns = 1e9 / p->wiops + (len > IOPS_UNIT ? transfer(len - IOPS_UNIT, p->write_rate) : 0);
	return 1;
}

double sim_rating_au_slow(const struct sim_params *p, uint64_t pos, uint64_t len)
{
	uint64_t from = pos > p->au_fast ? pos : p->au_fast;

	if (!p->au_fast || pos + len <= p->au_fast)
		return 0;
	return transfer(pos + len - from, p->au_slow) - transfer(pos + len - from, p->write_rate);
}

double sim_rating_link(const struct sim_params *p, uint64_t len, double ns)
{
	double floor = p->link ? transfer(len, p->link) : 0;

	return ns > floor ? ns : floor;
}

/* ------------------------------------------------------------ the truth */

/* One RU write at pos in a free AU, on the erase-block path (no pSLC). */
static double ru_time(const struct sim_params *p, uint64_t pos, uint64_t len)
{
	uint64_t eff = len < p->minwrite ? p->minwrite : len;

	return (double)p->t_write + transfer(eff, p->write_rate) + sim_rating_au_slow(p, pos, len);
}

/* The lowest speed of any aligned `unit` of a long recording in RUs of
 * len bytes through whole AUs (each Nth AU's last write stalls), and the
 * longest single write. */
static double lowest_unit(const struct sim_params *p, uint64_t unit, uint64_t len, double *busy)
{
	uint64_t every = p->t_stall ? (p->stall_every ? p->stall_every : 1) : 1;
	uint64_t span = unit > p->erase ? unit : p->erase, aus = (span / p->erase + 1) * every * 2;
	double in_unit = 0, lowest = INFINITY;
	uint64_t pos = 0;

	*busy = 0;
	for (uint64_t au = 1; au <= aus; au++)
		for (uint64_t at = 0; at < p->erase; at += len) {
			uint64_t n = p->erase - at < len ? p->erase - at : len;
			double t = ru_time(p, at, n);
			if (at + n >= p->erase && p->t_stall && au % every == 0)
				t += (double)p->t_stall;
			if (t > *busy)
				*busy = t;
			in_unit += t;
			pos += n;
			if (pos % unit == 0) {
				double speed = (double)unit * 1e9 / in_unit;
				if (speed < lowest)
					lowest = speed;
				in_unit = 0;
			}
		}
	return lowest;
}

/* A write's speed while a pSLC region takes it (0: no pSLC). */
static double slc_speed(const struct sim_params *p, uint64_t len)
{
	return p->slc ? (double)len * 1e9 /
				((double)p->t_write / 4 +
				 transfer(len, p->slc_rate ? p->slc_rate : 4 * p->write_rate))
		      : 0;
}

static void judge_pw(const struct sim_params *p, const struct sim_truth *t, const struct sd_mark *m,
		     struct sim_truth_mark *k)
{
	int video = m->family == SD_FAMILY_VIDEO;
	double first = video ? t->first_su : t->first4, all = video ? t->pw_su : t->pw4,
	       want = m->mbps * 1e6;

	*k = (struct sim_truth_mark){ 1, SD_FIG_NONE, 0, 0, NULL };
	if (first < want) {
		*k = (struct sim_truth_mark){ 0, SD_FIG_PW, first, want, NULL };
	} else if (all < want) {
		*k = (struct sim_truth_mark){ 0, SD_FIG_SUSTAINED, all, want, NULL };
	} else if (m->family == SD_FAMILY_UHS && t->busy > SD_UHS_BUSY_NS) {
		*k = (struct sim_truth_mark){ 0, SD_FIG_BUSY, t->busy, SD_UHS_BUSY_NS, NULL };
	} else if (t->pr < want) {
		*k = (struct sim_truth_mark){ 0, SD_FIG_PR, t->pr, want, NULL };
	}
	if (p->link && (double)p->link < want)
		k->host = "the link is slower than the mark";
}

static void judge_app(const struct sim_params *p, const struct sim_truth *t,
		      const struct sd_mark *m, struct sim_truth_mark *k)
{
	int a2 = m->level >= 2;
	double r = a2 ? t->riops_q : t->riops1, w = a2 ? t->wiops_q : t->wiops1;

	*k = (struct sim_truth_mark){ 1, SD_FIG_NONE, 0, 0, NULL };
	if (a2 && p->cq < 2)
		*k = (struct sim_truth_mark){ 0, SD_FIG_QUEUE, p->cq, 2, NULL };
	else if (r < m->read_iops)
		*k = (struct sim_truth_mark){ 0, a2 ? SD_FIG_READ_IOPS_Q : SD_FIG_READ_IOPS, r,
					      m->read_iops, NULL };
	else if (w < m->write_iops)
		*k = (struct sim_truth_mark){ 0, a2 ? SD_FIG_WRITE_IOPS_Q : SD_FIG_WRITE_IOPS, w,
					      m->write_iops, NULL };
	else if (t->pssw < m->mbps * 1e6)
		*k = (struct sim_truth_mark){ 0, SD_FIG_PSSW, t->pssw, m->mbps * 1e6, NULL };
	if (a2 && p->host_qd == 1)
		k->host = "the host runs one command at a time";
	else if (p->link && (double)p->link < m->mbps * 1e6)
		k->host = "the link is slower than the mark";
}

void sim_truth(const struct sim_params *host, struct sim_truth *t)
{
	/* the card's own figures: with a host that takes all it gives */
	struct sim_params card = *host, *p = &card;
	double busy4, busy_su, unit = (double)(p->page * p->planes),
			       x = p->throttle_x > 0 ? p->throttle_x : 3;
	double r4, w4, slc4, slcsu, c;
	uint64_t su = 8u << 20;

	card.link = 0;
	card.host_qd = 0;
	memset(t, 0, sizeof(*t));
	/* Pw on the erase-block path, per 4 MiB sub-unit (the AU when smaller)
	 * and per 8 MiB video SU; a pSLC takes the first of a recording at its
	 * speed, throttling slows what comes after `throttle` bytes */
	t->pw4 = lowest_unit(p, p->erase < SD_SUB_UNIT ? p->erase : SD_SUB_UNIT, SD_RU, &busy4);
	t->pw_su = lowest_unit(p, su, SD_RU, &busy_su);
	t->busy = busy4 > busy_su ? busy4 : busy_su;
	slc4 = slc_speed(p, SD_RU);
	slcsu = slc4;
	t->first4 = p->slc ? slc4 : t->pw4;
	t->first_su = p->slc ? slcsu : t->pw_su;
	if (p->throttle) {
		t->pw4 /= x;
		t->pw_su /= x;
		t->busy *= x;
	}
	if (p->slc) { /* once the pSLC is full, the erase-block path */
		/* where it fills, the AU it was filling is copied up to there
		 * before the next write: at worst all of it but one RU */
		double cliff = transfer(p->erase - SD_RU, p->copy_rate);
		double u4 = (double)(p->erase < SD_SUB_UNIT ? p->erase : SD_SUB_UNIT),
		       usu = (double)su;
		t->pw4 = u4 * 1e9 / (u4 * 1e9 / t->pw4 + cliff);
		t->pw_su = usu * 1e9 / (usu * 1e9 / t->pw_su + cliff);
		if (ru_time(p, 0, SD_RU) + cliff > t->busy)
			t->busy = ru_time(p, 0, SD_RU) + cliff;
		t->pw4 = t->pw4 < slc4 ? t->pw4 : slc4;
		t->pw_su = t->pw_su < slcsu ? t->pw_su : slcsu;
	}
	/* Pr: 256 random RU reads (RU-aligned: no erase-block crossing) */
	t->pr = (double)SD_RU * 1e9 /
		sim_rating_link(p, SD_RU,
				(double)p->t_read + (double)p->t_unit * ceil(SD_RU / unit) +
					transfer(SD_RU, p->read_rate));
	/* 4 KiB IOPS: the fixed rates, else the model's read and an
	 * erase-block write that closes another AU half written (its copy) */
	r4 = sim_rating_read_base(p, IOPS_UNIT) + (double)p->t_unit + transfer(IOPS_UNIT, p->read_rate);
	w4 = p->wiops ? 1e9 / p->wiops
		      : (double)p->t_write +
				transfer(p->minwrite > IOPS_UNIT ? p->minwrite : IOPS_UNIT,
					 p->write_rate) +
				transfer(p->erase / 2, p->copy_rate);
	t->riops1 = 1e9 / sim_rating_link(p, IOPS_UNIT, r4);
	t->wiops1 = 1e9 / sim_rating_link(p, IOPS_UNIT, w4);
	c = sim_concurrency(p, TRUTH_DEPTH);
	t->riops_q = t->riops1 * c;
	t->wiops_q = t->wiops1 * c;
	/* PSSw: 4 MiB writes past any cache, throttled if it throttles */
	{
		double b;
		t->pssw = lowest_unit(p, 1u << 30, 4u << 20, &b) /
			  (p->throttle && p->throttle < (1u << 30) ? x : 1);
	}
	for (unsigned i = 0; i < SD_MARKS; i++) {
		const struct sd_mark *m = &sd_marks[i];
		if (m->family == SD_FAMILY_APP)
			judge_app(host, t, m, &t->mark[i]);
		else
			judge_pw(host, t, m, &t->mark[i]);
	}
}
