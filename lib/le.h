/* le.h — 64-bit little-endian fields in byte buffers (signatures, the
 * simulated card's factory data). */
#ifndef FLASHBENCH_LE_H
#define FLASHBENCH_LE_H

#include <stdint.h>

static inline void le64_put(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint64_t le64_get(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

#endif
