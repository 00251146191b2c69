/* tests/unit/sysroot.c — the medium and every refusal over dumped trees
 * (tests/sysroot/NAME.tree, replayed by tree.c): what a path resolves to, and
 * what the run's claim refuses (a mounted partition, swap, a btrfs device,
 * a loop over the file, a partition of a loop, dm and md holders, a mount
 * in another namespace, a writer) with the exact message the CLI prints
 * after "flashbench: ", and what it lets through.  None needs root: these
 * pass as any user (tests/sysroot.sh runs them as nobody). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dev/devinfo.h"
#include "dev/medium.h"
#include "guard/claim.h"
#include "lib/sysroot.h"
#include "tests/unit/unit.h"

#define UNMOUNT "unmount it before a write test (read-only tests such as -a still work)"
#define HOLDER "a holder (device-mapper, md or similar) of"
#define STOP "stop it first (dmsetup remove, mdadm --stop)"
#define SDB1 "/dev/sdb1, a partition of /dev/sdb,"
#define LOOP0 "/dev/loop0, a loop device over /images/card.img,"
#define LOOP0P1 "/dev/loop0p1, a partition of /dev/loop0, which is a loop device over " \
		"/images/card.img,"
#define CARD "/media/user/CARD"
#define BTRFS "5d6f0e8a-3c1b-4b7e-9a55-2f7c1e0b9d41"

/* What the claim of path for use (bytes [lo, hi) of it; hi 0: all) says
 * over a tree: the refusal, or NULL when it lets the run through.  The
 * cases of one tree follow each other (it is replayed once for them). */
struct refusal_case {
	const char *tree, *path;
	enum safety_use use;
	uint64_t lo, hi;
	const char *want;
};

#define W SAFETY_WRITE_TEST
#define MiB (1 << 20)

