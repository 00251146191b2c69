/* crc32c.c — table-driven CRC-32C (polynomial 0x82F63B78, reflected). */
#include "lib/crc32c.h"

static uint32_t table[256];

static void make_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
		table[i] = c;
	}
}

uint32_t crc32c(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	if (!table[1])
		make_table();
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
