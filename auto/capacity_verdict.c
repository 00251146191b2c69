/* capacity_verdict.c — what the probes of --capacity say (capacity_judge in
 * capacity.h): the kind of card, its usable size with a confidence and the
 * evidence, and the chance that a card missing a share of its flash could
 * have passed.  Pure: numbers in, findings out.
 *
 * The rules (doc/capacity.md, "How it decides"):
 *  - a read of one address that finds our signature of another means the two
 *    share flash: the card wraps around, every period bytes (the greatest
 *    common divisor of the distances seen); high when reads past the period
 *    found the start again and every probe below it kept its data;
 *  - no probe lost: genuine, within the stated bounds (the flush, and the
 *    chance that scattered losses slipped between the probes);
 *  - probes lost from some point to the end: writes past the real size are
 *    lost (drop), or were read back at first and lost later (cache);
 *  - one lost stretch with probes that work above it, those few and at the
 *    end: the fake keeps a working region at the end (end);
 *  - lost probes in two or more stretches, or one stretch in the middle:
 *    scattered bad regions (bad), with the share lost and its interval;
 *    no usable size is promised (a bad region may lie between probes).
 * An edge is high only when probes on both sides lie within the
 * resolution and every probe agrees with it. */
#include "auto/capacity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

const char *const cap_kind_name[CAP_KINDS] = { "genuine", "wrap", "drop", "cache", "end", "bad" };
const char *const cap_kind_title[CAP_KINDS] = {
	"genuine",
	"fake: wraps around",
	"fake: writes past the real size are lost",
	"fake: writes past the real size are kept a while, then lost",
	"fake: lost except a working region at the end",
	"damaged: scattered bad regions",
};

/* A genuine verdict is high when a card missing this share in scattered
 * pieces would have passed with at most this chance. */
#define GENUINE_SHARE 1   /* index into cap_missing_share: 5% */
#define GENUINE_PASS 0.05

static int by_offset(const void *a, const void *b)
{
	const struct cap_probe *x = *(const struct cap_probe *const *)a, *y = *(const struct cap_probe *const *)b;

	return x->off < y->off ? -1 : x->off > y->off;
}

struct layout {
	const struct cap_probe *sorted[CAP_MAX_PROBES];
	unsigned n, nlost, ngood, runs, spread, spread_lost;
	const struct cap_probe *lo_lost, *hi_lost;    /* the lowest and highest lost */
	const struct cap_probe *below, *above;        /* the nearest good ones around them */
	int kept_a_while;                             /* a lost probe read good at first */
	int held_old;                                 /* a lost probe read old data, not blank */
};

static void lay_out(const struct capacity_report *r, struct layout *l)
{
	int in_lost = 0;

	memset(l, 0, sizeof(*l));
	for (unsigned i = 0; i < r->nprobes; i++) {
		/* set aside, or read good while the card may still have held it */
		if (r->probe[i].last == CAP_UNREAD || (r->probe[i].last == CAP_GOOD && !cap_kept(r, &r->probe[i])))
			continue;
		l->sorted[l->n++] = &r->probe[i];
		if (r->probe[i].spread) {
			l->spread++;
			l->spread_lost += r->probe[i].last != CAP_GOOD;
		}
	}
	qsort(l->sorted, l->n, sizeof(l->sorted[0]), by_offset);
	for (unsigned i = 0; i < l->n; i++) {
		const struct cap_probe *p = l->sorted[i];
		int lost = p->last != CAP_GOOD;
		if (lost) {
			l->nlost++;
			if (!l->lo_lost)
				l->lo_lost = p;
			l->hi_lost = p;
			l->runs += !in_lost;
			l->kept_a_while |= p->first == CAP_GOOD;
			l->held_old |= p->held_old;
		} else {
			l->ngood++;
		}
		in_lost = lost;
	}
	for (unsigned i = 0; i < l->n; i++) {
		const struct cap_probe *p = l->sorted[i];
		if (p->last != CAP_GOOD)
			continue;
		if (l->lo_lost && p->off < l->lo_lost->off)
			l->below = p;
		if (l->hi_lost && p->off > l->hi_lost->off && !l->above)
			l->above = p;
	}
}

