/* sdreg.h — the SD card's own word: its registers as Linux shows them in
 * sysfs (cid, csd: 32 hex digits; scr: 16; ssr, the SD Status: 128), decoded
 * into what they say: who made the card and when, its capacity and the
 * version of the spec it follows, the speed marks it claims (Speed Class,
 * UHS Speed Grade, Video Speed Class, Application Performance Class) and the
 * allocation unit (AU) those marks are measured in.  Pure functions from hex
 * strings to structs; reading sysfs is devinfo's.
 *
 * The layouts are the SD Physical Layer Simplified Specification's (version
 * 9.10, 2023): CID table 5-2 (section 5.2), CSD 5.3 (versions 1.0, 2.0 and
 * 3.0), SCR table 5-17, SD Status table 4-44 with sections 4.10.2.x; bit N
 * of a register of W bits is bit N % 8 of byte (W - 1 - N) / 8 of the hex
 * string, first digit most significant, as drivers/mmc/core prints them.
 *
 * The marks (sd_marks) are what the spec promises of each: Speed Class
 * 2/4/6/10 and UHS Speed Grade 1/3 a minimum sequential write (Pw) of
 * 2/4/6/10 and 10/30 MB/s, Video Speed Class 6..90 of 6..90 MB/s, the
 * Application Performance Classes A1/A2 random 4 KiB IOPS (1500/500,
 * 4000/2000 read/write) and 10 MB/s sustained (section 4.16.1).  MB/s there
 * is 10^6 bytes per second, a MB of data 2^20 bytes (section 3.x note). */
#ifndef FLASHBENCH_SDREG_H
#define FLASHBENCH_SDREG_H

#include <stddef.h>
#include <stdint.h>

/* Card IDentification register. */
struct sd_cid {
	unsigned mid;          /* manufacturer ID (assigned by the SD Association) */
	const char *maker;     /* its name from the table (sd_maker), NULL when not in it */
	char oem[3];           /* OEM/application ID: two characters, '?' where not printable */
	char name[6];          /* product name: five characters, '?' where not printable */
	unsigned hwrev, fwrev; /* product revision n.m (the kernel's hwrev, fwrev) */
	uint32_t serial;
	unsigned year, month; /* manufacturing date (month 1-12; 0 when the field says none) */
};

/* Card-Specific Data register. */
struct sd_csd {
	unsigned version;       /* 1, 2 or 3 (CSD_STRUCTURE + 1): SDSC, SDHC/SDXC, SDUC */
	uint64_t capacity;      /* user area, bytes */
	unsigned ccc;           /* card command classes (bit n: class n) */
	unsigned max_rate_kbit; /* TRAN_SPEED: the bus's rate, kbit/s (0: a reserved code) */
};

/* SD CARD Configuration Register. */
struct sd_scr {
	const char *spec;    /* "1.0", "1.10", "2.00", "3.0X", "4.XX" ... "9.XX", or "?" */
	unsigned bus_widths; /* bit 0: 1-bit, bit 2: 4-bit */
	unsigned security;   /* SD_SECURITY: 0 none, 2 SDSC, 3 SDHC, 4 SDXC */
	unsigned
		cmd_support; /* bit 0: CMD20 (speed class control), 1: CMD23, 2: CMD48/49, 3: CMD58/59 */
	int erased_ones; /* DATA_STAT_AFTER_ERASE: erased data reads as 1s */
};

/* The SD Status (ACMD13): what the card promises. */
struct sd_ssr {
	int blank;              /* all 64 bytes zero: the card (QEMU's) or host gave nothing */
	unsigned bus_width;     /* 1 or 4 (0: reserved) */
	unsigned card_type;     /* 0: regular read/write card */
	unsigned speed_code;    /* SPEED_CLASS as written (0-4; above: reserved) */
	unsigned speed_class;   /* 0, 2, 4, 6 or 10 (a reserved code: 10, the highest) */
	unsigned pm;            /* PERFORMANCE_MOVE, MB/s (0xff: infinite) */
	uint64_t au;            /* AU_SIZE, bytes (0: not defined) */
	unsigned erase_size;    /* AUs erased within erase_timeout (0: not supported) */
	unsigned erase_timeout; /* seconds */
	unsigned erase_offset;  /* seconds */
	unsigned uhs_code;      /* UHS_SPEED_GRADE as written */
	unsigned uhs_grade;     /* 0, 1 or 3 (a reserved code: 3, the highest) */
	uint64_t uhs_au;        /* UHS_AU_SIZE, bytes (0: not defined) */
	unsigned vsc;           /* VIDEO_SPEED_CLASS: 0, 6, 10, 30, 60, 90 */
	int vsc_reserved;       /* VIDEO_SPEED_CLASS held another value (vsc is then 0) */
	unsigned vsc_au_mib;    /* VSC_AU_SIZE, MiB (0: video speed class not supported) */
	unsigned su_mib; /* the sub-unit (SU) that AU size binds, MiB (table 4-56; 0: not in it) */
	unsigned app_code; /* APP_PERF_CLASS as written */
	unsigned app_perf; /* 0, 1 or 2 (a reserved code: 2, the highest defined) */
	unsigned cq_depth; /* command queue depth needed for A2 (0: no command queue) */
	int cache;         /* supports a cache */
	int host_maint, card_maint;
	int discard, fule; /* DISCARD_SUPPORT, FULE_SUPPORT */
};

