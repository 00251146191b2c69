/* stdfds.h — standard input, output and error started closed (`2>&-`):
 * their descriptors are taken at once so that nothing opened later (a
 * device, a journal, an output file, a lock) becomes "standard error" and
 * receives the messages meant for the user. */
#ifndef FLASHBENCH_STDFDS_H
#define FLASHBENCH_STDFDS_H

/* Each of descriptors 0, 1 and 2 that is closed gets /dev/null opened the
 * other way round (standard input write-only, output and error read-only),
 * so a read or write on it still fails with EBADF as on the closed one.
 * Returns the closed ones as a bit mask (1 << fd); -1 when one could not be
 * taken (then nothing may be opened safely). */
int stdfds_hold(void);

#endif
