/* wrap.c — text laid out for a person (see wrap.h). */
#include "lib/wrap.h"

#include <stdlib.h>
#include <string.h>

#include "lib/utf8.h"

/* The bytes of the character at p (a broken byte: one). */
static size_t char_len(const char *p)
{
	size_t n = utf8_len((const unsigned char *)p);

	return n ? n : 1;
}

size_t text_width(const char *text)
{
	size_t w = 0;

	for (const char *p = text; *p; p += char_len(p))
		w++;
	return w;
}

size_t text_cut(char *s, size_t width)
{
	size_t w = 0, at = 0;

	while (s[at] && w < width) {
		at += char_len(s + at);
		w++;
	}
	s[at] = '\0';
	return at;
}

/* The bytes of text[0..len) that fit in `room` columns, ending at a space
 * (or the whole first word, when it alone is wider); *skip: the spaces
 * after the cut. */
static size_t fit(const char *text, size_t len, size_t room, size_t *skip)
{
	size_t at = 0, w = 0, cut = 0;

	while (at < len && w <= room) {
		if (text[at] == ' ')
			cut = at;
		if (w == room)
			break;
		at += char_len(text + at);
		w++;
	}
	if (at >= len && w <= room) /* the rest fits */
		cut = len;
	else if (!cut) /* one word wider than the line */
		for (cut = 0; cut < len && text[cut] != ' '; cut++)
			;
	while (cut > 0 && cut < len && text[cut - 1] == ' ')
		cut--;
	for (*skip = 0; cut + *skip < len && text[cut + *skip] == ' '; (*skip)++)
		;
	return cut;
}

int wrap_text(FILE *f, int width, const char *first, const char *rest, const char *text)
{
	const char *indent = first;
	int out = 0;

	do {
		size_t len = strcspn(text, "\n"), in = text_width(indent), skip = 0;
		size_t room = (size_t)width > in ? (size_t)width - in : 1;
		size_t n = fit(text, len, room, &skip);
		int rc = fprintf(f, "%s%.*s\n", indent, (int)n, text);
		if (rc < 0)
			return rc;
		out += rc;
		text += n + skip;
		if (*text == '\n' && n + skip == len)
			text++;
		indent = rest;
	} while (*text);
	return out;
}

int wrap_vprintf(FILE *f, int width, const char *first, const char *rest, const char *fmt, va_list ap)
{
	char small[512], *text = small;
	va_list again;
	int n, rc;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small) && (text = malloc((size_t)n + 1)))
		vsnprintf(text, (size_t)n + 1, fmt, again);
	va_end(again);
	if (n < 0)
		return n;
	rc = wrap_text(f, width, first, rest, text ? text : small);
	if (text != small)
		free(text);
	return rc;
}

int wrap_printf(FILE *f, int width, const char *first, const char *rest, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = wrap_vprintf(f, width, first, rest, fmt, ap);
	va_end(ap);
	return rc;
}

int report_para(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = wrap_vprintf(f, WRAP_REPORT, "", WRAP_EVIDENCE, fmt, ap);
	va_end(ap);
	return rc;
}

int report_evidence(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = wrap_vprintf(f, WRAP_REPORT, WRAP_EVIDENCE, WRAP_HANG, fmt, ap);
	va_end(ap);
	return rc;
}

int vnote(const char *fmt, va_list ap)
{
	int rc = wrap_vprintf(stderr, WRAP_LINE, "flashbench: ", "  ", fmt, ap);

	return fflush(stderr) ? -1 : rc;
}

int note(const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vnote(fmt, ap);
	va_end(ap);
	return rc;
}

const char *text_pad(char *buf, size_t len, const char *s, int width)
{
	size_t w = text_width(s), want = (size_t)(width < 0 ? -width : width);
	int pad = w < want ? (int)(want - w) : 0;

	if (width < 0)
		snprintf(buf, len, "%*s%s", pad, "", s);
	else
		snprintf(buf, len, "%s%*s", s, pad, "");
	return buf;
}
