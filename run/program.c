/* program.c — --program FILE: the program read before the device is opened
 * (syntax, its format, whether it writes) and again with the device's
 * size; it then runs as a test does (test.c). */
#include "run/run.h"

#include "run/mode.h"

#include <string.h>
#include <sys/stat.h>

#include "dev.h"
#include "guard/outputs.h"
#include "prog/progfile.h"
#include "prog/results.h"

/* Parse the program once before the device is opened: syntax errors and a
 * missing --write are refused without touching anything. */
static int check_input(struct cli *c, struct fb_err *e)
{
	const char *formats[64];
	const struct test_kind *k;
	struct prog_vars v;
	struct vm_op *prog;
	const char *format;
	struct stat st;
	size_t n = 0;
	int rc;

	if (!stat(c->program, &st) && !S_ISREG(st.st_mode))
		return fb_fail(e, EXIT_USAGE, "--program=%s is %s: give a program file (it is read before the device "
			       "is opened and again after)", c->program, S_ISDIR(st.st_mode) ? "a directory" :
			       S_ISFIFO(st.st_mode) ? "a FIFO" : "not a regular file");
	program_vars(&c->t, 0, 0, &v);
	for (k = c->kinds; k->name && n + 1 < sizeof(formats) / sizeof(formats[0]); k++)
		formats[n++] = k->name;
	formats[n] = NULL;
	v.formats = formats;
	if (progfile_load(c->program, &v, &prog, &format, e))
		return -1;
	c->program_writes = program_writes(prog);
	for (k = c->kinds; strcmp(k->name, format); k++) /* the parser took only the kinds' names */
		;
	c->kind = k;
	rc = result_shape_check(prog, &c->kind->shape, c->program, format, e);
	vm_free(prog);
	if (rc)
		return -1;
	if (c->plot && !c->kind->plot)
		return fb_fail(e, EXIT_USAGE, "%s: --plot needs a chart, and the '%s' format has none (add a "
			       "'format align' line or similar)", c->program, format);
	if (c->program_writes && !c->write)
		return fb_fail(e, EXIT_USAGE, "%s writes to the device: add --write to allow it (the data in the "
			       "range it announces are lost)", c->program);
	return c->program_writes ? device_check_input(c->device, "--program", c->program, e) : 0;
}

static struct vm_op *build(const struct cli *c, struct dev *d, struct fb_err *e)
{
	struct prog_vars v;
	struct vm_op *prog;
	const char *format;

	program_vars(&c->t, dev_size(d), dev_sector(d), &v);
	return progfile_load(c->program, &v, &prog, &format, e) ? NULL : prog;
}

const struct mode mode_program = {
	.name = "program", .meta = "FILE", .field = offsetof(struct cli, program), .section = SEC_PROGRAM,
	.usage = "=FILE [OPTION]... DEVICE", .brief = "run a test program written as text",
	.help = "run a VM program written as text (man flashbench,\nPROGRAM FILES); programs that write "
		"need --write",
	.takes = OPT_RESULTS | OPT_PROGRESS | OPT_GEOMETRY | OPT_ERASE | OPT_KIND_PARAMS | OPT_WRITE |
		 OPT_JOURNAL,
	.flags = MODE_DEVICE | MODE_WRITES_PROGRAM,
	.run = run_test, .check_input = check_input, .build = build,
};
