/* utf8.h — text from outside made safe to print and to put in JSON: which
 * bytes form UTF-8, control bytes and broken sequences replaced, and UTF-16
 * (what some editors and shells save) turned into UTF-8.  No flash
 * knowledge. */
#ifndef FLASHBENCH_UTF8_H
#define FLASHBENCH_UTF8_H

#include <stddef.h>

/* The length of the UTF-8 sequence at p: 1 for an ASCII byte, 2 to 4 for a
 * well-formed multi-byte sequence, 0 when p does not start one. */
size_t utf8_len(const unsigned char *p);

/* Code point c written at o as UTF-8 (1 to 4 bytes); returns how many. */
size_t utf8_put(char *o, unsigned long c);

/* In place: every control byte (a terminal's escape sequences, C1 controls
 * included) and every byte not part of a UTF-8 sequence becomes '?'. */
void utf8_printable(char *s);

/* Is text[0..len) UTF-16?  1 little-endian, 2 big-endian (a byte-order
 * mark, or a zero byte beside every ASCII one in its first line), 0 not. */
int utf16_order(const char *text, size_t len);

/* text[0..len) in UTF-16 of that order as a new NUL-terminated UTF-8
 * string (its byte-order mark dropped, unpaired surrogates as U+FFFD);
 * *out_len its length.  NULL when memory ran out. */
char *utf16_to_utf8(const char *text, size_t len, int order, size_t *out_len);

#endif
