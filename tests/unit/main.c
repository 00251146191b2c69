/* tests/unit/main.c — the unit tests' program: the harness (unit.h) and the
 * parts' tests in turn.  Prints "PASS name" / "FAIL name: why" lines for
 * tests/run to count. */
#include <stdarg.h>
#include <stdio.h>

#include "tests/unit/unit.h"

int failures;

void check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
		return;
	}
	failures++;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

int main(void)
{
	unit_vm();
	unit_lib();
	unit_dev();
	unit_auto();
	unit_guard();
	unit_sysroot();
	unit_topology();
	unit_batch();
	unit_rating();
	return failures ? 1 : 0;
}
