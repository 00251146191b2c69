/* classic_read.h — reads the classic text output back (-a align tables and
 * -O open-au tables, from the classic tool or ours) out of whatever it was
 * pasted into: a mail with "> " quoting, a web page whose tabs became
 * spaces, lines wrapped or run together, µ mangled into "u" or "Âµ", the
 * command lines and prose around the tables, wiki and markdown pipe tables,
 * HTML tags and entities left in a copy.  It keeps the rows and what the
 * command lines say about them (block size, erase size, --open-au-nr,
 * --random) and ignores the rest.  A table of several rate columns under a
 * header line of names is one -O table per column (one card each); without
 * a header after a --find-fat command, it is a find-fat table.  The -a
 * rows are as written: row_hygiene.h checks them.  Pure parsing: no
 * analysis, no output. */
#ifndef FLASHBENCH_CLASSIC_READ_H
#define FLASHBENCH_CLASSIC_READ_H

#include <stddef.h>
#include <stdint.h>

#include "prog/results.h"

#define SAVED_ALIGN_RUNS 8
#define SAVED_ALIGN_ROWS 64
#define SAVED_OPEN_TABLES 48
#define SAVED_OPEN_ROWS 32
#define SAVED_FAT_TABLES 4
#define SAVED_FAT_ROWS 32
#define SAVED_FAT_BLOCKS 32
#define SAVED_OTHER 8
#define SAVED_CARD_NAME 48
#define SAVED_NOTES 4
#define SAVED_TEXT_NOTES 8

/* Limits of what a device can have measured: a request that took longer
 * than SAVED_MAX_NS (about 3 hours), or less than nothing, is no
 * measurement; neither is a throughput beyond SAVED_MAX_RATE (10 TB/s). */
#define SAVED_MAX_NS 1e13
#define SAVED_MAX_RATE 1e13

/* How a time was written: its unit decides what a copy can have lost. */
enum time_unit { TU_NONE, TU_NS, TU_N, TU_US, TU_MS, TU_S };

/* One -a run: its rows in the order printed (largest alignment first). */
struct saved_align_run {
	uint64_t bs;                /* block size */
	int bs_given;               /* from the command line (else: half the smallest alignment) */
	unsigned line;              /* where the run starts (1-based) */
	unsigned copy_of;           /* the line of an earlier run it repeats row for row (0: none) */
	char card[SAVED_CARD_NAME]; /* the card it measured ("" when the text does not say) */
	unsigned computed_diffs;    /* rows whose diff was cut off: on - (pre+post)/2 */
	unsigned repaired, dropped; /* rows row_hygiene repaired, dropped */
	char notes[SAVED_NOTES][300];  /* what it repaired or dropped, and why */
	int nnotes;
	size_t n;
	struct align_row rows[SAVED_ALIGN_ROWS];
	/* as read, for row_hygiene: each row's line and the units of pre, on,
	 * post and diff (TU_NONE for a diff cut off, computed) */
	unsigned row_line[SAVED_ALIGN_ROWS];
	unsigned char unit[SAVED_ALIGN_ROWS][4];
};

/* Where a table's --open-au-nr comes from: its command line, a line a
 * loop echoed (--open-au-nr=$i), a label line a script printed ("AU nr = 3
 * random"), or the classic default of -O (2) for a command line that sets
 * none. */
enum nr_source { NR_UNKNOWN, NR_COMMAND, NR_ECHO, NR_LABEL, NR_DEFAULT };
#define CLASSIC_OPEN_AU_NR 2

/* One -O table: throughput per chunk size, largest chunk first. */
struct saved_open_table {
	unsigned nr;                /* --open-au-nr, 0 when not known */
	unsigned char nr_from;      /* enum nr_source */
	unsigned nr_line;           /* the line it was read from (the command line for NR_DEFAULT) */
	int random;
	uint64_t erase;             /* --erasesize (0: not given, the default 4MiB) */
	uint64_t bs;                /* --blocksize, 0 when not given */
	int interrupted;            /* ^C: the rows stop early */
	unsigned column;            /* a column of a table of several (1-based), 0: a table of its own */
	char card[SAVED_CARD_NAME]; /* the card: the column's name from the header line, else the card
	                             * heading or device above it; "" when the text does not say */
	unsigned line;
	size_t n;
	uint64_t size[SAVED_OPEN_ROWS];
	double rate[SAVED_OPEN_ROWS];   /* bytes per second */
};

/* One find-fat table: per chunk size (largest first), the throughput in
 * each of the first erase blocks. */
struct saved_fat_table {
	uint64_t erase;             /* --erasesize (0: not given, the default 4MiB) */
	unsigned line;
	char card[SAVED_CARD_NAME]; /* as for -O tables */
	unsigned nblocks;           /* columns: erase blocks 0 to nblocks-1 */
	size_t n;
	uint64_t size[SAVED_FAT_ROWS];
	double rate[SAVED_FAT_ROWS][SAVED_FAT_BLOCKS];   /* bytes per second */
};

/* A saved result of a test no finding rests on (--interval, --scatter, a
 * --program tree): named in the report, not analysed. */
struct saved_other {
	char test[16];
	unsigned line;
	size_t rows;
};

struct saved_text {
	size_t nalign, nopen, nfat, nother;
	struct saved_align_run align[SAVED_ALIGN_RUNS];
	struct saved_open_table open[SAVED_OPEN_TABLES];
	struct saved_fat_table fat[SAVED_FAT_TABLES];
	struct saved_other other[SAVED_OTHER];
	unsigned lines;             /* lines in the input */
	unsigned table_lines;       /* lines that held table rows */
	unsigned fat_rows;          /* find-fat rows read */
	unsigned json_results;      /* --json results read (0: classic text) */
	unsigned dropped;           /* rows beyond the limits above */
	unsigned cut_rows;          /* rows of a table of columns with cells missing (cut off), dropped */
	uint64_t card_erase;        /* preferred_erase_size the text quotes, 0 if none */
	char label[64];             /* the first label line read for --open-au-nr, as written */
	unsigned label_line;
	char notes[SAVED_TEXT_NOTES][300];  /* what the reader skipped, dropped or doubted, and why */
	int nnotes;
	unsigned notes_left;        /* notes beyond SAVED_TEXT_NOTES */
};

/* Add a note to t (what was skipped or doubted); counted when full. */
void saved_note(struct saved_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


/* The next table of one kind in t (KIND: align, open or fat), zeroed and
 * counted; NULL when every one is taken, and then the rows it would have
 * held count in t->dropped. */
void *saved_new_table(struct saved_text *t, void *tables, size_t *n, size_t max, size_t size, size_t rows);
#define SAVED_NEW_TABLE(t, KIND, rows)                                                              \
	saved_new_table((t), (t)->KIND, &(t)->n##KIND, sizeof((t)->KIND) / sizeof((t)->KIND[0]), \
			sizeof((t)->KIND[0]), (rows))

/* Parse len bytes of text.  Never fails: what is not a table is ignored. */
void classic_read(const char *text, size_t len, struct saved_text *out);

/* "1.08ms", "324µs", "324us", "324Âµs", "-49389n" and the classic tool's
 * unit-less "-412331" (nanoseconds): 0 and *ns, or -1.  *unit (may be
 * NULL) says how it was written. */
int classic_time(const char *s, double *ns, enum time_unit *unit);

#endif
