/* rating_verdict.c — the --rating verdicts (rating.h): for each mark to
 * check, meets, fails (the figure it breaks, where, by how much) or
 * untestable on this host (why), with evidence and a confidence.
 *
 * Which marks: each family's highest claim (the SD Status's and the
 * label's, both when they differ), then, while a mark is not met, the one
 * below it (a U3 that fails may still keep U1); with no claim at all, each
 * family from its lowest mark up to the first not met.
 *
 * Confidence is a promise (DESIGN "Honesty rules"): a verdict is high only
 * when its figures clear the limit by more than a measurement's spread
 * (MARGIN); a miss by less, a pass by less, an AU assumed rather than known,
 * AUs that could not be freed first, a long recording shorter than the
 * cache it should pass, or IOPS from few requests are medium; a miss of
 * a few percent is low. */
#include "auto/rating.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"

#define MARGIN 0.10     /* a figure this far past its limit is clear */
#define CLOSE 0.03      /* closer than this: low */
#define FEW_REQUESTS 64 /* IOPS from fewer requests: medium at most */
#define NO_GAIN 1.2     /* queued IOPS below this many times one at a time: no queue at work */
#define LINK_CLOSE 0.8  /* writes this close to the reads may be the link's speed */

static void evidence(struct rating_mark *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void evidence(struct rating_mark *m, const char *fmt, ...)
{
	va_list ap;

	if (m->nevidence >= EVIDENCE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(m->evidence[m->nevidence++], sizeof(m->evidence[0]), fmt, ap);
	va_end(ap);
}

static const char *mbps(char *buf, size_t len, double bytes_per_s)
{
	snprintf(buf, len, "%.1f MB/s", bytes_per_s / 1e6);
	return buf;
}

static const char *at(char *buf, size_t len, uint64_t off)
{
	return format_size(buf, len, off);
}

/* One figure against its limit: how far it falls short (0: not at all),
 * as a share of the limit; `upper`: the limit is a most (busy, FAT). */
static double shortfall(double value, double limit, int upper)
{
	if (upper)
		return value > limit ? (value - limit) / limit : 0;
	return value < limit ? (limit - value) / limit : 0;
}

static double headroom(double value, double limit, int upper)
{
	return upper ? (limit - value) / limit : (value - limit) / limit;
}

struct judging {
	struct rating_report *r;
	struct rating_mark *m;
	double worst;        /* the shortfall of the figure that names the verdict (0: none yet) */
	double least_room;   /* the smallest headroom of the figures met */
	enum confidence cap; /* the verdict's confidence at most */
};

/* A figure: a failure when it falls short (the first, in the order the
 * spec defines the mark by: Pw, then later in a recording, busy time, Pr,
 * FAT; the queue, reads, writes, sustained), else headroom. */
static void figure(struct judging *j, enum sd_figure fig, double value, double limit, int upper,
		   uint64_t where)
{
	double s = shortfall(value, limit, upper);

	if (s > 0 && !j->worst) { /* the first that fails, in the spec's order, names the verdict */
		j->worst = s;
		j->m->figure = fig;
		j->m->value = value;
		j->m->limit = limit;
		j->m->where = where;
	} else if (s == 0) {
		double h = headroom(value, limit, upper);
		if (h < j->least_room)
			j->least_room = h;
	}
}

static enum confidence lower(enum confidence a, enum confidence b)
{
	return a < b ? a : b;
}

/* The host cannot show a mark of `rate` bytes/s: why, or NULL.  A host
 * that says its link's rate is taken at its word; one that does not is
 * suspected only when reads reached less than the mark and the writes
 * came close to them (a write far below what the link carried is the
 * card's). */
static const char *link_limit(const struct rating_report *r, double rate, char *buf, size_t len,
			      int *told)
{
	double writes = r->pw4 < r->sus_low4 || !r->sus_low4 ? r->pw4 : r->sus_low4;
	char a[32], b[32];

	*told = 0;
	if (r->card.link_known) {
		if (!r->card.link_rate || (double)r->card.link_rate >= rate)
			return NULL;
		*told = 1;
		snprintf(buf, len, "the link carries %s, less than the mark's %.0f MB/s",
			 mbps(a, sizeof(a), (double)r->card.link_rate), rate / 1e6);
		return buf;
	}
	if (r->read_speed > 0 && r->read_speed < rate && writes >= LINK_CLOSE * r->read_speed) {
		snprintf(buf, len,
			 "reads reached only %s and writes %s: a link this slow (a USB 2 reader) "
			 "cannot "
			 "carry the mark's %.0f MB/s, and the host does not say its link's rate",
			 mbps(a, sizeof(a), r->read_speed), mbps(b, sizeof(b), writes), rate / 1e6);
		return buf;
	}
	return NULL;
}

/* C, U and V marks: the recordings' speeds, busy time, Pr, FAT writes. */
static void judge_speed(struct judging *j)
{
	struct rating_report *r = j->r;
	struct rating_mark *m = j->m;
	const struct sd_mark *k = m->mark;
	int video = k->family == SD_FAMILY_VIDEO, uhs = k->family == SD_FAMILY_UHS;
	double want = k->mbps * 1e6, pw = video ? r->pw_su : r->pw4,
	       sus = video ? r->sus_low_su : r->sus_low4;
	uint64_t pw_at = video ? r->pw_su_at : r->pw4_at;
	char a[32], b[32], c[32], d[32], e[32];

	figure(j, SD_FIG_PW, pw, want, 0, pw_at);
	figure(j, SD_FIG_SUSTAINED, sus, want, 0, r->sus_off + r->sus_low_at);
	if (uhs) {
		double busy = r->busy > r->sus_busy ? r->busy : r->sus_busy;
		figure(j, SD_FIG_BUSY, busy, SD_UHS_BUSY_NS, 1,
		       r->busy >= r->sus_busy ? r->busy_at : r->sus_off);
	}
	figure(j, SD_FIG_PR, r->pr, want, 0, 0);
	figure(j, SD_FIG_FAT, r->fat_avg, SD_FAT_AVG_NS, 1, r->fat_off);
	figure(j, SD_FIG_FAT, r->fat_max, SD_FAT_MAX_NS, 1, r->fat_off);
	evidence(m,
		 "%u %s of %s written in RUs of %s: the slowest %s %s at %s (the mark: %.0f MB/s)",
		 r->naus,
		 r->discarded ? (r->naus == 1 ? "free AU" : "free AUs")
			      : (r->naus == 1 ? "AU" : "AUs"),
		 format_size(a, sizeof(a), r->au), format_size(b, sizeof(b), r->ru),
		 video ? "SU" : "4MiB sub-unit", mbps(c, sizeof(c), pw), at(d, sizeof(d), pw_at),
		 k->mbps);
	evidence(m, "a recording of %s at %s: %s at first, its slowest %s %s at %s into it",
		 format_size(a, sizeof(a), r->sus_len), at(b, sizeof(b), r->sus_off),
		 mbps(c, sizeof(c), r->sus_first_avg), video ? "SU" : "4MiB",
		 mbps(d, sizeof(d), sus), format_size(e, sizeof(e), r->sus_low_at));
	if (uhs)
		evidence(m, "the longest write was busy %s (UHS: at most 250ms)",
			 format_time(a, sizeof(a), r->busy > r->sus_busy ? r->busy : r->sus_busy));
	evidence(m,
		 "256 random RU reads: %s (at least the mark); 8 FAT update cycles: %s on average, "
		 "%s the longest",
		 mbps(a, sizeof(a), r->pr), format_time(b, sizeof(b), r->fat_avg),
		 format_time(c, sizeof(c), r->fat_max));
	if (r->cut_short & 18u)
		evidence(m, "the %s was cut short at its time bound: the card wrote slower than 2 MB/s",
			 r->cut_short & 2u ? "AU test" : "recording");
	if (!r->discarded) /* written, not free, AUs: the spec's figure is for free ones */
		j->cap = lower(j->cap, CONF_MEDIUM);
	if (r->au_from && !strncmp(r->au_from, "assumed", 7))
		j->cap = lower(j->cap, CONF_MEDIUM);
}

/* A1, A2: random IOPS, the queue, the sustained 10 MB/s. */
static void judge_app(struct judging *j)
{
	struct rating_report *r = j->r;
	struct rating_mark *m = j->m;
	const struct sd_mark *k = m->mark;
	int a2 = k->level >= 2;
	double rd = a2 ? r->riops_q : r->riops1, wr = a2 ? r->wiops_q : r->wiops1;
	unsigned nr = r->riops_n[a2], nw = r->wiops_n[a2];
	char a[32], b[32];

	if (a2 && r->card.queue_known && r->riops_q < NO_GAIN * r->riops1 &&
	    r->wiops_q < NO_GAIN * r->wiops1) {
		/* the host queues, the card gains nothing: no command queue at
		 * work (the cause, whatever its IOPS) */
		figure(j, SD_FIG_QUEUE, r->riops_q / (r->riops1 > 0 ? r->riops1 : 1), NO_GAIN, 0,
		       r->iops_off);
		j->worst = INFINITY;
	} else {
		figure(j, a2 ? SD_FIG_READ_IOPS_Q : SD_FIG_READ_IOPS, rd, k->read_iops, 0,
		       r->iops_off);
		figure(j, a2 ? SD_FIG_WRITE_IOPS_Q : SD_FIG_WRITE_IOPS, wr, k->write_iops, 0,
		       r->iops_off);
	}
	figure(j, SD_FIG_PSSW, r->pssw, k->mbps * 1e6, 0, r->sus_off);
	evidence(
		m,
		"random 4KiB in %s at %s, %s: %.0f reads/s and %.0f writes/s (the mark: %u and %u)",
		format_size(b, sizeof(b), r->iops_span), at(a, sizeof(a), r->iops_off),
		a2 ? "32 in flight" : "one at a time", rd, wr, k->read_iops, k->write_iops);
	if (a2)
		evidence(m, "one at a time they were %.0f and %.0f per second", r->riops1,
			 r->wiops1);
	if (a2 && r->queued_skipped)
		evidence(m, "the %s too slow one at a time to queue in the time bound: queued, at most %u "
			 "times that", r->queued_skipped == 3 ? "reads and writes were" :
			 r->queued_skipped & 1 ? "reads were" : "writes were", RATING_QUEUE_DEPTH);
	evidence(m, "sustained: the slowest %s of the recording %s (the mark: 10 MB/s)",
		 format_size(b, sizeof(b), r->sus_len < (1ull << 30) ? r->sus_len : 1ull << 30),
		 mbps(a, sizeof(a), r->pssw));
	evidence(m, "the region was not written over first (the spec fills it before it measures)");
	if (nr < FEW_REQUESTS || nw < FEW_REQUESTS)
		j->cap = lower(j->cap, CONF_MEDIUM);
}

/* Why the host cannot show this mark, or NULL. */
static const char *untestable(const struct rating_report *r, const struct sd_mark *k, char *buf,
			      size_t len, int *told)
{
	double rate = k->mbps * 1e6;

	*told = 1;
	if (k->family == SD_FAMILY_APP && k->level >= 2) {
		if (r->card.queue_known && r->card.queue_depth == 1)
			return "the host runs one command at a time (a USB reader's single queue): "
			       "A2 needs a command "
			       "queue";
		if (r->queued_writes_refused)
			return "queued writes cannot go through the journal here, so A2's queued "
			       "writes were not measured";
		if (!r->card.queue_known && r->riops_q < NO_GAIN * r->riops1 &&
		    r->wiops_q < NO_GAIN * r->wiops1) {
			*told = 0;
			return "requests 32 in flight ran no faster than one at a time: this host "
			       "may not queue (a USB "
			       "reader does not), or the card has no command queue";
		}
	}
	return link_limit(r, rate, buf, len, told);
}

static void judge_one(struct rating_report *r, struct rating_mark *m)
{
	struct judging j = { r, m, 0, INFINITY, CONF_HIGH };
	char why[256];
	const char *no;
	int told;

	m->nevidence = 0;
	m->figure = SD_FIG_NONE;
	m->value = m->limit = 0;
	m->where = 0;
	if ((no = untestable(r, m->mark, why, sizeof(why), &told))) {
		m->verdict = RATING_UNTESTABLE;
		m->conf = told ? CONF_HIGH : CONF_MEDIUM;
		evidence(m, "%s", no);
		return;
	}
	if (m->mark->family == SD_FAMILY_APP)
		judge_app(&j);
	else
		judge_speed(&j);
	if (j.worst > 0) {
		m->verdict = RATING_FAILS;
		m->conf = lower(j.worst > MARGIN  ? CONF_HIGH
				: j.worst > CLOSE ? CONF_MEDIUM
						  : CONF_LOW,
				j.cap);
		if (m->figure == SD_FIG_PW ||
		    m->figure == SD_FIG_SUSTAINED) /* the spec measures free AUs */
			m->conf = lower(m->conf, r->discarded ? CONF_HIGH : CONF_MEDIUM);
		if (m->figure == SD_FIG_PW && r->au_from && !strncmp(r->au_from, "assumed", 7))
			m->conf = lower(m->conf, CONF_MEDIUM);
	} else {
		m->verdict = RATING_MEETS;
		m->conf = lower(j.least_room > MARGIN ? CONF_HIGH : CONF_MEDIUM, j.cap);
	}
}

/* Add a verdict for mark k (by: where its claim comes from). */
static struct rating_mark *add(struct rating_report *r, const struct sd_mark *k, unsigned by)
{
	struct rating_mark *m;

	for (unsigned i = 0; i < r->nmarks; i++)
		if (r->marks[i].mark == k) {
			r->marks[i].by |= by;
			return &r->marks[i];
		}
	if (r->nmarks >= SD_MARKS)
		return NULL;
	m = &r->marks[r->nmarks++];
	memset(m, 0, sizeof(*m));
	m->mark = k;
	m->by = by;
	judge_one(r, m);
	return m;
}

/* The report's order: by family, the highest mark first. */
static void sort_marks(struct rating_report *r)
{
	for (unsigned i = 1; i < r->nmarks; i++)
		for (unsigned k = i; k > 0; k--) {
			const struct sd_mark *a = r->marks[k - 1].mark, *b = r->marks[k].mark;
			struct rating_mark t;
			if (a->family < b->family || (a->family == b->family && a->level > b->level))
				break;
			t = r->marks[k - 1];
			r->marks[k - 1] = r->marks[k];
			r->marks[k] = t;
		}
}

void rating_judge(struct rating_report *r)
{
	int claimed = 0;

	r->nmarks = 0;
	for (int f = 0; f < SD_FAMILIES; f++)
		claimed |= r->claimed[f] || r->label[f];
	for (int f = 0; f < SD_FAMILIES; f++) {
		const struct sd_mark *ssr = r->claimed[f], *label = r->label[f], *k;
		struct rating_mark *m;
		if (!claimed) { /* from the lowest up to the first not met: that and the highest met stay */
			unsigned first = r->nmarks;
			for (k = sd_marks; k->name && k->family != (enum sd_family)f; k++)
				;
			for (; k && k->name && k->family == (enum sd_family)f; k++)
				if (!(m = add(r, k, 0)) || m->verdict != RATING_MEETS)
					break;
			if (r->nmarks - first > 2) {
				memmove(&r->marks[first], &r->marks[r->nmarks - 2],
					2 * sizeof(r->marks[0]));
				r->nmarks = first + 2;
			}
			continue;
		}
		if (!ssr && !label)
			continue;
		if (ssr && label && ssr != label) /* both, side by side */
			add(r, ssr->level < label->level ? ssr : label,
			    ssr->level < label->level ? RATING_BY_SSR : RATING_BY_LABEL);
		k = !ssr ? label : !label ? ssr : ssr->level > label->level ? ssr : label;
		for (; k; k = sd_mark_below(k)) { /* down while not met */
			unsigned by = (k == ssr ? RATING_BY_SSR : 0) |
				      (k == label ? RATING_BY_LABEL : 0);
			if (!(m = add(r, k, by)) || m->verdict == RATING_MEETS)
				break;
		}
	}
	sort_marks(r);
}
