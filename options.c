/* options.c — the option table, and everything made from it (see
 * options.h). */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "dev/sim.h"
#include "lib/units.h"
#include "lib/version.h"

enum arg_kind {
	ARG_FLAG,          /* no value: the int field counts how often it was given */
	ARG_SIZE,          /* a size with suffixes: uint64_t field */
	ARG_TIME,          /* a duration (90s, 2m, 1h): uint64_t field, ns */
	ARG_BUDGET,        /* a duration, a size (256M, 1GiB) or both: ns in field, bytes in flag */
	ARG_COUNT,         /* a whole number in [min, max]: unsigned field */
	ARG_FILE,          /* a file name: const char * field */
	ARG_OPT_FILE,      /* an optional file name: the flag field is set, the name in field */
	ARG_MODE,          /* chooses the run: a mode row's option (made from the row); a file name in
			    * field, if it has one */
	ARG_MODE_OPT,      /* the same with an optional file name */
	ARG_HELP, ARG_VERSION,
};

struct cli_option {
	const char *name;
	char letter;
	enum arg_kind arg;
	const char *meta;         /* "SIZE", "N", "FILE" */
	uint64_t min, max;        /* ARG_COUNT; ARG_SIZE: min only (1: not zero) */
	uint64_t step;            /* ARG_SIZE: a multiple of this (0: any) */
	const char *step_why;     /* ARG_SIZE with min or step: why, said when refused */
	size_t field;             /* offsetof(struct cli, ...) */
	size_t flag;              /* ARG_OPT_FILE: offsetof the int set when given; ARG_BUDGET: the bytes */
	unsigned group;           /* OPT_* (run/mode.h): the modes whose rows take it */
	const char *kind;         /* also applies to this test kind; --help lists it below the kind */
	enum help_section section;
	/* moves a test's last byte further: the errors that name such options
	 * list them in this order (1 first; 0: does not) */
	int reach;
	/* the value "{}" in help stands for when the field's own default
	 * (test_defaults) is "not given" (0: the field's default) */
	uint64_t help_default;
	const char *help;         /* '\n' continues on the next line; "{}": the default */
	const char *brief;        /* one line: listed in the short --help (modes, common options) */
	const struct mode *mode;  /* ARG_MODE, ARG_MODE_OPT: the row it was made from */
};

#define F(x) offsetof(struct cli, x)

/* The options that choose no mode (each mode's own is made from its row,
 * options_make), in the order --help -v lists them: by section. */
