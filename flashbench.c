/* flashbench.c — the command line: parses options (the classic names and
 * letters, sizes with suffixes), refuses bad input before the device is
 * opened, picks the test program, opens the device with the access the test
 * needs (after the safety checks for write tests), runs it and hands the
 * results to the output.  No timing and no formatting details live here. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "characterise.h"
#include "dev.h"
#include "devinfo.h"
#include "err.h"
#include "outfile.h"
#include "plot.h"
#include "preserve.h"
#include "programs.h"
#include "progress.h"
#include "progfile.h"
#include "report.h"
#include "report_auto.h"
#include "safety.h"
#include "sim.h"
#include "units.h"
#include "version.h"
#include "vm.h"

enum test_kind { T_NONE, T_ALIGN, T_INTERVAL, T_SCATTER, T_OPEN_AU, T_FIND_FAT, T_AUTO, T_RESTORE, T_PROGRAM };

static const char *const test_option[] = {
	[T_NONE] = "", [T_ALIGN] = "--align", [T_INTERVAL] = "--interval", [T_SCATTER] = "--scatter",
	[T_OPEN_AU] = "--open-au", [T_FIND_FAT] = "--find-fat", [T_AUTO] = "--auto", [T_RESTORE] = "--restore",
	[T_PROGRAM] = "--program",
};
static const char *const test_name[] = {
	[T_NONE] = "", [T_ALIGN] = "align", [T_INTERVAL] = "interval", [T_SCATTER] = "scatter",
	[T_OPEN_AU] = "open-au", [T_FIND_FAT] = "find-fat", [T_AUTO] = "auto", [T_RESTORE] = "restore",
	[T_PROGRAM] = "program",
};

struct cli {
	enum test_kind test;
	struct test_params t;
	const char *out;
	const char *device;
	int verbose;
	int write;
	int json;
	int preserve;
	const char *journal;    /* --preserve=FILE or --restore FILE */
	const char *program;    /* --program FILE */
	const char *plot;       /* --plot FILE.svg */
	const char *format;     /* how its results print */
	int program_writes;
	int progress;           /* --progress */
};

enum {
	OPT_INTERVAL_ORDER = 256, OPT_SCATTER_ORDER, OPT_SCATTER_SPAN, OPT_OPEN_AU_NR, OPT_OFFSET,
	OPT_FAT_NR, OPT_VERSION, OPT_WRITE, OPT_JSON, OPT_PRESERVE, OPT_RESTORE, OPT_PROGRAM, OPT_PLOT,
	OPT_PROGRESS,
};