static const struct refusal_case refusals[] = {
	/* nothing of the removable media in use: no refusal; the system disk is */
	{ "base", "/dev/sdb", W, 0, 0, NULL },
	{ "base", "/dev/sdc", W, 0, 0, NULL },
	{ "base", "/dev/mmcblk0", SAFETY_ERASE, 0, 0, NULL },
	{ "base", "/dev/nvme0n1", W, 0, 0,
	  "/dev/nvme0n1 is in use: /dev/nvme0n1p1, a partition of /dev/nvme0n1, is mounted on /; "
	  UNMOUNT },
	/* a mounted partition: its disk and itself are refused, its sibling
	 * and the bytes before it are not; a range that reaches it is */
	{ "mounted-partition", "/dev/sdb", W, 0, 0,
	  "/dev/sdb is in use: " SDB1 " is mounted on " CARD "; " UNMOUNT },
	{ "mounted-partition", "/dev/sdb1", SAFETY_ERASE, 0, 0,
	  "/dev/sdb1 is in use: /dev/sdb1 is mounted on " CARD "; unmount it before erasing" },
	{ "mounted-partition", "/dev/sdb", SAFETY_RESTORE, 0, 0,
	  "/dev/sdb is in use: " SDB1 " is mounted on " CARD "; unmount it before --restore" },
	{ "mounted-partition", "/dev/sdb2", W, 0, 0, NULL },
	{ "mounted-partition", "/dev/sdb", W, 0, MiB, NULL },
	{ "mounted-partition", "/dev/sdb", W, MiB - 4096, MiB + 4096,
	  "/dev/sdb is in use: " SDB1 " is mounted on " CARD "; " UNMOUNT },
	/* swap: a partition, and a file (through a loop over it, and itself) */
	{ "swap", "/dev/sdb", W, 0, 0,
	  "/dev/sdb is in use: /dev/sdb2, a partition of /dev/sdb, is an active swap area; run "
	  "swapoff /dev/sdb2 first" },
	{ "swap", "/dev/sdb1", W, 0, 0, NULL },
	{ "swapfile", "/dev/loop0", W, 0, 0,
	  "/dev/loop0 is in use: /images/swap.img, the file behind it, is an active swap area; run "
	  "swapoff /images/swap.img first" },
	{ "swapfile", "/images/swap.img", W, 0, 0,
	  "/images/swap.img is in use: /images/swap.img is an active swap area; run swapoff "
	  "/images/swap.img first" },
	/* a btrfs device: the one it is mounted from is found by the mount's
	 * source, the other only through /sys/fs/btrfs */
	{ "btrfs", "/dev/sdb", W, 0, 0,
	  "/dev/sdb is in use: " SDB1 " is a device of the btrfs file system " BTRFS ", mounted on "
	  "/srv/pool; " UNMOUNT },
	{ "btrfs", "/dev/sdc", W, 0, 0,
	  "/dev/sdc is in use: /dev/sdc is mounted on /srv/pool; " UNMOUNT },
	{ "btrfs", "/dev/sdb2", W, 0, 0, NULL },
	/* a loop over the file: the file, and a second loop over it */
	{ "loop-file", "/images/card.img", W, 0, 0,
	  "/images/card.img is in use: " LOOP0 " is mounted on /mnt/img; " UNMOUNT },
	{ "loop-file", "/dev/loop1", SAFETY_ERASE, 0, 0,
	  "/dev/loop1 is in use: " LOOP0 " is mounted on /mnt/img; unmount it before erasing" },
	{ "loop-file", "/images/other.img", W, 0, 0, NULL },
	{ "loop-file", "/images/card.img", SAFETY_OUTPUT, 0, 0,
	  "/images/card.img is in use: " LOOP0 " is mounted on /mnt/img; name another file" },
	/* a partition of a loop over the file: the file and the loop; the
	 * partition table before it is free */
	{ "loop-partition", "/images/card.img", W, 0, 0,
	  "/images/card.img is in use: " LOOP0P1 " is mounted on /mnt/lp; " UNMOUNT },
	{ "loop-partition", "/dev/loop0", W, 0, 0,
	  "/dev/loop0 is in use: " LOOP0P1 " is mounted on /mnt/lp; " UNMOUNT },
	{ "loop-partition", "/images/card.img", W, 0, MiB, NULL },
	/* another mount namespace */
	{ "namespace", "/dev/sdb", W, 0, 0,
	  "/dev/sdb is in use: " SDB1 " is mounted on /mnt/ns in the mount namespace of process "
	  "4194310 (sleep); " UNMOUNT },
	{ "namespace", "/dev/sdc", W, 0, 0, NULL },
	/* holders: device-mapper, idle and mounted; md */
	{ "dm", "/dev/sdb", W, 0, 0,
	  "/dev/sdb is in use: /dev/dm-0 (lin) is " HOLDER " /dev/sdb; " STOP },
	{ "dm", "/dev/sdb1", W, 0, 0,
	  "/dev/sdb1 is in use: /dev/dm-0 (lin) is " HOLDER " /dev/sdb; " STOP },
	{ "dm", "/dev/sdc", W, 0, 0, NULL },
	{ "dm-mounted", "/dev/sdb", W, 0, 0,
	  "/dev/sdb is in use: /dev/dm-0, " HOLDER " /dev/sdb, is mounted on /mnt/lin; " UNMOUNT },
	{ "md", "/dev/sdc", W, 0, 0,
	  "/dev/sdc is in use: /dev/md0 (raid1) is " HOLDER " /dev/sdc; " STOP },
	{ "md", "/dev/mmcblk0", W, 0, 0, NULL },
	/* a program with the device open for writing (udev's read-only probe
	 * of sdb, in every tree, is no refusal) */
	{ "writer", "/dev/sdc", W, 0, 0,
	  "/dev/sdc is in use: process 4194320 (qemu-system-x86) has /dev/sdc open for writing; "
	  "stop it first" },
	{ "writer", "/dev/sdb", W, 0, 0, NULL },
};

static const char *const use_name[] = {
	[SAFETY_WRITE_TEST] = "write test",
	[SAFETY_ERASE] = "erase",
	[SAFETY_RESTORE] = "--restore",
	[SAFETY_OUTPUT] = "output",
};

/* The state directory (the claims' lock files): a temporary one. */
static int state_dir_for_tests(char *dir, size_t len)
{
	snprintf(dir, len, "%s/flashbench-state.XXXXXX", unit_scratch());
	return mkdtemp(dir) ? setenv("FLASHBENCH_STATE_DIR", dir, 1) : -1;
}

static void case_name(const struct refusal_case *c, char *name, size_t len)
{
	char range[64] = "";

	if (c->hi)
		snprintf(range, sizeof(range), ", bytes %llu to %llu", (unsigned long long)c->lo,
			 (unsigned long long)c->hi - 1);
	snprintf(name, len, "sysroot: %s.tree: %s (%s%s) is %s", c->tree, c->path, use_name[c->use],
		 range, c->want ? "refused" : "let through");
}

