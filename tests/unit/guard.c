/* tests/unit/guard.c — unit tests of the guard part: the journal puts back
 * what two aliasing addresses of a fake card saved in the right order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev.h"
#include "guard/layer.h"
#include "guard/place.h"
#include "guard/restore.h"
#include "guard/save.h"
#include "tests/unit/unit.h"
#include "vm.h"

/* A card that wraps around: a run saves y, writes it, then saves y + P (which
 * reads y's new data) and writes it.  Put back, the card must hold what it
 * held before: the journal puts its records back last saved first. */
static void test_journal_aliases(void)
{
	const char *spec = "sim:size=256M,real=96M,fake=wrap";
	char dir[] = "/tmp/flashbench-unit.XXXXXX", path[64];
	static unsigned char before[8192], after[8192];
	struct fb_err e = { 0 };
	struct journal *j;
	struct dev *d;
	struct restore_report restored = { 0 };
	int rc = -1;

	if (!mkdtemp(dir) || dev_open(&d, spec, DEV_READWRITE, &e)) {
		check(0, "journal: aliasing flash keeps its original", "setup: %s", e.msg);
		return;
	}
	setenv("FLASHBENCH_STATE_DIR", dir, 1);
	snprintf(path, sizeof(path), "%s/j", dir);
	dev_copy_out(d, before, 8 << 20, sizeof(before));
	if (!save_create(&j, path, d, spec, PLACE_VOLATILE_OK, &e) && !layer_wrap(&d, j, &e)) {
		struct vm_run how = { .salt = 77 };
		rc = 0;
		for (int k = 0; k < 2 && !rc; k++) { /* y = 8 MiB, then y + P */
			struct vm_op *prog = vm_new(VM_OFF, (int64_t)((8 << 20) + k * (96 << 20)), 0, 0,
						    vm_new(VM_LEN, 8192, 0, 0, vm_new(VM_SIG_WRITE, 0, 0, 0, NULL), NULL), NULL);
			struct vm_result *res = NULL;
			rc = vm_run(prog, d, &how, &res, &e);
			vm_result_free(res);
			vm_free(prog);
		}
		if (!rc)
			rc = layer_finish(d, &restored, &e) == 1 ? 0 : -1;
	}
	dev_copy_out(d, after, 8 << 20, sizeof(after));
	check(!rc && restored.bytes == 16384 && !memcmp(before, after, sizeof(before)),
	      "journal: aliasing flash keeps its original", "rc %d, %llu bytes put back, data %s (%s)", rc,
	      (unsigned long long)restored.bytes,
	      memcmp(before, after, sizeof(before)) ? "differ" : "equal", e.msg);
	dev_close(d);
	rmdir(dir);
}

void unit_guard(void)
{
	test_journal_aliases();
}