static const struct option long_options[] = {
	{ "align", no_argument, NULL, 'a' },
	{ "auto", no_argument, NULL, 'A' },
	{ "write", no_argument, NULL, OPT_WRITE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "preserve", optional_argument, NULL, OPT_PRESERVE },
	{ "restore", required_argument, NULL, OPT_RESTORE },
	{ "program", required_argument, NULL, OPT_PROGRAM },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "interval", no_argument, NULL, 'i' },
	{ "interval-order", required_argument, NULL, OPT_INTERVAL_ORDER },
	{ "scatter", no_argument, NULL, 's' },
	{ "scatter-order", required_argument, NULL, OPT_SCATTER_ORDER },
	{ "scatter-span", required_argument, NULL, OPT_SCATTER_SPAN },
	{ "open-au", no_argument, NULL, 'O' },
	{ "open-au-nr", required_argument, NULL, OPT_OPEN_AU_NR },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "random", no_argument, NULL, 'r' },
	{ "find-fat", no_argument, NULL, 'f' },
	{ "findfat", no_argument, NULL, 'f' },
	{ "fat-nr", required_argument, NULL, OPT_FAT_NR },
	{ "count", required_argument, NULL, 'c' },
	{ "blocksize", required_argument, NULL, 'b' },
	{ "erasesize", required_argument, NULL, 'e' },
	{ "out", required_argument, NULL, 'o' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs("Usage: flashbench TEST [OPTION]... DEVICE\n"
	      "Find how a flash medium (SD card, USB stick, CF, eMMC, SSD) works inside.\n"
	      "DEVICE is a block device, an existing regular file, or a simulated card\n"
	      "sim:PRESET[,KEY=VALUE...] or sim:KEY=VALUE,... (presets below; keys in the README).\n"
	      "\n"
	      "Automatic characterisation:\n"
	      "  -A, --auto              find page and erase block size (read-only), and with\n"
	      "                          --write also the smallest efficient write, open erase\n"
	      "                          blocks and FAT area; says how sure it is and how to\n"
	      "                          partition and format the medium\n"
	      "      --write             let --auto run write tests (DESTROYS data in the\n"
	      "                          ranges it announces)\n"
	      "\n"
	      "Your own test:\n"
	      "      --program=FILE      run a VM program written as text (see README);\n"
	      "                          programs that write need --write\n"
	      "\n"
	      "Read-only tests (safe on a mounted card):\n"
	      "  -a, --align             time reads across power-of-two boundaries: erase\n"
	      "                          block and page sizes show as steps in 'diff'\n"
	      "  -i, --interval          time reads at strides blocksize .. blocksize<<order\n"
	      "      --interval-order=N  largest stride is blocksize * 2^N (default 6)\n"
	      "  -s, --scatter           time reads at 2^order consecutive blocks, as\n"
	      "                          'offset_MiB<TAB>time_ms' lines for gnuplot\n"
	      "      --scatter-order=N   scatter across 2^N blocks (default 9)\n"
	      "      --scatter-span=N    each read spans N blocks (default 1)\n"
	      "\n"
	      "Write tests (DESTROY the data in the range they announce; refused on a\n"
	      "mounted or otherwise used device):\n"
	      "  -O, --open-au           write N erase blocks interleaved in chunks halving\n"
	      "                          from the erase size to the block size\n"
	      "      --open-au-nr=N      erase blocks written at once (default 2)\n"
	      "  -r, --random            pseudo-random chunk order inside each erase block\n"
	      "  -f, --find-fat          write each of the first N erase blocks at each\n"
	      "                          chunk size: FAT-optimised areas stand out\n"
	      "      --fat-nr=N          erase blocks to look at (default 6)\n"
	      "\n"
	      "Keeping the data (write tests):\n"
	      "      --preserve[=FILE]   save every range before it is overwritten to a journal\n"
	      "                          (default ./flashbench-DEVICE.journal) and put it back\n"
	      "                          at the end, also after Ctrl-C\n"
	      "      --restore=FILE      put back what a killed run saved: flashbench\n"
	      "                          --restore=FILE DEVICE\n"
	      "\n"
	      "Parameters (sizes take suffixes: 512, 24k, 1.5M, 12MiB, 2G):\n"
	      "  -b, --blocksize=SIZE    smallest request (default 16KiB)\n"
	      "  -e, --erasesize=SIZE    erase block size (default 4MiB; 12M, 1.5M work)\n"
	      "      --offset=SIZE       where to start (open-au default: the first erase\n"
	      "                          boundary at or above 16MiB)\n"
	      "  -c, --count=N           tries per measurement (default 8); align averages\n"
	      "                          the fastest quarter, scatter keeps the fastest\n"
	      "  -o, --out=FILE          write results to FILE instead of standard output\n"
	      "      --json              results as JSON (every test, and --auto)\n"
	      "      --plot=FILE.svg     draw the results as an SVG chart\n"
	      "  -v, --verbose           add min/avg/max request times to write tests\n"
	      "      --progress          show progress on stderr from the first request,\n"
	      "                          also when it is not a terminal (one line each)\n"
	      "  -h, --help              show this help\n"
	      "      --version           show the version\n"
	      "\n"
	      "Exit status: 0 success, 1 device or I/O error, 2 usage error.\n"
	      "\n"
	      "Simulated devices:\n", f);
	for (unsigned i = 0; sim_preset_name(i); i++)
		fprintf(f, "  sim:%-8s %s\n", sim_preset_name(i), sim_preset_description(sim_preset_name(i)));
}

