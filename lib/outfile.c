/* outfile.c — output files written safely (see outfile.h). */
#include "lib/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/pin.h"

/* The directory part of path ("." when it has none). */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

int outfile_check_dir(const char *opt, const char *path, struct fb_err *e)
{
	char dir[PATH_MAX];
	struct stat st;

	dir_of(path, dir, sizeof(dir));
	if (stat(dir, &st))
		return fb_fail(e, EXIT_USAGE, "%s=%s: directory %s: %s (create it or name another place)", opt, path,
			       dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fb_fail(e, EXIT_USAGE, "%s=%s: %s is not a directory", opt, path, dir);
	if (access(dir, W_OK | X_OK))
		return fb_fail(e, EXIT_USAGE, "%s=%s: cannot write in directory %s: %s", opt, path, dir,
			       strerror(errno));
	return 0;
}

int outfile_check(const char *opt, const char *path, struct fb_err *e)
{
	struct stat st;

	if (!*path)
		return fb_fail(e, EXIT_USAGE, "%s needs a file name", opt);
	if (stat(pin_path(path), &st))
		return errno == ENOENT ? outfile_check_dir(opt, path, e)
				       : fb_fail(e, EXIT_USAGE, "%s=%s: %s", opt, path, strerror(errno));
	if (S_ISBLK(st.st_mode))
		return fb_fail(e, EXIT_USAGE, "%s=%s is a block device: an output never goes to one (it would "
			       "overwrite what is stored there); name a file", opt, path);
	if (S_ISDIR(st.st_mode))
		return fb_fail(e, EXIT_USAGE, "%s=%s is a directory; name a file", opt, path);
	if (access(pin_path(path), W_OK))
		return fb_fail(e, EXIT_USAGE, "%s=%s: cannot write it: %s", opt, path, strerror(errno));
	return S_ISREG(st.st_mode) ? outfile_check_dir(opt, path, e) : 0;
}

/* Where path lands: its file (symlinks followed) when it exists, else its
 * directory resolved plus its last name.  0, or -1 when neither is known. */
static int landing(const char *path, struct stat *st, char *where, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	where[0] = '\0';
	if (!stat(path, st))
		return 0;
	memset(st, 0, sizeof(*st));
	dir_of(path, dir, sizeof(dir));
	if (!realpath(dir, real))
		return -1;
	snprintf(where, len, "%s/%s", real, base);
	return 0;
}

int outfile_check_input(const char *opt, const char *path, const char *input, struct fb_err *e)
{
	struct stat o, i;

	if (stat(path, &o) || stat(input, &i) || o.st_dev != i.st_dev || o.st_ino != i.st_ino ||
	    S_ISCHR(o.st_mode))
		return 0;
	return fb_fail(e, EXIT_USAGE, "%s=%s names an input file (%s): the output would overwrite it; name "
		       "another file", opt, path, input);
}

int outfile_check_apart(const char *opt1, const char *path1, const char *opt2, const char *path2,
			struct fb_err *e)
{
	char w1[PATH_MAX + NAME_MAX + 2], w2[PATH_MAX + NAME_MAX + 2];
	struct stat s1, s2;
	int same;

	if (landing(path1, &s1, w1, sizeof(w1)) || landing(path2, &s2, w2, sizeof(w2)))
		return 0;
	if (w1[0] || w2[0]) /* one or both are new: the same name? */
		same = w1[0] && w2[0] && !strcmp(w1, w2);
	else /* both exist: the same file, unless a device node like /dev/null */
		same = s1.st_dev == s2.st_dev && s1.st_ino == s2.st_ino && !S_ISCHR(s1.st_mode);
	if (!same)
		return 0;
	return fb_fail(e, EXIT_USAGE, "%s=%s and %s=%s name the same file: one would overwrite the other; name "
		       "two files", opt1, path1, opt2, path2);
}

static const volatile sig_atomic_t *stop_flag;

void outfile_watch(const volatile sig_atomic_t *stop)
{
	stop_flag = stop;
}

/* A FIFO is written without blocking, waiting for room with poll(): a
 * reader that stops reading cannot hold the run once a signal asks it to
 * stop (EINTR). */
static ssize_t fifo_write(void *cookie, const char *buf, size_t len)
{
	int fd = (int)(intptr_t)cookie;
	size_t done = 0;

	while (done < len) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		ssize_t n = write(fd, buf + done, len - done);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		if (stop_flag && *stop_flag) {
			errno = EINTR;
			return -1;
		}
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			return -1;
	}
	return (ssize_t)done;
}

static int fifo_close(void *cookie)
{
	return close((int)(intptr_t)cookie);
}

static int open_replacing(struct outfile *o, const char *path, const struct stat *st, struct fb_err *e);

