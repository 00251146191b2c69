/* dev_block.c — the block backend: a block device or an existing regular
 * file, opened with O_DIRECT, timed with CLOCK_MONOTONIC_RAW around each
 * request (long requests go in pieces of the buffer inside one timing);
 * queued requests on threads. */
#include "dev/dev_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dev/devinfo.h"
#include "lib/pin.h"

#define QUEUE_MAX_THREADS 64u   /* requests in flight at most (queue depth) */

struct block {
	int fd;
	int is_block;
	unsigned char *buf;
	size_t buf_len;
	int buf_pattern;     /* byte the buffer holds, -1 for read data */
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int open_error(const char *path, int err, enum dev_mode mode, struct fb_err *e)
{
	switch (err) {
	case ENOENT:
		return fb_fail(e, EXIT_DEVICE, "%s: no such device or file (check the name with lsblk)", path);
	case EACCES:
	case EPERM:
		return fb_fail(e, EXIT_DEVICE, "%s: permission denied (run as root, e.g. with sudo)", path);
	case EROFS:
		return fb_fail(e, EXIT_DEVICE, "%s: device is read-only; write tests need a writable device", path);
	case EBUSY:
		return fb_fail(e, EXIT_DEVICE,
			       "%s: device is in use (mounted, swap, or held by another program); "
			       "unmount it or stop the program first", path);
	default:
		return fb_fail(e, EXIT_DEVICE, "%s: cannot open %s: %s", path,
			       mode == DEV_READONLY ? "for reading" : "for writing", strerror(err));
	}
}

static int block_prepare(struct dev *d, uint64_t max_len, struct fb_err *e)
{
	struct block *b = d->priv;
	size_t want = max_len > DEV_MAX_BUFFER ? DEV_MAX_BUFFER : (size_t)max_len;
	void *p;

	if (want <= b->buf_len)
		return 0;
	if (want < 4096)
		want = 4096;
	if (posix_memalign(&p, 4096, want))
		return fb_fail(e, EXIT_DEVICE, "cannot allocate an I/O buffer of %zu bytes", want);
	memset(p, 0, want);
	free(b->buf);
	b->buf = p;
	b->buf_len = want;
	b->buf_pattern = -1;
	return 0;
}

/* pread/pwrite the whole length, retrying after EINTR and short transfers */
static int full_io(int fd, int writing, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = writing ? pwrite(fd, (char *)buf + done, len - done, (off_t)(off + done))
				    : pread(fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO; /* the device ended early */
		done += (size_t)n;
	}
	return 0;
}

static int timed_io(struct dev *d, int writing, uint64_t off, uint64_t len, uint64_t *ns)
{
	struct block *b = d->priv;
	uint64_t t0, t1, done = 0;
	int rc = 0;

	t0 = now_ns();
	while (done < len && !rc) {
		size_t n = len - done > b->buf_len ? b->buf_len : (size_t)(len - done);
		rc = full_io(b->fd, writing, b->buf, n, off + done);
		done += n;
	}
	t1 = now_ns();
	*ns = t1 - t0;
	return rc;
}

static int block_read(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	struct block *b = d->priv;

	if (!b->buf && block_prepare(d, len, NULL))
		return -ENOMEM;
	b->buf_pattern = -1;
	return timed_io(d, 0, off, len, ns);
}

static int block_write(struct dev *d, uint64_t off, uint64_t len, int pattern, uint64_t *ns)
{
	struct block *b = d->priv;

	if (!b->buf && block_prepare(d, len, NULL))
		return -ENOMEM;
	if (b->buf_pattern != pattern) { /* outside the timed region */
		memset(b->buf, pattern, b->buf_len);
		b->buf_pattern = pattern;
	}
	return timed_io(d, 1, off, len, ns);
}

/* A data request: the caller's buffer, timed like the others (one piece:
 * dev.c bounds it to DEV_MAX_BUFFER). */
static int block_data(struct dev *d, int writing, uint64_t off, uint64_t len, void *buf, uint64_t *ns)
{
	struct block *b = d->priv;
	uint64_t t0 = now_ns();
	int rc = full_io(b->fd, writing, buf, (size_t)len, off);

	*ns = now_ns() - t0;
	return rc;
}

static int block_write_data(struct dev *d, uint64_t off, uint64_t len, const void *buf, uint64_t *ns)
{
	return block_data(d, 1, off, len, (void *)buf, ns);
}

static int block_read_data(struct dev *d, uint64_t off, uint64_t len, void *buf, uint64_t *ns)
{
	return block_data(d, 0, off, len, buf, ns);
}

static int block_discard(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	struct block *b = d->priv;
	uint64_t range[2] = { off, len }, t0;

	t0 = now_ns();
	if (ioctl(b->fd, BLKDISCARD, range))
		return -errno;
	*ns = now_ns() - t0;
	return 0;
}

static int block_copy_out(struct dev *d, void *buf, uint64_t off, uint64_t len)
{
	struct block *b = d->priv;

	b->buf_pattern = -1;
	return full_io(b->fd, 0, buf, len, off);
}

static int block_copy_in(struct dev *d, const void *buf, uint64_t off, uint64_t len)
{
	struct block *b = d->priv;

	return full_io(b->fd, 1, (void *)buf, len, off);
}

/* Queued requests: depth threads take the next request in turn, each with
 * a buffer of its own, on the one O_DIRECT descriptor (libc only, as fio's
 * psync engine with numjobs does); the batch's time is from the first
 * start to the last end. */
struct queue_run {
	struct block *b;
	struct dev_req *r;
	size_t n, len;
	atomic_size_t next;
};

static void *queue_worker(void *arg)
{
	struct queue_run *q = arg;
	int pattern = -1;
	void *buf;

	if (posix_memalign(&buf, 4096, q->len))
		buf = NULL;
	for (size_t i; (i = atomic_fetch_add(&q->next, 1)) < q->n;) {
		struct dev_req *r = &q->r[i];
		uint64_t t0;
		if (!buf) {
			r->rc = -ENOMEM;
			continue;
		}
		if (r->write && r->pattern != pattern)
			memset(buf, pattern = r->pattern, q->len);
		if (!r->write)
			pattern = -1;
		t0 = now_ns();
		r->rc = full_io(q->b->fd, r->write, buf, (size_t)r->len, r->off);
		r->ns = now_ns() - t0;
	}
	free(buf);
	return NULL;
}

static int block_queue(struct dev *d, struct dev_req *r, size_t n, unsigned depth, uint64_t *ns)
{
	struct queue_run q = { .b = d->priv, .r = r, .n = n, .len = 4096 };
	pthread_t th[QUEUE_MAX_THREADS];
	unsigned k, started = 0;
	uint64_t t0;

	for (size_t i = 0; i < n; i++) {
		if (r[i].len > DEV_MAX_BUFFER)
			return -EINVAL;
		if (r[i].len > q.len)
			q.len = r[i].len;
	}
	atomic_init(&q.next, 0);
	k = depth < 1 ? 1 : depth > QUEUE_MAX_THREADS ? QUEUE_MAX_THREADS : depth;
	t0 = now_ns();
	for (unsigned i = 0; i < k; i++)
		if (pthread_create(&th[i], NULL, queue_worker, &q) == 0)
			started++;
	if (!started) /* no thread: the requests one by one here */
		queue_worker(&q);
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	*ns = now_ns() - t0;
	return 0;
}

/* The card's word and its host's limits: sysfs (devinfo.c). */
static void block_card(const struct dev *d, struct dev_card *c)
{
	devinfo_card(d->path, c);
}

static void block_close(struct dev *d)
{
	struct block *b = d->priv;

	if (!b)
		return;
	if (b->fd >= 0)
		close(b->fd);
	free(b->buf);
	free(b);
}

static const struct dev_ops block_ops = {
	.name = "block",
	.prepare = block_prepare,
	.read = block_read, .write = block_write, .discard = block_discard,  /* the timed requests */
	.write_data = block_write_data, .read_data = block_read_data,
	.copy_out = block_copy_out, .copy_in = block_copy_in,  /* untimed, to save and restore data */
	.queue = block_queue, .card = block_card,
	.close = block_close,
};

int dev_block_open(struct dev *d, const char *path, enum dev_mode mode, struct fb_err *e)
{
	struct stat st;
	struct block *b;
	int flags = O_DIRECT | O_CLOEXEC | O_NOCTTY;
	const char *at = pin_path(path); /* the file the checks saw, when the run pinned the name */

	if (pin_failed(path))
		return open_error(path, pin_failed(path), mode, e);
	if (stat(at, &st) != 0)
		return open_error(path, errno, mode, e);
	if (S_ISDIR(st.st_mode))
		return fb_fail(e, EXIT_DEVICE, "%s: is a directory, not a device", path);
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return fb_fail(e, EXIT_DEVICE, "%s: neither a block device nor a regular file", path);
	if (!(b = calloc(1, sizeof(*b))))
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	b->fd = -1;
	b->buf_pattern = -1;
	b->is_block = S_ISBLK(st.st_mode);
	d->ops = &block_ops;
	d->priv = b;
	d->caps = DEV_CAP_STORES_DATA | DEV_CAP_HOLDS_DATA | DEV_CAP_REOPEN_RW | (b->is_block ? DEV_CAP_DISCARD : 0);
	if (mode == DEV_READONLY)
		flags |= O_RDONLY;
	else
		flags |= O_RDWR | O_SYNC | (b->is_block ? O_EXCL : 0);
	b->fd = open(at, flags);
	if (b->fd < 0 && errno == EINVAL)
		/* without O_DIRECT every figure would be the page cache's */
		return fb_fail(e, EXIT_DEVICE, "%s: %s refuses direct I/O (O_DIRECT; ramfs, tmpfs before Linux 6.6), "
			       "so the times would be the page cache's, not the device's; use a block device, or a file "
			       "on a disk file system", path, b->is_block ? "the device" : "its file system");
	if (b->fd < 0)
		return open_error(path, errno, mode, e);
	if (!pin_same(path, b->fd) || fstat(b->fd, &st) || (b->is_block ? !S_ISBLK(st.st_mode) : !S_ISREG(st.st_mode)))
		return fb_fail(e, EXIT_DEVICE, "%s changed while it was being checked (another file or device is now "
			       "behind the name); nothing was written to it", path);
	if (b->is_block) {
		int ss = 0, ps = 0;
		if (ioctl(b->fd, BLKGETSIZE64, &d->size) || ioctl(b->fd, BLKSSZGET, &ss) || ss <= 0)
			return fb_fail(e, EXIT_DEVICE, "%s: cannot read the device size: %s", path, strerror(errno));
		d->sector = (unsigned)ss;
		d->physical = ioctl(b->fd, BLKPBSZGET, &ps) == 0 && ps > 0 ? (unsigned)ps : d->sector;
	} else {
		d->size = (uint64_t)st.st_size;
		d->sector = d->physical = 512;
	}
	/* No real-time scheduling: on a loop device over a disk file the
	 * median 4 KiB read took 77 us under SCHED_FIFO against 66 us without
	 * (same loop in C, alternating runs), and the minimum of repeated tries
	 * already removes the rare outliers it trims. */
	return 0;
}