static int die(const struct fb_err *e)
{
	fprintf(stderr, "flashbench: %s\n", e->msg);
	return e->status;
}

static int size_arg(const char *opt, const char *val, uint64_t *out, struct fb_err *e)
{
	const char *why;

	if (parse_size(val, out, &why))
		return fb_fail(e, EXIT_USAGE, "%s=%s: %s", opt, val, why);
	return 0;
}

static int count_arg(const char *opt, const char *val, unsigned min, unsigned max, unsigned *out,
		     struct fb_err *e)
{
	uint64_t v;
	const char *why;

	if (parse_count(val, &v, &why))
		return fb_fail(e, EXIT_USAGE, "%s=%s: %s", opt, val, why);
	if (v < min || v > max)
		return fb_fail(e, EXIT_USAGE, "%s=%s: must be from %u to %u", opt, val, min, max);
	*out = (unsigned)v;
	return 0;
}

static int set_test(struct cli *c, enum test_kind k, struct fb_err *e)
{
	if (c->test != T_NONE && c->test != k)
		return fb_fail(e, EXIT_USAGE, "choose one test: %s and %s were both given",
			       test_option[c->test], test_option[k]);
	c->test = k;
	return 0;
}

/* Returns 0 to go on, 1 when done (help/version), -1 on error. */
static int parse_args(int argc, char **argv, struct cli *c, struct fb_err *e)
{
	int opt;

	memset(c, 0, sizeof(*c));
	test_defaults(&c->t);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":aAisOrfc:b:e:o:vh", long_options, NULL)) != -1) {
		const char *name = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
		int rc = 0;
		switch (opt) {
		case 'a': rc = set_test(c, T_ALIGN, e); break;
		case 'A': rc = set_test(c, T_AUTO, e); break;
		case OPT_WRITE: c->write = 1; break;
		case OPT_JSON: c->json = 1; break;
		case OPT_PRESERVE: c->preserve = 1; c->journal = optarg; break;
		case OPT_RESTORE: rc = set_test(c, T_RESTORE, e); c->journal = optarg; break;
		case OPT_PROGRAM: rc = set_test(c, T_PROGRAM, e); c->program = optarg; break;
		case OPT_PLOT: c->plot = optarg; break;
		case OPT_PROGRESS: c->progress = 1; break;
		case 'i': rc = set_test(c, T_INTERVAL, e); break;
		case 's': rc = set_test(c, T_SCATTER, e); break;
		case 'O': rc = set_test(c, T_OPEN_AU, e); break;
		case 'f': rc = set_test(c, T_FIND_FAT, e); break;
		case 'r': c->t.random = 1; break;
		case 'v': c->verbose++; break;
		case 'o': c->out = optarg; break;
		case 'b': rc = size_arg("--blocksize", optarg, &c->t.blocksize, e); break;
		case 'e': rc = size_arg("--erasesize", optarg, &c->t.erasesize, e); break;
		case OPT_OFFSET: rc = size_arg("--offset", optarg, &c->t.offset, e); break;
		case 'c': rc = count_arg("--count", optarg, 1, 1000000, &c->t.count, e); break;
		case OPT_OPEN_AU_NR: rc = count_arg("--open-au-nr", optarg, 1, 4096, &c->t.open_au_nr, e); break;
		case OPT_FAT_NR: rc = count_arg("--fat-nr", optarg, 1, 4096, &c->t.fat_nr, e); break;
		case OPT_SCATTER_ORDER: rc = count_arg("--scatter-order", optarg, 0, 24, &c->t.scatter_order, e); break;
		case OPT_SCATTER_SPAN: rc = count_arg("--scatter-span", optarg, 1, 1u << 20, &c->t.scatter_span, e); break;
		case OPT_INTERVAL_ORDER: rc = count_arg("--interval-order", optarg, 0, 30, &c->t.interval_order, e); break;
		case 'h': usage(stdout); return 1;
		case OPT_VERSION: printf("flashbench " FLASHBENCH_VERSION "\n"); return 1;
		case ':':
			return fb_fail(e, EXIT_USAGE, "option '%s' needs a value (see flashbench --help)", name);
		default:
			if (optopt && optopt < 256)
				return fb_fail(e, EXIT_USAGE, "unknown option '-%c' (see flashbench --help)", optopt);
			return fb_fail(e, EXIT_USAGE, "unknown option '%s' (see flashbench --help)", name);
		}
		if (rc)
			return -1;
	}
	if (optind >= argc)
		return fb_fail(e, EXIT_USAGE, "no device given (usage: flashbench TEST [OPTION]... DEVICE; see --help)");
	if (argc - optind > 1)
		return fb_fail(e, EXIT_USAGE, "more than one device given ('%s', '%s'); name one device",
			       argv[optind], argv[optind + 1]);
	c->device = argv[optind];
	if (!*c->device)
		return fb_fail(e, EXIT_USAGE, "the device name is empty");
	if (c->test == T_NONE)
		return fb_fail(e, EXIT_USAGE, "no test chosen: use -A (auto), -a (align), -O (open-au), "
			       "-f (find-fat), -s (scatter) or -i (interval); see --help");
	if (c->write && c->test != T_AUTO && c->test != T_OPEN_AU && c->test != T_FIND_FAT && c->test != T_PROGRAM)
		return fb_fail(e, EXIT_USAGE, "--write goes with --auto or --program; %s only reads",
			       test_option[c->test]);
	if (c->preserve && c->test != T_OPEN_AU && c->test != T_FIND_FAT &&
	    !((c->test == T_AUTO || c->test == T_PROGRAM) && c->write))
		return fb_fail(e, EXIT_USAGE, "--preserve goes with a write test (-O, -f, --auto --write, "
			       "--program --write)");
	if (c->plot && (!*c->plot || c->test == T_RESTORE))
		return fb_fail(e, EXIT_USAGE, "--plot needs a file name and a test");
	if (c->preserve && c->journal && !*c->journal)
		return fb_fail(e, EXIT_USAGE, "--preserve= needs a file name");
	return 0;
}