/* Wilson's 95% interval of k successes in n. */
static void wilson(unsigned k, unsigned n, double *lo, double *hi)
{
	double z = 1.96, p = n ? (double)k / n : 0, d = 1 + z * z / n;
	double mid = (p + z * z / (2.0 * n)) / d, half = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;

	*lo = n ? fmax(0, mid - half) : 0;
	*hi = n ? fmin(1, mid + half) : 1;
}

static void chances(struct capacity_report *r, const struct layout *l)
{
	for (int i = 0; i < 4; i++)
		r->pass_chance[i] = pow(1 - cap_missing_share[i], (double)l->spread);
	r->piece_caught = r->strata ? 2 * (r->size - r->plan.ref_len) / r->strata : r->size;
}

static void chance_evidence(struct capacity_report *r, struct finding *f)
{
	char piece[32];

	format_size(piece, sizeof(piece), r->piece_caught);
	finding_evidence(f, "a card missing 1%%, 5%%, 10%% or 20%% of its flash in scattered pieces would pass %.0f%%, "
			 "%.0f%%, %.1f%% or %.2f%% of the time; a missing piece of %s anywhere, or any loss at the end, "
			 "cannot pass", 100 * r->pass_chance[0], 100 * r->pass_chance[1], 100 * r->pass_chance[2],
			 100 * r->pass_chance[3], piece);
}

static void flush_evidence(const struct capacity_report *r, struct finding *f)
{
	char a[32], c[32], d[32];

	format_size(a, sizeof(a), r->flushed);
	/* a cache kept by address lets go only for distinct places */
	format_size(d, sizeof(d), r->flush_distinct);
	format_size(c, sizeof(c), r->plan.window_off + r->plan.window_len);
	if (!r->plan.flush)
		finding_evidence(f, "read back at once, with no flush: a card that hides missing flash in a cache of its "
				 "latest writes is not ruled out");
	else if (r->flush_full)
	{
		finding_evidence(f, "read back again after %s of other writes, %s of distinct places below %s "
				 "(rewritten with their own bytes): genuine, or a card that keeps missing flash in a cache "
				 "of its latest writes larger than %s", a, d, c, d);
		finding_evidence(f, "not ruled out either: a card missing less than %s at its end, with a cache as "
				 "large as what it misses (it loses data only if its end is written over and over)", d);
	}
	else
		finding_evidence(f, "read back after %s of other writes, %s of distinct places below %s (rewritten "
				 "with their own bytes): a cache of its latest writes larger than that is not ruled out",
				 a, d, c);
}

static void judge_genuine(struct capacity_report *r, const struct layout *l)
{
	char step[32];

	r->kind = CAP_GENUINE;
	r->usable.determined = 1;
	r->usable.value = r->size;
	r->usable.conf = r->flush_full && r->pass_chance[GENUINE_SHARE] <= GENUINE_PASS ? CONF_HIGH : CONF_MEDIUM;
	finding_evidence(&r->usable, "all %u probes kept their signatures: %u spread over the card (one in each "
			 "%s stretch), its first sectors and its last", l->n, l->spread > 2 ? l->spread - 2 : 0,
			 format_size(step, sizeof(step), (r->size - r->plan.ref_len) / (r->strata ? r->strata : 1)));
	flush_evidence(r, &r->usable);
	finding_evidence(&r->usable, "no address reaches another's flash: %u one-sector reads %s apart found no "
			 "signature of another place", r->grid_reads, format_size(step, sizeof(step), r->grid_step));
	chance_evidence(r, &r->usable);
	if (r->usable.conf < CONF_HIGH)
		finding_evidence(&r->usable, "medium: %s", r->flush_full ?
				 "scattered losses of 5% could slip between the probes more than 1 time in 20" :
				 r->flushed >= r->max_cache ? "the card has too few places below its end probe to rewrite "
				 "--max-cache of distinct ones, and a cache larger than those it has is not ruled out" :
				 "the flush stopped short of --max-cache");
}

/* Did the stretch find where loss begins, where the probes leave it (from
 * the end of the good probe below to the end of the lowest lost one)? */
