/* err.c — filling a struct fb_err (see err.h). */
#include "lib/err.h"

#include <stdarg.h>
#include <stdio.h>

int fb_fail(struct fb_err *e, int status, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	e->status = status;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}
