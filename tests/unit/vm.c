/* tests/unit/vm.c — unit tests of the VM (vm.c): offset and length series,
 * reductions, plans, and doc/program.md's opcode list against vm.h's table. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dev.h"
#include "lib/extents.h"
#include "prog/programs.h"
#include "tests/unit/unit.h"
#include "vm.h"

/* doc/program.md lists every opcode exactly as vm.h's table says. */
static void test_opcode_docs(void)
{
	FILE *f = fopen("doc/program.md", "r");
	static char text[1 << 20];
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;

	if (f)
		fclose(f);
	text[n] = '\0';
	for (int c = 0; c < VM_NOPCODES; c++) {
		const struct vm_opinfo *i = vm_opinfo((enum vm_opcode)c);
		char head[64], line[200], name[80];
		snprintf(head, sizeof(head), "%s%s%s", i->name, *i->args ? " " : "", i->args);
		snprintf(line, sizeof(line), "\n    %-26s%s\n", head, i->meaning);
		snprintf(name, sizeof(name), "doc/program.md lists opcode %s as vm.h does", i->name);
		check(strstr(text, line) != NULL, name, "no line '%.*s'", (int)strlen(line) - 2, line + 1);
	}
}

static struct dev *open_sim(const char *spec)
{
	struct dev *d = NULL;
	struct fb_err e;

	if (dev_open(&d, spec, DEV_READONLY, &e)) {
		printf("FAIL open %s: %s\n", spec, e.msg);
		failures++;
	}
	return d;
}

/* The observer of test_vm_observer: counts the rows (depth 2 below the
 * root along first kids) and stops the run after three of them. */
struct rows_seen {
	unsigned rows, other, off_path;
	uint64_t units[8];
	volatile sig_atomic_t stop;
};

static void saw(void *ctx, const struct vm_result *node, unsigned depth, int first_path)
{
	struct rows_seen *s = ctx;

	if (depth == 2 && first_path) {
		if (s->rows < 8)
			s->units[s->rows] = node->unit;
		if (++s->rows == 3)
			s->stop = 1;
	} else if (depth == 2) {
		s->off_path++;
	} else {
		s->other++;
	}
}

/* Results reach the output while a program runs (the VM never prints): each
 * kept node once complete, in order, with its depth and whether it is on
 * the first-kid path the formats read; a stop keeps the tree so far. */