/* Checks that need no device. */
static int check_params(const struct cli *c, struct fb_err *e)
{
	const struct test_params *t = &c->t;
	char bs[32], es[32];

	format_size(bs, sizeof(bs), t->blocksize);
	format_size(es, sizeof(es), t->erasesize);
	if (t->blocksize == 0 || t->blocksize % 512)
		return fb_fail(e, EXIT_USAGE, "--blocksize=%llu is not a multiple of 512 bytes (try 16k)",
			       (unsigned long long)t->blocksize);
	if (t->erasesize == 0 || t->erasesize % 512)
		return fb_fail(e, EXIT_USAGE, "--erasesize=%llu is not a multiple of 512 bytes (try 4M)",
			       (unsigned long long)t->erasesize);
	if (t->offset != UINT64_MAX && t->offset % 512)
		return fb_fail(e, EXIT_USAGE, "--offset=%llu is not a multiple of 512 bytes",
			       (unsigned long long)t->offset);
	if (c->test == T_ALIGN && t->blocksize < 1024)
		return fb_fail(e, EXIT_USAGE, "--align needs a block size of at least 1KiB "
			       "(its middle read starts half a block before the boundary)");
	if (c->test == T_OPEN_AU || c->test == T_FIND_FAT) {
		if (t->blocksize > t->erasesize)
			return fb_fail(e, EXIT_USAGE, "--blocksize=%s is larger than --erasesize=%s", bs, es);
		if (t->erasesize % t->blocksize)
			return fb_fail(e, EXIT_USAGE, "--erasesize=%s is not a multiple of --blocksize=%s", es, bs);
		if (t->offset != UINT64_MAX && t->offset % t->erasesize)
			return fb_fail(e, EXIT_USAGE, "--offset=%llu is not a multiple of the erase size (%s): "
				       "write tests must start on an erase block boundary",
				       (unsigned long long)t->offset, es);
	}
	if (c->t.random && c->test != T_OPEN_AU)
		return fb_fail(e, EXIT_USAGE, "--random only applies to --open-au");
	return 0;
}

