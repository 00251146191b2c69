/* save.c — saving a run's ranges to its journal (save.h). */
#include "guard/save.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "dev.h"
#include "dev/medium.h"
#include "guard/claim.h"
#include "guard/index.h"
#include "guard/journal.h"
#include "guard/lease.h"
#include "guard/place.h"
#include "guard/record.h"
#include "guard/restore.h"
#include "lib/crc32c.h"
#include "lib/durable.h"
#include "lib/extents.h"
#include "lib/salt.h"
#include "lib/units.h"

struct journal {
	char path[PATH_MAX];
	int fd;
	struct dev *d;
	struct extents saved;
	uint64_t bytes;             /* data saved */
	uint64_t file_bytes;        /* the journal's size: header, records and data */
	uint64_t reserved;          /* journal bytes reserved (or found free) so far */
	uint32_t seq;               /* records written */
	uint64_t id;
	char abspath[PATH_MAX * 2]; /* for the index */
	char device[PATH_MAX];
	struct record m;
	int unlisted;               /* a simulated card's: not in the index */
	void *buf;
	volatile sig_atomic_t *stop; /* set: stop saving at the next piece */
	volatile sig_atomic_t *restoring;  /* set while save_finish puts the data back */
	/* the grains (of 1 << touch_shift bytes) the run wrote to: only the
	 * saved ranges that meet one need putting back */
	unsigned char *touched;
	unsigned touch_shift;
	int touched_all;            /* no room for the map: put back everything */
	/* a request this layer refused (save_may_write, a rewrite it could
	 * not save): why, for the run's message (save_explain) */
	struct fb_err refused;
	int has_refused;
	int told;                   /* the run's failure says already why it stopped */
	int other_user;             /* the medium got another user during the run: */
	char story[600];            /* who, for the end's message */
};

/* List the journal in the index with what it saved so far (a simulated
 * card's is not listed). */
static int list(const struct journal *j, struct fb_err *e)
{
	return j->unlisted ? 0 : index_write(j->id, j->abspath, j->device, &j->m, j->seq, j->bytes, e);
}

int save_create(struct journal **out, const char *path, struct dev *d, const char *device, unsigned flags,
		struct fb_err *e)
{
	unsigned char h[JOURNAL_HEADER];
	char tmp[PATH_MAX], absdir[PATH_MAX], abspath[PATH_MAX * 2];
	struct journal_header jh;
	struct medium m;
	struct journal *j;
	/* a simulated card (--capacity's): what it holds lives in this process
	 * and dies with it, so there is no medium to name, nothing a later run
	 * could restore and no index entry to make */
	int in_process = !(dev_caps(d) & DEV_CAP_STORES_DATA);

	if (!(dev_caps(d) & DEV_CAP_HOLDS_DATA))
		return fb_fail(e, EXIT_USAGE, "--preserve needs a real device: a simulated one holds no data");
	if (place_check_absent(path, device, 1, e))
		return -1;
	medium_of(device, &m);
	if (m.kind == MEDIUM_NONE && !in_process)
		return fb_fail(e, EXIT_DEVICE, "%s: %s", device, strerror(errno ? errno : ENODEV));
	if (place_dir_check(path, in_process ? NULL : &m, flags, absdir, e))
		return -1;
	memset(&jh, 0, sizeof(jh));
	jh.dev_size = dev_size(d);
	jh.sector = dev_sector(d);
	jh.max_record = JOURNAL_PIECE;
	jh.dev_number = m.kind == MEDIUM_FILE ? m.ino : m.dev;
	jh.created = (uint64_t)time(NULL);
	jh.id = salt_new();
	snprintf(jh.device, sizeof(jh.device), "%s", device);
	medium_identity(&m, jh.identity, sizeof(jh.identity));
	journal_header_build(h, &jh);
	{ /* never a journal its own reader (--restore) would refuse: nothing
	   * is written then */
		struct journal_header back;
		const char *why = "its device size is not a whole number of sectors";
		if (journal_header_parse(h, &back, &why) || back.dev_size != jh.dev_size)
			return fb_fail(e, EXIT_USAGE, "--preserve: a journal of %s could not be read back (%s); nothing "
				       "was written", device, why);
	}
	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(abspath, sizeof(abspath), "%s/%s", absdir, basename(tmp));

