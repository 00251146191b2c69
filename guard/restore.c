/* restore.c — saved ranges put back and verified (restore.h). */
#include "guard/restore.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev.h"
#include "dev/medium.h"
#include "guard/index.h"
#include "guard/journal.h"
#include "guard/place.h"
#include "guard/record.h"
#include "guard/save.h"
#include "lib/crc32c.h"
#include "lib/durable.h"
#include "lib/extents.h"
#include "lib/grow.h"

/* A good record, to be put back once all are known. */
struct to_apply {
	uint64_t pos, off, len;
	uint32_t crc;
};

struct restore_ctx {
	struct dev *d;
	struct to_apply *apply;    /* the good records, in journal order */
	size_t napply, capply;
	const struct journal *only; /* at the end of a run: only what it wrote to */
	void *piece;               /* part of a record, aligned for the device */
	void *back;                /* read-back buffer */
	struct restore_report *r;
	char lost[320];            /* what could not be restored, as text */
	unsigned nlost, shown;
	uint32_t records;          /* 1 + the highest sequence number seen */
	struct extents seen;       /* the device ranges of the records so far */
	const struct journal_item *torn; /* the cut last record, if any */
	struct journal_item torn_copy;
};

/* "bytes A to B" of a record (B clamped where a hostile length overflows) */
static void bytes_of(const struct journal_item *it, char *buf, size_t len)
{
	unsigned long long hi = it->len > UINT64_MAX - it->off ? UINT64_MAX : it->off + it->len - 1;

	snprintf(buf, len, "bytes %llu to %llu", (unsigned long long)it->off, hi);
}

static void note_lost(struct restore_ctx *c, const char *what)
{
	size_t n = strlen(c->lost);

	c->nlost++;
	if (n + strlen(what) + 3 < sizeof(c->lost) - 24) {
		snprintf(c->lost + n, sizeof(c->lost) - n, "%s%s", n ? "; " : "", what);
		c->shown++;
	}
}

/* Write bytes [lo, hi) of record it back and read them back. */
static void restore_piece(struct restore_ctx *c, const struct journal_item *it, uint64_t lo, uint64_t hi)
{
	const unsigned char *data = (const unsigned char *)it->data + (lo - it->off);
	char what[200];
	int rc;

	if ((uintptr_t)data % 4096) { /* O_DIRECT wants an aligned buffer */
		memcpy(c->piece, data, hi - lo);
		data = c->piece;
	}
	rc = dev_copy_in(c->d, data, lo, hi - lo);
	if (!rc)
		rc = dev_copy_out(c->d, c->back, lo, hi - lo);
	if (rc) {
		snprintf(what, sizeof(what), "bytes %llu to %llu (writing them back failed: %s)", (unsigned long long)lo,
			 (unsigned long long)hi - 1, strerror(-rc));
		note_lost(c, what);
	} else if (memcmp(c->back, data, hi - lo)) {
		snprintf(what, sizeof(what), "bytes %llu to %llu (they read back different)", (unsigned long long)lo,
			 (unsigned long long)hi - 1);
		note_lost(c, what);
	} else {
		c->r->bytes += hi - lo;
		c->r->ranges++;
	}
}

