/* tests/fuzz/analyze.c — fuzzes --analyze from the bytes up: saved text
 * tables (classic_read.c) or our --json results (saved_json.c), then the
 * analysis of whatever rows they gave (reanalyze.c).  A JSON input it
 * refuses must say why. */
#include "fuzz.h"
#include "saved/reanalyze.h"
#include "saved/saved_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct saved_text *t = malloc(sizeof(*t));
	struct saved_findings *found = malloc(sizeof(*found));
	struct saved_report *s = malloc(sizeof(*s));
	struct fb_err e = { 0 };

	if (t && found && s) {
		if (saved_read((const char *)data, size, "fuzz", t, found, &e)) {
			if (!e.msg[0])
				abort(); /* a refusal must say why */
		} else if (found->have) {
			reanalyze_findings(found, s);
		} else {
			reanalyze(t, s);
		}
	}
	free(t);
	free(found);
	free(s);
	return 0;
}
