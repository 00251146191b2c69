/* outputs.c — outputs that must not be written where they are named (see
 * outputs.h). */
#include "guard/outputs.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev/medium.h"
#include "guard/place.h"
#include "guard/safety.h"
#include "guard/statedir.h"
#include "lib/crc32c.h"
#include "lib/json_read.h"
#include "lib/outfile.h"
#include "lib/pin.h"
#include "lib/sysroot.h"

/* Is path in the state directory (the index of unfinished journals)?  An
 * existing file (or pinned name, or /proc/self/fd/N) by where it is now. */
static int in_state_dir(const char *path)
{
	char dir[PATH_MAX], state[PATH_MAX], real[PATH_MAX], rstate[PATH_MAX], file[PATH_MAX];
	const char *slash;

	if (realpath(pin_path(path), file))
		path = file;
	slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (slash == path ? 1 : (int)(slash - path)) : 1, slash ? path : ".");
	state_dir(state, sizeof(state));
	return realpath(dir, real) && realpath(state, rstate) && !strcmp(real, rstate);
}

/* An output replaces a regular file: never one that is storage in use
 * (behind a loop device that is mounted, swap, held; a swap file; a file
 * another program has open for writing or locks, as a virtual machine its
 * image) nor one behind any loop device at all (what the loop device shows
 * would be swept away).  path should be pinned. */
static int output_in_use(const char *opt, const char *path, struct fb_err *e)
{
	struct medium m;
	struct medium_aliases a;
	int rc;

	medium_of(path, &m);
	if (m.kind != MEDIUM_FILE)
		return 0;
	if (medium_aliases(&m, &a))
		return fb_fail(e, EXIT_USAGE, "out of memory");
	rc = safety_check(path, &m, 0, &a, SAFETY_OUTPUT, e);
	if (rc) {
		char msg[sizeof(e->msg)];
		snprintf(msg, sizeof(msg), "%s", e->msg);
		fb_fail(e, EXIT_USAGE, "%s=%s", opt, msg);
	} else if (a.n) {
		rc = fb_fail(e, EXIT_USAGE, "%s=%s is the file behind %s (a loop device): the output would replace what "
			     "it shows; name another file (or detach it: losetup -d %s)", opt, path,
			     medium_alias_name(&a.v[0]), medium_alias_name(&a.v[0]));
	}
	medium_aliases_free(&a);
	return rc;
}

int output_check(const char *opt, const char *path, const char *device, struct fb_err *e)
{
	char saved[300];
	struct medium m;
	struct stat st;

	if (outfile_check(opt, path, e))
		return -1;
	if (in_state_dir(path))
		return fb_fail(e, EXIT_USAGE, "%s=%s is in flashbench's state directory, where the index of unfinished "
			       "journals lives; name a file elsewhere", opt, path);
	if (place_holds(path, saved, sizeof(saved)))
		return fb_fail(e, EXIT_USAGE, "%s=%s is a flashbench journal (data saved from %.200s): the output would "
			       "destroy what it saved; name another file", opt, path, saved);
	if (stat(pin_path(path), &st) || !S_ISREG(st.st_mode))
		return 0;
	if (device && strncmp(device, "sim:", 4)) {
		medium_of(device, &m);
		if (m.kind == MEDIUM_FILE && (dev_t)m.dev == st.st_dev && (ino_t)m.ino == st.st_ino)
			return fb_fail(e, EXIT_USAGE, "%s=%s is the device under test (%s%s%.300s): the output would "
				       "overwrite it; name another file", opt, path, device, m.how[0] ? ", " : "", m.how);
	}
	return output_in_use(opt, path, e);
}

int output_check_input(const char *opt, const char *path, const char *input, struct fb_err *e)
{
	struct stat o, i;

	if (strcmp(input, "-"))
		return outfile_check_input(opt, path, input, e);
	if (stat(path, &o) || fstat(0, &i) || !S_ISREG(i.st_mode) || o.st_dev != i.st_dev || o.st_ino != i.st_ino)
		return 0;
	return fb_fail(e, EXIT_USAGE, "%s=%s is standard input, which the run reads: the output would overwrite "
		       "it; name another file", opt, path);
}

