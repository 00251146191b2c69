/* err.c — filling a struct fb_err (see err.h). */
#include "lib/err.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int fb_fail(struct fb_err *e, int status, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	e->status = status;
	e->kind = FB_ANY;
	e->at = 0;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int fb_advise(struct fb_err *e, int kind, const char *advice)
{
	size_t n;

	if (!e)
		return -1;
	n = strlen(e->msg);
	e->kind = kind;
	e->at = n;
	snprintf(e->msg + n, sizeof(e->msg) - n, " (%s)", advice);
	return -1;
}

const char *fb_signal_name(int sig)
{
	return sig == SIGINT    ? "SIGINT"
	       : sig == SIGTERM ? "SIGTERM"
	       : sig == SIGHUP  ? "SIGHUP"
				: "a signal";
}
