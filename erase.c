/* erase.c — the `erase DEVICE START LENGTH` helper (flashbench-erase when
 * installed): discards a range of a block device with BLKDISCARD, after the
 * same safety checks as the write tests and under the same claim on the
 * medium (refused on a mounted or otherwise used device, under any of its
 * names).  Help and errors use the name it was called by. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "dev.h"
#include "guard/claim.h"
#include "lib/err.h"
#include "lib/pin.h"
#include "lib/stdfds.h"
#include "lib/units.h"
#include "lib/version.h"

static const char *me = "erase";

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s DEVICE START LENGTH\n"
		"       %s --help | --version\n"
		"Discard (BLKDISCARD) LENGTH bytes of DEVICE from START; the data there is lost.\n"
		"Sizes take suffixes: 512, 24k, 4M, 1.5G.  Both must be multiples of the sector size.\n"
		"Refused on a device that is mounted, used as swap or held (like flashbench's write tests).\n"
		"Exit status: 0 success, 1 device error, 2 usage error.\n", me, me);
}

static int fail(const struct fb_err *e)
{
	fprintf(stderr, "%s: %s\n", me, e->msg);
	return e->status;
}

int main(int argc, char **argv)
{
	struct fb_err e = { 0 };
	uint64_t start, len, ns;
	struct claim *claim = NULL;
	struct dev *d = NULL;
	const char *why;
	char sz[32];
	int rc;

	if (argc > 0 && argv[0][0])
		me = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	/* a closed standard descriptor is held on /dev/null first: the lock
	 * file or the device opened later never becomes standard output */
	if (stdfds_hold() < 0)
		return EXIT_DEVICE;
	/* --help and --version take no argument, as in flashbench */
	for (int i = 1; i < argc && argc > 2; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "--version")) {
			fb_fail(&e, EXIT_USAGE, "%s takes no argument ('%s' is one; see %s --help)", argv[i],
				argv[i == 1 ? 2 : 1], me);
			return fail(&e);
		}
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--version")) {
			printf("%s (flashbench) %s\n", me, FLASHBENCH_VERSION);
			return 0;
		}
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && (argv[i][1] == '-' || isalpha((unsigned char)argv[i][1]))) {
			fb_fail(&e, EXIT_USAGE, "unknown option '%s' (usage: %s DEVICE START LENGTH, or --help)", argv[i],
				me);
			return fail(&e);
		}
	if (argc != 4) {
		fb_fail(&e, EXIT_USAGE, "expected DEVICE START LENGTH, got %d argument%s (usage: %s DEVICE START LENGTH)",
			argc - 1, argc == 2 ? "" : "s", me);
		return fail(&e);
	}
	if (parse_size(argv[2], &start, &why)) {
		fb_fail(&e, EXIT_USAGE, "START %s: %s", argv[2], why);
		return fail(&e);
	}
	if (parse_size(argv[3], &len, &why)) {
		fb_fail(&e, EXIT_USAGE, "LENGTH %s: %s", argv[3], why);
		return fail(&e);
	}
	if (len == 0) {
		fb_fail(&e, EXIT_USAGE, "LENGTH %s: must not be zero", argv[3]);
		return fail(&e);
	}
	/* the device is looked up by its name once: the checks, the claim and
	 * the discard concern that one device, whatever the name does */
	pin(argv[1]);
	if (claim_take_for(argv[1], SAFETY_ERASE, start, start + len, &claim, &e) || dev_open(&d, argv[1], DEV_READONLY, &e)) {
		claim_release(claim);
		return fail(&e);
	}
	if (start % dev_sector(d) || len % dev_sector(d)) {
		fb_fail(&e, EXIT_USAGE, "START and LENGTH must be multiples of the %u-byte sector size", dev_sector(d));
		goto out;
	}
	if (start >= dev_size(d) || len > dev_size(d) - start) {
		fb_fail(&e, EXIT_USAGE, "the range %llu+%llu ends past the end of %s (%llu bytes)",
			(unsigned long long)start, (unsigned long long)len, argv[1],
			(unsigned long long)dev_size(d));
		goto out;
	}
	if (!(dev_caps(d) & DEV_CAP_DISCARD)) {
		struct stat st;

		if (stat(argv[1], &st) == 0 && S_ISBLK(st.st_mode))
			fb_fail(&e, EXIT_DEVICE, "%s takes no discard (its queue's discard_max_bytes is 0: many USB "
				"sticks and card readers); nothing was erased", argv[1]);
		else
			fb_fail(&e, EXIT_DEVICE, "%s is not a block device; discard needs one", argv[1]);
		goto out;
	}
	if (dev_caps(d) & DEV_CAP_REOPEN_RW) {
		dev_close(d);
		d = NULL;
		if (dev_open(&d, argv[1], DEV_READWRITE, &e) || claim_recheck(claim, &e))
			goto out;
	}
	rc = dev_discard(d, start, len, &ns);
	if (rc) {
		fb_fail(&e, EXIT_DEVICE, "%s: discard failed: %s", argv[1],
			rc == -EOPNOTSUPP ? "the device does not support discard" : strerror(-rc));
		goto out;
	}
	format_size(sz, sizeof(sz), len);
	printf("discarded %llu bytes (%s) at %llu\n", (unsigned long long)len, sz, (unsigned long long)start);
	dev_close(d);
	claim_release(claim);
	return 0;
out:
	dev_close(d);
	claim_release(claim);
	return fail(&e);
}