int output_check_stdin_copy(const char *opt, const char *target, struct fb_err *e)
{
	unsigned char *buf;
	uint64_t len, done = 0;
	uint32_t want, crc = 0;
	struct stat st;
	int fd, same;

	if (!read_stream_stdin(&len, &want) || !target[0] || stat(target, &st) || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != len || (fd = open(target, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	if (!(buf = malloc(1 << 16))) {
		close(fd);
		return 0;
	}
	while (done < len) {
		ssize_t n = read(fd, buf, 1 << 16);
		if (n <= 0)
			break;
		crc = crc32c(crc, buf, (size_t)n);
		done += (uint64_t)n;
	}
	free(buf);
	close(fd);
	same = done == len && crc == want;
	if (!same)
		return 0;
	return fb_fail(e, EXIT_USAGE, "%s=%s holds exactly what the run read from standard input: it is where "
		       "the input came from, and the output would replace it; name another file (it was left as "
		       "it was)", opt, target);
}

/* Standard error cannot carry its own refusal: it is pointed at /dev/null
 * first (say nothing rather than write there). */
static void silence_stderr(int fd)
{
	int null;

	if (fd != 2 || (null = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0)
		return;
	dup2(null, 2);
	close(null);
}

static const char *const stdio_name[3] = { "standard input", "standard output", "standard error" };

int output_check_stdio(const char *device, struct fb_err *e)
{
	struct medium m = { .kind = MEDIUM_NONE };
	struct stat st;

	if (device && strncmp(device, "sim:", 4))
		medium_of(device, &m);
	for (int fd = 1; fd <= 2; fd++) {
		char at[32], saved[300];
		const char *what = NULL;
		if (fstat(fd, &st))
			continue;
		sysroot_self_fd(fd, at, sizeof(at));
		if (S_ISBLK(st.st_mode))
			what = "a block device: the output would overwrite it";
		else if (!S_ISREG(st.st_mode))
			continue;
		else if (m.kind == MEDIUM_FILE && st.st_dev == (dev_t)m.dev && st.st_ino == (ino_t)m.ino)
			what = "the device under test: the output would overwrite it";
		else if (place_holds(at, saved, sizeof(saved)))
			what = "a flashbench journal: the output would destroy the data it saved";
		else if (in_state_dir(at))
			what = "a file in flashbench's state directory, where the index of unfinished journals lives";
		if (!what)
			continue;
		silence_stderr(fd);
		return fb_fail(e, EXIT_USAGE, "%s is %s; redirect it to a file or a pipe", stdio_name[fd], what);
	}
	return 0;
}

int output_check_stdio_input(const char *opt, const char *input, struct fb_err *e)
{
	struct stat in, st;

	if (!strcmp(input, "-") ? fstat(0, &in) : stat(input, &in))
		return 0;
	if (!S_ISREG(in.st_mode))
		return 0;
	for (int fd = 1; fd <= 2; fd++) {
		if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_dev != in.st_dev || st.st_ino != in.st_ino)
			continue;
		silence_stderr(fd);
		return fb_fail(e, EXIT_USAGE, "%s is the %s file the run reads (%s): the output would overwrite it; "
			       "redirect it elsewhere", stdio_name[fd], opt, !strcmp(input, "-") ? "standard input" : input);
	}
	return 0;
}

int device_check_input(const char *device, const char *opt, const char *input, struct fb_err *e)
{
	struct medium m;
	struct stat st;

	if (!device || !strncmp(device, "sim:", 4) || stat(input, &st))
		return 0;
	medium_of(device, &m);
	if (m.kind != MEDIUM_FILE || (dev_t)m.dev != st.st_dev || (ino_t)m.ino != st.st_ino)
		return 0;
	return fb_fail(e, EXIT_USAGE, "%s is the %s file the run reads (%s): a test would overwrite it; name the "
		       "device to test", device, opt, input);
}

int output_check_run(const char *device, const char *out, const char *plot, const char *journal,
		     struct fb_err *e)
{
	const char *dev = device ? device : "";

	return (out && output_check("--out", out, dev, e)) ||
	       (plot && output_check("--plot", plot, dev, e)) ||
	       (journal && outfile_check_dir("--preserve", journal, e)) ||
	       (out && journal && outfile_check_apart("--out", out, "--preserve", journal, e)) ||
	       (plot && journal && outfile_check_apart("--plot", plot, "--preserve", journal, e)) ? -1 : 0;
}

int output_commit(struct outfile *o, const volatile sig_atomic_t *stop, struct fb_err *e)
{
	const char *opt = o->opt;
	char target[sizeof(o->target)];
	int in_place = !o->tmp[0];

	memcpy(target, o->target, sizeof(target));
	if (!in_place && output_check_stdin_copy(opt, target, e)) {
		outfile_abort(o);
		return -1;
	}
	if (!outfile_commit(o, e))
		return 0;
	if (stop && *stop > 0)
		fb_fail(e, EXIT_DEVICE, "stopped by a signal (%s) while writing %s=%s%s", fb_signal_name(*stop),
			opt, target, outfile_untouched(target, in_place));
	return -1;
}
