/* index.h — the index of unfinished --preserve journals: one small file per
 * journal in the state directory (statedir.h), naming the journal, the
 * medium it saved data of and the records saved and synced so far, so that
 * a later write run on that medium is refused wherever the journal was
 * written, and --restore can tell a journal cut short from a whole one. */
#ifndef FLASHBENCH_INDEX_H
#define FLASHBENCH_INDEX_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "guard/record.h"
#include "lib/err.h"

struct index_entry {
	char journal[PATH_MAX];
	struct record m;
	unsigned records;       /* saved and synced */
};

/* The entry file of the journal named id. */
void index_entry_path(uint64_t id, char *buf, size_t len);

/* List journal id (at the absolute path journal, written for device, of
 * medium m) with the records and bytes saved and synced so far: written to
 * a temporary name, synced and renamed, so an entry is either whole or
 * absent.  0, or -1 with e filled. */
int index_write(uint64_t id, const char *journal, const char *device, const struct record *m, uint32_t records,
		uint64_t bytes, struct fb_err *e);

/* Read the entry file at path: 0, or -1 when it is none. */
int index_read(const char *path, struct index_entry *en);

/* The first entry that records medium m (loosely): 1 with it in en and its
 * file's path in entry, else 0. */
int index_find(const struct medium *m, struct index_entry *en, char *entry, size_t len);

/* Forget journal id (0: none listed) once its data are back: its entry is
 * removed and the directory synced; -1 with e naming journal when it could
 * not be. */
int index_remove(uint64_t id, const char *journal, struct fb_err *e);

#endif
