/* lease.h — noticing that another process opens the regular file a
 * journaled run writes to.  Nothing in the kernel stops a loop device being
 * attached over the file (and mounted) while the run writes, nor a program
 * opening it; but a write lease (fcntl F_SETLEASE, F_WRLCK) on the run's
 * own descriptor, the file's only open one, is broken by any other open of
 * it: the kernel holds the opener until the lease is given up (at most
 * /proc/sys/fs/lease-break-time seconds) and tells the run with SIGIO.  The
 * run then writes no more, puts back what it saved while the opener still
 * waits, gives the lease up, and fails saying so (save.h).  An open for
 * reading only writes nothing: it is let go on at once, and so is the run,
 * without the lease from then on.  Where no lease
 * can be had (a file open elsewhere already, a file system without leases,
 * a block device), the aliases are checked again instead (claim.h). */
#ifndef FLASHBENCH_LEASE_H
#define FLASHBENCH_LEASE_H

#include <signal.h>
#include <stddef.h>

/* Take the lease on fd (the run's one descriptor of the file, open for
 * writing; path names it in messages): 0, or -1 (errno) when none can be
 * had.  At most one at a time. */
int lease_take(int fd, const char *path);

/* When the lease breaks, set *stop to code (unless it is set already): the
 * run stops at its next request. */
void lease_stops(volatile sig_atomic_t *stop, int code);

/* Is a lease held now (so any other open of the file is noticed)? */
int lease_held(void);

/* Has another process opened the file since the lease was taken (also
 * once it is given up)? */
int lease_broken(void);

/* What happened, for a message: "another process opened FILE while the
 * run wrote to it (...)". */
void lease_story(char *buf, size_t len);

/* Once given up: did the put-back outlast the time the kernel holds the
 * opener (it may have used the file before its data were back)?  Seconds
 * from the break to the end, or 0. */
double lease_overrun(void);

/* Give the lease up: the opener goes on. */
void lease_drop(void);

#endif
