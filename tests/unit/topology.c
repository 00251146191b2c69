/* tests/unit/topology.c — what devices share, over dumped trees
 * (tests/sysroot/: a hub with three sticks, a four-slot reader, two
 * controllers and a PCIe lane two USB 3 sticks share, an SD host, NVMe, a
 * loop over a file) and for simulated cards on buses: each device's port
 * and links, and the groups whose timing phases take turns, with the line
 * the map prints for each.  None needs root. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/topology.h"
#include "tests/unit/unit.h"

/* The groups of paths as text: "sdb sdc sdd1: WHY | sde: WHY | ..." */
static void grouping(const char *const *paths, size_t n, char *out, size_t len)
{
	struct topo *t = calloc(n, sizeof(*t));
	struct topo_map m;
	size_t k = 0;

	out[0] = '\0';
	if (!t)
		return;
	for (size_t i = 0; i < n; i++)
		topo_of(paths[i], &t[i]);
	if (topo_group(t, n, &m)) {
		free(t);
		snprintf(out, len, "out of memory");
		return;
	}
	for (size_t g = 0; g < m.ngroups; g++) {
		char why[300];
		k += (size_t)snprintf(out + k, k < len ? len - k : 0, "%s", g ? " | " : "");
		for (size_t i = 0, first = 1; i < n; i++)
			if (m.group[i] == g) {
				const char *b = strrchr(paths[i], '/');
				k += (size_t)snprintf(out + k, k < len ? len - k : 0, "%s%s", first ? "" : " ", b ? b + 1 : paths[i]);
				first = 0;
			}
		topo_group_why(&m.g[g], why, sizeof(why));
		k += (size_t)snprintf(out + k, k < len ? len - k : 0, ": %s", why);
	}
	topo_map_free(&m);
	free(t);
}

/* One device's links, as "id,id,...", and its port and serial. */
static void links(const char *path, char *out, size_t len)
{
	struct topo t;
	size_t k = 0;

	topo_of(path, &t);
	if (!t.known) {
		snprintf(out, len, "not known: %s", t.why);
		return;
	}
	for (size_t i = 0; i < t.n; i++)
		k += (size_t)snprintf(out + k, k < len ? len - k : 0, "%s%s", i ? "," : "", t.link[i].id);
	snprintf(out + k, k < len ? len - k : 0, "; port %s; serial %s; %s", t.port, t.serial[0] ? t.serial : "-",
		 t.product[0] ? t.product : "-");
}

struct topo_case {
	const char *tree;
	const char *paths[8];   /* one: its links; several: their groups */
	const char *want;
};

#define HUB "take turns: USB hub 1-1 (480 Mbit/s) carries ~41M/s of reads, ~33M/s of writes in all; the 3 " \
	    "cards behind it could move ~123M/s"
#define ALONE "side by side: it shares no link too slow for it with another card"