static int restore_item(void *ctx, const struct journal_item *it)
{
	struct restore_ctx *c = ctx;
	char what[200], range[64];
	int overlaps;

	bytes_of(it, range, sizeof(range));
	if (it->kind != JOURNAL_TORN && it->range_known && it->seq >= c->records)
		c->records = it->seq + 1;
	switch (it->kind) {
	case JOURNAL_TORN:
		c->torn_copy = *it;
		c->torn = &c->torn_copy;
		return 0;
	case JOURNAL_BAD:
		if (it->range_known && c->only && !save_touched(c->only, it->off, it->len))
			return 0; /* the device still holds that range: nothing lost */
		if (it->range_known)
			snprintf(what, sizeof(what), "%s (%s)", range, it->why);
		else
			snprintf(what, sizeof(what), "an unknown range (journal bytes %llu to %llu: %s)",
				 (unsigned long long)it->pos, (unsigned long long)it->end - 1, it->why);
		note_lost(c, what);
		if (it->range_known && it->len <= UINT64_MAX - it->off && extents_add(&c->seen, it->off, it->off + it->len))
			return 1;
		return 0;
	case JOURNAL_GOOD:
		break;
	}
	/* a range is saved once, before its first write: the earliest record
	 * of a byte holds the original, and a later one over it is damage */
	overlaps = extents_meet(&c->seen, it->off, it->off + it->len);
	if (extents_add(&c->seen, it->off, it->off + it->len))
		return 1;
	if (overlaps) {
		snprintf(what, sizeof(what), "%s from journal bytes %llu to %llu (the record overlaps an earlier one, "
			 "which holds the original data: not applied)", range, (unsigned long long)it->pos,
			 (unsigned long long)it->end - 1);
		note_lost(c, what);
		return 0;
	}
	{ /* put back once all are known, the last saved first (apply_records) */
		struct to_apply *a = grow(c->apply, &c->capply, c->napply, sizeof(*a), 64);
		if (!a)
			return 1;
		c->apply = a;
		a[c->napply++] = (struct to_apply){ it->pos + JOURNAL_RECORD, it->off, it->len, crc32c(0, it->data, it->len) };
	}
	return 0;
}

/* Put the good records back, the last saved first.  Two addresses may reach
 * the same flash (a fake card that wraps around): both are saved, the later
 * one after the earlier was overwritten, so its copy is the test's data.
 * The earliest record of any flash was saved before anything wrote to it,
 * and put back last it is what the flash keeps. */
static void apply_records(struct restore_ctx *c, int fd, void *buf,
			  long (*rd)(void *ctx, void *buf, size_t len, uint64_t pos))
{
	for (size_t i = c->napply; i-- > 0;) {
		const struct to_apply *a = &c->apply[i];
		struct journal_item it = { .off = a->off, .len = a->len, .data = buf };
		char what[200], range[64];

		if (rd(&fd, buf, a->len, a->pos) != (long)a->len || crc32c(0, buf, a->len) != a->crc) {
			bytes_of(&it, range, sizeof(range));
			snprintf(what, sizeof(what), "%s (the journal changed while restoring)", range);
			note_lost(c, what);
			continue;
		}
		if (!c->only) {
			restore_piece(c, &it, it.off, it.off + it.len);
			continue;
		}
		/* the end of a run: the grains it wrote to go back, the device
		 * still holds the others */
		for (uint64_t lo = it.off, hi, end = it.off + it.len; lo < end; lo = hi) {
			int touched = save_grain_touched(c->only, lo);
			hi = lo;
			while (hi < end && save_grain_touched(c->only, hi) == touched)
				hi = save_grain_end(c->only, hi, end);
			if (touched)
				restore_piece(c, &it, lo, hi);
			else
				c->r->untouched += hi - lo;
		}
	}
}

