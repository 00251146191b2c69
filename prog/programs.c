/* programs.c — the built-in tests: the embedded .fbp programs and their
 * variables (see programs.h). */
#include "prog/programs.h"

#include <stdio.h>
#include <string.h>

void test_defaults(struct test_params *t)
{
	t->blocksize = 16 << 10;
	t->erasesize = 4 << 20;
	t->offset = UINT64_MAX; /* not given */
	t->count = 8;
	t->open_au_nr = 2;
	t->fat_nr = 6;
	t->scatter_order = 9;
	t->scatter_span = 1;
	t->interval_order = 6;
	t->random = 0;
	t->pattern = 0x5a;
}

uint64_t align_spacing(uint64_t size, uint64_t max_align)
{
	uint64_t s = 1;

	/* s * 2 * (positions + 1) <= size, written so that it cannot overflow */
	while (s <= size / (2 * (ALIGN_POSITIONS + 1)) && (!max_align || s * 2 <= max_align))
		s *= 2;
	return s;
}

uint64_t open_au_default_offset(uint64_t erasesize)
{
	return (OPEN_AU_FROM + erasesize - 1) / erasesize * erasesize;
}

void program_vars(const struct test_params *t, uint64_t dev_size, unsigned sector, struct prog_vars *v)
{
	uint64_t ss = sector ? sector : 512;
	/* the align test's middle read starts half a block before the
	 * boundary, rounded down to whole sectors, at least one sector */
	uint64_t half = t->blocksize / 2 / ss * ss;
	struct { const char *name; uint64_t value; } all[] = {
		{ "blocksize", t->blocksize }, { "erasesize", t->erasesize }, { "count", t->count },
		{ "offset", t->offset == UINT64_MAX ? 0 : t->offset }, { "open_au_nr", t->open_au_nr },
		{ "fat_nr", t->fat_nr }, { "scatter_order", t->scatter_order }, { "scatter_span", t->scatter_span },
		{ "interval_order", t->interval_order },
		{ "spacing", dev_size ? align_spacing(dev_size, 0) : 1 << 20 },
		{ "scatter_positions", 1ULL << t->scatter_order },
		{ "interval_max", t->blocksize << t->interval_order },
		{ "size", dev_size },
		{ "open_au_offset", t->offset == UINT64_MAX ? open_au_default_offset(t->erasesize) : t->offset },
		{ "sector", ss }, { "half_block", half > ss ? half : ss }, { "pattern", (uint64_t)t->pattern },
		/* boundary-scan.fbp: --auto sets these; alone it scans at the erase size */
		{ "scan_from", t->erasesize }, { "scan_to", t->erasesize }, { "scan_points", 16 },
		/* write-cache.fbp: --auto sets these */
		{ "burst_aus", 1 }, { "burst_chunks", 1 },
		/* rating-*.fbp: --rating sets these */
		{ "fat_at", 1 << 20 }, { "depth", 1 },
	};
	static const int64_t at_start[] = { 0 };

	v->n = 0;
	v->formats = NULL; /* the caller hands them in if it reads the format */
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		prog_vars_set(v, all[i].name, all[i].value);
	/* the write probes' offsets: --auto computes them; alone one write at 0 */
	prog_vars_set_list(v, "offsets", at_start, 1);
}

int program_builtin(const char *name, const struct prog_vars *v, struct vm_op **out, const char **format,
		    struct fb_err *e)
{
	char file[64];

	*out = NULL;
	for (const struct fbp_source *s = fbp_sources; s->name; s++)
		if (!strcmp(s->name, name)) {
			snprintf(file, sizeof(file), "%s.fbp", s->name);
			return progfile_parse(file, s->text, v, out, format, e);
		}
	return fb_fail(e, EXIT_USAGE, "no built-in program '%s'", name);
}

/* ------------------------------------------------------------ until flashbench.c uses program_builtin */

static struct vm_op *builtin(const char *name, const struct test_params *t, uint64_t spacing)
{
	struct prog_vars v;
	struct vm_op *prog;
	const char *format;
	struct fb_err e;

	program_vars(t, 0, 0, &v);
	if (spacing)
		prog_vars_set(&v, "spacing", spacing);
	return program_builtin(name, &v, &prog, &format, &e) ? NULL : prog;
}

struct vm_op *program_align(const struct test_params *t, uint64_t spacing)
{
	return builtin("align", t, spacing);
}

struct vm_op *program_interval(const struct test_params *t)
{
	return builtin("interval", t, 0);
}

struct vm_op *program_scatter(const struct test_params *t)
{
	return builtin("scatter", t, 0);
}

struct vm_op *program_open_au(const struct test_params *t)
{
	return builtin(t->random ? "open-au-random" : "open-au", t, 0);
}

struct vm_op *program_find_fat(const struct test_params *t)
{
	return builtin("find-fat", t, 0);
}
