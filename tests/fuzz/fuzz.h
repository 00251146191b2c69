/* tests/fuzz/fuzz.h — what every fuzz harness defines (libFuzzer's entry
 * point).  A harness is tests/fuzz/NAME.c with its seed corpus in
 * tests/fuzz/corpus/NAME/; it runs under libFuzzer (make fuzz, with clang)
 * or under driver.c (make check, and make fuzz without libFuzzer).  It
 * must not crash, hang, leak or print, whatever the bytes. */
#ifndef FLASHBENCH_FUZZ_H
#define FLASHBENCH_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (free it); NULL without memory.
 * An embedded NUL ends the text early, as it would in a file or argv. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (text) {
		memcpy(text, data, size);
		text[size] = '\0';
	}
	return text;
}

#endif