	if (!(j = calloc(1, sizeof(*j))) || posix_memalign(&j->buf, 4096, JOURNAL_PIECE)) {
		free(j);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	snprintf(j->path, sizeof(j->path), "%s", path);
	j->d = d;
	j->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (j->fd < 0) {
		int err = errno;
		free(j->buf);
		free(j);
		return fb_fail(e, EXIT_DEVICE, "--preserve: cannot create %s: %s", path, strerror(err));
	}
	if (durable_write(j->fd, h, sizeof(h)) || fsync(j->fd)) {
		fb_fail(e, EXIT_DEVICE, "--preserve: cannot write %s: %s", path, strerror(errno));
		goto fail;
	}
	durable_sync_dir(path);
	j->file_bytes = j->reserved = JOURNAL_HEADER;
	/* listed only once the header is on disk; nothing is saved before */
	j->id = jh.id;
	record_of(&m, &j->m);
	snprintf(j->abspath, sizeof(j->abspath), "%s", abspath);
	snprintf(j->device, sizeof(j->device), "%s", device);
	j->unlisted = in_process;
	if (list(j, e))
		goto fail;
	*out = j;
	return 0;
fail:
	close(j->fd);
	unlink(path); /* created by this run, and empty of saved data */
	free(j->buf);
	free(j);
	return -1;
}

/* ------------------------------------------------------------ room */

/* Make the journal's file system hold `end` bytes of journal: reserved with
 * fallocate (so nothing else can take the room while the run goes on), or
 * where the file system cannot, found free.  what names the bytes in a
 * refusal. */
static int room_for(struct journal *j, uint64_t end, const char *what, struct fb_err *e)
{
	struct statvfs vfs;
	uint64_t avail, have;

	if (end <= j->reserved)
		return 0;
	/* free room is looked at before fallocate: one that fails may have
	 * taken part of it (ext4 keeps what it allocated before ENOSPC) */
	avail = !fstatvfs(j->fd, &vfs) ? (uint64_t)vfs.f_bavail * vfs.f_frsize : 0;
	have = j->reserved > j->file_bytes ? j->reserved - j->file_bytes : 0; /* reserved already */
	if (end <= (uint64_t)INT64_MAX && !fallocate(j->fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)end)) {
		j->reserved = end;
		return 0;
	}
	if (end <= (uint64_t)INT64_MAX && errno != ENOSPC && errno != EFBIG && avail + have >= end - j->file_bytes) {
		j->reserved = end; /* no fallocate here: the room was free when looked at */
		return 0;
	}
	if (end <= (uint64_t)INT64_MAX) { /* give back what the failed fallocate took */
		uint64_t from = j->reserved > j->file_bytes ? j->reserved : j->file_bytes;
		(void)!fallocate(j->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)from, (off_t)(end - from));
	}
	return fb_fail(e, EXIT_USAGE, "--preserve: the file system of %s has room for %llu more bytes but the "
		       "journal needs up to %llu more (%s); free some space or put it elsewhere (--preserve=FILE)",
		       j->path, (unsigned long long)(avail + have), (unsigned long long)(end - j->file_bytes), what);
}

int save_reserve(struct journal *j, uint64_t bytes, uint64_t records, struct fb_err *e)
{
	char what[96], sz[32];

	format_size(sz, sizeof(sz), bytes);
	snprintf(what, sizeof(what), "this run saves at most %llu bytes (%s)", (unsigned long long)bytes, sz);
	/* on top of what is held or reserved already */
	return room_for(j, (j->reserved > j->file_bytes ? j->reserved : j->file_bytes) + bytes + records * JOURNAL_RECORD,
			what, e);
}

/* The layer refuses a request: the first refusal's why is what the run's
 * failure says (save_explain); the story when it was another user.  -1,
 * with e (when given) filled. */
static int refuse(struct journal *j, struct fb_err *e)
{
	if (!j->has_refused) {
		fb_fail(&j->refused, EXIT_DEVICE, "%s", j->story);
		j->has_refused = 1;
	}
	if (e)
		*e = j->refused;
	return -1;
}

/* Has the medium got another user since the run began (another process
 * opened the file under test, a new alias appeared)?  0, or -1 with e
 * saying so: the run writes no more. */