static const struct cli_option common[] = {
	{ .name = "write", .arg = ARG_FLAG, .field = F(write), .group = OPT_WRITE,
	  .section = SEC_AUTO,
	  .brief = "let --auto or --program write (DESTROYS what it says)",
	  .help = "let --auto or --program write (DESTROYS data in the\nranges they announce)" },
	{ .name = "budget", .arg = ARG_BUDGET, .meta = "TIME,SIZE", .field = F(budget_ns), .flag = F(budget_bytes),
	  .group = OPT_BUDGET, .section = SEC_AUTO,
	  .help = "with --auto --write: bound the device time (90s, 2m,\n1h) and the bytes written (256M, 1GiB); "
		  "default\n10m and 1% of the medium (at most 256MiB) plus what\nits erase blocks need; tests cut "
		  "short say so" },
	{ .name = "max-cache", .arg = ARG_SIZE, .meta = "SIZE", .min = 1 << 20, .step = 1 << 20,
	  .step_why = "the flush rewrites 1MiB at a time", .field = F(max_cache), .group = OPT_MAX_CACHE,
	  .section = SEC_AUTO,
	  .help = "with --capacity: defeat a cache of the latest writes\nup to SIZE (default 256MiB; the flush writes "
		  "that\nmuch; whole MiB)" },
	{ .name = "claim", .arg = ARG_FILE, .meta = "MARKS", .field = F(claim), .group = OPT_MARKS,
	  .section = SEC_AUTO,
	  .help = "with --rating: the marks printed on the label\n(C10,U3,V30,A2), checked beside the SD Status's" },
	{ .name = "sustained", .arg = ARG_SIZE, .meta = "SIZE", .min = 64 << 20, .step = 4 << 20,
	  .step_why = "a recording is at least 64MiB, in whole 4MiB units", .field = F(sustained),
	  .group = OPT_MARKS,
	  .section = SEC_AUTO,
	  .help = "with --rating: the long recording's length (default\n1GiB: past a cache or pSLC up to about "
		  "that; whole\n4MiB)" },
	{ .name = "all-removable", .arg = ARG_FLAG, .field = F(all_removable), .group = OPT_BATCH,
	  .section = SEC_AUTO,
	  .help = "in place of DEVICE...: every removable disk attached\n(whole disks; one in use is refused by name)" },
	{ .name = "side-by-side", .arg = ARG_FLAG, .field = F(side_by_side), .group = OPT_BATCH,
	  .section = SEC_AUTO,
	  .help = "with several devices: no two share a link; time them\nall at once (no turns, no check)" },
	{ .name = "interval-order", .arg = ARG_COUNT, .meta = "N", .max = 30, .field = F(t.interval_order),
	  .group = OPT_KIND_PARAMS, .kind = "interval", .section = SEC_READ, .reach = 8,
	  .help = "largest stride is blocksize * 2^N (default {})" },
	{ .name = "scatter-order", .arg = ARG_COUNT, .meta = "N", .max = 24, .field = F(t.scatter_order),
	  .group = OPT_KIND_PARAMS, .kind = "scatter", .section = SEC_READ, .reach = 6,
	  .help = "scatter across 2^N blocks (default {})" },
	{ .name = "scatter-span", .arg = ARG_COUNT, .meta = "N", .min = 1, .max = 1u << 20, .field = F(t.scatter_span),
	  .group = OPT_KIND_PARAMS, .kind = "scatter", .section = SEC_READ, .reach = 7,
	  .help = "each read spans N blocks (default {})" },
	{ .name = "open-au-nr", .arg = ARG_COUNT, .meta = "N", .min = 1, .max = 4096, .field = F(t.open_au_nr),
	  .group = OPT_KIND_PARAMS, .kind = "open-au", .section = SEC_WRITE, .reach = 2,
	  .help = "erase blocks written at once (default {})" },
	{ .name = "random", .letter = 'r', .arg = ARG_FLAG, .field = F(t.random), .kind = "open-au",
	  .section = SEC_WRITE,
	  .help = "pseudo-random chunk order inside each erase block" },
	{ .name = "fat-nr", .arg = ARG_COUNT, .meta = "N", .min = 1, .max = 4096, .field = F(t.fat_nr),
	  .group = OPT_KIND_PARAMS, .kind = "find-fat", .section = SEC_WRITE, .reach = 1,
	  .help = "erase blocks to look at (default {})" },
	{ .name = "preserve", .arg = ARG_OPT_FILE, .meta = "FILE", .field = F(journal), .flag = F(preserve),
	  .group = OPT_JOURNAL, .section = SEC_KEEP,
	  .brief = "save what a write test overwrites, put it back",
	  .help = "save every range before it is overwritten to a journal\n(default ./flashbench-DEVICE.journal) and "
		  "put it back\nat the end, also after Ctrl-C" },
	{ .name = "device-changed", .arg = ARG_FLAG, .field = F(device_changed),
	  .group = OPT_DEVICE_CHANGED,
	  .section = SEC_KEEP,
	  .help = "with --restore: accept a device that does not look\nlike the one the journal was written for (warns)" },
	{ .name = "preserve-volatile", .arg = ARG_FLAG, .field = F(preserve_volatile),
	  .group = OPT_JOURNAL, .section = SEC_KEEP,
	  .help = "with --preserve, --capacity or --auto --write: accept\na journal (or state directory) on tmpfs/ramfs,\n"
		  "which a power cut loses" },
	/* the classic tool's geometry: accepted by every test, as it was */
	{ .name = "blocksize", .letter = 'b', .arg = ARG_SIZE, .meta = "SIZE", .min = 1, .field = F(t.blocksize),
	  .group = OPT_GEOMETRY, .section = SEC_PARAM, .reach = 5,
	  .help = "smallest request (default {})" },
	{ .name = "erasesize", .letter = 'e', .arg = ARG_SIZE, .meta = "SIZE", .min = 1, .field = F(t.erasesize),
	  .group = OPT_ERASE, .section = SEC_PARAM, .reach = 3,
	  .help = "erase block size (default {}; 12M, 1.5M work)" },
	{ .name = "offset", .arg = ARG_SIZE, .meta = "SIZE", .field = F(t.offset), .group = OPT_GEOMETRY,
	  .section = SEC_PARAM, .reach = 4, .help_default = OPEN_AU_FROM,
	  .help = "where to start (open-au default: the first erase\nboundary at or above {})" },
	{ .name = "count", .letter = 'c', .arg = ARG_COUNT, .meta = "N", .min = 1, .max = 1000000, .field = F(t.count),
	  .group = OPT_GEOMETRY, .section = SEC_PARAM,
	  .help = "tries per measurement (default {}); align averages\nthe fastest quarter, scatter keeps the fastest" },
	{ .name = "out", .letter = 'o', .arg = ARG_FILE, .meta = "FILE", .field = F(out),
	  .group = OPT_RESULTS,
	  .section = SEC_PARAM,
	  .brief = "write the results to FILE",
	  .help = "write results to FILE instead of standard output" },
	{ .name = "json", .arg = ARG_FLAG, .field = F(json), .group = OPT_RESULTS, .section = SEC_PARAM,
	  .brief = "results as JSON",
	  .help = "results as JSON (every test, and --auto)" },
	{ .name = "plot", .arg = ARG_FILE, .meta = "FILE.svg", .field = F(plot), .group = OPT_RESULTS,
	  .section = SEC_PARAM,
	  .brief = "draw the results as an SVG chart",
	  .help = "draw the results as an SVG chart" },
	{ .name = "summary", .arg = ARG_FLAG, .field = F(summary), .group = OPT_SUMMARY,
	  .section = SEC_PARAM,
	  .brief = "--auto, --capacity or --rating as one survey line",
	  .help = "with --auto, --capacity or --rating: one row of a\nsurvey table, the same columns in every mode" },
	{ .name = "verbose", .letter = 'v', .arg = ARG_FLAG, .field = F(verbose), .group = OPT_GEOMETRY | OPT_JOURNAL,
	  .section = SEC_PARAM,
	  .help = "add min/avg/max request times to the rows of -O, -f\nand -R (-i always has them; -a and -s are unchanged);\n"
		  "with --auto, --capacity and --rating: the detail of\nwhat they write, before they start" },
	{ .name = "progress", .arg = ARG_FLAG, .field = F(progress), .group = OPT_PROGRESS,
	  .section = SEC_PARAM,
	  .brief = "show progress on standard error",
	  .help = "show progress on stderr from the first request,\nalso when it is not a terminal (one line each)" },
	{ .name = "help", .letter = 'h', .arg = ARG_HELP, .section = SEC_PARAM,
	  .brief = "this help; MODE --help: what goes with MODE",
	  .help = "show the help (with -v: every option; after a mode:\nwhat goes with it)" },
	{ .name = "version", .arg = ARG_VERSION, .section = SEC_PARAM, .brief = "show the version",
	  .help = "show the version" },
};

