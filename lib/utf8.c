/* utf8.c — UTF-8 checks and UTF-16 conversion (see utf8.h). */
#include "lib/utf8.h"

#include <stdlib.h>

size_t utf8_len(const unsigned char *p)
{
	size_t n;

	if (p[0] < 0x80)
		return 1;
	n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 && p[0] < 0xf0 ? 3 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
	for (size_t k = 1; k < n; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && p[0] == 0xe0 && p[1] < 0xa0) || (n == 3 && p[0] == 0xed && p[1] >= 0xa0) ||
	    (n == 4 && p[0] == 0xf0 && p[1] < 0x90) || (n == 4 && p[0] == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}

void utf8_printable(char *s)
{
	unsigned char *p = (unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p);
		if (!n || *p < 0x20 || *p == 0x7f || (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)) {
			for (size_t k = 0; k < (n ? n : 1); k++)
				*p++ = '?';
			continue;
		}
		p += n;
	}
}

int utf16_order(const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t even = 0, odd = 0, n = len < 80 ? len : 80;

	if (len >= 2 && p[0] == 0xff && p[1] == 0xfe)
		return 1;
	if (len >= 2 && p[0] == 0xfe && p[1] == 0xff)
		return 2;
	if (n < 4)
		return 0;
	for (size_t i = 0; i + 1 < n; i += 2) {
		even += !p[i] && p[i + 1];
		odd += p[i] && !p[i + 1];
	}
	return odd == n / 2 ? 1 : even == n / 2 ? 2 : 0;
}

size_t utf8_put(char *o, unsigned long c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | (c >> 6 & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | (c >> 12 & 0x3f));
	o[2] = (char)(0x80 | (c >> 6 & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

char *utf16_to_utf8(const char *text, size_t len, int order, size_t *out_len)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t units = len / 2, i = 0, o = 0;
	char *out = malloc(units * 3 + 1);

	if (!out)
		return NULL;
#define UNIT(k) (order == 1 ? (unsigned long)p[2 * (k)] | (unsigned long)p[2 * (k) + 1] << 8 \
			    : (unsigned long)p[2 * (k)] << 8 | (unsigned long)p[2 * (k) + 1])
	if (units && UNIT(0) == 0xfeff)
		i = 1;
	for (; i < units; i++) {
		unsigned long c = UNIT(i);
		if (c >= 0xd800 && c < 0xdc00 && i + 1 < units && UNIT(i + 1) >= 0xdc00 && UNIT(i + 1) < 0xe000) {
			c = 0x10000 + ((c - 0xd800) << 10) + (UNIT(i + 1) - 0xdc00);
			i++;
		} else if (c >= 0xd800 && c < 0xe000) {
			c = 0xfffd;
		}
		o += utf8_put(out + o, c);
	}
#undef UNIT
	out[o] = '\0';
	*out_len = o;
	return out;
}