static void test_refusals(void)
{
	char state[256], root[256] = "", *was = getenv("FLASHBENCH_STATE_DIR");
	const char *tree = NULL; /* the tree replayed at root */

	was = was ? strdup(was) : NULL;
	if (state_dir_for_tests(state, sizeof(state))) {
		check(0, "sysroot: refusals", "no state directory for the claims' locks");
		free(was);
		return;
	}
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct refusal_case *c = &refusals[i];
		char name[200], why[512];
		struct fb_err e = { 0 };
		struct claim *cl = NULL;
		int rc;
		case_name(c, name, sizeof(name));
		if (!tree || strcmp(tree, c->tree)) {
			if (tree)
				unit_tree_end(root);
			tree = NULL;
			if (unit_tree(c->tree, root, sizeof(root), why, sizeof(why))) {
				check(0, name, "%s", why);
				continue;
			}
			tree = c->tree;
		}
		rc = claim_take_for(c->path, c->use, c->lo, c->hi, &cl, &e);
		claim_release(cl);
		if (c->want)
			check(rc && !strcmp(e.msg, c->want), name, "got %s\n  want %s",
			      rc ? e.msg : "no refusal", c->want);
		else
			check(!rc, name, "refused: %s", e.msg);
	}
	if (tree)
		unit_tree_end(root);
	if (was)
		setenv("FLASHBENCH_STATE_DIR", was, 1);
	else
		unsetenv("FLASHBENCH_STATE_DIR");
	free(was);
	rmdir(state); /* the lock files are removed by claim_release */
}

/* ------------------------------------------------------------ the medium */

static int start(const char *tree, const char *test, char *root, size_t len)
{
	char why[512];

	if (!unit_tree(tree, root, len, why, sizeof(why)))
		return 0;
	check(0, test, "%s", why);
	return -1;
}

static unsigned ma(uint64_t d)
{
	return major((dev_t)d);
}

static unsigned mi(uint64_t d)
{
	return minor((dev_t)d);
}

/* A partition resolves to its disk, with its window; the SD card's CID is
 * its serial; devinfo reads the card's registers and the stick's names. */
static void test_disk(void)
{
	char root[256], id[200];
	struct medium m;
	struct devinfo di;

	if (start("base", "sysroot: base.tree: the medium of /dev/sdb1", root, sizeof(root)))
		return;
	medium_of("/dev/sdb1", &m);
	check(m.kind == MEDIUM_DISK && m.dev == makedev(8, 16) && m.offset == MiB &&
	      m.size == 512 * MiB && !strcmp(m.how, "a partition of /dev/sdb"),
	      "sysroot: base.tree: /dev/sdb1 is bytes 1MiB..513MiB of sdb",
	      "kind %d dev %u:%u offset %llu size %llu how \"%s\"", m.kind, ma(m.dev), mi(m.dev),
	      (unsigned long long)m.offset, (unsigned long long)m.size, m.how);
	medium_of("/dev/mmcblk0", &m);
	medium_identity(&m, id, sizeof(id));
	check(!strcmp(id, "medium=disk:179:0;offset=0;serial=aa585951454d552101deadbeef006200"),
	      "sysroot: base.tree: an SD card's identity carries its CID", "%s", id);
	devinfo_read("/dev/mmcblk0", &di);
	check(di.n == 8 && !strcmp(di.name[0], "serial") && !strcmp(di.value[0], "0xdeadbeef") &&
	      !strcmp(di.name[7], "type") && !strcmp(di.value[7], "SD"),
	      "sysroot: base.tree: devinfo reads the SD card's registers", "%d fields, first %s=%s",
	      di.n, di.n ? di.name[0] : "", di.n ? di.value[0] : "");
	devinfo_read("/dev/sdb", &di);
	check(di.n == 2 && !strcmp(di.value[0], "Generic") && !strcmp(di.value[1], "Flash Disk"),
	      "sysroot: base.tree: devinfo reads a USB stick's vendor and model", "%d fields",
	      di.n);
	unit_tree_end(root);
}

/* A partition of a loop over a file is a window of that file, found by the
 * name sysfs shows (the test cannot ask the loop device). */
static void test_loop_partition(void)
{
	const char *test = "sysroot: loop-partition.tree: /dev/loop0p1 is a window of the file";
	char root[256];
	struct medium m, file;

	if (start("loop-partition", test, root, sizeof(root)))
		return;
	medium_of("/dev/loop0p1", &m);
	medium_of("/images/card.img", &file);
	check(medium_same(&m, &file) && m.offset == MiB && m.size == 129024ull * 512 &&
	      !strcmp(m.how, "a partition of /dev/loop0, which is a loop device over "
			     "/images/card.img"),
	      test, "kind %d offset %llu how \"%s\"", m.kind, (unsigned long long)m.offset, m.how);
	unit_tree_end(root);
}