#define NCOMMON (sizeof(common) / sizeof(common[0]))
#define NOPTIONS (NCOMMON + NMODES) /* at most */
#define KIND_VAL 0x1000    /* getopt value of test kind k: KIND_VAL + k */
#define OPT_VAL 0x100      /* getopt value of option i without a letter: OPT_VAL + i */

/* Every option: the common ones, and each mode's own in its place. */
static struct cli_option options[NOPTIONS];
static size_t noptions;

/* Where mode m's option goes: just after the option its row names, else
 * first in its section (the common options are in section order). */
static size_t mode_place(const struct mode *m)
{
	size_t i;

	for (i = 0; m->help_after && i < noptions; i++)
		if (!strcmp(options[i].name, m->help_after))
			return i + 1;
	for (i = 0; i < noptions && options[i].section < m->section; i++)
		;
	return i;
}

/* The option table: the common options, and one made from each mode's row
 * (but the test kinds', whose options are the kinds'). */
static void options_make(void)
{
	if (noptions)
		return;
	memcpy(options, common, sizeof(common));
	noptions = NCOMMON;
	for (const struct mode *const *m = modes; *m; m++) {
		size_t at;
		if ((*m)->flags & MODE_KIND)
			continue;
		at = mode_place(*m);
		memmove(&options[at + 1], &options[at], (noptions - at) * sizeof(options[0]));
		options[at] = (struct cli_option){ .name = (*m)->name, .letter = (*m)->letter,
						   .arg = (*m)->flags & MODE_ARG_OPTIONAL ? ARG_MODE_OPT : ARG_MODE,
						   .meta = (*m)->meta, .field = (*m)->field,
						   .section = (*m)->section, .help = (*m)->help,
						   .brief = (*m)->brief, .mode = *m };
		noptions++;
	}
}

static const char *const section_title[SEC_END] = {
	[SEC_AUTO] = "Automatic characterization:",
	[SEC_SAVED] = "Reading saved results (no device needed):",
	[SEC_PROGRAM] = "Your own test:",
	[SEC_READ] = "Read-only tests (safe on a mounted card):",
	[SEC_WRITE] = ("Write tests (DESTROY the data in the range they announce; refused on a\n"
		       "mounted or otherwise used device):"),
	[SEC_KEEP] = "Keeping the data (write tests):",
	[SEC_PARAM] = "Parameters (sizes take suffixes: 512, 24k, 1.5M, 12MiB, 2G):",
};

/* ------------------------------------------------------------ help */

static void help_line(FILE *f, char letter, const char *name, const char *meta, int optional, const char *help)
{
	char left[64];

	snprintf(left, sizeof(left), "--%s%s%s%s%s", name, meta ? (optional ? "[=" : "=") : "", meta ? meta : "",
		 meta && optional ? "]" : "", "");
	if (letter)
		fprintf(f, "  -%c, %-20s", letter, left);
	else
		fprintf(f, "      %-20s", left);
	if (strlen(left) >= 20)
		fprintf(f, "\n%26s", "");
	for (const char *p = help; *p;) {
		size_t n = strcspn(p, "\n");
		fprintf(f, "%.*s\n", (int)n, p);
		p += n;
		if (*p == '\n' && *++p)
			fprintf(f, "%26s", "");
	}
}

/* The option's default as --help shows it: the field's value after
 * test_defaults (the one place the defaults are set), or help_default. */
static void default_text(const struct cli_option *o, char *buf, size_t len)
{
	struct cli d;
	const char *base = (const char *)&d;

	memset(&d, 0, sizeof(d));
	test_defaults(&d.t);
	if (o->arg == ARG_SIZE) {
		format_size(buf, len, o->help_default ? o->help_default : *(const uint64_t *)(base + o->field));
	} else {
		snprintf(buf, len, "%u", *(const unsigned *)(base + o->field));
	}
}

static void help_option(FILE *f, const struct cli_option *o)
{
	char text[512], value[32];
	const char *at = strstr(o->help, "{}");

	if (at) {
		default_text(o, value, sizeof(value));
		snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - o->help), o->help, value, at + 2);
	}
	help_line(f, o->letter, o->name, o->meta, o->arg == ARG_OPT_FILE || o->arg == ARG_MODE_OPT,
		  at ? text : o->help);
}

/* A line of at most 80 columns: text from column `at`, wrapped at spaces
 * onto lines that start at column `indent`. */
