/* tests/fuzz/journal.c — fuzzes the --preserve journal reader
 * (journal_walk_buffer): whatever the bytes, every item it reports lies in
 * the journal and moves forward, and every record it calls good fits the
 * header's own limits and carries its data.  Each input is read as it is,
 * and again with its header checksum made right, so that mutations of the
 * header's fields reach the record walk. */
#include "lib/crc32c.h"
#include "fuzz.h"
#include "guard/journal.h"

struct check {
	const struct journal_header *jh;
	size_t size;
	uint64_t next;          /* items must start at or after this */
};

static int item(void *ctx, const struct journal_item *it)
{
	struct check *c = ctx;

	if (it->pos < c->next || it->pos < JOURNAL_HEADER || it->end > c->size || it->end <= it->pos)
		abort();
	if (it->kind == JOURNAL_GOOD &&
	    (!it->data || !it->len || it->len > c->jh->max_record || it->len % c->jh->sector ||
	     it->off % c->jh->sector || it->off + it->len > c->jh->dev_size ||
	     it->end != it->pos + JOURNAL_RECORD + it->len))
		abort();
	if (it->kind != JOURNAL_GOOD && (!it->why || !*it->why))
		abort();
	c->next = it->end;
	return 0;
}

static void walk(const uint8_t *data, size_t size)
{
	struct journal_header jh;
	struct check c = { &jh, size, 0 };
	const char *why = NULL;

	if (journal_walk_buffer(data, size, &jh, &why, item, &c) < 0 && (!why || !*why))
		abort(); /* a refused header must say why */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;
	uint32_t crc;

	walk(data, size);
	if (size < JOURNAL_HEADER || !(copy = malloc(size)))
		return 0;
	memcpy(copy, data, size);
	crc = crc32c(0, copy, JOURNAL_HEADER - 4);
	for (int i = 0; i < 4; i++)
		copy[JOURNAL_HEADER - 4 + i] = (uint8_t)(crc >> (8 * i));
	walk(copy, size);
	free(copy);
	return 0;
}