int outfile_open(struct outfile *o, const char *opt, const char *path, struct fb_err *e)
{
	struct stat st;
	int exists, fd;

	memset(o, 0, sizeof(*o));
	o->opt = opt;
	o->dir = -1;
	/* a name that did not exist when it was pinned (and checked) is a new
	 * file, whatever has appeared under it since */
	exists = !pin_failed(path) && !stat(pin_path(path), &st);
	if (exists && S_ISFIFO(st.st_mode)) { /* never wait for a reader that may not come */
		static const cookie_io_functions_t io = { .write = fifo_write, .close = fifo_close };
		snprintf(o->target, sizeof(o->target), "%s", path);
		if ((fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
			return errno == ENXIO ? fb_fail(e, EXIT_USAGE, "%s=%s is a FIFO that nobody reads: start its reader "
							"first (cat %s &), or write to standard output", opt, path, path)
					      : fb_fail(e, EXIT_DEVICE, "%s=%s: cannot write it: %s", opt, path, strerror(errno));
		if (!(o->f = fopencookie((void *)(intptr_t)fd, "w", io))) {
			close(fd);
			return fb_fail(e, EXIT_DEVICE, "%s=%s: cannot write it: %s", opt, path, strerror(errno));
		}
		return 0;
	}
	if (exists && !S_ISREG(st.st_mode)) { /* a character device such as /dev/null, written in place */
		struct stat now;
		snprintf(o->target, sizeof(o->target), "%s", path);
		if ((fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)) < 0)
			return fb_fail(e, EXIT_DEVICE, "%s=%s: cannot write it: %s", opt, path, strerror(errno));
		if (fstat(fd, &now) || S_ISBLK(now.st_mode) || S_ISREG(now.st_mode) || S_ISDIR(now.st_mode)) {
			close(fd); /* it changed since it was checked */
			return fb_fail(e, EXIT_USAGE, "%s=%s changed since it was checked (it is no longer a character "
				       "device); nothing was written", opt, path);
		}
		if (!(o->f = fdopen(fd, "w"))) {
			close(fd);
			return fb_fail(e, EXIT_DEVICE, "%s=%s: cannot write it: %s", opt, path, strerror(errno));
		}
		return 0;
	}
	return open_replacing(o, path, exists ? &st : NULL, e);
}

/* A temporary file of ours in o->dir: its descriptor, or -1. */
static int make_tmp(struct outfile *o, mode_t mode)
{
	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		int fd;
		if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
			for (size_t i = 0; i < sizeof(r); i++)
				r[i] = (unsigned char)(rand() ^ (getpid() >> (i % 4)));
		snprintf(o->tmp_base, sizeof(o->tmp_base), ".%.200s.%02x%02x%02x%02x%02x%02x", o->base, r[0], r[1], r[2],
			 r[3], r[4], r[5]);
		fd = openat(o->dir, o->tmp_base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/* A regular file (st: what the checks saw at path; NULL for a new file):
 * the directory it lands in is opened once and everything after is done
 * relative to it, on the one name in it. */
static int open_replacing(struct outfile *o, const char *path, const struct stat *st, struct fb_err *e)
{
	char dir[PATH_MAX];
	struct stat now;
	const char *base;
	mode_t mask;
	int fd;

	/* an existing file: where it is now (the name may have been a symlink,
	 * resolved once, here, through the pinned file) */
	if (!st || !realpath(pin_path(path), o->target))
		snprintf(o->target, sizeof(o->target), "%s", path);
	dir_of(o->target, dir, sizeof(dir));
	base = strrchr(o->target, '/') ? strrchr(o->target, '/') + 1 : o->target;
	if (!*base || strlen(base) >= sizeof(o->base) - 16)
		return fb_fail(e, EXIT_USAGE, "%s=%s: the name is too long", o->opt, path);
	memcpy(o->base, base, strlen(base) + 1); /* its length was checked */
	if ((o->dir = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return fb_fail(e, EXIT_DEVICE, "%s=%s: cannot open directory %s: %s", o->opt, path, dir, strerror(errno));
	o->has_dir = 1;
	if (st) { /* what is named there now must be the file that was checked */
		if (fstatat(o->dir, o->base, &now, AT_SYMLINK_NOFOLLOW) || now.st_dev != st->st_dev ||
		    now.st_ino != st->st_ino) {
			outfile_abort(o);
			return fb_fail(e, EXIT_USAGE, "%s=%s changed while it was being checked (another file is now "
				       "behind the name); nothing was written", o->opt, path);
		}
		o->replaces = 1;
		o->dev = st->st_dev;
		o->ino = st->st_ino;
	} else if (!fstatat(o->dir, o->base, &now, AT_SYMLINK_NOFOLLOW)) {
		if (!S_ISLNK(now.st_mode)) { /* appeared since the checks */
			outfile_abort(o);
			return fb_fail(e, EXIT_USAGE, "%s=%s changed while it was being checked (a file appeared under "
				       "the name); nothing was written", o->opt, path);
		}
		o->replaces = 1; /* a dangling symlink: the link itself is replaced */
		o->dev = now.st_dev;
		o->ino = now.st_ino;
	}
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.XXXXXX", dir, o->base) >= sizeof(o->tmp)) {
		outfile_abort(o);
		return fb_fail(e, EXIT_USAGE, "%s=%s: the name is too long", o->opt, path);
	}
	mask = umask(0);
	umask(mask);
	if ((fd = make_tmp(o, 0600)) < 0) {
		int err = errno;
		o->tmp[0] = '\0';
		outfile_abort(o);
		return fb_fail(e, EXIT_DEVICE, "%s=%s: cannot create a file in %s: %s", o->opt, path, dir, strerror(err));
	}
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%.*s/%s", (int)(sizeof(o->tmp) - sizeof(o->tmp_base) - 2), dir,
			     o->tmp_base) >= sizeof(o->tmp))
		o->tmp[sizeof(o->tmp) - 1] = '\0'; /* for messages only */
	(void)!fchmod(fd, st ? st->st_mode & 07777 : 0666 & ~mask);
	if (!(o->f = fdopen(fd, "w"))) {
		close(fd);
		outfile_abort(o);
		return fb_fail(e, EXIT_DEVICE, "%s=%s: %s", o->opt, path, strerror(errno));
	}
	return 0;
}

const char *outfile_untouched(const char *target, int in_place)
{
	if (in_place)
		return "";
	return access(target, F_OK) ? " (no file was made)" : " (it was left as it was)";
}

/* Put the temporary file in place of the one checked at open: exchanged
 * with what is named there atomically, kept only when that was the file
 * checked (else exchanged back).  0, or -1 with errno (ESTALE: the name
 * now reaches another file; nothing was replaced). */
static int put_in_place(struct outfile *o)
{
	struct stat was;

	if (!o->replaces) { /* a new file: never over one that appeared meanwhile */
		if (!renameat2(o->dir, o->tmp_base, o->dir, o->base, RENAME_NOREPLACE))
			return 0;
		if (errno == EEXIST)
			return errno = ESTALE, -1;
		if (errno != EINVAL && errno != ENOSYS)
			return -1;
		if (!fstatat(o->dir, o->base, &was, AT_SYMLINK_NOFOLLOW)) /* no RENAME_NOREPLACE here */
			return errno = ESTALE, -1;
		return renameat(o->dir, o->tmp_base, o->dir, o->base);
	}
	if (renameat2(o->dir, o->tmp_base, o->dir, o->base, RENAME_EXCHANGE)) {
		if (errno != EINVAL && errno != ENOSYS)
			return -1;
		/* a file system without exchange: check, then rename */
		if (fstatat(o->dir, o->base, &was, AT_SYMLINK_NOFOLLOW) || was.st_dev != o->dev || was.st_ino != o->ino)
			return errno = ESTALE, -1;
		return renameat(o->dir, o->tmp_base, o->dir, o->base);
	}
	/* what was named there is now under our temporary name */
	if (fstatat(o->dir, o->tmp_base, &was, AT_SYMLINK_NOFOLLOW) || was.st_dev != o->dev || was.st_ino != o->ino) {
		(void)!renameat2(o->dir, o->tmp_base, o->dir, o->base, RENAME_EXCHANGE);
		return errno = ESTALE, -1;
	}
	return unlinkat(o->dir, o->tmp_base, 0);
}

int outfile_commit(struct outfile *o, struct fb_err *e)
{
	int bad = fflush(o->f) || ferror(o->f) || (o->tmp[0] && fsync(fileno(o->f)));
	int err = errno, in_place = !o->tmp[0];

	if (fclose(o->f) && !bad) {
		bad = 1;
		err = errno;
	}
	o->f = NULL;
	if (!bad && o->tmp[0] && put_in_place(o)) {
		bad = 1;
		err = errno;
	}
	if (bad) {
		outfile_abort(o);
		if (err == ESTALE)
			return fb_fail(e, EXIT_DEVICE, "%s=%s changed while the run wrote its output (another file is now "
				       "behind the name); it was left as it is, and the output not kept", o->opt, o->target);
		return fb_fail(e, EXIT_DEVICE, "%s=%s: cannot write it: %s%s", o->opt, o->target, strerror(err),
			       outfile_untouched(o->target, in_place));
	}
	o->tmp[0] = '\0';
	if (o->has_dir)
		close(o->dir);
	o->has_dir = 0;
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0] && o->has_dir)
		unlinkat(o->dir, o->tmp_base, 0);
	o->tmp[0] = '\0';
	if (o->has_dir)
		close(o->dir);
	o->has_dir = 0;
}