/* Checks that need the device's size and sector size. */
static int check_device(const struct cli *c, struct dev *d, struct fb_err *e)
{
	const struct test_params *t = &c->t;
	unsigned ss = dev_sector(d);

	if (t->blocksize % ss)
		return fb_fail(e, EXIT_USAGE, "--blocksize=%llu is not a multiple of the device's %u-byte sector size",
			       (unsigned long long)t->blocksize, ss);
	if (t->offset != UINT64_MAX && t->offset % ss)
		return fb_fail(e, EXIT_USAGE, "--offset=%llu is not a multiple of the device's %u-byte sector size",
			       (unsigned long long)t->offset, ss);
	if (t->offset != UINT64_MAX && t->offset >= dev_size(d))
		return fb_fail(e, EXIT_USAGE, "--offset=%llu is past the end of %s (%llu bytes)",
			       (unsigned long long)t->offset, dev_path(d), (unsigned long long)dev_size(d));
	if (c->test == T_ALIGN && align_spacing(dev_size(d), 0) < 2 * t->blocksize)
		return fb_fail(e, EXIT_USAGE, "%s is too small for --align with %llu-byte blocks",
			       dev_path(d), (unsigned long long)t->blocksize);
	return 0;
}

static int is_write_test(const struct cli *c)
{
	return c->test == T_OPEN_AU || c->test == T_FIND_FAT || (c->test == T_AUTO && c->write) ||
	       (c->test == T_PROGRAM && c->program_writes);
}

/* The variables a program file may use. */
static void program_vars(const struct cli *c, uint64_t size, struct prog_vars *v)
{
	const struct test_params *t = &c->t;
	struct { const char *name; uint64_t value; } all[] = {
		{ "blocksize", t->blocksize }, { "erasesize", t->erasesize }, { "count", t->count },
		{ "offset", t->offset == UINT64_MAX ? 0 : t->offset }, { "open_au_nr", t->open_au_nr },
		{ "fat_nr", t->fat_nr }, { "scatter_order", t->scatter_order }, { "scatter_span", t->scatter_span },
		{ "interval_order", t->interval_order }, { "spacing", size ? align_spacing(size, 0) : 1 << 20 },
		{ "scatter_positions", 1ULL << t->scatter_order },
		{ "interval_max", t->blocksize << t->interval_order },
		{ "size", size }, { "open_au_offset", t->offset == UINT64_MAX ? open_au_default_offset(t->erasesize)
									      : t->offset },
	};
	v->n = 0;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		v->name[v->n] = all[i].name;
		v->value[v->n++] = all[i].value;
	}
}

/* Parse the program once before the device is opened: syntax errors and a
 * missing --write are refused without touching anything. */
static int check_program(struct cli *c, struct fb_err *e)
{
	struct prog_vars v;
	struct vm_op *prog;

	program_vars(c, 0, &v);
	if (progfile_load(c->program, &v, &prog, &c->format, e))
		return -1;
	c->program_writes = program_writes(prog);
	vm_free(prog);
	if (c->plot && !strcmp(c->format, "tree"))
		return fb_fail(e, EXIT_USAGE, "%s: --plot needs a chart, and the 'tree' format has none (add a "
			       "'format align' line or similar)", c->program);
	if (c->program_writes && !c->write)
		return fb_fail(e, EXIT_USAGE, "%s writes to the device: add --write to allow it (the data in the "
			       "range it announces are lost)", c->program);
	return 0;
}

static struct vm_op *build(const struct cli *c, struct dev *d, struct fb_err *e)
{
	struct prog_vars v;
	struct vm_op *prog;
	const char *format;

