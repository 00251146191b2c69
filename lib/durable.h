/* durable.h — what a file that must survive a power cut takes: every byte
 * written (a short write or EINTR retried), and its directory synced so a
 * new or removed name is on disk too. */
#ifndef FLASHBENCH_DURABLE_H
#define FLASHBENCH_DURABLE_H

#include <stddef.h>

/* Write all len bytes of buf to fd: 0, or -1 with errno set. */
int durable_write(int fd, const void *buf, size_t len);

/* Sync the directory that holds path (best effort). */
void durable_sync_dir(const char *path);

#endif