static long read_fd(void *ctx, void *buf, size_t len, uint64_t pos)
{
	const int *fd = ctx;
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(*fd, (char *)buf + done, len - done, (off_t)(pos + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (long)done;
}

/* A simulated card's journal (save_create): what it holds lives in this
 * process, so only the journal this run wrote for this very spec is put
 * back. */
static int in_process_journal(const char *path, struct dev *d, const char *device, int fd, struct journal_header *jh,
			      struct fb_err *e)
{
	unsigned char h[JOURNAL_HEADER];
	const char *why;

	if (read_fd(&fd, h, sizeof(h), 0) != JOURNAL_HEADER || journal_header_parse(h, jh, &why) ||
	    jh->identity[0] || strcmp(jh->device, device) || jh->dev_size != dev_size(d) || jh->sector != dev_sector(d))
		return fb_fail(e, EXIT_USAGE, "%s is no journal of %s; a simulated card's data live only in the run that "
			       "wrote them, so there is nothing to put back", path, device);
	return 0;
}

/* Open the journal and check that it is one, written for this medium. */
static int open_journal(const char *path, struct dev *d, const char *device, unsigned flags, int *fd,
			struct journal_header *jh, struct restore_report *r, struct fb_err *e)
{
	unsigned char h[JOURNAL_HEADER];
	char wtext[JOURNAL_IDENTITY + 80], ntext[JOURNAL_IDENTITY], how[600];
	struct record was;
	struct medium m;
	struct stat st;
	const char *why;

	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (*fd < 0 && errno == ENOENT)
		return fb_fail(e, EXIT_DEVICE, "there is no journal %s (a journal is removed only once all its data "
			       "are back and verified; if it was restored before, they are)", path);
	if (*fd < 0)
		return fb_fail(e, EXIT_DEVICE, "cannot open the journal %s: %s", path, strerror(errno));
	if (fstat(*fd, &st) || !S_ISREG(st.st_mode))
		return fb_fail(e, EXIT_USAGE, "%s is not a journal: it is %s; nothing was done", path, place_file_kind(st.st_mode));
	if (!(dev_caps(d) & DEV_CAP_STORES_DATA)) /* a simulated card's, made by this run: no medium */
		return in_process_journal(path, d, device, *fd, jh, e);
	medium_of(device, &m);
	if (m.kind == MEDIUM_NONE)
		return fb_fail(e, EXIT_DEVICE, "%s: %s", device, strerror(errno ? errno : ENODEV));
	if ((m.kind == MEDIUM_FILE && (dev_t)m.dev == st.st_dev && (ino_t)m.ino == st.st_ino) ||
	    place_lies_on(path, &m, how, sizeof(how)))
		return fb_fail(e, EXIT_USAGE, "%s lies on %s itself%s: restoring would overwrite the journal while "
			       "reading it; nothing was done (copy the journal to another disk first)", path, device,
			       how);
	if (st.st_size < JOURNAL_HEADER)
		return fb_fail(e, EXIT_USAGE, "%s is not a flashbench journal (%lld bytes, shorter than a journal "
			       "header); nothing was done and it is kept (a run killed while creating its journal, "
			       "before any write, leaves such a file: then delete it by hand)", path,
			       (long long)st.st_size);
	if (read_fd(fd, h, sizeof(h), 0) != JOURNAL_HEADER)
		return fb_fail(e, EXIT_DEVICE, "cannot read the journal %s: %s", path, strerror(errno));
	if (journal_header_parse(h, jh, &why))
		return fb_fail(e, EXIT_USAGE, "%s is not a usable flashbench journal: %s; nothing was done and it is "
			       "kept", path, why);
	if (jh->dev_size != dev_size(d) || jh->sector != dev_sector(d))
		return fb_fail(e, EXIT_USAGE, "%s was written for %.200s (%llu bytes, %u-byte sectors), not for %s "
			       "(%llu bytes, %u-byte sectors); nothing was done", path, jh->device,
			       (unsigned long long)jh->dev_size, jh->sector, device, (unsigned long long)dev_size(d),
			       dev_sector(d));
	if (record_header_is(jh, &m, 1))
		return 0;
	record_of_header(jh, &was);
	record_describe(&was, wtext, sizeof(wtext));
	medium_identity(&m, ntext, sizeof(ntext));
	if (!(flags & RESTORE_DEVICE_CHANGED))
		return fb_fail(e, EXIT_USAGE, "%s was written for %.100s (%.160s), and %s is not recognised as the "
			       "same medium (%.160s); nothing was done.  If it is (a card back under a new name), add "
			       "--device-changed", path, jh->device, wtext, device, ntext);
	snprintf(r->warning, sizeof(r->warning), "%.80s was written for %.80s (%.100s); %.60s (%.100s) is taken for "
		 "the same medium because of --device-changed", path, jh->device, wtext, device, ntext);
	return 0;
}

/* Forget a journal: its index entry first (a journal without an entry is
 * still refused by name and restoring it again is harmless), then the file. */
static int remove_journal(const char *path, uint64_t id, struct fb_err *e)
{
	if (index_remove(id, path, e))
		return -1;
	if (unlink(path))
		return fb_fail(e, EXIT_DEVICE, "data restored and verified, but %s could not be removed: %s", path,
			       strerror(errno));
	durable_sync_dir(path);
	return 0;
}

int restore_ranges(const char *path, struct dev *d, const char *device, unsigned flags,
		   const struct journal *only, struct restore_report *r, struct fb_err *e)
{
	struct restore_ctx c = { .d = d, .r = r, .only = only };
	struct journal_header jh;
	struct stat st;
	void *buf = NULL;
	int fd, rc = 0;

	memset(r, 0, sizeof(*r));
	if (open_journal(path, d, device, flags, &fd, &jh, r, e)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (posix_memalign(&buf, 4096, JOURNAL_PIECE) || posix_memalign(&c.back, 4096, JOURNAL_PIECE) ||
	    (only && posix_memalign(&c.piece, 4096, JOURNAL_PIECE))) {
		rc = fb_fail(e, EXIT_DEVICE, "out of memory");
		goto out;
	}
	if (fstat(fd, &st) ||
	    (rc = journal_walk(&jh, (uint64_t)st.st_size, read_fd, &fd, buf, restore_item, &c))) {
		rc = fb_fail(e, EXIT_DEVICE, "%s %s: %s; put back %llu bytes in %u range%s, the journal is kept",
			     rc > 0 ? "out of memory restoring" : "cannot read the journal", path,
			     rc > 0 ? "no room to track its ranges" : strerror(errno), (unsigned long long)r->bytes,
			     r->ranges, r->ranges == 1 ? "" : "s");
		goto out;
	}
	apply_records(&c, fd, buf, read_fd);
	{ /* the index knows how many records were saved before any write */
		char entry[PATH_MAX + 32], what[320], range[64];
		struct index_entry en;
		int have = jh.id && (index_entry_path(jh.id, entry, sizeof(entry)), index_read(entry, &en) == 0);
		if (have && en.records > c.records) {
			snprintf(what, sizeof(what), "the ranges of its last %u record%s (the journal was cut short: "
				 "the index says %u were saved)", en.records - c.records, en.records - c.records == 1 ?
				 "" : "s", en.records);
			note_lost(&c, what);
		} else if (c.torn && have) { /* every synced record is there: the cut one was never used */
			r->torn = 1;
		} else if (c.torn) {
			if (c.torn->range_known)
				bytes_of(c.torn, range, sizeof(range));
			else
				snprintf(range, sizeof(range), "the range of the record at journal byte %llu",
					 (unsigned long long)c.torn->pos);
			snprintf(what, sizeof(what), "%s (the journal ends inside its record: either the run was stopped "
				 "while saving it, before overwriting it, or the journal was cut later and it is lost; "
				 "without the journal's index entry this cannot be told)", range);
			note_lost(&c, what);
		}
	}
	if (c.nlost) {
		char more[48] = "";
		if (c.shown < c.nlost)
			snprintf(more, sizeof(more), "; and %u more", c.nlost - c.shown);
		rc = fb_fail(e, EXIT_DEVICE, "%s: put back %llu bytes in %u range%s and verified them, but could not "
			     "restore %s%s; the journal is kept", path, (unsigned long long)r->bytes, r->ranges,
			     r->ranges == 1 ? "" : "s", c.lost, more);
		goto out;
	}
	rc = remove_journal(path, jh.id, e);
out:
	free(buf);
	free(c.back);
	free(c.piece);
	free(c.seen.v);
	free(c.apply);
	close(fd);
	return rc;
}

int restore_journal(const char *path, struct dev *d, const char *device, unsigned flags,
		    struct restore_report *r, struct fb_err *e)
{
	return restore_ranges(path, d, device, flags, NULL, r, e);
}
