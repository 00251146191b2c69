/* err.h — how errors travel: a function that fails fills a struct fb_err with
 * one line saying what went wrong and what to do, plus the exit status the
 * CLI should use, and returns -1.  Nothing below the CLI prints.  A failure
 * a caller may word better carries a kind, and where in the line the advice
 * it may replace begins: callers test the kind, never the text. */
#ifndef FLASHBENCH_ERR_H
#define FLASHBENCH_ERR_H

#include <stddef.h>

enum {
	EXIT_DEVICE = 1, /* the device or a file could not be used */
	EXIT_USAGE = 2,  /* the command line is wrong */
};

/* The kinds of failure a caller words itself (fb_err.kind). */
enum fb_kind {
	FB_ANY = 0,        /* any other */
	FB_PAST_END,       /* a request would pass the end of the device (vm_plan): the advice at `at`
			      is general ("use a smaller size, count or offset") */
};

struct fb_err {
	int status;     /* EXIT_DEVICE or EXIT_USAGE */
	char msg[512];  /* one line, no trailing newline */
	int kind;       /* enum fb_kind */
	size_t at;      /* where in msg the advice of the kind begins (" (use ...)") */
};

/* Fill e (which may be NULL; kind FB_ANY) and return -1. */
int fb_fail(struct fb_err *e, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* After fb_fail: mark the failure of that kind and append its advice,
 * " (advice)", recording where it begins.  Returns -1. */
int fb_advise(struct fb_err *e, int kind, const char *advice);

/* How a stop names the signal that asked for it: "SIGINT", "SIGTERM",
 * "SIGHUP", else "a signal". */
const char *fb_signal_name(int sig);

#endif