static const struct topo_case cases[] = {
	/* a hub with three sticks: they take turns; the stick on the other
	 * root port and the USB 3 one run beside them (xHCI: a root port's
	 * bandwidth is its own) */
	{ "usb-hub", { "/dev/sdb" },
	  "pci 0000:00:14.0,usb1,usb1 port 1,usb 1-1,usb 1-1.1; port usb 1-1.1; serial S0001; Generic Flash Disk" },
	{ "usb-hub", { "/dev/sdd1" },
	  "pci 0000:00:14.0,usb1,usb1 port 1,usb 1-1,usb 1-1.4; port usb 1-1.4; serial S0003; Generic Flash Disk" },
	{ "usb-hub", { "/dev/sdb", "/dev/sdc", "/dev/sdd1", "/dev/sde", "/dev/sdf" },
	  "sdb sdc sdd1: " HUB " | sde: " ALONE " | sdf: " ALONE },
	{ "usb-hub", { "/dev/sdb", "/dev/sde", "/dev/sdf" }, "sdb: " ALONE " | sde: " ALONE " | sdf: " ALONE },
	{ "usb-hub", { "/dev/sdb", "/dev/sdc" },
	  "sdb sdc: take turns: USB hub 1-1 (480 Mbit/s) carries ~41M/s of reads, ~33M/s of writes in all; the 2 "
	  "cards behind it could move ~82M/s" },
	/* a four-slot reader: one USB device, four LUNs that take turns; on
	 * EHCI a stick on another port shares the whole bus with it */
	{ "reader", { "/dev/sdh" },
	  "pci 0000:00:1d.0,usb2,usb 2-3; port usb 2-3 lun 1; serial 000000001536; Generic USB3.0 CRW" },
	{ "reader", { "/dev/sdg", "/dev/sdh", "/dev/sdi", "/dev/sdj" },
	  "sdg sdh sdi sdj: take turns: the 4 are slots of one USB device 2-3, USB3.0 CRW, which takes one "
	  "command at a time" },
	{ "reader", { "/dev/sdg", "/dev/sdk" },
	  "sdg sdk: take turns: USB bus 2 (480 Mbit/s) carries ~41M/s of reads, ~33M/s of writes in all; the 2 "
	  "cards behind it could move ~82M/s" },
	/* two controllers: each EHCI's bus is shared by its ports, the two
	 * are apart; two USB 3 sticks share one PCIe lane; SD and NVMe alone */
	{ "controllers", { "/dev/sda", "/dev/sdb", "/dev/sdc", "/dev/sdd", "/dev/sde", "/dev/mmcblk0", "/dev/nvme0n1" },
	  "sda sdb: take turns: USB bus 1 (480 Mbit/s) carries ~41M/s of reads, ~33M/s of writes in all; the 2 "
	  "cards behind it could move ~82M/s | sdc: " ALONE " | sdd sde: take turns: xHCI USB controller "
	  "0000:03:00.0 (4000 Mbit/s) carries ~425M/s of reads, ~425M/s of writes in all; the 2 cards behind "
	  "it could move ~880M/s | mmcblk0: " ALONE " | nvme0n1: " ALONE },
	{ "controllers", { "/dev/mmcblk0" }, "pci 0000:00:05.0,mmc0; port mmc0; serial 0xdeadbeef; QEMU!" },
	{ "controllers", { "/dev/nvme0n1" },
	  "pci 0000:00:04.0,nvme0; port nvme0; serial S4EWNX0R123456; Samsung SSD 970 EVO" },
	/* what cannot be mapped: a loop over a file on a file system with no
	 * disk (the tree's files are on the test's scratch file system), a
	 * device that is gone */
	{ "loop-file", { "/dev/loop0" },
	  "not known: loop0, a loop device over /images/card.img, on a file system with no disk under it (tmpfs, "
	  "overlay, btrfs, a network file system)" },
	{ "usb-hub", { "/dev/sdz" }, "not known: /dev/sdz cannot be found" },
};

static void tree_cases(void)
{
	char root[4096] = "", why[512], got[2048], name[128];
	const char *tree = NULL;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct topo_case *c = &cases[i];
		size_t n = 0;
		while (n < 8 && c->paths[n])
			n++;
		if (n > 1)
			snprintf(name, sizeof(name), "topology: %s: %zu devices grouped, from %s (case %zu)", c->tree, n,
				 c->paths[0], i);
		else
			snprintf(name, sizeof(name), "topology: %s: the links of %s", c->tree, c->paths[0]);
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
		if (n == 1)
			links(c->paths[0], got, sizeof(got));
		else
			grouping(c->paths, n, got, sizeof(got));
		check(!strcmp(got, c->want), name, "got  %s\n  want %s", got, c->want);
	}
	if (tree)
		unit_tree_end(root);
}

/* Simulated cards: a bus is a link; cards on one that together could move
 * more than it carries take turns, those that could not, and those on
 * buses of their own, run side by side; a card without a bus is not known */