static void wrapped(FILE *f, const char *text, int at, int indent)
{
	const char *p = text;

	while (*p) {
		int room = 80 - at, n = (int)strlen(p);
		if (n > room) {
			for (n = room; n > 0 && p[n] != ' '; n--)
				;
			if (!n)
				n = (int)strcspn(p, " ");
		}
		fprintf(f, "%.*s\n", n, p);
		p += n;
		while (*p == ' ')
			p++;
		if (*p)
			fprintf(f, "%*s", indent, "");
		at = indent;
	}
}

static void presets(FILE *f)
{
	fputs("\nSimulated devices:\n", f);
	for (unsigned i = 0; sim_preset_name(i); i++) {
		int n = fprintf(f, "  sim:%-8s ", sim_preset_name(i));
		wrapped(f, sim_preset_description(sim_preset_name(i)), n, 15);
	}
	fputs("  and --rating's zoo of cards that keep their speed marks or lie, sim:rating-*\n"
	      "  (man flashbench, SIMULATED DEVICES)\n", f);
}

static const char exit_status[] =
	"Exit status: 0 success, 1 device or I/O error (a write test whose range cannot be announced on standard "
	"error writes nothing and exits 1), 2 usage error; stopped by a signal: 130 SIGINT, 143 SIGTERM, 129 "
	"SIGHUP, 141 when the reader of the output went away.";

/* --help -v: every option, by section, and the presets */
void cli_usage(FILE *f)
{
	options_make();
	fputs("Usage: flashbench MODE [OPTION]... DEVICE\n"
	      "Find how a flash medium (SD card, USB stick, CF, eMMC, SSD) works inside.\n"
	      "DEVICE is a block device, an existing regular file, or a simulated card\n"
	      "sim:PRESET[,KEY=VALUE...] or sim:KEY=VALUE,... (presets below;\nkeys in man flashbench).\n", f);
	for (int s = 0; s < SEC_END; s++) {
		fprintf(f, "\n%s\n", section_title[s]);
		for (const struct test_kind *k = test_kinds; (s == SEC_READ || s == SEC_WRITE) && k->name; k++) {
			if (!k->letter || k->writes != (s == SEC_WRITE))
				continue;
			help_line(f, k->letter, k->name, NULL, 0, k->help);
			for (size_t i = 0; i < noptions; i++)
				if (options[i].kind && !strcmp(options[i].kind, k->name))
					help_option(f, &options[i]);
		}
		for (size_t i = 0; i < noptions; i++)
			if (options[i].section == (enum help_section)s && !options[i].kind)
				help_option(f, &options[i]);
	}
	fputc('\n', f);
	wrapped(f, exit_status, 0, 0);
	presets(f);
}

static int is_mode(const struct cli_option *o)
{
	return o->mode != NULL;
}

/* The option that chooses mode m (NULL for the test kinds' row). */
static const struct cli_option *mode_option(const struct mode *m)
{
	for (size_t i = 0; i < noptions; i++)
		if (options[i].mode == m)
			return &options[i];
	return NULL;
}

/* --help: the modes and the common options, a line each */
static void usage_short(FILE *f)
{
	fputs("Usage: flashbench MODE [OPTION]... DEVICE\n"
	      "Find how a flash medium (SD card, USB stick, CF, eMMC, SSD) works inside.\n"
	      "DEVICE: a block device, an existing regular file or a simulated card,\n"
	      "sim:PRESET[,KEY=VALUE...] (the presets: flashbench --help -v).\n\nModes:\n", f);
	for (const struct mode *const *r = modes; *r; r++) {
		const struct mode *m = *r;
		const struct cli_option *o = mode_option(m);
		for (const struct test_kind *k = test_kinds; (m->flags & MODE_KIND) && k->name; k++)
			if (k->letter)
				help_line(f, k->letter, k->name, NULL, 0, k->brief);
		if (o)
			help_line(f, o->letter, o->name, o->meta, o->arg == ARG_MODE_OPT, o->brief);
	}
	fputs("\nCommon options:\n", f);
	for (size_t i = 0; i < noptions; i++)
		if (options[i].brief && !is_mode(&options[i]))
			help_line(f, options[i].letter, options[i].name, options[i].meta, options[i].arg == ARG_OPT_FILE,
				  options[i].brief);
	fputs("\nWhat goes with a mode: flashbench MODE --help (flashbench -C --help,\n"
	      "flashbench -O --help); every option and preset: flashbench --help -v.\n"
	      "Sizes take suffixes (512, 24k, 1.5M, 12MiB, 2G).  Exit status: 0 success,\n"
	      "1 device or I/O error, 2 usage error, 128+N when stopped by signal N.\n"
	      "The manual: man flashbench.\n", f);
}

static int applies(const struct cli *c, const struct cli_option *o);

/* MODE --help: the mode, and the options that go with it */
static void usage_mode(FILE *f, const struct cli *c)
{
	const struct cli_option *o = mode_option(c->mode);
	const struct test_kind *k = c->mode->flags & MODE_KIND ? c->kind : NULL;
	int n = 0;

	fprintf(f, "Usage: flashbench %s%s\n", c->mode_option, c->mode->usage);
	if (k)
		help_line(f, k->letter, k->name, NULL, 0, k->help);
	else
		help_option(f, o);
	for (size_t i = 0; i < noptions; i++) {
		const struct cli_option *p = &options[i];
		if (is_mode(p) || p->arg == ARG_HELP || p->arg == ARG_VERSION || !applies(c, p))
			continue;
		if (!n++)
			fprintf(f, "\nOptions for %s:\n", c->mode_option);
		help_option(f, p);
	}
	fputs("\nSizes take suffixes (512, 24k, 1.5M, 12MiB, 2G).  The manual: man flashbench.\n", f);
}

