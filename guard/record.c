/* record.c — what journals and index entries record of a medium
 * (record.h). */
#include "guard/record.h"

#include <stdio.h>
#include <string.h>

void record_of(const struct medium *m, struct record *r)
{
	memset(r, 0, sizeof(*r));
	r->m = *m;
	medium_identity(m, r->text, sizeof(r->text));
	r->is_block = m->kind == MEDIUM_DISK || m->how[0];
	r->number = m->kind == MEDIUM_FILE ? m->ino : m->dev;
	r->disk = m->dev;
}

/* Is what was recorded the medium now (exact: the same window too)?  A
 * record from before identities matches only loosely (never exactly). */
int record_is(const struct record *was, const struct medium *now, int exact)
{
	if (!was->legacy)
		return medium_matches(&was->m, now, exact);
	if (exact)
		return 0;
	return now->kind == MEDIUM_FILE ? was->number == now->ino && (!was->disk || was->disk == now->dev)
					: was->number == now->dev || was->disk == now->dev;
}

void record_describe(const struct record *r, char *buf, size_t len)
{
	if (!r->legacy)
		snprintf(buf, len, "%s", r->text);
	else
		snprintf(buf, len, "%s %llu, recorded before flashbench recorded the medium's identity",
			 r->is_block ? "device number" : "inode", (unsigned long long)r->number);
}

/* What the journal whose header is jh recorded of its medium. */
void record_of_header(const struct journal_header *jh, struct record *r)
{
	memset(r, 0, sizeof(*r));
	if (!medium_parse_identity(jh->identity, &r->m)) {
		snprintf(r->text, sizeof(r->text), "%.*s", JOURNAL_IDENTITY - 1, jh->identity);
		return;
	}
	r->legacy = 1;
	r->number = jh->dev_number;
	r->is_block = jh->identity[0] != '\0';
}

/* Is the journal whose header is jh one of the medium m?  exact: the same
 * bytes, for --restore. */
int record_header_is(const struct journal_header *jh, const struct medium *m, int exact)
{
	struct record r;

	record_of_header(jh, &r);
	return record_is(&r, m, exact);
}
