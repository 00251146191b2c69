/* statedir.c — the state directory (see statedir.h). */
#include "guard/statedir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void state_dir(char *buf, size_t len)
{
	const char *s = getenv("FLASHBENCH_STATE_DIR"), *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");

	if (s && *s)
		snprintf(buf, len, "%s", s);
	else if (geteuid() == 0)
		snprintf(buf, len, "/var/lib/flashbench");
	else if (x && x[0] == '/')
		snprintf(buf, len, "%s/flashbench", x);
	else if (h && h[0] == '/')
		snprintf(buf, len, "%s/.local/state/flashbench", h);
	else
		snprintf(buf, len, "/var/tmp/flashbench-%u", (unsigned)getuid());
}

static int mkdir_p(const char *dir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0700) && errno != EEXIST)
				return -1;
			*s = '/';
		}
	return mkdir(p, 0700) && errno != EEXIST ? -1 : 0;
}

int state_dir_make(char *buf, size_t len, const char *why, struct fb_err *e)
{
	state_dir(buf, len);
	if (mkdir_p(buf))
		return fb_fail(e, EXIT_DEVICE, "cannot create the state directory %s (for %s): %s; set "
			       "FLASHBENCH_STATE_DIR to a writable directory", buf, why, strerror(errno));
	return 0;
}