/* --budget=TIME, SIZE or both, comma-separated in any order: a part that
 * reads as a time (90s, 2m, 1h, a plain number of seconds) is the time,
 * else a size (256M, 1GiB; "2m" is two minutes). */
#define BUDGET_TIME_MAX (1000ULL * 3600 * 1000000000) /* 1000h: whole ns stay exact in a double */

/* Does this part of --budget read as a time?  Digits (and a point) with no
 * unit, or a time unit: then it is a time or an error, never a size. */
static int budget_part_is_time(const char *part)
{
	static const char *const units[] = { "", "ms", "s", "min", "m", "h" };
	const char *p = part + strspn(part, "0123456789.");

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(p, units[i]))
			return 1;
	return 0;
}

static int set_budget(const struct cli_option *o, char *base, const char *val, struct fb_err *e)
{
	char part[64];
	const char *p = val, *why;
	int have_t = 0, have_s = 0;

	for (;;) {
		size_t n = strcspn(p, ",");
		uint64_t v;
		if (n >= sizeof(part))
			return fb_fail(e, EXIT_USAGE, "--%s=%s: too long", o->name, val);
		memcpy(part, p, n);
		part[n] = 0;
		if (!(part[0] >= '0' && part[0] <= '9'))
			return fb_fail(e, EXIT_USAGE, "--%s=%s: '%s' must start with a digit: a time (90s, 2m, 1h) or a "
				       "size (256M, 1GiB), without sign or spaces", o->name, val, part);
		if (budget_part_is_time(part)) {
			int rc = parse_time(part, &v, &why);
			if (rc == PARSE_ZERO)
				return fb_fail(e, EXIT_USAGE, "--%s=%s: must not be zero", o->name, val);
			if (rc && rc != PARSE_TOO_LONG)
				return fb_fail(e, EXIT_USAGE, "--%s=%s: '%s': %s", o->name, val, part, why);
			if (rc == PARSE_TOO_LONG || v > BUDGET_TIME_MAX)
				return fb_fail(e, EXIT_USAGE, "--%s=%s: '%s': too long (at most 1000h)", o->name, val, part);
			if (have_t++)
				return fb_fail(e, EXIT_USAGE, "--%s=%s: two times; give one time and one size (2m,256M)",
					       o->name, val);
			*(uint64_t *)(base + o->field) = v;
		} else if (!parse_size(part, &v, &why) && !v) {
			return fb_fail(e, EXIT_USAGE, "--%s=%s: must not be zero", o->name, val);
		} else if (!parse_size(part, &v, &why)) {
			if (have_s++)
				return fb_fail(e, EXIT_USAGE, "--%s=%s: two sizes; give one time and one size (2m,256M)",
					       o->name, val);
			*(uint64_t *)(base + o->flag) = v;
		} else {
			return fb_fail(e, EXIT_USAGE, "--%s=%s: '%s' is neither a time (90s, 2m, 1h) nor a size (256M, "
				       "1GiB)", o->name, val, part);
		}
		if (!p[n])
			break;
		p += n + 1;
	}
	return 0;
}

/* ------------------------------------------------------------ parsing */

static int set_value(struct cli *c, const struct cli_option *o, const char *val, struct fb_err *e)
{
	char *base = (char *)c, min[32];
	const char *why;
	uint64_t v;

	switch (o->arg) {
	case ARG_FLAG:
		(*(int *)(base + o->field))++;
		return 0;
	case ARG_FILE:
		*(const char **)(base + o->field) = val;
		return 0;
	case ARG_OPT_FILE:
		*(int *)(base + o->flag) = 1;
		*(const char **)(base + o->field) = val;
		return 0;
	case ARG_SIZE:
		if (parse_size(val, &v, &why))
			return fb_fail(e, EXIT_USAGE, "--%s=%s: %s", o->name, val, why);
		if (v < o->min && (!v || o->min == 1))
			return fb_fail(e, EXIT_USAGE, "--%s=%s: must not be zero", o->name, val);
		if (v < o->min)
			return fb_fail(e, EXIT_USAGE, "--%s=%s: less than %s, the smallest it takes (%s)", o->name, val,
				       format_size(min, sizeof(min), o->min), o->step_why);
		if (o->step && v % o->step)
			return fb_fail(e, EXIT_USAGE, "--%s=%s: not a multiple of %s (%s)", o->name, val,
				       format_size(min, sizeof(min), o->step), o->step_why);
		*(uint64_t *)(base + o->field) = v;
		return 0;
	case ARG_TIME:
		if (parse_time(val, &v, &why))
			return fb_fail(e, EXIT_USAGE, "--%s=%s: %s", o->name, val, why);
		*(uint64_t *)(base + o->field) = v;
		return 0;
	case ARG_BUDGET:
		return set_budget(o, base, val, e);
	case ARG_COUNT:
		switch (parse_count(val, &v, &why)) {
		case PARSE_OK:
			break;
		case PARSE_TOO_LARGE:
			v = UINT64_MAX; /* beyond 64 bits: beyond the range too */
			break;
		default:
			return fb_fail(e, EXIT_USAGE, "--%s=%s: %s", o->name, val, why);
		}
		if (v < o->min || v > o->max)
			return fb_fail(e, EXIT_USAGE, "--%s=%s: %smust be from %llu to %llu", o->name, val,
				       v > o->max ? "too large: " : "", (unsigned long long)o->min,
				       (unsigned long long)o->max);
		*(unsigned *)(base + o->field) = (unsigned)v;
		return 0;
	default:
		return 0;
	}
}

