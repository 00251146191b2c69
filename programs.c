/* programs.c — the built-in tests written as VM programs (see programs.h). */
#include "programs.h"

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

	while (s * 2 * (ALIGN_POSITIONS + 1) <= size && (!max_align || s * 2 <= max_align))
		s *= 2;
	return s;
}

uint64_t open_au_default_offset(uint64_t erasesize)
{
	uint64_t min = 16ULL << 20;
	return (min + erasesize - 1) / erasesize * erasesize;
}

/* The reads around a boundary at off: `count` tries, each reading the block
 * before it (pre), across it (on, half a block before) and after it (post)
 * in turn, so that drift hits all three alike.  Every read is kept; the
 * best try of each is taken afterwards (crossing_of in report.c). */
static struct vm_op *crossing(uint64_t bs, unsigned count)
{
	int64_t b = (int64_t)bs;
	struct vm_op *seq = vm_new(VM_SEQ, 0, 0, VM_KEEP, NULL);
	static const char *const label[3] = { "pre", "on", "post" };

	for (int i = 0; i < 3; i++)
		seq = vm_add(seq, vm_label(vm_new(VM_LEN, b, 0, VM_KEEP,
						  vm_new(VM_OFF, i == 0 ? -b : i == 1 ? -b / 2 : 0, 0, VM_KEEP,
							 vm_new(VM_READ, 0, 0, 0, NULL), NULL),
						  NULL),
					   label[i]));
	return vm_new(VM_REPEAT, count, 0, VM_KEEP, seq, NULL);
}

struct vm_op *program_boundary_scan(uint64_t bs, unsigned count, uint64_t from, uint64_t to, unsigned points)
{
	return vm_new(VM_UNIT_DOUBLE, (int64_t)from, (int64_t)to, VM_KEEP,
		      vm_new(VM_OFF_LINEAR, 0, points, VM_KEEP,
			     vm_new(VM_OFF_UNIT, 1, 1, VM_KEEP, crossing(bs, count), NULL), NULL),
		      NULL);
}

struct vm_op *program_align(const struct test_params *t, uint64_t spacing)
{
	return vm_new(VM_UNIT_HALVE, (int64_t)spacing, 2 * (int64_t)t->blocksize, VM_KEEP,
		      vm_new(VM_OFF_LINEAR, (int64_t)spacing, ALIGN_POSITIONS, VM_KEEP,
			     vm_new(VM_OFF_UNIT, 1, 1, VM_KEEP, crossing(t->blocksize, t->count), NULL), NULL),
		      NULL);
}

struct vm_op *program_interval(const struct test_params *t)
{
	uint64_t off = t->offset == UINT64_MAX ? 0 : t->offset;

	return vm_new(VM_UNIT_DOUBLE, (int64_t)t->blocksize, (int64_t)(t->blocksize << t->interval_order), VM_KEEP,
		      vm_new(VM_LEN, (int64_t)t->blocksize, 0, VM_SUM,
			     vm_new(VM_OFF, (int64_t)off, 0, VM_SUM,
				    vm_new(VM_OFF_LINEAR, 0, INTERVAL_READS, VM_SUM,
					   vm_new(VM_READ, 0, 0, 0, NULL), NULL),
				    NULL),
			     NULL),
		      NULL);
}

struct vm_op *program_scatter(const struct test_params *t)
{
	uint64_t off = t->offset == UINT64_MAX ? 0 : t->offset;

	return vm_new(VM_OFF, (int64_t)off, 0, VM_KEEP,
		      vm_new(VM_LEN, (int64_t)(t->blocksize * t->scatter_span), 0, VM_KEEP,
			     vm_new(VM_OFF_LINEAR, (int64_t)t->blocksize, 1LL << t->scatter_order, VM_KEEP,
				    vm_new(VM_REPEAT, t->count, 0, VM_MIN,
					   vm_new(VM_READ, 0, 0, 0, NULL), NULL),
				    NULL),
			     NULL),
		      NULL);
}

struct vm_op *program_open_au(const struct test_params *t)
{
	uint64_t off = t->offset == UINT64_MAX ? open_au_default_offset(t->erasesize) : t->offset;
	int64_t e = (int64_t)t->erasesize;

	return vm_new(VM_UNIT_HALVE, e, (int64_t)t->blocksize, VM_KEEP,
		      vm_new(VM_OFF, (int64_t)off, 0, VM_SUM,
			     vm_new(VM_LEN_UNIT, 0, 0, VM_SUM,
				    vm_new(VM_PATTERN, t->pattern, 0, VM_SUM,
					   vm_new(t->random ? VM_OFF_SHUFFLE : VM_OFF_SPAN, e, 1, VM_SUM,
						  vm_new(VM_OFF_LINEAR, e, t->open_au_nr, VM_SUM,
							 vm_new(VM_WRITE, 0, 0, 0, NULL), NULL),
						  NULL),
					   NULL),
				    NULL),
			     NULL),
		      NULL);
}

struct vm_op *program_find_fat(const struct test_params *t)
{
	uint64_t off = t->offset == UINT64_MAX ? 0 : t->offset;
	int64_t e = (int64_t)t->erasesize;

	return vm_new(VM_UNIT_HALVE, e, (int64_t)t->blocksize, VM_KEEP,
		      vm_new(VM_OFF, (int64_t)off, 0, VM_KEEP,
			     vm_new(VM_OFF_LINEAR, e, t->fat_nr, VM_KEEP,
				    vm_new(VM_LEN_UNIT, 0, 0, VM_SUM,
					   vm_new(VM_PATTERN, t->pattern, 0, VM_SUM,
						  vm_new(VM_OFF_SPAN, e, 0, VM_SUM,
							 vm_new(VM_WRITE, 0, 0, 0, NULL), NULL),
						  NULL),
					   NULL),
				    NULL),
			     NULL),
		      NULL);
}
