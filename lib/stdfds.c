/* stdfds.c — holding closed standard descriptors (see stdfds.h). */
#include "lib/stdfds.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int stdfds_hold(void)
{
	int closed = 0;

	for (int fd = 0; fd <= 2; fd++) {
		int held;
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* the lowest free descriptor: this one, as the ones below are open */
		held = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (held != fd) {
			if (held >= 0)
				close(held);
			return -1;
		}
		closed |= 1 << fd;
	}
	return closed;
}