/* The run an option chose: a test kind (k) or a mode; name is the option's
 * long name. */
static int set_mode(struct cli *c, const struct mode *mode, const struct test_kind *k, const char *name,
		    struct fb_err *e)
{
	char opt[sizeof(c->mode_option)];

	snprintf(opt, sizeof(opt), "--%s", name);
	if (c->mode && strcmp(c->mode_option, opt))
		return fb_fail(e, EXIT_USAGE, "choose one test: %s and %s were both given", c->mode_option, opt);
	c->mode = mode;
	c->kind = k;
	memcpy(c->mode_option, opt, sizeof(opt));
	return 0;
}

/* Does option o go with mode m (with test kind k of a MODE_KIND row)?  A
 * mode's own option goes with it alone; another with the modes whose rows
 * take its group, and a test kind's option with that kind too. */
static int goes_with(const struct cli_option *o, const struct mode *m, const struct test_kind *k)
{
	unsigned takes = m->takes | (k && k->writes ? m->takes_writing : 0);

	if (o->mode)
		return o->mode == m;
	return (o->group & takes) || (k && o->kind && !strcmp(o->kind, k->name));
}

/* The runs an option applies to, in the modes' order, as "--open-au,
 * --program" */
static void applies_list(const struct cli_option *o, char *buf, size_t len)
{
	size_t n = 0;
	char opt[64];

	for (const struct mode *const *m = modes; *m; m++) {
		for (const struct test_kind *k = test_kinds; ((*m)->flags & MODE_KIND) && k->name; k++)
			if (k->letter && goes_with(o, *m, k)) {
				snprintf(opt, sizeof(opt), "--%s", k->name);
				n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? ", " : "", opt);
			}
		if (!((*m)->flags & MODE_KIND) && goes_with(o, *m, NULL)) {
			snprintf(opt, sizeof(opt), "--%s", (*m)->name);
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? ", " : "", opt);
		}
	}
}

static int applies(const struct cli *c, const struct cli_option *o)
{
	if (!c->mode)
		return 1;
	return goes_with(o, c->mode, c->mode->flags & MODE_KIND ? c->kind : NULL);
}

/* The row of the test kinds. */
static const struct mode *kinds_mode(void)
{
	for (const struct mode *const *m = modes; *m; m++)
		if ((*m)->flags & MODE_KIND)
			return *m;
	return NULL;
}

/* The --help entry of the table. */
static const struct cli_option *help_option_entry(void)
{
	for (size_t i = 0; i < noptions; i++)
		if (options[i].arg == ARG_HELP)
			return &options[i];
	return NULL;
}

/* The test kind and option of a getopt value (one of them NULL). */
static void lookup(int val, const struct test_kind **k, const struct cli_option **o)
{
	*k = NULL;
	*o = NULL;
	if (val >= KIND_VAL) {
		*k = &test_kinds[val - KIND_VAL];
		return;
	}
	if (val >= OPT_VAL && val < OPT_VAL + (int)noptions) {
		*o = &options[val - OPT_VAL];
		return;
	}
	for (const struct test_kind *t = test_kinds; t->name; t++)
		if (t->letter && t->letter == val)
			*k = t;
	for (size_t i = 0; i < noptions; i++)
		if (options[i].letter && options[i].letter == val)
			*o = &options[i];
}

static int has_arg(enum arg_kind a)
{
	return a == ARG_OPT_FILE || a == ARG_MODE_OPT ? optional_argument
	       : a == ARG_SIZE || a == ARG_TIME || a == ARG_BUDGET || a == ARG_COUNT || a == ARG_FILE || a == ARG_MODE ? required_argument : no_argument;
}

/* getopt's tables, from ours */
static void getopt_tables(struct option *lo, char *shorts)
{
	size_t n = 0, s = 0;

	shorts[s++] = ':';
	for (size_t i = 0; i < noptions; i++) {
		const struct cli_option *o = &options[i];
		int arg = o->arg == ARG_MODE && !o->field ? no_argument : has_arg(o->arg);
		lo[n++] = (struct option){ o->name, arg, NULL, o->letter ? o->letter : OPT_VAL + (int)i };
		if (o->letter) {
			shorts[s++] = o->letter;
			if (arg == required_argument)
				shorts[s++] = ':';
		}
	}
	for (const struct test_kind *k = test_kinds; k->name; k++) {
		int val = KIND_VAL + (int)(k - test_kinds);
		if (!k->letter)
			continue;
		lo[n++] = (struct option){ k->name, no_argument, NULL, val };
		if (k->alias)
			lo[n++] = (struct option){ k->alias, no_argument, NULL, val };
		shorts[s++] = k->letter;
	}
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	shorts[s] = '\0';
}

/* The edits (a letter added, dropped, changed, or two swapped) that make
 * a into b, up to 9. */
