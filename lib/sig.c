/* sig.c — signature sectors (see sig.h). */
#include "lib/sig.h"

#include <string.h>

#include "lib/crc32c.h"
#include "lib/le.h"

static const char magic[8] = { 'F', 'B', 'S', 'I', 'G', 'N', 'A', 'T' };

/* splitmix64: the stream's seed from salt, offset and pass */
static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t stream_seed(uint64_t salt, uint64_t off, uint32_t pass)
{
	return mix(salt ^ mix(off + 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)pass << 40)) | 1;
}

/* xorshift64 words after the header, 8 bytes at a time */
static void stream(unsigned char *p, size_t n, uint64_t x)
{
	for (size_t i = 0; i + 8 <= n; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		le64_put(p + i, x);
	}
}

static int stream_equal(const unsigned char *p, size_t n, uint64_t x)
{
	for (size_t i = 0; i + 8 <= n; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (le64_get(p + i) != x)
			return 0;
	}
	return 1;
}

static void header(unsigned char *p, uint64_t salt, uint64_t off, uint32_t pass)
{
	memcpy(p, magic, 8);
	le64_put(p + 8, salt);
	le64_put(p + 16, off);
	for (int i = 0; i < 4; i++)
		p[24 + i] = (unsigned char)(pass >> (8 * i));
	uint32_t crc = crc32c(0, p, 28);
	for (int i = 0; i < 4; i++)
		p[28 + i] = (unsigned char)(crc >> (8 * i));
}

void sig_fill(void *buf, uint64_t off, uint64_t len, unsigned sector, uint64_t salt, uint32_t pass)
{
	unsigned char *p = buf;

	for (uint64_t at = 0; at + sector <= len; at += sector) {
		header(p + at, salt, off + at, pass);
		stream(p + at + SIG_HEADER, sector - SIG_HEADER, stream_seed(salt, off + at, pass));
	}
}

/* The header's fields when it is one of ours and intact. */
static int header_parse(const unsigned char *p, uint64_t *salt, uint64_t *off, uint32_t *pass)
{
	uint32_t crc = 0, want = crc32c(0, p, 28);

	if (memcmp(p, magic, 8))
		return 0;
	for (int i = 3; i >= 0; i--)
		crc = crc << 8 | p[28 + i];
	if (crc != want)
		return 0;
	*salt = le64_get(p + 8);
	*off = le64_get(p + 16);
	*pass = (uint32_t)p[24] | (uint32_t)p[25] << 8 | (uint32_t)p[26] << 16 | (uint32_t)p[27] << 24;
	return 1;
}

int sig_parse(const void *sector, unsigned size, uint64_t *salt, uint64_t *off, uint32_t *pass)
{
	const unsigned char *p = sector;

	if (size < SIG_HEADER || !header_parse(p, salt, off, pass))
		return 0;
	return stream_equal(p + SIG_HEADER, size - SIG_HEADER, stream_seed(*salt, *off, *pass));
}

void sig_check(const void *buf, uint64_t off, uint64_t len, unsigned sector, uint64_t salt, uint32_t pass,
	       struct sig_tally *t)
{
	const unsigned char *p = buf;

	for (uint64_t at = 0; at + sector <= len; at += sector) {
		uint64_t s, o;
		uint32_t ps;

		if (!sig_parse(p + at, sector, &s, &o, &ps) || s != salt) {
			t->foreign++;
			t->blank += !memcmp(p + at, p + at + 1, sector - 1); /* every byte as the first */
		} else if (o != off + at) {
			if (!t->moved) {
				t->moved_from = o;
				t->moved_at = off + at;
				t->moved_pass = ps;
			}
			t->moved++;
		} else if (ps != pass) {
			t->stale++;
		} else {
			t->good++;
			continue;
		}
		if (!t->bad_hi)
			t->bad_lo = off + at;
		t->bad_lo = off + at < t->bad_lo ? off + at : t->bad_lo;
		t->bad_hi = off + at + sector > t->bad_hi ? off + at + sector : t->bad_hi;
	}
}

void sig_tally_add(struct sig_tally *a, const struct sig_tally *b)
{
	if (!a->moved && b->moved) {
		a->moved_from = b->moved_from;
		a->moved_at = b->moved_at;
		a->moved_pass = b->moved_pass;
	}
	if (b->bad_hi) {
		a->bad_lo = !a->bad_hi || b->bad_lo < a->bad_lo ? b->bad_lo : a->bad_lo;
		a->bad_hi = b->bad_hi > a->bad_hi ? b->bad_hi : a->bad_hi;
	}
	a->good += b->good;
	a->moved += b->moved;
	a->stale += b->stale;
	a->foreign += b->foreign;
	a->blank += b->blank;
}
