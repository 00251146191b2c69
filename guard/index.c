/* index.c — the index of unfinished journals (index.h). */
#include "guard/index.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guard/statedir.h"
#include "lib/durable.h"

void index_entry_path(uint64_t id, char *buf, size_t len)
{
	char dir[PATH_MAX];

	state_dir(dir, sizeof(dir));
	snprintf(buf, len, "%s/%016llx.entry", dir, (unsigned long long)id);
}

int index_write(uint64_t id, const char *journal, const char *device, const struct record *m, uint32_t records,
		uint64_t bytes, struct fb_err *e)
{
	char dir[PATH_MAX], entry[PATH_MAX + 32], tmp[PATH_MAX + 40], text[PATH_MAX * 4 + 512];
	int fd, n;

	if (state_dir_make(dir, sizeof(dir), "the index of unfinished --preserve journals", e))
		return -1;
	index_entry_path(id, entry, sizeof(entry));
	snprintf(tmp, sizeof(tmp), "%s.tmp", entry);
	n = snprintf(text, sizeof(text), "journal %s\ndevice %s\nblock %d\nnumber %llu\ndisk %llu\nmedium %s\n"
		     "saved %u %llu\n", journal, device, m->is_block, (unsigned long long)m->number,
		     (unsigned long long)m->disk, m->text, records, (unsigned long long)bytes);
	unlink(tmp); /* a stale one, whatever it is: ours is made new */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || durable_write(fd, text, (size_t)n) || fsync(fd) || close(fd) || rename(tmp, entry)) {
		int err = errno;
		if (fd >= 0)
			unlink(tmp);
		return fb_fail(e, EXIT_DEVICE, "--preserve: cannot write the journal index entry %s: %s", entry,
			       strerror(err));
	}
	durable_sync_dir(entry);
	return 0;
}

int index_read(const char *path, struct index_entry *en)
{
	FILE *f = fopen(path, "re");
	char line[PATH_MAX + 32];
	int got = 0;

	if (!f)
		return -1;
	memset(en, 0, sizeof(*en));
	en->m.legacy = 1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "journal ", 8))
			got |= 1, snprintf(en->journal, sizeof(en->journal), "%.*s", PATH_MAX - 1, line + 8);
		else if (sscanf(line, "block %llu", &v) == 1)
			got |= 2, en->m.is_block = v != 0;
		else if (sscanf(line, "number %llu", &v) == 1)
			en->m.number = v;
		else if (sscanf(line, "disk %llu", &v) == 1)
			got |= 4, en->m.disk = v;
		else if (sscanf(line, "saved %u", &en->records) == 1)
			continue;
		else if (!strncmp(line, "medium ", 7) && !medium_parse_identity(line + 7, &en->m.m)) {
			en->m.legacy = 0;
			snprintf(en->m.text, sizeof(en->m.text), "%.*s", JOURNAL_IDENTITY - 1, line + 7);
		}
	}
	fclose(f);
	return got == 7 ? 0 : -1;
}

/* ------------------------------------------------------------ checks */

int index_find(const struct medium *m, struct index_entry *en, char *entry, size_t len)
{
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *dp;
	int found = 0;

	state_dir(dir, sizeof(dir));
	if (!(dp = opendir(dir)))
		return 0;
	while (!found && (de = readdir(dp))) {
		size_t n = strlen(de->d_name);
		if (n < 6 || strcmp(de->d_name + n - 6, ".entry"))
			continue;
		snprintf(entry, len, "%s/%s", dir, de->d_name);
		found = !index_read(entry, en) && record_is(&en->m, m, 0);
	}
	closedir(dp);
	return found;
}

int index_remove(uint64_t id, const char *journal, struct fb_err *e)
{
	char entry[PATH_MAX + 32];

	if (!id)
		return 0;
	index_entry_path(id, entry, sizeof(entry));
	if (unlink(entry) && errno != ENOENT)
		return fb_fail(e, EXIT_DEVICE, "data restored and verified, but the index entry %s could not be "
			       "removed: %s; the journal %s is kept (remove both by hand)", entry, strerror(errno), journal);
	durable_sync_dir(entry);
	return 0;
}