/* The aliases of a disk held by dm-0: its partitions and the holder. */
static void test_holder_aliases(void)
{
	const char *test = "sysroot: dm.tree: sdb's aliases: sdb, sdb1, sdb2, dm-0 (a holder)";
	char root[256], got[200] = "";
	struct medium m;
	struct medium_aliases a;
	int holder_ok = 0;
	size_t n = 0;

	if (start("dm", test, root, sizeof(root)))
		return;
	medium_of("/dev/sdb", &m);
	if (!medium_aliases(&m, &a)) {
		n = a.n;
		for (size_t i = 0; i < a.n; i++) {
			size_t k = strlen(got);
			snprintf(got + k, sizeof(got) - k, "%s%s", k ? " " : "", a.v[i].name);
			if (!strcmp(a.v[i].name, "dm-0"))
				holder_ok = a.v[i].holder && !strcmp(a.v[i].node, "/dev/dm-0");
		}
		medium_aliases_free(&a);
	}
	check(holder_ok && strstr(got, "sdb1") && strstr(got, "sdb2") && n == 4, test,
	      "aliases: %s", got);
	unit_tree_end(root);
}

/* The media under a file on a btrfs: every device of it (the one walk of
 * /sys/fs/btrfs), found from the mount by the path's longest prefix (the
 * file's own device number is the scratch directory's). */
static void test_btrfs_under(void)
{
	const char *test = "sysroot: btrfs.tree: a file on the btrfs lies on both its devices";
	char root[256], link[64];
	struct medium out[8];
	struct stat st;
	size_t n;

	if (start("btrfs", test, root, sizeof(root)))
		return;
	/* the scratch directory's own device must not be one of the tree's */
	if (!sysroot_stat("/srv/pool/result.json", &st) &&
	    sysroot_exists(sysroot_path(link, sizeof(link), SYSROOT_BLOCK_BY_NUMBER, "%u:%u",
					major(st.st_dev), minor(st.st_dev)))) {
		printf("SKIP %s: the scratch directory's device %u:%u is one of the tree's\n", test,
		       major(st.st_dev), minor(st.st_dev));
		unit_tree_end(root);
		return;
	}
	n = medium_under("/srv/pool/result.json", out, 8);
	check(n == 2 && out[0].kind == MEDIUM_DISK && out[0].dev == makedev(8, 32) &&
	      out[1].kind == MEDIUM_DISK && out[1].dev == makedev(8, 16) && out[1].offset == MiB,
	      test, "%zu media, the first %u:%u", n, n ? ma(out[0].dev) : 0,
	      n ? mi(out[0].dev) : 0);
	unit_tree_end(root);
}

/* The module itself: paths made, /dev names read, a path too long names
 * nothing; and a tree is really read in place of / (and / again after). */
static void test_paths(void)
{
	char p[32], root[256];
	struct stat st;
	int ok;

	sysroot_path(p, sizeof(p), SYSROOT_BLOCK_BY_NUMBER, "%u:%u", 8u, 17u);
	check(!strcmp(p, "/sys/dev/block/8:17"), "sysroot: a path under /sys/dev/block", "%s", p);
	sysroot_path(p, sizeof(p), SYSROOT_PROC, NULL);
	check(!strcmp(p, "/proc"), "sysroot: the directory itself", "%s", p);
	sysroot_path(p, 16, SYSROOT_BLOCK, "%s", "a-long-name");
	check(!strcmp(p, ""), "sysroot: a path that does not fit names nothing", "%s", p);
	check(sysroot_dev_name("/dev/sdb1") && !strcmp(sysroot_dev_name("/dev/sdb1"), "sdb1") &&
	      !sysroot_dev_name("/dev/") && !sysroot_dev_name("/devices/x") &&
	      !sysroot_dev_name("sdb1"), "sysroot: the name of a /dev node", "%s", "wrong");
	sysroot_self_fd(7, p, sizeof(p));
	check(!strcmp(p, "/proc/self/fd/7"), "sysroot: this process's descriptor", "%s", p);
	if (start("base", "sysroot: base.tree: read in place of /", root, sizeof(root)))
		return;
	/* a PID above the kernel's limit: only the tree has it */
	ok = !sysroot_stat("/dev/sdb", &st) && S_ISBLK(st.st_mode) &&
	     st.st_rdev == makedev(8, 16) && sysroot_exists("/proc/4194305/comm");
	unit_tree_end(root);
	check(ok, "sysroot: base.tree: is read in place of / (/dev/sdb is its block device 8:16)",
	      "%s", "not found");
	check(!sysroot_exists("/proc/4194305/comm"),
	      "sysroot: once the tree is gone, / is read again", "%s", "still the tree's");
}

void unit_sysroot(void)
{
	test_paths();
	test_disk();
	test_loop_partition();
	test_holder_aliases();
	test_btrfs_under();
	test_refusals();
}
