/* err.h — how errors travel: a function that fails fills a struct fb_err with
 * one line saying what went wrong and what to do, plus the exit status the
 * CLI should use, and returns -1.  Nothing below the CLI prints. */
#ifndef FLASHBENCH_ERR_H
#define FLASHBENCH_ERR_H

enum {
	EXIT_DEVICE = 1, /* the device or a file could not be used */
	EXIT_USAGE = 2,  /* the command line is wrong */
};

struct fb_err {
	int status;     /* EXIT_DEVICE or EXIT_USAGE */
	char msg[512];  /* one line, no trailing newline */
};

/* Fill e (which may be NULL) and return -1. */
int fb_fail(struct fb_err *e, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
