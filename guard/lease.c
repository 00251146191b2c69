/* lease.c — a write lease on the file under test (lease.h). */
#include "guard/lease.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lib/sysroot.h"

static struct {
	volatile sig_atomic_t fd;          /* leased, or -1 */
	char path[512];
	volatile sig_atomic_t broken;
	struct timespec at;                /* when the break came */
	double overrun;                    /* the put-back outlasted the kernel's hold: seconds */
	volatile sig_atomic_t *stop;       /* set to stop_code at a break */
	int stop_code;
} lease = { .fd = -1 };

static void on_break(int sig)
{
	(void)sig;
	if (lease.fd < 0)
		return;
	/* an open for reading only (the kernel would downgrade the lease to a
	 * read lease, which a descriptor open for writing cannot hold): it
	 * writes nothing, so it goes on at once, and the run too, without the
	 * lease (save.c then looks at the aliases before each step instead) */
	if (fcntl(lease.fd, F_GETLEASE) == F_RDLCK) {
		(void)fcntl(lease.fd, F_SETLEASE, F_UNLCK);
		lease.fd = -1;
		return;
	}
	if (!lease.broken)
		clock_gettime(CLOCK_MONOTONIC, &lease.at);
	lease.broken = 1;
	if (lease.stop && !*lease.stop)
		*lease.stop = (sig_atomic_t)lease.stop_code;
}

void lease_stops(volatile sig_atomic_t *stop, int code)
{
	lease.stop_code = code;
	lease.stop = stop;
}

int lease_take(int fd, const char *path)
{
	struct sigaction sa;

	if (lease.fd >= 0)
		return errno = EBUSY, -1;
	/* the break's signal is caught before there is a lease to break: by
	 * default SIGIO would end the run before it put anything back */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_break;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGIO, &sa, NULL) || fcntl(fd, F_SETSIG, SIGIO) || fcntl(fd, F_SETLEASE, F_WRLCK))
		return -1;
	lease.fd = fd;
	lease.broken = 0;
	lease.overrun = 0;
	snprintf(lease.path, sizeof(lease.path), "%s", path);
	return 0;
}

int lease_held(void)
{
	return lease.fd >= 0;
}

int lease_broken(void)
{
	return lease.broken;
}

void lease_story(char *buf, size_t len)
{
	snprintf(buf, len, "another process opened %s during the run (a loop device attached over it, a program "
		 "reading or writing it): the run stopped, and the kernel held that open until the saved data were "
		 "back", lease.path);
}

double lease_overrun(void)
{
	return lease.overrun;
}

void lease_drop(void)
{
	struct timespec now;
	double took;
	int limit = 45;
	char where[64];
	FILE *f;

	if (lease.fd < 0)
		return;
	(void)fcntl(lease.fd, F_SETLEASE, F_UNLCK);
	lease.fd = -1;
	if (!lease.broken)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	took = (double)(now.tv_sec - lease.at.tv_sec) + (double)(now.tv_nsec - lease.at.tv_nsec) / 1e9;
	if ((f = sysroot_fopen(sysroot_path(where, sizeof(where), SYSROOT_PROC, "sys/fs/lease-break-time")))) {
		if (fscanf(f, "%d", &limit) != 1)
			limit = 45;
		fclose(f);
	}
	lease.overrun = took >= limit ? took : 0;
}