static void test_vm_observer(void)
{
	struct dev *d = open_sim("sim:erase=1M,page=4K,planes=1,size=64M");
	struct rows_seen s = { 0, 0, 0, { 0 }, 0 };
	struct vm_run how = { .stop = &s.stop, .on_result = saw, .result_ctx = &s, .keep_partial = 1 };
	struct vm_result *r = NULL;
	struct fb_err e;
	struct vm_op *prog;
	int rc;

	if (!d)
		return;
	/* two kept children of the root; rows are the second level below the first */
	prog = vm_new(VM_SEQ, 0, 0, VM_KEEP,
		      vm_new(VM_UNIT_HALVE, 64 << 10, 4096, VM_KEEP,
			     vm_new(VM_LEN_UNIT, 0, 0, 0, vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL),
		      vm_new(VM_UNIT_HALVE, 64 << 10, 4096, VM_KEEP,
			     vm_new(VM_LEN_UNIT, 0, 0, 0, vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL),
		      NULL);
	rc = prog ? vm_run(prog, d, &how, &r, &e) : 0;
	check(rc == -1 && s.rows == 3 && s.units[0] == 64 << 10 && s.units[2] == 16 << 10 && s.off_path == 0 &&
	      s.other == 0 && r && r->nkid == 1 && r->kid[0].nkid == 4 && strstr(e.msg, "stopped"),
	      "vm: each row told when complete, a stop keeps the tree so far",
	      "rc %d, %u rows (units %llu %llu), %u off the path, %u others, %zu kept", rc, s.rows,
	      (unsigned long long)s.units[0], (unsigned long long)s.units[2], s.off_path, s.other,
	      r && r->nkid ? r->kid[0].nkid : 0);
	vm_result_free(r);
	/* to the end: 5 rows on the first path, 5 off it, the 2 parents */
	memset(&s, 0, sizeof(s));
	how.stop = NULL;
	r = NULL;
	rc = prog ? vm_run(prog, d, &how, &r, &e) : -1;
	check(rc == 0 && s.rows == 5 && s.off_path == 5 && s.other == 2, "vm: rows off the first path are told apart",
	      "rc %d, %u rows, %u off the path, %u others", rc, s.rows, s.off_path, s.other);
	vm_result_free(r);
	/* without keep_partial a stop leaves nothing */
	memset(&s, 0, sizeof(s));
	how.stop = &s.stop;
	how.keep_partial = 0;
	r = NULL;
	rc = prog ? vm_run(prog, d, &how, &r, &e) : 0;
	check(rc == -1 && !r, "vm: a stop without keep_partial returns no tree", "rc %d", rc);
	vm_free(prog);
	dev_close(d);
}

static void test_vm_series(void)
{
	struct dev *d = open_sim("sim:erase=1M,page=4K,planes=1,size=64M");
	struct vm_result *r = NULL;
	struct fb_err e;
	struct vm_op *prog;
	int ok;

	if (!d)
		return;
	/* linear: offsets 4096 + i*8192 */
	prog = vm_new(VM_LEN, 4096, 0, VM_KEEP,
		      vm_new(VM_OFF, 4096, 0, VM_KEEP,
			     vm_new(VM_OFF_LINEAR, 8192, 5, VM_KEEP, vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL), NULL);
	ok = prog && vm_run(prog, d, NULL, &r, &e) == 0;
	if (ok) {
		const struct vm_result *lin = &r->kid[0].kid[0];
		ok = lin->nkid == 5 && r->st.count == 5 && r->st.bytes == 5 * 4096;
		for (size_t i = 0; ok && i < 5; i++)
			ok = lin->kid[i].off == 4096 + i * 8192 && lin->kid[i].len == 4096;
	}
	check(ok, "vm: off-linear visits offset + i*step", "wrong offsets");
	vm_result_free(r);
	vm_free(prog);

	/* unit-halve on a 3x2^n size: 12K 6K 3K 1.5K */
	prog = vm_new(VM_UNIT_HALVE, 12288, 1024, VM_KEEP,
		      vm_new(VM_LEN_UNIT, 0, 0, 0, vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL);
	r = NULL;
	ok = prog && vm_run(prog, d, NULL, &r, &e) == 0 && r->nkid == 4 && r->kid[0].unit == 12288 &&
	     r->kid[3].unit == 1536 && r->kid[3].len == 1536;
	check(ok, "vm: unit-halve steps 12K 6K 3K 1.5K", "%zu steps", r ? r->nkid : 0);
	vm_result_free(r);
	vm_free(prog);

	/* shuffle visits every step exactly once, not in order */
	prog = vm_new(VM_UNIT_HALVE, 4096, 4096, 0,
		      vm_new(VM_LEN_UNIT, 0, 0, 0,
			     vm_new(VM_OFF_SHUFFLE, 1 << 20, 3, VM_KEEP, vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL),
		      NULL);
	r = NULL;
	ok = prog && vm_run(prog, d, NULL, &r, &e) == 0;
	if (ok) {
		/* root kept nothing; walk again keeping the shuffle node */
		vm_result_free(r);
		r = NULL;
		prog->flags = VM_KEEP;
		prog->body[0]->flags = VM_KEEP;
		ok = vm_run(prog, d, NULL, &r, &e) == 0;
	}
	if (ok) {
		const struct vm_result *sh = &r->kid[0].kid[0];
		static unsigned char seen[256];
		int inorder = 1;
		memset(seen, 0, sizeof(seen));
		ok = sh->nkid == 256;
		for (size_t i = 0; ok && i < sh->nkid; i++) {
			uint64_t k = sh->kid[i].off / 4096;
			if (k >= 256 || seen[k]) {
				ok = 0;
				break;
			}
			seen[k] = 1;
			inorder &= k == i;
		}
		ok = ok && !inorder;
	}
	check(ok, "vm: off-shuffle visits every step once, out of order", "bad permutation");
	vm_result_free(r);
	vm_free(prog);
	dev_close(d);
}

static void test_vm_reduce(void)
{
	/* noise makes the 8 tries differ: check min <= avg <= max against stats */
	struct dev *d = open_sim("sim:noise=0.2,seed=3");
	struct fb_err e;
	unsigned how[3] = { VM_MIN, VM_AVG, VM_MAX };
	double v[3] = { 0, 0, 0 };
	uint64_t mn = 0, mx = 0;
	double total = 0;

	if (!d)
		return;
	for (int i = 0; i < 3; i++) {
		struct vm_result *r = NULL;
		struct dev *fresh = open_sim("sim:noise=0.2,seed=3");
		struct vm_op *prog = vm_new(VM_LEN, 4096, 0, 0,
					    vm_new(VM_REPEAT, 8, 0, how[i], vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL);
		if (fresh && prog && vm_run(prog, fresh, NULL, &r, &e) == 0) {
			v[i] = r->value; /* LEN sums its one child, the REPEAT */
			mn = r->st.min_ns;
			mx = r->st.max_ns;
			total = r->st.total_ns;
		}
		vm_result_free(r);
		vm_free(prog);
		dev_close(fresh);
	}
	check(v[0] == (double)mn && v[2] == (double)mx && fabs(v[1] - total / 8) < 1e-6 && mn < mx,
	      "vm: min/avg/max reductions match the request statistics", "min %g avg %g max %g", v[0], v[1], v[2]);
	dev_close(d);
}

static void test_vm_plan(void)
{
	struct vm_plan plan;
	struct fb_err e = { 0 };
	struct test_params t;
	struct vm_op *prog;
	int rc;

	test_defaults(&t);
	t.erasesize = 4 << 20;
	t.blocksize = 1 << 20;
	t.open_au_nr = 3;
	prog = program_open_au(&t);
	rc = vm_plan(prog, 1ULL << 30, 512, &plan, &e);
	check(rc == 0 && plan.write_lo == 16 << 20 && plan.write_hi == 28 << 20 && plan.max_len == 4 << 20 &&
	      plan.bytes_written == 3 * 12ULL << 20,
	      "vm: plan of open-au gives the written range and bytes", "rc %d lo %llu hi %llu bytes %llu", rc,
	      (unsigned long long)plan.write_lo, (unsigned long long)plan.write_hi,
	      (unsigned long long)plan.bytes_written);
	rc = vm_plan(prog, 20 << 20, 512, &plan, &e);
	check(rc != 0 && strstr(e.msg, "device has only"), "vm: plan refuses a program past the device end", "%s", e.msg);
	vm_free(prog);

	prog = vm_new(VM_REPEAT, 1000000, 0, 0,
		      vm_new(VM_REPEAT, 1000, 0, 0, vm_new(VM_LEN, 512, 0, 0, vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL),
		      NULL);
	rc = vm_plan(prog, 1 << 30, 512, &plan, &e);
	check(rc != 0 && strstr(e.msg, "requests"), "vm: plan refuses a program that would not end", "%s", e.msg);
	vm_free(prog);

	prog = vm_new(VM_LEN, 700, 0, 0, vm_new(VM_READ, 0, 0, 0, NULL), NULL);
	rc = vm_plan(prog, 1 << 30, 512, &plan, &e);
	check(rc != 0 && strstr(e.msg, "sector"), "vm: plan refuses a request that is not whole sectors", "%s", e.msg);
	vm_free(prog);
}

/* Loop counts come from the tree before any walk: nested unit loops are
 * counted unit by unit, other loops multiply; offsets never wrap. */
static void test_vm_counts(void)
{
	struct vm_plan plan;
	struct fb_err e = { 0 };
	struct vm_op *prog;
	int rc;

	/* 41 units x (1 + 41 units x (1 + 10^6 x (1 + 1))) = 3362001722 steps */
	prog = vm_new(VM_UNIT_DOUBLE, 1, 1LL << 40, 0,
		      vm_new(VM_UNIT_DOUBLE, 1, 1LL << 40, 0, vm_new(VM_REPEAT, 1000000, 0, 0, vm_new(VM_SEQ, 0, 0, 0, NULL),
								       NULL), NULL), NULL);
	rc = vm_plan(prog, 1 << 30, 512, &plan, &e);
	check(rc != 0 && strstr(e.msg, "would run 3362001722 loop steps"), "vm: loop steps are counted from the tree",
	      "%s", e.msg);
	vm_free(prog);

	/* off-span's count follows the unit: 8 + 4 + 2 + 1 requests */
	prog = vm_new(VM_UNIT_HALVE, 4096, 512, 0,
		      vm_new(VM_OFF_SPAN, 4096, 0, 0, vm_new(VM_LEN_UNIT, 0, 0, 0, vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL),
		      NULL);
	rc = vm_plan(prog, 1 << 30, 512, &plan, &e);
	check(rc == 0 && plan.requests == 15, "vm: a unit loop's body is counted per unit", "rc %d requests %llu: %s", rc,
	      (unsigned long long)plan.requests, e.msg);
	vm_free(prog);

	prog = vm_new(VM_OFF, INT64_MAX, 0, 0,
		      vm_new(VM_OFF, INT64_MAX, 0, 0, vm_new(VM_OFF, INT64_MAX, 0, 0, vm_new(VM_LEN, 512, 0, 0,
									vm_new(VM_READ, 0, 0, 0, NULL), NULL), NULL), NULL), NULL);
	rc = vm_plan(prog, 1 << 30, 512, &plan, &e);
	check(rc != 0 && strstr(e.msg, "moves past byte 18446744073709551615"), "vm: an offset past 2^64 is refused, not "
	      "wrapped", "%s", e.msg);
	vm_free(prog);
}

/* The plan's ranges: a rewrite writes but changes nothing; what is written
 * next to each other is one range. */
static void test_vm_extents(void)
{
	struct vm_op *prog = vm_new(VM_LEN, 4096, 0, 0, vm_new(VM_WRITE, 0, 0, 0, NULL),
				    vm_new(VM_OFF, 8192, 0, 0, vm_new(VM_REWRITE, 0, 0, 0, NULL), NULL),
				    vm_new(VM_OFF, 4096, 0, 0, vm_new(VM_ERASE, 0, 0, 0, NULL), NULL), NULL);
	struct extents writes = { 0 }, changes = { 0 };
	struct fb_err e = { 0 };
	int rc = prog ? vm_plan_extents(prog, 1 << 20, 512, NULL, &writes, &changes, &e) : -1;

	check(!rc && writes.n == 1 && writes.v[0].lo == 0 && writes.v[0].hi == 12288 && changes.n == 1 &&
	      changes.v[0].lo == 0 && changes.v[0].hi == 8192, "vm: the plan's written and changed ranges",
	      "rc %d, %zu written, %zu changed (%s)", rc, writes.n, changes.n, e.msg);
	extents_free(&writes);
	extents_free(&changes);
	vm_free(prog);
}

void unit_vm(void)
{
	test_vm_extents();
	test_opcode_docs();
	test_vm_series();
	test_vm_observer();
	test_vm_reduce();
	test_vm_plan();
	test_vm_counts();
}
