/* pin.h — a name held to the file it named when the run began.  The device
 * under test is named once on the command line but is checked (mounted?
 * swap? a journal? in use through another name?), claimed and opened for
 * reading and for writing at different moments.  Looking the name up again
 * each time lets a name that changes meanwhile (a symlink flipped, `mv` of
 * another file over it) have one file checked and another written.  So the
 * name is opened once (O_PATH: no side effects, even on a tape or a FIFO)
 * and every later stat and open of it goes through that descriptor
 * (/proc/self/fd/N), which always reaches the same inode: the checks and the
 * writes concern one file, whatever the name does. */
#ifndef FLASHBENCH_PIN_H
#define FLASHBENCH_PIN_H

#include <sys/stat.h>

/* Open name (O_PATH, symlinks followed) and remember it: from now on
 * pin_path(name) reaches that file.  0, or -1 with errno (the name is then
 * remembered as failed: pin_path gives it back unchanged and pin_failed
 * says why).  Pinning a name again keeps the first pin. */
int pin(const char *name);

/* The path to stat or open for name: "/proc/self/fd/N" when name is
 * pinned, else name itself. */
const char *pin_path(const char *name);

/* errno of a failed pin of name, 0 when it is pinned or was never tried. */
int pin_failed(const char *name);

/* What the pinned file was when it was pinned: 0, or -1 when name is not
 * pinned. */
int pin_stat(const char *name, struct stat *st);

/* Is the open file fd the file pinned as name (the same device and inode;
 * for a block device, the same device number)?  1 when name is not pinned. */
int pin_same(const char *name, int fd);

/* Forget every pin and close its descriptor. */
void pin_release(void);

#endif