static int exact_start(const struct capacity_report *r, const struct layout *l)
{
	return r->exact_from && l->below && r->exact_from > l->below->off &&
	       r->exact_from <= l->lo_lost->off + r->plan.probe_len;
}

/* The evidence of an edge found to the sector (exact_edge in capacity.c). */
static void span_evidence(struct capacity_report *r, const struct cap_span *s, int up)
{
	char len[32];

	format_size(len, sizeof(len), s->len);
	finding_evidence(&r->usable, up ? "the %s from byte %llu, written whole and read back sector by sector: every "
			 "sector below byte %llu kept its signature, the one there did not" : "the %s from byte %llu, written "
			 "whole and read back sector by sector: from byte %llu on every sector kept its signature", len,
			 (unsigned long long)s->off, (unsigned long long)(up ? s->bad_lo : s->bad_hi));
}

/* A usable size found to the sector, in bytes (the size above is rounded). */
static void exact_evidence(struct capacity_report *r)
{
	if (r->usable.value % (1 << 20))
		finding_evidence(&r->usable, "usable: the first %llu bytes exactly", (unsigned long long)r->usable.value);
}

static void judge_wrap(struct capacity_report *r, const struct layout *l)
{
	char p[32], at[32], from[32];
	unsigned below = 0, below_good = 0;

	r->kind = CAP_WRAP;
	r->lost_from = r->period;
	r->lost_to = r->size;
	for (unsigned i = 0; i < l->n; i++) {
		const struct cap_probe *q = l->sorted[i];
		uint64_t d = q->moved_from > q->off ? q->moved_from - q->off : q->off - q->moved_from;
		if (q->off + r->plan.probe_len > r->period)
			continue;
		below++;
		/* kept, or overwritten by a later probe a whole number of periods away */
		below_good += q->last == CAP_GOOD || (q->last == CAP_MOVED && d && d % r->period == 0);
	}
	r->usable.determined = 1;
	r->usable.value = r->period;
	r->resolution = r->sector; /* a signature names its own offset: the distance is exact */
	exact_evidence(r);
	r->usable.conf = r->period_agree >= 2 && r->period_agree == r->period_checks && below == below_good ? CONF_HIGH
														: CONF_MEDIUM;
	format_size_floor(p, sizeof(p), r->period);
	format_size(at, sizeof(at), r->alias_at);
	format_size(from, sizeof(from), r->alias_from);
	if (r->alias_at - r->alias_from == r->period || r->alias_from - r->alias_at == r->period)
		finding_evidence(&r->usable, "the signature written at %s read back at %s: from %s on, every address "
				 "reaches the flash of the one %s below it", from, at, p, p);
	else
		finding_evidence(&r->usable, "%u reads found signatures of other places, every one a whole number of %s "
				 "away (the nearest written at %s, read back at %s): every address reaches the flash of the "
				 "ones a multiple of %s away", r->aliases, p, from, at, p);
	if (r->period != r->period_seen)
		finding_evidence(&r->usable, "every distance seen was a multiple of %s; a new signature written at byte 0 "
				 "read back at %s, and at no shorter distance that divides it",
				 format_size(from, sizeof(from), r->period_seen), p);
	finding_evidence(&r->usable, "%u of %u reads at %s and at twice that found the new signatures written at the "
			 "start and halfway into it: the same flash again", r->period_agree, r->period_checks, p);
	finding_evidence(&r->usable, "%u of the %u probes below %s kept their data (or held a later probe's a whole "
			 "number of periods above)", below_good, below, p);
	if (r->usable.conf < CONF_HIGH)
		finding_evidence(&r->usable, "medium: %s", r->period_agree < 2 || r->period_agree < r->period_checks
				 ? "a read past it did not find the start's flash" : "a probe below it lost its data too");
}

