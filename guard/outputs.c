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
#include "guard/preserve.h"
#include "guard/statedir.h"
#include "lib/crc32c.h"
#include "lib/json_read.h"
#include "lib/outfile.h"

/* Is path in the state directory (the index of unfinished journals)? */
static int in_state_dir(const char *path)
{
	char dir[PATH_MAX], state[PATH_MAX], real[PATH_MAX], rstate[PATH_MAX];
	const char *slash = strrchr(path, '/');

	snprintf(dir, sizeof(dir), "%.*s", slash ? (slash == path ? 1 : (int)(slash - path)) : 1, slash ? path : ".");
	state_dir(state, sizeof(state));
	return realpath(dir, real) && realpath(state, rstate) && !strcmp(real, rstate);
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
	if (journal_holds(path, saved, sizeof(saved)))
		return fb_fail(e, EXIT_USAGE, "%s=%s is a flashbench journal (data saved from %.200s): the output would "
			       "destroy what it saved; name another file", opt, path, saved);
	if (!device || !strncmp(device, "sim:", 4) || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	medium_of(device, &m);
	if (m.kind != MEDIUM_FILE || (dev_t)m.dev != st.st_dev || (ino_t)m.ino != st.st_ino)
		return 0;
	return fb_fail(e, EXIT_USAGE, "%s=%s is the device under test (%s%s%.300s): the output would overwrite it; "
		       "name another file", opt, path, device, m.how[0] ? ", " : "", m.how);
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

int output_check_stdio(const char *device, struct fb_err *e)
{
	static const char *const name[3] = { "", "standard output", "standard error" };
	struct medium m = { .kind = MEDIUM_NONE };
	struct stat st;

	if (device && strncmp(device, "sim:", 4))
		medium_of(device, &m);
	for (int fd = 1; fd <= 2; fd++) {
		int block, medium;
		if (fstat(fd, &st))
			continue;
		block = S_ISBLK(st.st_mode);
		medium = S_ISREG(st.st_mode) && m.kind == MEDIUM_FILE && st.st_dev == (dev_t)m.dev &&
			 st.st_ino == (ino_t)m.ino;
		if (!block && !medium)
			continue;
		if (fd == 2) { /* nowhere to say it: say nothing rather than write there */
			int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
			if (null >= 0) {
				dup2(null, 2);
				close(null);
			}
		}
		return fb_fail(e, EXIT_USAGE, "%s is %s: the output would overwrite it; redirect it to a file or a "
			       "pipe", name[fd], block ? "a block device" : "the device under test");
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
