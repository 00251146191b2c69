/* place.c — where a journal may go (place.h). */
#include "guard/place.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev.h"
#include "guard/index.h"
#include "guard/journal.h"
#include "guard/record.h"
#include "guard/statedir.h"
#include "guard/volatile.h"
#include "lib/crc32c.h"
#include "lib/pin.h"

/* The device's name as a journal's: its last component, ':' ',' '='
 * made '_' ("sdb", "card.img"); a simulated card's preset ("sd-4m"), or
 * "sim-" and its checksum for a spec of its own (sim-1a2b3c4d). */
static void journal_name(const char *device, char *name, size_t len)
{
	const char *base = strrchr(device, '/');

	if (dev_is_sim(device)) {
		const char *spec = device + 4;
		if (spec[0] && strspn(spec, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(spec))
			snprintf(name, len, "%s", spec);
		else /* a spec of its own: named by its checksum, so the cards of
		      * one batch (one PID) never share a journal */
			snprintf(name, len, "sim-%08x", (unsigned)crc32c(0, spec, strlen(spec)));
		return;
	}
	snprintf(name, len, "%s", base ? base + 1 : device);
	for (size_t i = 0; name[i]; i++)
		if (name[i] == ':' || name[i] == ',' || name[i] == '=')
			name[i] = '_';
}

/* For a simulated card, whose data live in this process, a file of this
 * run's own in $TMPDIR, named by the preset and the PID (flashbench-
 * sd-4m.4711.journal): two runs never meet, the current directory is left
 * alone, and one that a SIGKILL left behind (it holds nothing of a real
 * medium) never blocks a later run that gets the same PID: the next free
 * name is taken (4711-2, 4711-3...). */
static void sim_path(const char *name, char *buf, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	struct stat st;

	tmp = tmp && *tmp ? tmp : "/tmp";
	snprintf(buf, len, "%s/flashbench-%s.%d.journal", tmp, name, (int)getpid());
	for (int k = 2; k < 1000 && !lstat(buf, &st); k++)
		snprintf(buf, len, "%s/flashbench-%s.%d-%d.journal", tmp, name, (int)getpid(), k);
}

void place_default_path(const char *device, char *buf, size_t len)
{
	char name[NAME_MAX];

	journal_name(device, name, sizeof(name));
	if (dev_is_sim(device))
		sim_path(name, buf, len);
	else
		snprintf(buf, len, "flashbench-%s.journal", name);
}

int place_own_path(const char *device, char *buf, size_t len, struct fb_err *e)
{
	char name[NAME_MAX], dir[PATH_MAX];

	journal_name(device, name, sizeof(name));
	if (dev_is_sim(device)) {
		sim_path(name, buf, len);
		return 0;
	}
	if (state_dir_make(dir, sizeof(dir), "the journal", e))
		return -1;
	snprintf(buf, len, "%s/%s.journal", dir, name);
	return 0;
}

const char *place_file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ? "a character device" :
	       S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket" : "not a regular file";
}


/* The header of the journal at path: 0; 1 when it is a flashbench journal
 * this flashbench cannot read (another format version, a damaged header:
 * why says so); or -1 when path is no regular file with a journal's magic
 * (never waits on a FIFO). */