static void judge_edge(struct capacity_report *r, const struct layout *l, int end_works)
{
	char lost[32], good[32], c1[32], c2[32], top[32];
	int exact = exact_start(r, l);
	int tight = exact || (l->below && l->lo_lost->off - l->below->off <= CAP_RESOLUTION);

	r->kind = end_works ? CAP_END : l->kept_a_while ? CAP_CACHE : CAP_DROP;
	/* without the stretch the lost probe's own first byte is all that is
	 * sure, and the usable size says no more than the good probe below */
	r->lost_from = exact ? r->exact_from : l->lo_lost->off;
	r->lost_to = end_works ? (r->exact_to > l->hi_lost->off && r->exact_to <= l->above->off ? r->exact_to
											       : l->above->off)
			       : r->size;
	r->usable.determined = 1;
	r->usable.value = exact ? r->exact_from : l->below ? l->below->off + r->plan.probe_len : 0;
	r->usable.conf = tight && l->runs == 1 ? CONF_HIGH : CONF_MEDIUM;
	if (exact) {
		r->resolution = r->sector;
		exact_evidence(r);
	}
	format_size_floor(lost, sizeof(lost), l->lo_lost->off);
	format_size_floor(good, sizeof(good), l->below ? l->below->off : 0);
	format_size(c1, sizeof(c1), l->below ? l->lo_lost->off - l->below->off : r->lost_from);
	if (l->nlost == 1)
		finding_evidence(&r->usable, "the probe at %s lost its signature; every probe below kept its own, the "
				 "nearest at %s (%s below)", lost, good, c1);
	else
		finding_evidence(&r->usable, "the %u probes from %s %s lost their signatures; every probe below kept "
				 "its own, the nearest at %s (%s below)", l->nlost, lost,
				 end_works ? "up to the working end" : "to the end", good, c1);
	for (unsigned i = 0; i < r->nspans; i++)
		if (r->spans[i].bad_hi && (r->spans[i].up ? exact && r->spans[i].bad_lo == r->lost_from
							  : end_works && r->spans[i].bad_hi == r->lost_to))
			span_evidence(r, &r->spans[i], r->spans[i].up);
	if (end_works) {
		format_size_floor(top, sizeof(top), r->size - r->lost_to);
		format_size(c1, sizeof(c1), r->lost_to);
		finding_evidence(&r->usable, "from %s to the end (the last %s) it keeps data again: a fake that keeps "
				 "the end working, where a quick check looks", c1, top);
	}
	if (r->kind == CAP_CACHE && r->cache_lo) {
		format_size(c1, sizeof(c1), r->cache_lo);
		format_size(c2, sizeof(c2), r->cache_hi);
		finding_evidence(&r->usable, "they read back right at first and were gone after %s to %s of other "
				 "writes: it keeps its latest writes in a cache of at most %s (less, when it counts only "
				 "writes past its end, not all of which were) and loses what falls out", c1, c2, c2);
	} else if (r->kind == CAP_CACHE) {
		format_size(c2, sizeof(c2), r->cache_hi ? r->cache_hi : r->needed);
		finding_evidence(&r->usable, "some read back right at first and were gone after at most %s of other "
				 "writes: it keeps its latest writes in a small cache and loses what falls out", c2);
	} else if (r->kind == CAP_DROP) {
		if (r->needed)
			finding_evidence(&r->usable, "they were lost within %s of other writes",
					 format_size(c1, sizeof(c1), r->needed));
		else
			finding_evidence(&r->usable, "they were lost at once: the last one written was read back before any "
					 "other write");
	}
	if (r->unproven) {
		r->usable.conf = CONF_MEDIUM;
		finding_evidence(&r->usable, "medium: %u round%s of probes proved nothing: after --max-cache of flush "
				 "the card still held the place written last past its end, so their readings were set "
				 "aside and the edge is where the proven ones put it", r->unproven, r->unproven == 1 ? "" : "s");
	} else if (r->usable.conf < CONF_HIGH)
		finding_evidence(&r->usable, "medium: %s", !tight ? "the edge was not narrowed to 1MiB" :
				 "the lost probes are not in one stretch");
	else if (!exact)
		finding_evidence(&r->usable, "the edge lies between the good probe's end and the lost one: %s is the "
				 "most that is sure", format_size_floor(c1, sizeof(c1), r->usable.value));
}