static unsigned edits(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	unsigned d[24][24];

	if (n > 22 || m > 22)
		return 9;
	for (size_t i = 0; i <= n; i++)
		for (size_t j = 0; j <= m; j++) {
			unsigned v = !i ? (unsigned)j : !j ? (unsigned)i : d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (i && j) {
				if (d[i - 1][j] + 1 < v)
					v = d[i - 1][j] + 1;
				if (d[i][j - 1] + 1 < v)
					v = d[i][j - 1] + 1;
				if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
					v = d[i - 2][j - 2] + 1;
			}
			d[i][j] = v;
		}
	return d[n][m] < 9 ? d[n][m] : 9;
}

/* The option (or test kind) a mistyped long option most likely meant: at
 * most 2 edits away, and fewer than a third of its letters ("" when none). */
static const char *meant(const char *arg)
{
	char word[32];
	const char *best = "";
	unsigned most = 3;

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
	for (size_t i = 0; i < noptions + 64; i++) {
		const struct test_kind *k = i >= noptions ? &test_kinds[i - noptions] : NULL;
		const char *name = k ? k->name : options[i].name;
		unsigned d;
		if (k && !k->name)
			break;
		if (k && !k->letter)
			continue;
		d = edits(word, name);
		if (d < most && d * 3 < strlen(name)) {
			most = d;
			best = name;
		}
	}
	return best;
}

/* getopt refused argv[optind - 1]: say why */
static int refused(int argc, char **argv, struct fb_err *e)
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
	const struct test_kind *k;
	const struct cli_option *o;

	lookup(optopt, &k, &o);
	if (!strncmp(arg, "--", 2) && strchr(arg, '=') && (k || o))
		return fb_fail(e, EXIT_USAGE, "option '%.*s' takes no value (see flashbench --help)",
			       (int)(strchr(arg, '=') - arg), arg);
	if (optopt && optopt < OPT_VAL && strncmp(arg, "--", 2))
		return fb_fail(e, EXIT_USAGE, "unknown option '-%c' (see flashbench --help)", optopt);
	if (!strncmp(arg, "--", 2) && *meant(arg))
		return fb_fail(e, EXIT_USAGE, "unknown option '%s' (did you mean --%s? see flashbench --help)", arg,
			       meant(arg));
	return fb_fail(e, EXIT_USAGE, "unknown option '%s' (see flashbench --help)", arg);
}

static int stdout_ok(struct fb_err *e)
{
	if (fflush(stdout) || ferror(stdout))
		return fb_fail(e, EXIT_DEVICE, "cannot write to standard output: %s", strerror(errno));
	return 1;
}

static int positional(int argc, char **argv, struct cli *c, struct fb_err *e);

/* What the options given say together. */
static int check_together(const struct cli *c, const unsigned char *given, struct fb_err *e)
{
	char list[256];

	if (!c->mode) {
		char hint[384];
		size_t n = 0;
		/* the modes with a letter, the test kinds, then the other modes */
		for (size_t i = 0; i < noptions; i++)
			if (options[i].arg == ARG_MODE && options[i].letter)
				n += (size_t)snprintf(hint + n, n < sizeof(hint) ? sizeof(hint) - n : 0, "%s-%c (%s)",
						      n ? ", " : "", options[i].letter, options[i].name);
		for (const struct test_kind *k = test_kinds; k->name; k++)
			if (k->letter)
				n += (size_t)snprintf(hint + n, n < sizeof(hint) ? sizeof(hint) - n : 0, ", -%c (%s)",
						      k->letter, k->name);
		/* and the other runs: saved results, programs, a journal */
		for (size_t i = 0; i < noptions; i++)
			if ((options[i].arg == ARG_MODE || options[i].arg == ARG_MODE_OPT) && !options[i].letter)
				n += (size_t)snprintf(hint + n, n < sizeof(hint) ? sizeof(hint) - n : 0, ", --%s",
						      options[i].name);
		return fb_fail(e, EXIT_USAGE, "no test chosen: use %s; see --help", hint);
	}
	for (size_t i = 0; i < noptions; i++)
		if (given[i] && !applies(c, &options[i])) {
			applies_list(&options[i], list, sizeof(list));
			return fb_fail(e, EXIT_USAGE, "option '--%s' does not apply to %s (it goes with %s)",
				       options[i].name, c->mode_option, list);
		}
	if (c->preserve && !mode_writes(c) && !c->write)
		return fb_fail(e, EXIT_USAGE, "--preserve goes with a write test (-O, -f, --auto --write, "
			       "--program --write, --capacity)");
	if ((c->budget_ns || c->budget_bytes) && !c->write)
		return fb_fail(e, EXIT_USAGE, "--budget bounds the write tests: it goes with --auto --write");
	/* --capacity and --auto --write's capacity check keep a journal without --preserve */
	if (c->preserve_volatile && !mode_journal_kept(c))
		return fb_fail(e, EXIT_USAGE, "--preserve-volatile goes with what keeps a journal: --preserve, --capacity "
			       "or --auto --write");
	if (c->preserve && c->journal && !*c->journal)
		return fb_fail(e, EXIT_USAGE, "--preserve= needs a file name");
	if (c->mode->check_args && c->mode->check_args(c, e))
		return -1;
	if (c->summary && c->json)
		return fb_fail(e, EXIT_USAGE, "--summary goes with --auto, --capacity or --rating, without --json: one "
			       "line per device for a survey table");
	return 0;
}

