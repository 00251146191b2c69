/* outputs.h — what an output (-o, --plot) must never be: the medium under
 * test under any of its names (a block device is never an output at all,
 * lib/outfile.c refuses it; a file is matched by its identity, so the image
 * under test, the file behind a loop device under test, a hard link or a
 * symlink to either are refused), or an input of the run, standard input
 * included.  lib/outfile.c does the writing. */
#ifndef FLASHBENCH_OUTPUTS_H
#define FLASHBENCH_OUTPUTS_H

#include <signal.h>

#include "lib/err.h"

struct outfile;

/* Can path be written, and is it not the medium of device (NULL or a sim:
 * device: none), nor a file that is storage in use (behind a loop device,
 * swap, open for writing or locked by another program)?  path should be
 * pinned (lib/pin.h) so that what is checked is what outfile_open
 * replaces.  Usage errors. */
int output_check(const char *opt, const char *path, const char *device, struct fb_err *e);

/* Is path the input file `input` ("-": standard input, compared by
 * fstat(0))?  Usage errors. */
int output_check_input(const char *opt, const char *path, const char *input, struct fb_err *e);

/* Before an output replaces target: refuse when target holds exactly what
 * the run read from standard input (it came through a pipe:
 * `cat a.json | flashbench --compare - b.json -o a.json`). */
int output_check_stdin_copy(const char *opt, const char *target, struct fb_err *e);

/* Standard output or error (by their descriptors, not a name) must not be
 * the input file `input` of option opt ("-": standard input), as with
 * `flashbench --analyze res.txt 1<>res.txt`.  Usage errors. */
int output_check_stdio_input(const char *opt, const char *input, struct fb_err *e);

/* Is the device under test (its medium) the input file of option opt? */
int device_check_input(const char *device, const char *opt, const char *input, struct fb_err *e);

/* Standard output and standard error are outputs too (checked by their
 * descriptors): neither may be a block device, the medium of device (NULL
 * or sim: none), a flashbench journal or a file in the state directory.  When standard
 * error is, it is pointed at /dev/null first (the refusal cannot be said
 * there).  Usage errors. */
int output_check_stdio(const char *device, struct fb_err *e);

/* Every file a run writes can be written, and none is the medium of
 * device (NULL: none): -o and --plot (NULL: not given), and the directory
 * of the journal it keeps (NULL: none), apart from both. */
int output_check_run(const char *device, const char *out, const char *plot, const char *journal,
		     struct fb_err *e);

/* Put output o in place (output_check_stdin_copy first; lib/outfile.h's
 * outfile_commit).  When it fails while *stop holds a signal (a FIFO's
 * reader never came, a write was interrupted), the error says the signal
 * stopped it and what became of the target. */
int output_commit(struct outfile *o, const volatile sig_atomic_t *stop, struct fb_err *e);

#endif
