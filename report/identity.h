/* identity.h — the device under test as every output knows it: a plain
 * record (path, size, sectors, simulated or not, what the system says about
 * it, a simulated card's model), filled by the command line before the
 * reports run, and its JSON.  Outputs receive this record, never the
 * device. */
#ifndef FLASHBENCH_IDENTITY_H
#define FLASHBENCH_IDENTITY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dev.h"
#include "dev/devinfo.h"
#include "lib/json.h"

struct identity {
	const char *path;
	uint64_t size;
	unsigned sector, physical;
	int simulated;                               /* times come from a model (sim:) */
	struct devinfo info;                         /* what sysfs says (real devices) */
	struct json_member model[DEV_MODEL_MEMBERS]; /* a simulated card's model (dev_describe) */
	struct dev_card card;                        /* the card's registers and its host (dev_card) */
	char file[520];                              /* a file, or a device in front of one: how ("a loop
							device over /x/a.img"; "" when the target is none) */
};

/* The card's own word decoded (sdreg.h), for the reports: "SanDisk SN64G"
 * (its maker and product name from the CID), or NULL when the card shows
 * no CID. */
const char *identity_card_name(const struct identity *id, char *buf, size_t len);

/* The "tool" and "device" objects, first in every JSON output. */
void json_identity(struct json *j, const struct identity *id);

/* The text reports' heading: "flashbench --MODE: PATH, SIZE (N bytes),
 * N-byte sectors", what sysfs says of the device, that it is a file (no
 * flash device: every mode says so), a blank line. */
void identity_text(FILE *f, const char *mode, const struct identity *id);

#endif
