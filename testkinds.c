/* testkinds.c — the table of test kinds (see testkinds.h). */
#include "testkinds.h"

#include <string.h>

#include "report/plot.h"
#include "report/report.h"
#include "report/report_capacity.h"
#include "report/report_json.h"
#include "lib/units.h"

/* align: the middle read starts half a block before the boundary, so a
 * block is at least two sectors; the positions must fit in the device */
static int check_align(const struct test_params *t, const char *device, uint64_t dev_size, unsigned sector,
		       struct fb_err *e)
{
	unsigned ss = sector ? sector : 512;

	if (t->blocksize < 2 * ss)
		return fb_fail(e, EXIT_USAGE, "--align needs a block size of at least 2 sectors (%u bytes%s): its "
			       "middle read starts half a block before the boundary", 2 * ss,
			       sector ? " on this device" : "");
	if (dev_size && align_spacing(dev_size, 0) < 2 * t->blocksize)
		return fb_fail(e, EXIT_USAGE, "%s is too small for --align with %llu-byte blocks", device,
			       (unsigned long long)t->blocksize);
	return 0;
}

/* chunks halve from the erase size to the block size */
static int check_chunks(const struct test_params *t, const char *device, uint64_t dev_size, unsigned sector,
			struct fb_err *e)
{
	char bs[32], es[32];

	(void)device;
	(void)dev_size;
	(void)sector;
	format_size(bs, sizeof(bs), t->blocksize);
	format_size(es, sizeof(es), t->erasesize);
	if (t->blocksize > t->erasesize)
		return fb_fail(e, EXIT_USAGE, "--blocksize=%s is larger than --erasesize=%s", bs, es);
	if (t->erasesize % t->blocksize)
		return fb_fail(e, EXIT_USAGE, "--erasesize=%s is not a multiple of --blocksize=%s", es, bs);
	return 0;
}

/* write tests: chunks as above, from an erase block boundary */
static int check_erase_blocks(const struct test_params *t, const char *device, uint64_t dev_size, unsigned sector,
			      struct fb_err *e)
{
	char es[32];

	if (check_chunks(t, device, dev_size, sector, e))
		return -1;
	format_size(es, sizeof(es), t->erasesize);
	if (t->offset != UINT64_MAX && t->offset % t->erasesize)
		return fb_fail(e, EXIT_USAGE, "--offset=%llu is not a multiple of the erase size (%s): "
			       "write tests must start on an erase block boundary", (unsigned long long)t->offset, es);
	return 0;
}

const struct test_kind test_kinds[] = {
	{ .name = "align", .letter = 'a', .program = "align", .check = check_align,
	  .help = "time reads across power-of-two boundaries: erase\nblock and page sizes show as steps in 'diff'",
	  .brief = "read across power-of-two boundaries (read-only)",
	  .shape = { 5, 3, 1 }, .text = report_rows, .row = report_align_row, .row_depth = 1,
	  .json_results = json_results_align, .plot = plot_align },
	{ .name = "interval", .letter = 'i', .program = "interval",
	  .help = "time reads at strides blocksize .. blocksize<<order",
	  .brief = "read at strides that double (read-only)",
	  .shape = { 1, 1, 1 }, .text = report_rows, .row = report_interval_row, .row_depth = 1,
	  .json_params = json_params_interval, .json_results = json_results_strides, .plot = plot_interval },
	{ .name = "scatter", .letter = 's', .program = "scatter",
	  .help = "time reads at 2^order consecutive blocks, as\n'offset_MiB<TAB>time_ms' lines for gnuplot",
	  .brief = "read block after block, for gnuplot (read-only)",
	  .shape = { 3, 1, 0 }, .text = report_rows, .row = report_scatter_row, .row_depth = 3,
	  .json_params = json_params_scatter, .json_results = json_results_scatter, .plot = plot_scatter },
	{ .name = "open-au", .letter = 'O', .writes = 1, .program = "open-au",
	  .program_random = "open-au-random", .check = check_erase_blocks,
	  .help = "write N erase blocks interleaved in chunks halving\nfrom the erase size to the block size",
	  .brief = "write erase blocks interleaved: how many stay open",
	  .shape = { 1, 1, 1 }, .text = report_rows, .row = report_rates_row, .row_depth = 1,
	  .json_params = json_params_open_au, .json_results = json_results_chunks, .plot = plot_rates },
	{ .name = "find-fat", .letter = 'f', .alias = "findfat", .writes = 1, .program = "find-fat",
	  .check = check_erase_blocks,
	  .help = "write each of the first N erase blocks at each\nchunk size: FAT-optimised areas stand out",
	  .brief = "write the first erase blocks: FAT areas stand out",
	  .shape = { 3, 1, 1 }, .text = report_rows, .row = report_find_fat_row, .row_depth = 1,
	  .json_params = json_params_find_fat, .json_results = json_results_find_fat, .plot = plot_find_fat },
	{ .name = "read-speed", .letter = 'R', .program = "read-speed", .check = check_chunks,
	  .help = "sequential read throughput at request sizes halving\nfrom the erase size to the block size",
	  .brief = "sequential read speed by request size (read-only)",
	  .shape = { 1, 1, 1 }, .text = report_rows, .row = report_rates_row, .row_depth = 1,
	  .json_results = json_results_chunks, .plot = plot_rates },
	/* --program with signatures (sig-write, sig-read): what each read found */
	{ .name = "signatures", .text = report_signatures, .json_results = json_results_signatures },
	/* the generic format of --program: every kept node, printed at the end */
	{ .name = "tree", .text = report_tree, .json_results = json_results_tree },
	{ .name = NULL },
};

const struct test_kind *test_kind_named(const char *name)
{
	for (const struct test_kind *k = test_kinds; k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

const char *const *test_kind_names(void)
{
	static const char *names[sizeof(test_kinds) / sizeof(test_kinds[0])];

	for (size_t i = 0; test_kinds[i].name; i++)
		names[i] = test_kinds[i].name;
	return names;
}