	switch (c->test) {
	case T_PROGRAM:
		program_vars(c, dev_size(d), &v);
		return progfile_load(c->program, &v, &prog, &format, e) ? NULL : prog;
	case T_ALIGN: return program_align(&c->t, align_spacing(dev_size(d), 0));
	case T_INTERVAL: return program_interval(&c->t);
	case T_SCATTER: return program_scatter(&c->t);
	case T_OPEN_AU: return program_open_au(&c->t);
	case T_FIND_FAT: return program_find_fat(&c->t);
	default: return NULL;
	}
}

static void announce(const struct cli *c, const struct vm_plan *p)
{
	char range[32], total[32];

	format_size(range, sizeof(range), p->write_hi - p->write_lo);
	format_size(total, sizeof(total), p->bytes_written);
	fprintf(stderr, "flashbench: %s overwrites bytes %llu to %llu of %s (%s); %s written in all\n",
		test_option[c->test], (unsigned long long)p->write_lo, (unsigned long long)p->write_hi - 1,
		c->device, range, total);
}

static enum test_kind format_kind(const char *format)
{
	for (int k = T_ALIGN; k <= T_FIND_FAT; k++)
		if (!strcmp(test_name[k], format))
			return (enum test_kind)k;
	return T_PROGRAM;
}

static void print_results(const struct cli *c, FILE *f, const struct vm_result *r)
{
	switch (c->test == T_PROGRAM ? format_kind(c->format) : c->test) {
	case T_PROGRAM: report_tree(f, r); break;
	case T_ALIGN: report_align(f, r); break;
	case T_INTERVAL: report_interval(f, r); break;
	case T_SCATTER: report_scatter(f, r); break;
	case T_OPEN_AU: report_open_au(f, r, c->verbose); break;
	case T_FIND_FAT: report_find_fat(f, r, c->verbose); break;
	default: break;
	}
}

static volatile sig_atomic_t stop_requested, restoring;

static void on_signal(int sig)
{
	static const char msg[] = "flashbench: putting the saved data back; this is not interrupted, please wait\n";

	(void)sig;
	stop_requested = 1;
	if (restoring)
		(void)!write(2, msg, sizeof(msg) - 1);
}

/* Ctrl-C and friends stop a test at the next request, cleanly. */
static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}


static void identify(const struct cli *c, const struct dev *d, struct identity *id)
{
	memset(id, 0, sizeof(*id));
	id->path = c->device;
	id->size = dev_size(d);
	id->sector = dev_sector(d);
	id->physical = dev_physical_sector(d);
	id->sim = dev_sim_params(d);
	if (!id->sim)
		devinfo_read(c->device, &id->info);
}

/* --auto --write: say what may be overwritten before the first write */
static int announce_auto(void *ctx, const uint64_t range[2][2])
{
	const struct cli *c = ctx;
	char a[32], b[32];

	format_size(a, sizeof(a), range[0][1] - range[0][0]);
	format_size(b, sizeof(b), range[1][1] - range[1][0]);
	fprintf(stderr, "flashbench: --auto --write overwrites bytes %llu to %llu (%s) and %llu to %llu (%s) of %s\n",
		(unsigned long long)range[0][0], (unsigned long long)range[0][1] - 1, a,
		(unsigned long long)range[1][0], (unsigned long long)range[1][1] - 1, b, c->device);
	return 0;
}

/* --plot: the chart of a test's results (res) or of --auto's (r) */
static int write_plot(const struct cli *c, const struct vm_result *res, const struct auto_report *r,
		      struct fb_err *e)
{
	const char *kind = c->test == T_PROGRAM ? c->format : test_name[c->test];
	struct outfile o;

	if (outfile_open(&o, "--plot", c->plot, e))
		return -1;
	if (r ? plot_auto(o.f, c->device, r) : plot_test(o.f, kind, c->device, res, c->t.random, c->t.open_au_nr)) {
		outfile_abort(&o);
		return fb_fail(e, EXIT_USAGE, "%s: this test's results have no chart (the 'tree' format)", c->plot);
	}
	return outfile_commit(&o, e);
}