int cli_parse(int argc, char **argv, struct cli *c, struct fb_err *e)
{
	struct option lo[NOPTIONS + 32];
	char shorts[2 * NOPTIONS + 32];
	unsigned char given[NOPTIONS] = { 0 };
	const struct cli_option *asked = NULL;   /* --help or --version */
	int val;

	options_make();
	memset(c, 0, sizeof(*c));
	test_defaults(&c->t);
	c->kinds = test_kinds;
	getopt_tables(lo, shorts);
	opterr = 0;
	while ((val = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct test_kind *k;
		const struct cli_option *o;
		const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "?";

		if (val == ':')
			return fb_fail(e, EXIT_USAGE, "option '%s' needs a value (see flashbench --help)", arg);
		lookup(val, &k, &o);
		if (val == '?' || (!k && !o))
			return refused(argc, argv, e);
		if (k) {
			if (set_mode(c, kinds_mode(), k, k->name, e))
				return -1;
			continue;
		}
		given[o - options] = 1;
		if (o->field == F(t.erasesize))
			c->erase_given = 1; /* --rating: test in that AU */
		if (o->arg == ARG_HELP || o->arg == ARG_VERSION) {
			if (!asked)
				asked = o;
			continue;
		}
		if (o->arg == ARG_MODE || o->arg == ARG_MODE_OPT) {
			if (set_mode(c, o->mode, NULL, o->name, e))
				return -1;
			/* "--program --help": the help of --program */
			if (optarg && (!strcmp(optarg, "--help") || !strcmp(optarg, "-h")))
				asked = asked ? asked : help_option_entry();
			else if (o->field)
				*(const char **)((char *)c + o->field) = optarg;
			continue;
		}
		if (set_value(c, o, optarg, e))
			return -1;
	}
	/* --help and --version win over the other options, but an unknown
	 * option (above) or an argument is still an error */
	if (asked && optind < argc)
		return fb_fail(e, EXIT_USAGE, "--%s takes no argument ('%s' is one; see flashbench --help)", asked->name,
			       argv[optind]);
	if (asked && asked->arg == ARG_HELP && c->verbose)
		cli_usage(stdout);
	else if (asked && asked->arg == ARG_HELP && c->mode)
		usage_mode(stdout, c);
	else if (asked && asked->arg == ARG_HELP)
		usage_short(stdout);
	else if (asked)
		printf("flashbench " FLASHBENCH_VERSION "\n");
	if (asked)
		return stdout_ok(e);
	if (positional(argc, argv, c, e))
		return -1;
	return check_together(c, given, e);
}

/* What follows the options: one device, or the saved results' files. */
static int positional(int argc, char **argv, struct cli *c, struct fb_err *e)
{
	if (c->mode && c->mode->positional)
		return c->mode->positional(c, argc - optind, argv + optind, e);
	if (c->all_removable) {
		if (optind < argc)
			return fb_fail(e, EXIT_USAGE, "--all-removable names the devices itself: leave '%s' out, or "
				       "name every device without --all-removable", argv[optind]);
		c->device = "--all-removable";
		return 0;
	}
	if (optind >= argc)
		return fb_fail(e, EXIT_USAGE, "no device given (usage: flashbench TEST [OPTION]... DEVICE; see --help)");
	if (argc - optind > 1 && c->mode && (c->mode->flags & MODE_DEVICES)) {
		c->devices = (const char *const *)argv + optind;
		c->ndevices = argc - optind;
		for (int i = 0; i < c->ndevices; i++)
			if (!*c->devices[i])
				return fb_fail(e, EXIT_USAGE, "device name %d of %d is empty", i + 1, c->ndevices);
	}
	if (argc - optind > 1 && !c->devices)
		return fb_fail(e, EXIT_USAGE, "more than one device given ('%s', '%s'); name one device",
			       argv[optind], argv[optind + 1]);
	c->device = argv[optind];
	return *c->device ? 0 : fb_fail(e, EXIT_USAGE, "the device name is empty");
}

/* The options given that make c's test reach further into the device, as
 * "--fat-nr or --erasesize" ("" when none). */
static void reach_options(const struct cli *c, char *buf, size_t len)
{
	struct cli d;
	size_t n = 0;

	memset(&d, 0, sizeof(d));
	test_defaults(&d.t);
	buf[0] = '\0';
	/* the options that move a test's last byte further, in their order */
	for (int r = 1; r <= (int)noptions; r++)
		for (size_t i = 0; i < noptions; i++) {
			const struct cli_option *o = &options[i];
			size_t size = o->arg == ARG_SIZE ? sizeof(uint64_t) : sizeof(unsigned);
			if (o->reach != r || !applies(c, o) ||
			    !memcmp((const char *)c + o->field, (const char *)&d + o->field, size))
				continue;
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s--%s", n ? " or " : "", o->name);
		}
}

int cli_name_reach(const struct cli *c, struct fb_err *e)
{
	char opts[128];

	reach_options(c, opts, sizeof(opts));
	if ((c->mode->flags & MODE_KIND) && e->kind == FB_PAST_END && opts[0])
		snprintf(e->msg + e->at, sizeof(e->msg) - e->at, " (use a smaller %s)", opts);
	return -1;
}
