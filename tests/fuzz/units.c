/* tests/fuzz/units.c — fuzzes the size and count parsers (parse_size,
 * parse_count) and prints what they accept back with the formatters. */
#include "fuzz.h"
#include "lib/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), buf[64];
	const char *why;
	uint64_t v;

	if (!text)
		return 0;
	if (parse_size(text, &v, &why) == 0) {
		format_size(buf, sizeof(buf), v);
		format_rate(buf, sizeof(buf), (double)v);
	} else if (!why || !*why) {
		abort(); /* a refusal must say why */
	}
	if (parse_count(text, &v, &why) == 0)
		format_time(buf, sizeof(buf), (double)v);
	else if (!why || !*why)
		abort();
	free(text);
	return 0;
}