static void judge_bad(struct capacity_report *r, const struct layout *l)
{
	char first[32];

	r->kind = CAP_BAD;
	r->bad_share = l->spread ? (double)l->spread_lost / l->spread : 0;
	wilson(l->spread_lost, l->spread, &r->bad_lo, &r->bad_hi);
	r->lost_from = exact_start(r, l) ? r->exact_from : l->lo_lost->off;
	r->lost_to = l->hi_lost->off + r->plan.probe_len;
	r->usable.determined = 1;
	r->usable.at_most = 1;
	r->usable.value = r->lost_from;
	r->usable.conf = CONF_LOW;
	format_size_floor(first, sizeof(first), r->lost_from);
	finding_evidence(&r->usable, "%u of %u spread probes lost their signatures, in %u stretch%s between probes "
			 "that kept theirs: about %.0f%% of the card (95%%: %.0f%% to %.0f%%) loses what is written",
			 l->spread_lost, l->spread, l->runs, l->runs == 1 ? "" : "es", 100 * r->bad_share, 100 * r->bad_lo,
			 100 * r->bad_hi);
	finding_evidence(&r->usable, "the first bad region found starts at %s; another may lie lower, between probes, "
			 "so no usable size is promised", first);
	if (l->held_old)
		finding_evidence(&r->usable, "where writes were lost the card still read back what it held before, "
				 "not blank sectors: there is flash there that does not take writes (a fake that lacks "
				 "the flash reads back nothing)");
	else if (l->runs == 1)
		finding_evidence(&r->usable, "the lost places read back blank, as missing flash would: a fake that "
				 "lacks the flash there and works above it is not ruled out");
}

/* The verdict is medium, and says why, where the usable size's evidence
 * is (the report prints the verdict's confidence and that evidence). */
static void verdict_why(struct capacity_report *r, const char *why)
{
	r->verdict.conf = CONF_MEDIUM;
	finding_evidence(&r->verdict, "medium: %s", why);
	finding_evidence(&r->usable, "the verdict is medium: %s", why);
}

void capacity_judge(struct capacity_report *r)
{
	struct layout l;

	r->resolution = CAP_RESOLUTION;
	finding_init(&r->verdict, "verdict", "capacity", 0);
	finding_init(&r->usable, "usable", "usable size", 1);
	lay_out(r, &l);
	chances(r, &l);
	if (r->period)
		judge_wrap(r, &l);
	else if (!l.nlost)
		judge_genuine(r, &l);
	else if (l.held_old && !l.kept_a_while)
		judge_bad(r, &l); /* flash is there, it only does not take writes: damaged, wherever it lies */
	else if (l.runs == 1 && !l.above)
		judge_edge(r, &l, 0);
	else if (l.runs == 1 && r->size - l.above->off < l.above->off - l.lo_lost->off)
		judge_edge(r, &l, 1); /* the working part above is smaller than the lost one */
	else
		judge_bad(r, &l);
	r->verdict.determined = 1;
	r->verdict.value = r->kind;
	/* the kind is as sure as its clearest sign: an alias or a loss is
	 * no accident; genuine and the usable size say how sure they are */
	r->verdict.conf = r->kind == CAP_GENUINE ? r->usable.conf
			: r->kind == CAP_BAD ? (l.runs >= 2 ? CONF_HIGH : CONF_MEDIUM)
			: r->kind == CAP_WRAP ? (r->period_agree >= 1 ? CONF_HIGH : CONF_MEDIUM)
			: l.nlost >= 2 ? CONF_HIGH : CONF_MEDIUM;
	finding_evidence(&r->verdict, "%s", cap_kind_title[r->kind]);
	if (r->kind != CAP_GENUINE && r->kind != CAP_BAD && r->kind != CAP_WRAP && l.nlost < 2)
		verdict_why(r, "only one probe lost its data");
	/* a loss that is lost at once, in one stretch, and small: a fake that
	 * claims a little more than it has, or a damaged card with one bad
	 * region there; the probes cannot tell them apart */
	if ((r->kind == CAP_DROP || r->kind == CAP_END) && r->lost_to - r->lost_from < r->size / 8)
		verdict_why(r, "a loss this small (one stretch of less than an eighth of the card) could also be one "
			    "bad region of a damaged card");
	if (r->kind == CAP_BAD && l.runs < 2)
		verdict_why(r, "the bad probes lie in one stretch");
}
