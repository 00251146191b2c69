/* topology.h — what a device shares on its way to the host, from sysfs
 * (through lib/sysroot.h): the PCI controller and the PCIe links above it,
 * the USB bus, the root port (xHCI gives each its own bandwidth), the hub
 * chain (1-1.4), the USB device itself (a multi-slot reader is one USB
 * device whose LUNs take turns: usb-storage keeps one command outstanding
 * per device), a SCSI, SD/MMC or NVMe host; each with its speed.  A loop
 * device or a file follows the disk it lies on.  A simulated card's link is
 * its bus= key (dev/simlink.h).  Where the map cannot be read (a card
 * removed, device-mapper, a sim without a bus, a file system with no disk)
 * topo_of says so, and the grouping times such devices one at a time.
 *
 * Grouping: devices whose timings would spoil each other's take turns.  For
 * each link that two or more devices of a batch lie behind: a link whose
 * devices take turns anyway (one USB device's LUNs, an NVMe controller's
 * namespaces, one disk under several files), or one shared at a rate not
 * known (a SCSI host), binds them all; a link of known rate binds them when
 * what they could move through it together (each device's own bottleneck
 * below it) is more than it carries.  A link that is not a shared limit (an
 * xHCI bus, whose root ports each have their own bandwidth; a PCI device
 * on the root complex, whose link speed sysfs does not show) binds nothing.
 * Devices bound through any link form one group, whose timing phases take
 * turns; every other device runs side by side.  No I/O to any device. */
#ifndef FLASHBENCH_TOPOLOGY_H
#define FLASHBENCH_TOPOLOGY_H

#include <stddef.h>

enum topo_kind {
	TOPO_PCI,          /* a PCI function: a controller, or a PCIe port above it */
	TOPO_CONTROLLER,   /* a controller sysfs shows without PCI (a platform device) */
	TOPO_USB_BUS,      /* a USB bus (its root hub) */
	TOPO_USB_PORT,     /* a root port of an xHCI bus */
	TOPO_USB_HUB,      /* a hub: its link upstream */
	TOPO_USB_DEVICE,   /* the USB device the storage is (a stick, a reader) */
	TOPO_HOST,         /* a SCSI, SATA, SD/MMC, NVMe or virtio host */
	TOPO_DISK,         /* the disk under a loop device or a file */
	TOPO_SIM_BUS,      /* a simulated link (the sim keys bus=, link=) */
	TOPO_UNKNOWN,      /* the devices whose map cannot be read (one, for all of them) */
	TOPO_MEASURED,     /* sharing found by timing (the batch's check), not in the map */
};

enum topo_limit {
	TOPO_NO_LIMIT,     /* not a shared limit */
	TOPO_RATE,         /* shared, carries rate bytes/s in all */
	TOPO_TURNS,        /* its devices take turns whatever their speed */
	TOPO_SHARED,       /* shared, at a rate not known: taken as one that binds */
};

#define TOPO_ID 64
#define TOPO_NAME 96

struct topo_link {
	enum topo_kind kind;
	enum topo_limit limit;
	char id[TOPO_ID];      /* unique on this machine: "usb 1-1.4", "pci 0000:00:14.0", "sim hub1" */
	char name[TOPO_NAME];  /* for the map: "USB 2.0 hub 1-1", "QEMU USB HARDDRIVE" */
	double mbps;           /* its speed, Mbit/s (0: not known) */
	double rate;           /* bytes/s it carries in all, reads (0: not known) */
	double write_rate;     /* the same for writes */
};

#define TOPO_LINKS 16
#define TOPO_WHY 256

struct topo {
	int known;                     /* 0: the map cannot be read; why says why */
	char why[TOPO_WHY];
	char port[TOPO_ID];            /* where it is plugged in: "usb 1-1.4.2", "usb 1-3 lun 2", "mmc0" */
	char serial[80];               /* the USB device's serial, an SD card's or NVMe's ("": none) */
	char product[TOPO_NAME];       /* the USB device's maker and product ("": none) */
	struct topo_link link[TOPO_LINKS]; /* from the host down to the device's own */
	size_t n;
};

/* The topology of path (a block device, a partition, a regular file, or
 * "sim:..."; a pinned name, lib/pin.h, is the file it named).  Always
 * fills t; t->known 0 with t->why when the map cannot be read. */
void topo_of(const char *path, struct topo *t);

/* The fastest the device itself can go: the least known rate of its links
 * from index from down (0: not known). */
double topo_own_rate(const struct topo *t, size_t from);

struct topo_group {
	size_t members;
	int turns;                     /* its timing phases take turns (two or more members) */
	struct topo_link by;           /* the link that binds them (turns) */
	double demand;                 /* what they could move through it together, bytes/s (0: not known) */
};

struct topo_map {
	size_t n;                      /* devices */
	size_t *group;                 /* [n]: the group of each */
	struct topo_group *g;          /* [ngroups], in the order of their first members */
	size_t ngroups;
};

/* Group the n devices (t[i] for each).  0, or -1 when memory runs out. */
int topo_group(const struct topo *t, size_t n, struct topo_map *m);
void topo_map_free(struct topo_map *m);

/* Put the groups of devices a and b in one, which takes turns (the batch's
 * check found them sharing a link): by says how it was found. */
void topo_join(struct topo_map *m, size_t a, size_t b, const char *by);

/* Why group g takes turns or not, one line for the map:
 * "take turns: USB hub 1-1 (480 Mbit/s) carries ~41MB/s of reads, ~33MB/s
 * of writes in all; the 3 cards behind it could move ~123MB/s" */
void topo_group_why(const struct topo_group *g, char *buf, size_t len);

/* The rates of a USB link of that speed in Mbit/s (reads, writes): what a
 * bulk storage device moves through it in practice. */
void topo_usb_rates(double mbps, double *rate, double *write_rate);

#endif