/* Every file the run writes can be written, and none is the device under
 * test: checked before anything runs. */
static int check_outputs(const struct cli *c, const char *journal_path, struct fb_err *e)
{
	return (c->out && outfile_check("--out", c->out, c->device, e)) ||
	       (c->plot && outfile_check("--plot", c->plot, c->device, e)) ||
	       (c->preserve && outfile_check_dir("--preserve", journal_path, e)) ? -1 : 0;
}

/* --auto --write --preserve: save what each write program will overwrite */
static struct journal *journal;
static int protect(void *ctx, const struct vm_op *prog, struct fb_err *e)
{
	(void)ctx;
	return journal ? journal_protect(journal, prog, e) : 0;
}

static int run_auto(const struct cli *c, struct dev *d, FILE *out, struct fb_err *e)
{
	struct auto_options o = { .write = c->write, .stop = &stop_requested, .before_writes = announce_auto,
				  .protect = protect, .ctx = (void *)c };
	struct auto_report *r = malloc(sizeof(*r));
	struct identity id;
	double t0 = wall_ns();
	struct progress pr;

	if (!r)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	o.progress = progress_start(&pr, "--auto", 0, c->progress);
	o.progress_ctx = &pr;
	if (characterise(d, &o, r, e)) {
		progress_end(&pr);
		free(r);
		return -1;
	}
	progress_end(&pr);
	identify(c, d, &id);
	if (c->json)
		report_auto_json(out, &id, r, c->write, wall_ns() - t0);
	else
		report_auto_text(out, &id, r, c->write, wall_ns() - t0);
	if (c->plot && write_plot(c, NULL, r, e)) {
		free(r);
		return -1;
	}
	free(r);
	return 0;
}

/* --restore JOURNAL DEVICE */
static int do_restore(const struct cli *c)
{
	struct fb_err e = { 0, "" };
	struct dev *d = NULL;
	uint64_t bytes;
	unsigned ranges, torn;
	char sz[32];

	restoring = 1;
	if (safety_check_write(c->device, &e) || dev_open(&d, c->device, DEV_READWRITE, &e))
		return die(&e);
	if (journal_restore(c->journal, d, c->device, &bytes, &ranges, &torn, &e)) {
		dev_close(d);
		return die(&e);
	}
	dev_close(d);
	format_size(sz, sizeof(sz), bytes);
	printf("restored %llu bytes (%s) in %u range%s from %s to %s, read back and verified; journal removed\n",
	       (unsigned long long)bytes, sz, ranges, ranges == 1 ? "" : "s", c->journal, c->device);
	if (torn)
		printf("the journal's last record was incomplete: the run was stopped while saving it, "
		       "before that range was overwritten, so it needed no restoring\n");
	return 0;
}