static int header_at(const char *path, struct journal_header *jh, const char **why)
{
	unsigned char h[JOURNAL_HEADER];
	struct stat st;
	ssize_t n;
	int fd;

	path = pin_path(path);
	if (stat(path, &st) || !S_ISREG(st.st_mode) || (fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return -1;
	n = pread(fd, h, sizeof(h), 0);
	close(fd);
	if (n != JOURNAL_HEADER || !journal_header_magic(h))
		return -1;
	return journal_header_parse(h, jh, why) ? 1 : 0;
}

/* What a journal that header_at found holds data of, as refusals name it. */
static const char *saved_from(int kind, const struct journal_header *jh)
{
	return kind ? "a device this flashbench cannot tell: it cannot read that journal" : jh->device;
}

int place_check_absent(const char *path, const char *device, int creating, struct fb_err *e)
{
	char entry[PATH_MAX + 300];
	struct index_entry en;
	struct journal_header jh;
	struct medium m;
	struct stat st, lst, dst;
	int have_m = !medium_of(device, &m) && m.kind != MEDIUM_NONE;

	if (!lstat(path, &lst) && stat(path, &st)) {
		if (creating)
			return fb_fail(e, EXIT_USAGE, "--preserve=%s is a dangling symlink: the journal is never created "
				       "through a link; name another path (or remove the link)", path);
	} else if (!lstat(path, &lst)) {
		const char *why = "";
		int kind = header_at(path, &jh, &why), is_journal = kind == 0;
		if (kind == 1 && creating)
			return fb_fail(e, EXIT_USAGE, "--preserve=%s is a flashbench journal this flashbench cannot read "
				       "(%s); it may hold saved data: name another path", path, why);
		if (is_journal && have_m && record_header_is(&jh, &m, 0))
			return fb_fail(e, EXIT_DEVICE,
				       "%s holds data saved by an unfinished run on %s; put it back first with: "
				       "flashbench --restore %s %s", path, device, path, device);
		if (creating && !stat(pin_path(device), &dst) &&
		    ((st.st_dev == dst.st_dev && st.st_ino == dst.st_ino) ||
		     (S_ISBLK(st.st_mode) && S_ISBLK(dst.st_mode) && st.st_rdev == dst.st_rdev)))
			return fb_fail(e, EXIT_USAGE, "--preserve=%s is the device under test; name a new file on "
				       "another disk", path);
		if (creating && is_journal)
			return fb_fail(e, EXIT_USAGE, "--preserve=%s holds the unfinished journal of another medium "
				       "(%.200s); put it back there first (flashbench --restore %s DEVICE), or name "
				       "another path", path, jh.device, path);
		if (creating)
			return fb_fail(e, EXIT_USAGE, "--preserve=%s exists and is %s, not a flashbench journal: "
				       "--preserve writes a new file; name another path", path,
				       S_ISREG(st.st_mode) ? "a file" : place_file_kind(st.st_mode));
	}
	if (!have_m || !index_find(&m, &en, entry, sizeof(entry)))
		return 0;
	if (access(en.journal, F_OK) == 0)
		return fb_fail(e, EXIT_DEVICE, "%s: an unfinished --preserve run saved data of this medium in %s; "
			       "put it back first with: flashbench --restore %s %s", device, en.journal, en.journal,
			       device);
	return fb_fail(e, EXIT_DEVICE, "%s: an unfinished --preserve run saved data of this medium in %s, which "
		       "is gone; restore it from where it is now (flashbench --restore FILE %s), or, if you are sure "
		       "the data are back, remove %s", device, en.journal, device, entry);
}

int place_holds(const char *path, char *device, size_t len)
{
	struct journal_header jh;
	const char *why;
	int kind = header_at(path, &jh, &why);

	if (kind < 0)
		return 0;
	snprintf(device, len, "%s", saved_from(kind, &jh));
	return 1;
}

int place_journal_for(const char *dir, const char *device, char *path, size_t len, struct fb_err *e)
{
	struct journal_header jh;
	struct medium m;
	struct dirent *de;
	char p[PATH_MAX];
	const char *why;
	int found = 0;
	DIR *dp;

	medium_of(device, &m);
	if (m.kind == MEDIUM_NONE || !(dp = opendir(dir)))
		return 0;
	while ((de = readdir(dp))) {
		size_t n = strlen(de->d_name);
		if (n < 8 || strcmp(de->d_name + n - 8, ".journal") ||
		    (size_t)snprintf(p, sizeof(p), "%s/%s", dir, de->d_name) >= sizeof(p) || header_at(p, &jh, &why) ||
		    !record_header_is(&jh, &m, 1))
			continue;
		if (found++) {
			closedir(dp);
			return fb_fail(e, EXIT_USAGE, "%s holds two journals of %s (%s and %s): put each back by name "
				       "(flashbench --restore=FILE %s)", dir, device, path, p, device);
		}
		snprintf(path, len, "%s", p);
	}
	closedir(dp);
	return found;
}

int place_check_target(const char *device, struct fb_err *e)
{
	struct journal_header jh;
	const char *why;
	int kind = header_at(device, &jh, &why);

	if (kind < 0)
		return 0;
	if (kind)
		return fb_fail(e, EXIT_USAGE, "%s is a flashbench journal this flashbench cannot read (%s): writing to "
			       "it would destroy what it saved; name another device", device, why);
	return fb_fail(e, EXIT_USAGE, "%s is a flashbench journal (data saved from %.200s): writing to it would "
		       "destroy what it saved; put it back first (flashbench --restore %s %.200s) or name another "
		       "device", device, jh.device, device, jh.device);
}

int place_lies_on(const char *path, const struct medium *m, char *how, size_t len)
{
	struct medium under[16];
	size_t n = medium_under(path, under, sizeof(under) / sizeof(under[0]));

	for (size_t i = 0; i < n; i++)
		if (medium_same(&under[i], m)) {
			snprintf(how, len, "%s%.400s", under[i].how[0] ? ": its file system is on " : "", under[i].how);
			return 1;
		}
	return 0;
}

/* Would the journal or the index be lost with it in a power cut? */
static int refuse_volatile(const char *path, const char *dir, struct fb_err *e)
{
	char state[PATH_MAX], fs[1600];

	if (volatile_under(dir, fs, sizeof(fs)))
		return fb_fail(e, EXIT_USAGE, "--preserve: the journal %s would be on %s, which loses it in the power "
			       "cut it is there for; put it on a disk (--preserve=/path/on/disk/FILE), or add "
			       "--preserve-volatile to accept that", path, fs);
	if (state_dir_make(state, sizeof(state), "the index of unfinished --preserve journals", e))
		return -1;
	if (volatile_under(state, fs, sizeof(fs)))
		return fb_fail(e, EXIT_USAGE, "--preserve: the index of unfinished journals (%s) is on %s, which a "
			       "power cut empties, and then a journal cut short could no longer be told from a whole "
			       "one; set FLASHBENCH_STATE_DIR to a directory on a disk, or add --preserve-volatile to "
			       "accept that", state, fs);
	return 0;
}

int place_dir_check(const char *path, const struct medium *m, unsigned flags, char absdir[PATH_MAX],
		    struct fb_err *e)
{
	char tmp[PATH_MAX], dir[PATH_MAX], how[600];
	struct stat st;

	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(dir, sizeof(dir), "%s", dirname(tmp));
	if (stat(dir, &st) || !realpath(dir, absdir))
		return fb_fail(e, EXIT_USAGE, "--preserve: the journal's directory %s: %s", dir, strerror(errno));
	if (m && place_lies_on(dir, m, how, sizeof(how)))
		return fb_fail(e, EXIT_USAGE, "--preserve: the journal %s would be on the device under test%s; "
			       "put it on another disk (--preserve=/other/disk/file.journal)", path, how);
	if (m && !(flags & PLACE_VOLATILE_OK) && refuse_volatile(path, dir, e))
		return -1;
	return 0;
}

int place_check(const char *path, const char *device, unsigned flags, struct fb_err *e)
{
	char absdir[PATH_MAX];
	struct medium m;

	if (place_check_absent(path, device, 1, e))
		return -1;
	medium_of(device, &m);
	return place_dir_check(path, m.kind == MEDIUM_NONE ? NULL : &m, flags, absdir, e);
}
