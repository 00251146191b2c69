/* crc32c.c — CRC-32C (polynomial 0x82F63B78, reflected), eight bytes at a
 * time from eight tables ("slicing by 8"): the journal checksums every byte
 * it saves and puts back, and a byte at a time made that most of a
 * --capacity run's own time. */
#include "lib/crc32c.h"

static uint32_t table[8][256];

static void make_tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
		table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xff];
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t crc32c(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	if (!table[0][1])
		make_tables();
	crc = ~crc;
	for (; len >= 8; len -= 8, p += 8) {
		uint32_t lo = crc ^ le32(p), hi = le32(p + 4);
		crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^ table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
		      table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^ table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
	}
	while (len--)
		crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
