/* outfile.h — output files (-o, --plot) written without harming anything:
 * a regular file (or a new one) is written to a temporary file in the same
 * directory and renamed over the target only when everything was written;
 * a non-regular target (device node, FIFO, /dev/null) is written in place
 * and never removed; a FIFO nobody reads is refused (not waited on); a
 * block device is never written.  Nothing is removed that this run did not
 * create.  Before a test runs, outfile_check refuses a path that cannot be
 * written (or is a block device).  What an output must never be (the medium
 * under test, an input of the run) is guard/outputs.h's to decide. */
#ifndef FLASHBENCH_OUTFILE_H
#define FLASHBENCH_OUTFILE_H

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/err.h"

struct outfile {
	FILE *f;
	const char *opt;        /* "--out", "--plot" */
	char target[PATH_MAX];  /* where the output lands (symlinks followed) */
	char tmp[PATH_MAX];     /* our temporary file; "" when written in place */
	/* a replaced file: its directory, held open from outfile_open on, and
	 * the names in it; the file that was there (dev, ino), or none (new) */
	int has_dir, dir, replaces;
	char base[NAME_MAX + 1], tmp_base[NAME_MAX + 1];
	dev_t dev;
	ino_t ino;
};

/* opt names the option in messages ("--out").  Usage errors. */
int outfile_check(const char *opt, const char *path, struct fb_err *e);

/* Can a new file be made next to path (its directory exists and is
 * writable)?  For the --preserve journal. */
int outfile_check_dir(const char *opt, const char *path, struct fb_err *e);

/* Refuse an output path that is the input file `input` (the same file,
 * through a hard link or symlink): reading it must not meet our output.
 * Usage errors. */
int outfile_check_input(const char *opt, const char *path, const char *input, struct fb_err *e);

/* Refuse two outputs that land in the same file (a device node such as
 * /dev/null may take both). */
int outfile_check_apart(const char *opt1, const char *path1, const char *opt2, const char *path2,
			struct fb_err *e);

/* A regular file is replaced: its directory is opened once, the temporary
 * file made in it, and at commit the file named there must still be the
 * one that was there at open (or none, for a new file) or nothing is
 * replaced.  A name pinned with lib/pin.h (as the outputs are when they are
 * checked) is the file it named when it was pinned. */
int outfile_open(struct outfile *o, const char *opt, const char *path, struct fb_err *e);
/* A flag a signal handler sets: a FIFO output waiting for its reader gives
 * up (EINTR) once it is set. */
void outfile_watch(const volatile sig_atomic_t *stop);
/* Flush, close and rename into place; on a write error the temporary file
 * is removed and the target left as it was. */
int outfile_commit(struct outfile *o, struct fb_err *e);
/* After a failed commit, what became of the target, for the message: ""
 * (written in place), " (no file was made)" when there is none, else
 * " (it was left as it was)". */
const char *outfile_untouched(const char *target, int in_place);
/* Close without keeping anything new (the target stays as it was). */
void outfile_abort(struct outfile *o);

#endif