/* Put the saved ranges back; a second signal does not interrupt this. */
static int finish_journal(struct fb_err *e)
{
	uint64_t bytes = 0;
	char sz[32];
	int rc;

	if (!journal)
		return 0;
	restoring = 1;
	rc = journal_finish(journal, &bytes, e);
	journal = NULL;
	if (!rc) {
		format_size(sz, sizeof(sz), bytes);
		fprintf(stderr, "flashbench: --preserve: put back %llu bytes (%s) and verified them\n",
			(unsigned long long)bytes, sz);
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct cli c;
	struct fb_err e = { 0, "" };
	struct dev *d = NULL;
	struct vm_op *prog = NULL;
	struct vm_result *res = NULL;
	struct vm_plan plan;
	struct vm_run how = { .stop = &stop_requested };
	char journal_path[4096];
	struct outfile of = { .f = NULL };
	FILE *out = stdout;
	int rc;

	rc = parse_args(argc, argv, &c, &e);
	if (rc > 0)
		return 0;
	if (rc < 0 || check_params(&c, &e) || (c.test == T_PROGRAM && check_program(&c, &e)))
		return die(&e);
	catch_signals();
	if (c.test == T_RESTORE)
		return do_restore(&c);

	journal_default_path(c.device, journal_path, sizeof(journal_path));
	if (check_outputs(&c, c.preserve && c.journal ? c.journal : journal_path, &e))
		return die(&e);
	if (is_write_test(&c)) {
		/* refuse a used device, or one with an unfinished journal, before
		 * opening anything */
		if (safety_check_write(c.device, &e) || journal_check_absent(journal_path, c.device, &e))
			return die(&e);
		if (c.preserve && c.journal)
			snprintf(journal_path, sizeof(journal_path), "%s", c.journal);
	}
	/* read-only first: size and sector size for the checks and the plan */
	if (dev_open(&d, c.device, DEV_READONLY, &e))
		return die(&e);
	if (check_device(&c, d, &e))
		goto fail;
	if (c.test != T_AUTO) {
		e.msg[0] = '\0';
		if (!(prog = build(&c, d, &e))) {
			if (!e.msg[0])
				fb_fail(&e, EXIT_DEVICE, "out of memory");
			goto fail;
		}
		if (vm_plan(prog, dev_size(d), dev_sector(d), &plan, &e))
			goto fail;
	}
	if (c.preserve && dev_is_sim(d)) {
		fb_fail(&e, EXIT_USAGE, "--preserve needs a real device: a simulated one holds no data");
		goto fail;
	}
	if (is_write_test(&c) && !dev_is_sim(d)) {
		dev_close(d);
		d = NULL;
		if (dev_open(&d, c.device, DEV_READWRITE, &e)) {
			struct fb_err why;
			if (safety_check_write(c.device, &why))
				e = why;
			goto fail;
		}
	}
	if (c.out) {
		if (outfile_open(&of, "--out", c.out, &e))
			goto fail;
		out = of.f;
	}
	if (c.preserve) {
		uint64_t room = c.test == T_AUTO ? 64ULL << 20 : plan.write_hi - plan.write_lo;
		if (journal_create(&journal, journal_path, d, c.device, room, &e))
			goto fail;
	}
	if (c.test == T_AUTO) {
		if (run_auto(&c, d, out, &e))
			goto fail;
	} else {
		if (is_write_test(&c))
			announce(&c, &plan);
		if (journal) {
			char sz[32];
			if (journal_protect(journal, prog, &e))
				goto fail;
			format_size(sz, sizeof(sz), journal_saved(journal));
			fprintf(stderr, "flashbench: --preserve: saved %llu bytes (%s) to %s\n",
				(unsigned long long)journal_saved(journal), sz, journal_path);
		}
		{
			struct progress pr;
			how.progress = progress_start(&pr, test_name[c.test], plan.requests, c.progress);
			how.progress_ctx = &pr;
			how.plan = &plan;
			rc = vm_run(prog, d, &how, &res, &e);
			progress_end(&pr);
			if (rc)
				goto fail;
		}
		if (c.json) {
			struct identity id;
			identify(&c, d, &id);
			report_test_json(out, c.test == T_PROGRAM ? c.format : test_name[c.test], &id, &c.t, res, &plan);
		} else {
			print_results(&c, out, res);
		}
		if (c.plot && write_plot(&c, res, NULL, &e))
			goto fail;
	}
	if (finish_journal(&e))
		goto fail;
	if (of.f ? outfile_commit(&of, &e) : fflush(stdout) ? fb_fail(&e, EXIT_DEVICE, "cannot write the results: %s",
								       strerror(errno)) : 0)
		goto fail;
	vm_result_free(res);
	vm_free(prog);
	dev_close(d);
	return 0;
fail:
	if (journal) {
		struct fb_err why = e;
		if (finish_journal(&why))
			fprintf(stderr, "flashbench: %s\n", why.msg);
		else
			snprintf(e.msg + strlen(e.msg), sizeof(e.msg) - strlen(e.msg),
				 "; the saved data were put back and verified");
	}
	if (of.f)
		outfile_abort(&of);
	vm_result_free(res);
	vm_free(prog);
	dev_close(d);
	return die(&e);
}