static void sim_cases(void)
{
	static const char *const hub[] = { "sim:sd-4m,bus=h,link=41M", "sim:sd-4m,bus=h,link=41M",
					   "sim:sd-4m,bus=other,link=41M", "sim:sd-4m" };
	static const char *const slow[] = { "sim:sd-4m,rrate=4M,wrate=4M,bus=h,link=41M",
					    "sim:sd-4m,rrate=4M,wrate=4M,bus=h,link=41M" };
	static const char *const seen[] = { "sim:sd-4m,bus=h,link=41M,mapbus=a", "sim:sd-4m,bus=h,link=41M,mapbus=b" };
	char got[2048];

	grouping(hub, 4, got, sizeof(got));
	check(!strcmp(got, "sim:sd-4m,bus=h,link=41M sim:sd-4m,bus=h,link=41M: take turns: simulated link h carries "
		      "43M/s in all; the 2 cards on it could move 83.9M/s | sim:sd-4m,bus=other,link=41M: " ALONE
		      " | sim:sd-4m: " ALONE),
	      "topology: sims on one bus take turns, one on its own bus and one without runs beside them", "got %s", got);
	grouping(slow, 2, got, sizeof(got));
	check(!strcmp(got, "sim:sd-4m,rrate=4M,wrate=4M,bus=h,link=41M: " ALONE
		      " | sim:sd-4m,rrate=4M,wrate=4M,bus=h,link=41M: " ALONE),
	      "topology: two slow sims that cannot fill their bus together run side by side", "got %s", got);
	grouping(seen, 2, got, sizeof(got));
	check(strstr(got, ": " ALONE " | ") != NULL,
	      "topology: mapbus= shows the map another link (sharing it cannot see)", "got %s", got);
	links("sim:sd-4m", got, sizeof(got));
	check(!strcmp(got, "not known: a simulated card with no bus= key: where it is plugged in is not known"),
	      "topology: a sim without a bus is not known", "got %s", got);
}

/* Two unknown devices take turns with each other (one at a time) */
static void unknown_cases(void)
{
	static const char *const two[] = { "sim:sd-4m", "sim:usb-12m", "sim:ssd,bus=x,link=400M" };
	char got[1024];

	grouping(two, 3, got, sizeof(got));
	check(!strcmp(got, "sim:sd-4m sim:usb-12m: one at a time: where these 2 are plugged in is not known | "
		      "sim:ssd,bus=x,link=400M: " ALONE),
	      "topology: devices whose map cannot be read go one at a time", "got %s", got);
}

/* The check's finding joins two groups, which then take turns */
static void join_case(void)
{
	static const char *const cards[] = { "sim:sd-4m,bus=a,link=41M", "sim:sd-4m,bus=b,link=41M",
					     "sim:sd-4m,bus=c,link=41M" };
	struct topo t[3];
	struct topo_map m;
	char why[300];

	for (int i = 0; i < 3; i++)
		topo_of(cards[i], &t[i]);
	if (topo_group(t, 3, &m)) {
		check(0, "topology: joined by the check", "out of memory");
		return;
	}
	topo_join(&m, 2, 0, "reading together slowed them 2.0x: a link no map shows");
	topo_group_why(&m.g[m.group[0]], why, sizeof(why));
	check(m.ngroups == 2 && m.group[0] == 0 && m.group[2] == 0 && m.group[1] == 1 && m.g[0].turns &&
	      m.g[0].members == 2 && !strcmp(why, "take turns: reading together slowed them 2.0x: a link no map shows"),
	      "topology: the check's finding joins two groups, which take turns", "groups %zu: %zu %zu %zu, %s",
	      m.ngroups, m.group[0], m.group[1], m.group[2], why);
	topo_map_free(&m);
}

void unit_topology(void)
{
	tree_cases();
	sim_cases();
	unknown_cases();
	join_case();
}
