/* volatile.h — would a power cut empty the file system a path is on?  Not
 * only tmpfs and ramfs themselves: an overlay whose upper directory (where
 * what is written goes) is on one, and a file system on a loop device whose
 * backing file is on one, followed down (overlays over loops over ...)
 * through /proc/self/mountinfo and the loop devices' backing files. */
#ifndef FLASHBENCH_VOLATILE_H
#define FLASHBENCH_VOLATILE_H

#include <stddef.h>

/* 1 with what set ("tmpfs", "tmpfs (/m is an overlay that writes to /u)")
 * when path's data live in memory, else 0. */
int volatile_under(const char *path, char *what, size_t len);

#endif