static int still_alone(struct journal *j, struct fb_err *e)
{
	if (lease_broken())
		lease_story(j->story, sizeof(j->story));
	else if (j->unlisted || lease_held() || !claim_check_again(e))
		return 0; /* (a held lease notices any new alias: its attach opens the file) */
	else
		snprintf(j->story, sizeof(j->story), "%s; the run stopped writing", e->msg);
	j->other_user = 1;
	return refuse(j, e);
}

/* Records a range of len bytes is saved in. */
static uint64_t pieces(uint64_t len)
{
	return len / JOURNAL_PIECE + (len % JOURNAL_PIECE != 0);
}

void save_plan(const struct extents *writes, uint64_t *bytes, uint64_t *records)
{
	*bytes = *records = 0;
	for (size_t i = 0; i < writes->n; i++) {
		*bytes += writes->v[i].hi - writes->v[i].lo;
		*records += pieces(writes->v[i].hi - writes->v[i].lo);
	}
}

/* ------------------------------------------------------------ save */

/* Append [lo, hi) from buf (the bytes of byte lo onwards) as records. */
static int append_bytes(struct journal *j, uint64_t lo, uint64_t hi, const unsigned char *buf, struct fb_err *e)
{
	while (lo < hi) {
		uint64_t n = hi - lo > JOURNAL_PIECE ? JOURNAL_PIECE : hi - lo;
		unsigned char r[JOURNAL_RECORD];

		journal_record_build(r, lo, n, j->seq++, crc32c(0, buf, n));
		if (durable_write(j->fd, r, sizeof(r)) || durable_write(j->fd, buf, n))
			return fb_fail(e, EXIT_DEVICE, "--preserve: cannot write %s: %s", j->path, strerror(errno));
		j->bytes += n;
		j->file_bytes += sizeof(r) + n;
		lo += n;
		buf += n;
	}
	return 0;
}

static int append_range(struct journal *j, uint64_t lo, uint64_t hi, struct fb_err *e)
{
	while (lo < hi) {
		uint64_t n = hi - lo > JOURNAL_PIECE ? JOURNAL_PIECE : hi - lo;
		int rc;

		if (j->stop && *j->stop) /* a request boundary: nothing is written yet */
			return fb_fail(e, EXIT_DEVICE, "stopped by a signal while saving the data to %s (%llu bytes "
				       "saved; %s)", j->path, (unsigned long long)j->bytes, j->touched || j->touched_all ?
				       "the write they were being saved for was not made" : "the device was not written");
		rc = dev_copy_out(j->d, j->buf, lo, n);
		if (rc)
			return fb_fail(e, EXIT_DEVICE, "--preserve: cannot read %llu bytes at %llu: %s",
				       (unsigned long long)n, (unsigned long long)lo, strerror(-rc));
		if (append_bytes(j, lo, lo + n, j->buf, e))
			return -1;
		lo += n;
	}
	return 0;
}

int save_rewrite(struct journal *j, uint64_t off, uint64_t len, const void *buf, struct fb_err *e)
{
	const unsigned char *b = buf;
	uint64_t lo = off, hi = off + len, records = len / JOURNAL_PIECE + 2;
	uint32_t seq0 = j->seq;
	int rc = 0;

	/* another user: not even bytes as they were are written back (over a
	 * mount, that could undo what it wrote in between) */
	if (still_alone(j, e))
		return -1;
	rc = room_for(j, j->file_bytes + len + records * JOURNAL_RECORD, "for a range it rewrites", e);
	/* only what is not saved yet: a second copy would hold no more */
	for (size_t k = 0; k < j->saved.n && lo < hi && !rc; k++) {
		const struct extent *s = &j->saved.v[k];
		if (s->hi <= lo || s->lo >= hi)
			continue;
		if (s->lo > lo)
			rc = append_bytes(j, lo, s->lo, b + (lo - off), e);
		lo = s->hi;
	}
	if (!rc && lo < hi)
		rc = append_bytes(j, lo, hi, b + (lo - off), e);
	if (!rc && extents_add(&j->saved, off, off + len))
		rc = fb_fail(e, EXIT_DEVICE, "out of memory");
	if (!rc && j->seq != seq0 && fdatasync(j->fd))
		rc = fb_fail(e, EXIT_DEVICE, "--preserve: cannot sync %s: %s", j->path, strerror(errno));
	if (rc && !j->has_refused) { /* the rewrite is not made: the run's message says why */
		char was[sizeof(e->msg)];
		snprintf(was, sizeof(was), "%s", e->msg);
		fb_fail(&j->refused, e->status, "%s; so the %llu bytes at %llu a rewrite read were not written back",
			was, (unsigned long long)len, (unsigned long long)off);
		j->has_refused = 1;
	}
	return rc;
}

