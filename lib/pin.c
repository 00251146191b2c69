/* pin.c — names held to what they named when the run began (see pin.h). */
#include "lib/pin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/sysroot.h"

/* a batch pins every card it was given: as many as it takes (each pin is
 * allocated on its own, so what pin_path gave stays valid) */
#define MAX_PINS 1024

struct pinned {
	char *name;
	int fd;             /* O_PATH, or -1 when the pin failed */
	int err;            /* errno of a failed pin */
	struct stat st;
	char at[32];        /* /proc/self/fd/N */
};

static struct pinned *pins[MAX_PINS];
static int npins;

static struct pinned *find(const char *name)
{
	for (int i = 0; name && i < npins; i++)
		if (!strcmp(pins[i]->name, name))
			return pins[i];
	return NULL;
}

int pin(const char *name)
{
	struct pinned *p = find(name);

	if (p)
		return p->fd >= 0 ? 0 : (errno = p->err, -1);
	if (npins == MAX_PINS || !(p = calloc(1, sizeof(*p))) || !(p->name = strdup(name))) {
		if (npins < MAX_PINS)
			free(p);
		return errno = ENOMEM, -1;
	}
	pins[npins++] = p;
	p->err = 0;
	p->fd = open(name, O_PATH | O_CLOEXEC);
	if (p->fd >= 0 && fstat(p->fd, &p->st)) {
		close(p->fd);
		p->fd = -1;
	}
	if (p->fd < 0) {
		p->err = errno ? errno : EIO;
		return errno = p->err, -1;
	}
	sysroot_self_fd(p->fd, p->at, sizeof(p->at));
	return 0;
}

const char *pin_path(const char *name)
{
	struct pinned *p = find(name);

	return p && p->fd >= 0 ? p->at : name;
}

int pin_failed(const char *name)
{
	struct pinned *p = find(name);

	return p ? p->err : 0;
}

int pin_stat(const char *name, struct stat *st)
{
	struct pinned *p = find(name);

	if (!p || p->fd < 0)
		return -1;
	*st = p->st;
	return 0;
}

int pin_same(const char *name, int fd)
{
	struct pinned *p = find(name);
	struct stat st;

	if (!p)
		return 1;
	if (p->fd < 0 || fstat(fd, &st) || (st.st_mode & S_IFMT) != (p->st.st_mode & S_IFMT))
		return 0;
	if (S_ISBLK(st.st_mode))
		return st.st_rdev == p->st.st_rdev;
	return st.st_dev == p->st.st_dev && st.st_ino == p->st.st_ino;
}

void pin_release(void)
{
	for (int i = 0; i < npins; i++) {
		if (pins[i]->fd >= 0)
			close(pins[i]->fd);
		free(pins[i]->name);
		free(pins[i]);
	}
	npins = 0;
}
