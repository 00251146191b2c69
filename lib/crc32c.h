/* crc32c.h — CRC-32C (Castagnoli), the checksum of the --preserve journal. */
#ifndef FLASHBENCH_CRC32C_H
#define FLASHBENCH_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC: start with crc32c(0, data, len). */
uint32_t crc32c(uint32_t crc, const void *data, size_t len);

#endif