int save_may_write(struct journal *j)
{
	if (!lease_broken())
		return 0;
	if (!j->other_user) {
		lease_story(j->story, sizeof(j->story));
		j->other_user = 1;
	}
	return refuse(j, NULL);
}

int save_explain(struct journal *j, struct fb_err *e)
{
	if (!j->has_refused && lease_broken()) /* the run stopped for it (save_watch) */
		save_may_write(j);
	if (!j->has_refused)
		return 0;
	*e = j->refused;
	j->told = 1;
	return 1;
}

int save_protect(struct journal *j, const struct extents *changes, struct fb_err *e)
{
	uint32_t seq0 = j->seq;
	int rc = 0;

	if (!changes->n) /* requests that only read: nothing to save or sync */
		return 0;
	if (still_alone(j, e)) /* another user: nothing more is written */
		return -1;
	{ /* room for what this step saves that is not saved yet: each range once */
		uint64_t bytes = 0, records = 0;
		char what[96];
		for (size_t i = 0; i < changes->n; i++) {
			uint64_t lo = changes->v[i].lo, hi = changes->v[i].hi;
			for (size_t k = 0; k < j->saved.n && lo < hi; k++) {
				const struct extent *sv = &j->saved.v[k];
				if (sv->hi <= lo || sv->lo >= hi)
					continue;
				if (sv->lo > lo) {
					bytes += sv->lo - lo;
					records += pieces(sv->lo - lo);
				}
				lo = sv->hi;
			}
			if (lo < hi) {
				bytes += hi - lo;
				records += pieces(hi - lo);
			}
		}
		snprintf(what, sizeof(what), "for the next %llu bytes to save", (unsigned long long)bytes);
		rc = room_for(j, j->file_bytes + bytes + records * JOURNAL_RECORD, what, e);
	}
	for (size_t i = 0; i < changes->n && !rc; i++) {
		uint64_t lo = changes->v[i].lo, hi = changes->v[i].hi;
		/* save only what is not saved yet: a second copy would hold
		 * the test's data, not the user's */
		for (size_t k = 0; k < j->saved.n && lo < hi && !rc; k++) {
			const struct extent *s = &j->saved.v[k];
			if (s->hi <= lo || s->lo >= hi)
				continue;
			if (s->lo > lo)
				rc = append_range(j, lo, s->lo, e);
			lo = s->hi;
		}
		if (!rc && lo < hi)
			rc = append_range(j, lo, hi, e);
		if (!rc && extents_add(&j->saved, changes->v[i].lo, changes->v[i].hi))
			rc = fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	if (!rc && j->seq == seq0) /* every range was saved before */
		return 0;
	if (!rc && fdatasync(j->fd))
		rc = fb_fail(e, EXIT_DEVICE, "--preserve: cannot sync %s: %s", j->path, strerror(errno));
	if (!rc) /* what --restore must find: a shorter journal was cut */
		rc = list(j, e);
	return rc;
}

void save_abandon(struct journal *j)
{
	if (!j)
		return;
	close(j->fd);
	free(j->saved.v);
	free(j->touched);
	free(j->buf);
	free(j);
}

void save_watch(struct journal *j, volatile sig_atomic_t *stop, volatile sig_atomic_t *restoring)
{
	j->stop = stop;
	j->restoring = restoring;
	lease_stops(stop, SAVE_STOP_OTHER_USER);
}

/* The map of written grains: one bit per 4 KiB, coarser on a device so
 * large that the map would pass 1 MiB (a coarser grain only puts back a
 * little more). */
void save_touch(struct journal *j, uint64_t off, uint64_t len)
{
	uint64_t size = dev_size(j->d);

	if (!len || j->touched_all)
		return;
	if (!j->touched) {
		j->touch_shift = 12;
		while ((size >> j->touch_shift) > (8ULL << 20))
			j->touch_shift++;
		if (!(j->touched = calloc(((size - 1) >> j->touch_shift) / 8 + 1, 1))) {
			j->touched_all = 1;
			return;
		}
	}
	for (uint64_t g = off >> j->touch_shift; g <= (off + len - 1) >> j->touch_shift; g++)
		j->touched[g / 8] |= (unsigned char)(1u << (g % 8));
}

int save_grain_touched(const struct journal *j, uint64_t off)
{
	uint64_t g = off >> j->touch_shift;

	return j->touched_all || (j->touched && (j->touched[g / 8] & (1u << (g % 8))));
}

int save_touched(const struct journal *j, uint64_t off, uint64_t len)
{
	if (j->touched_all)
		return 1;
	if (!j->touched || !len)
		return 0;
	for (uint64_t g = off >> j->touch_shift; g <= (off + len - 1) >> j->touch_shift; g++)
		if (j->touched[g / 8] & (1u << (g % 8)))
			return 1;
	return 0;
}

uint64_t save_grain_end(const struct journal *j, uint64_t off, uint64_t end)
{
	uint64_t next = ((off >> j->touch_shift) + 1) << j->touch_shift;

	return j->touched_all || next > end ? end : next;
}

uint64_t save_total(const struct journal *j)
{
	return j->bytes;
}

const char *save_file(const struct journal *j)
{
	return j->path;
}

/* The medium got a user that may have written to it meanwhile: the saved
 * data stay in the journal, for the user to choose. */
static int keep_for_user(struct journal *j, const char *why, struct fb_err *e)
{
	return fb_fail(e, EXIT_DEVICE, "%s; so the saved data were not put back over what it may have written: "
		       "they stay in %s (once nothing uses the medium, flashbench --restore %s %s puts them back; or "
		       "delete it to keep the medium as it is)", why, j->path, j->path, j->device);
}

int save_finish(struct journal *j, struct restore_report *r, struct fb_err *e)
{
	struct fb_err why;
	int rc, other = 0;

	if (j->restoring)
		*j->restoring = 1;
	close(j->fd);
	/* a user the run did not know of (a mount of an alias that appeared
	 * meanwhile) may have written to the medium: its data are not
	 * overwritten unasked; one held off (the lease's opener waits, a new
	 * alias is held O_EXCL) has not */
	if (!j->unlisted && j->seq && (other = claim_check_again(&why)) > 0 && !j->other_user) {
		j->other_user = 1;
		snprintf(j->story, sizeof(j->story), "%s", why.msg);
	}
	if (other < 0) {
		memset(r, 0, sizeof(*r));
		lease_drop();
		rc = keep_for_user(j, why.msg, e);
	} else {
		rc = restore_ranges(j->path, j->d, dev_path(j->d), 0, j, r, e);
		if (!rc && r->bytes + r->untouched != j->bytes)
			rc = fb_fail(e, EXIT_DEVICE, "restored %llu bytes of %llu saved", (unsigned long long)r->bytes,
				     (unsigned long long)j->bytes);
		lease_drop(); /* the opener the lease held goes on: the data are back */
		if (lease_broken() && !j->other_user) {
			lease_story(j->story, sizeof(j->story));
			j->other_user = 1;
		}
		/* the run ends failed, saying why (once) */
		if (!rc && j->other_user && (!j->told || lease_overrun() > 0)) {
			char sz[32];
			format_size(sz, sizeof(sz), r->bytes);
			if (r->bytes)
				rc = fb_fail(e, EXIT_DEVICE, "%s; the saved data were put back (%llu bytes, %s) and verified%s",
					     j->story, (unsigned long long)r->bytes, sz, lease_overrun() > 0 ? ", but only "
					     "after the kernel had let that open go on (/proc/sys/fs/lease-break-time): it "
					     "may have used the file before they were back" : "");
			else
				rc = fb_fail(e, EXIT_DEVICE, "%s; nothing the run wrote needed putting back", j->story);
		}
	}
	free(j->saved.v);
	free(j->touched);
	free(j->buf);
	free(j);
	return rc;
}