/* Decode a register from its sysfs text: hex digits, upper or lower case,
 * surrounded by white space at most (a trailing newline).  0, or -1 when
 * the text is not exactly that many digits. */
int sd_decode_cid(const char *hex, struct sd_cid *c);
int sd_decode_csd(const char *hex, struct sd_csd *c);
int sd_decode_scr(const char *hex, struct sd_scr *s);
int sd_decode_ssr(const char *hex, struct sd_ssr *s);

/* A manufacturer ID's name from the table in sdreg.c (its sources are
 * cited there; the IDs are not published by the SD Association, so the
 * names are what cards were seen to carry), or NULL. */
const char *sd_maker(unsigned mid);

/* ------------------------------------------------------------ the marks */

enum sd_family { SD_FAMILY_CLASS, SD_FAMILY_UHS, SD_FAMILY_VIDEO, SD_FAMILY_APP, SD_FAMILIES };

struct sd_mark {
	const char *name; /* "C10", "U3", "V30", "A2" */
	enum sd_family family;
	unsigned level; /* 10, 3, 30, 2: the number in the name */
	double mbps;    /* minimum sequential write, 10^6 bytes/s (A1/A2: sustained) */
	unsigned read_iops, write_iops; /* A1/A2: random 4 KiB at least (0: none) */
};

/* The marks, lowest first within each family (NULL name past the last). */
extern const struct sd_mark sd_marks[];
#define SD_MARKS 13

/* The mark called name (case-insensitive: "c10", "U3", "v30"), or NULL;
 * "10" and "class10" name C10 too, "UHS-I" is no mark. */
const struct sd_mark *sd_mark_find(const char *name);

/* The next lower mark of the same family (NULL below the lowest). */
const struct sd_mark *sd_mark_below(const struct sd_mark *m);

/* The highest mark of each family the SD Status claims: out[family] (NULL:
 * none claimed).  Returns how many families claim one. */
unsigned sd_ssr_claims(const struct sd_ssr *s, const struct sd_mark *out[SD_FAMILIES]);

/* The AU the card states for a mark's measurement: UHS_AU_SIZE for a UHS
 * grade when it is defined, the video AU for a video class, else AU_SIZE
 * (0: the card states none). */
uint64_t sd_ssr_au_for(const struct sd_ssr *s, const struct sd_mark *m);

/* The figures a mark is judged by (the spec's quantities), and their
 * names in --json ("pw", "sustained", ...). */
enum sd_figure {
	SD_FIG_NONE,
	SD_FIG_PW,         /* the lowest write speed of a (sub-)unit of a free AU written in RUs */
	SD_FIG_SUSTAINED,  /* the same later in a long recording (past a cache, pSLC, throttling) */
	SD_FIG_BUSY,       /* one write's busy time (UHS: at most 250 ms) */
	SD_FIG_PR,         /* the read speed of random RUs (at least the mark) */
	SD_FIG_FAT,        /* FAT update writes: 100 ms on average over 8, 750 ms each */
	SD_FIG_READ_IOPS,  /* random 4 KiB reads per second, one at a time */
	SD_FIG_WRITE_IOPS, /* random 4 KiB writes per second, one at a time */
	SD_FIG_READ_IOPS_Q, /* the same with requests queued (A2: command queue) */
	SD_FIG_WRITE_IOPS_Q,
	SD_FIG_QUEUE, /* no command queue (A2 needs one) */
	SD_FIG_PSSW,  /* sustained sequential write over 1 GiB in 4 MiB writes */
	SD_FIGURES
};
extern const char *const sd_figure_name[SD_FIGURES];

/* UHS Speed Grade measurement: no write busy longer than this (table 4-65). */
#define SD_UHS_BUSY_NS 250000000.0
/* FAT update cycles (4.13.1.7): at most this on average over 8, and each. */
#define SD_FAT_AVG_NS 100000000.0
#define SD_FAT_MAX_NS 750000000.0
/* A recording may begin with this much preparation (4.13.3.4). */
#define SD_PREPARE_NS 1000000000.0
/* The recording unit of Class 10, UHS and Video Speed Class: 512 KiB;
 * the unit performance is measured in: 4 MiB (4.13.2.2.1). */
#define SD_RU (512u << 10)
#define SD_SUB_UNIT (4u << 20)

/* Write the 128 hex digits of an SD Status claiming these marks (NULL:
 * none of that family) with AU au (bytes: written as the nearest AU_SIZE
 * code at or below it), a command queue of cq_depth (0: none) and a cache:
 * how a simulated card reports its word.  buf holds 129 bytes. */
void sd_ssr_encode(char buf[129], const struct sd_mark *claims[SD_FAMILIES], uint64_t au,
		   unsigned cq_depth, int cache);

#endif
