/* CRC32C in software (pregel_crc.c), self-contained so that a test can
 * compile it in and check it against the known answers. */
#ifndef SGL_PREGEL_CRC_H
#define SGL_PREGEL_CRC_H

#include <stddef.h>
#include <stdint.h>

/* The CRC32C of @n bytes at @data, continuing @crc (0 to start): the
 * CRC of a whole is that of its parts chained through @crc. */
uint32_t sgl__crc32c(uint32_t crc, const void *data, size_t n);

#endif
