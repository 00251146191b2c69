/* tests/fuzz/progfile.c — fuzzes the program parser (progfile_parse) and,
 * for programs small enough to walk quickly, the VM's plan (vm_plan). */
#include "fuzz.h"
#include "prog/programs.h"
#include "prog/progfile.h"
#include "testkinds.h"
#include "vm.h"

#define WALK_LIMIT 50000    /* plan only programs with at most this many steps */

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* An upper bound of the steps the plan walks (a span's unit is at least 1). */
static uint64_t steps(const struct vm_op *op)
{
	uint64_t body = 1, n;

	for (size_t i = 0; i < op->nbody; i++)
		body = sat_add(body, steps(op->body[i]));
	switch (op->code) {
	case VM_REPEAT: n = (uint64_t)op->a; break;
	case VM_OFF_LINEAR: n = (uint64_t)op->b; break;
	case VM_OFF_SPAN: case VM_OFF_SHUFFLE: n = (uint64_t)op->a + 1; break;
	case VM_UNIT_HALVE: case VM_UNIT_DOUBLE: n = 65; break;
	default: n = 1; break;
	}
	return sat_mul(n, body);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct test_params t;
	struct prog_vars v;
	struct vm_op *prog;
	struct vm_plan plan;
	const char *format;
	struct fb_err e;

	if (!text)
		return 0;
	test_defaults(&t);
	program_vars(&t, 1ULL << 30, 512, &v);
	v.formats = test_kind_names();
	if (progfile_parse("fuzz.fbp", text, &v, &prog, &format, &e) == 0) {
		(void)program_writes(prog);
		if (steps(prog) <= WALK_LIMIT)
			(void)vm_plan(prog, 1ULL << 30, 512, &plan, &e);
		vm_free(prog);
	}
	free(text);
	return 0;
}
