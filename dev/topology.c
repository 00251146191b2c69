/* topology.c — a device's links to the host read from sysfs, and devices
 * grouped by the links they share (topology.h). */
#include "dev/topology.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "dev.h"
#include "dev/medium.h"
#include "dev/sim.h"
#include "lib/err.h"
#include "lib/pin.h"
#include "lib/sysroot.h"
#include "lib/units.h"

#define MAX_DEPTH 4          /* loops over files on disks over loops ... */
#define TOPO_SLACK 0.02      /* a link filled to 2% past its rate is full, not overfull: rates are rounded */

/* ------------------------------------------------------------ rates */

/* What bulk storage moves through a USB link of each speed in practice
 * (reads, writes; bytes/s): USB 2.0's 480 Mbit/s give ~41 MB/s of reads
 * and ~33 MB/s of writes for the whole link; the rest scaled alike. */
static const struct { double mbps, rate, write_rate; } usb_rates[] = {
	{ 1.5, 0.1e6, 0.1e6 }, { 12, 1.1e6, 0.9e6 }, { 480, 41e6, 33e6 },
	{ 5000, 440e6, 400e6 }, { 10000, 900e6, 800e6 }, { 20000, 1800e6, 1600e6 },
};

void topo_usb_rates(double mbps, double *rate, double *write_rate)
{
	for (size_t i = 0; i < sizeof(usb_rates) / sizeof(usb_rates[0]); i++)
		if (mbps == usb_rates[i].mbps) {
			*rate = usb_rates[i].rate;
			*write_rate = usb_rates[i].write_rate;
			return;
		}
	*rate = mbps * 1e6 / 8 * 0.7;
	*write_rate = *rate * 0.8;
}

/* A PCIe link: "8.0 GT/s PCIe" x width; lanes up to 5 GT/s code 8 bits in
 * 10, faster ones 128 in 130; the rate keeps 85% of that (packet headers). */
static int pcie_rate(const char *speed, const char *width, double *mbps, double *rate)
{
	double gts, w;

	if (sscanf(speed, "%lf GT/s", &gts) != 1 || gts <= 0 || sscanf(width, "%lf", &w) != 1 || w <= 0)
		return -1;
	*mbps = gts * (gts <= 5 ? 0.8 : 128.0 / 130) * w * 1000;
	*rate = *mbps * 1e6 / 8 * 0.85;
	return 0;
}

double topo_own_rate(const struct topo *t, size_t from)
{
	double r = 0;

	for (size_t k = from; k < t->n; k++)
		if (t->link[k].rate > 0 && (r == 0 || t->link[k].rate < r))
			r = t->link[k].rate;
	return r;
}

/* ------------------------------------------------------------ the walk */

/* The map cannot be read: why is fmt with what (cut to fit) for its %s. */
static void unknown(struct topo *t, const char *fmt, const char *what) __attribute__((format(printf, 2, 0)));
static void unknown(struct topo *t, const char *fmt, const char *what)
{
	char w[160];

	t->known = 0;
	t->n = 0;
	snprintf(w, sizeof(w), "%.159s", what);
	snprintf(t->why, sizeof(t->why), fmt, w);
}

static struct topo_link *add(struct topo *t, enum topo_kind kind, enum topo_limit limit, const char *id)
{
	struct topo_link *l;

	if (t->n == TOPO_LINKS) /* deeper than any real chain: the last one stands for the rest */
		t->n--;
	l = &t->link[t->n++];
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	l->limit = limit;
	snprintf(l->id, sizeof(l->id), "%s", id);
	return l;
}

static void usb_link(struct topo_link *l, double mbps)
{
	l->mbps = mbps;
	topo_usb_rates(mbps, &l->rate, &l->write_rate);
}

static int attr(const char *dir, const char *name, char *buf, size_t len)
{
	return medium_read_attr(dir, name, buf, len);
}

static double attr_num(const char *dir, const char *name)
{
	char buf[32];

	return attr(dir, name, buf, sizeof(buf)) ? 0 : strtod(buf, NULL);
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* What a PCI function is, by its class ("0x0c0330"). */
static const char *pci_what(unsigned cls)
{
	static const struct { unsigned cls; const char *what; } kinds[] = {
		{ 0x0c0330, "xHCI USB controller" }, { 0x0c0320, "EHCI USB controller" },
		{ 0x0c0310, "OHCI USB controller" }, { 0x0c0300, "UHCI USB controller" },
		{ 0x010802, "NVMe controller" }, { 0x080501, "SD host controller" },
		{ 0x010601, "SATA controller" },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].cls == cls)
			return kinds[i].what;
	return (cls >> 8) == 0x0604 ? "PCIe port" : "PCI device";
}

/* Does the controller at dir give each root port its own bandwidth
 * (xHCI)?  By its PCI class, else by its driver's name. */
static int is_xhci(const char *dir)
{
	char buf[PATH_MAX + 16], real[PATH_MAX];

	if (attr(dir, "class", buf, sizeof(buf)) == 0)
		return strtoul(buf, NULL, 16) == 0x0c0330;
	snprintf(buf, sizeof(buf), "%s/driver", dir);
	return sysroot_realpath(buf, real) && strstr(base(real), "xhci");
}

/* How many LUNs the SCSI target at dir has. */
static int luns(const char *dir)
{
	DIR *dp = sysroot_opendir(dir);
	struct dirent *de;
	unsigned a, b, c, d;
	int n = 0;

	while (dp && (de = readdir(dp)))
		n += sscanf(de->d_name, "%u:%u:%u:%u", &a, &b, &c, &d) == 4;
	if (dp)
		closedir(dp);
	return n;
}

struct walk {
	struct topo *t;
	char cur[PATH_MAX];      /* the directory reached */
	char ctrl[PATH_MAX];     /* the controller (the last PCI or platform device) */
	int usb, xhci, port_added, ata;
	unsigned bus;
	double bus_mbps;
};

/* One component of the device's sysfs path, name, now at w->cur: the link
 * it is, if any.  Returns 1 at "block" (the end). */
static int step(struct walk *w, const char *name)
{
	struct topo *t = w->t;
	struct topo_link *l;
	char buf[TOPO_NAME], id[TOPO_ID], *c;
	unsigned a, b, cc, d;
	int n = 0;

	if (!strcmp(name, "block"))
		return 1;
	if (sscanf(name, "pci%x:%x%n", &a, &b, &n) == 2 && !name[n])
		return 0; /* the root complex */
	if (sscanf(name, "%x:%x:%x.%x%n", &a, &b, &cc, &d, &n) == 4 && !name[n]) {
		char speed[48], width[16];
		unsigned cls = attr(w->cur, "class", buf, sizeof(buf)) ? 0 : (unsigned)strtoul(buf, NULL, 16);
		snprintf(id, sizeof(id), "pci %s", name);
		l = add(t, TOPO_PCI, TOPO_NO_LIMIT, id);
		snprintf(l->name, sizeof(l->name), "%s %s", pci_what(cls), name);
		if (!attr(w->cur, "current_link_speed", speed, sizeof(speed)) &&
		    !attr(w->cur, "current_link_width", width, sizeof(width)) &&
		    !pcie_rate(speed, width, &l->mbps, &l->rate)) {
			l->limit = TOPO_RATE;
			l->write_rate = l->rate;
		}
		snprintf(w->ctrl, sizeof(w->ctrl), "%s", w->cur);
		return 0;
	}
	if (sscanf(name, "usb%u%n", &a, &n) == 1 && !name[n] && !attr(w->cur, "busnum", buf, sizeof(buf))) {
		w->usb = 1;
		w->bus = a;
		w->xhci = w->ctrl[0] && is_xhci(w->ctrl);
		w->bus_mbps = attr_num(w->cur, "speed");
		snprintf(id, sizeof(id), "usb%u", a);
		l = add(t, TOPO_USB_BUS, w->xhci ? TOPO_NO_LIMIT : TOPO_RATE, id);
		usb_link(l, w->bus_mbps);
		snprintf(l->name, sizeof(l->name), "USB bus %u%s", a, w->xhci ? " (xHCI: each root port its own)" : "");
		return 0;
	}
	if (w->usb && strchr(name, '-') && !strchr(name, ':') && !attr(w->cur, "devpath", buf, sizeof(buf))) {
		char prod[TOPO_NAME / 2] = "", maker[TOPO_NAME / 2] = "";
		double mbps = attr_num(w->cur, "speed");
		if (w->xhci && !w->port_added) {
			w->port_added = 1;
			snprintf(id, sizeof(id), "usb%u port %u", w->bus, (unsigned)atoi(buf));
			l = add(t, TOPO_USB_PORT, TOPO_RATE, id);
			usb_link(l, w->bus_mbps);
			snprintf(l->name, sizeof(l->name), "root port %u of USB bus %u", (unsigned)atoi(buf), w->bus);
		}
		attr(w->cur, "product", prod, sizeof(prod));
		attr(w->cur, "manufacturer", maker, sizeof(maker));
		snprintf(id, sizeof(id), "usb %s", name);
		if (attr_num(w->cur, "maxchild") > 0) {
			l = add(t, TOPO_USB_HUB, TOPO_RATE, id);
			snprintf(l->name, sizeof(l->name), "USB hub %s", name);
		} else {
			l = add(t, TOPO_USB_DEVICE, TOPO_TURNS, id);
			snprintf(l->name, sizeof(l->name), "USB device %.30s%s%.50s", name, prod[0] ? ", " : "", prod);
			snprintf(t->port, sizeof(t->port), "usb %s", name);
			snprintf(t->product, sizeof(t->product), "%s%s%s", maker, maker[0] && prod[0] ? " " : "", prod);
			if (attr(w->cur, "serial", t->serial, sizeof(t->serial)))
				t->serial[0] = '\0';
		}
		usb_link(l, mbps);
		return 0;
	}
	if (sscanf(name, "ata%u%n", &a, &n) == 1 && !name[n]) {
		w->ata = 1;
		l = add(t, TOPO_HOST, TOPO_NO_LIMIT, name);
		snprintf(l->name, sizeof(l->name), "SATA port %s", name);
		snprintf(t->port, sizeof(t->port), "%s", name);
		return 0;
	}
	if (sscanf(name, "host%u%n", &a, &n) == 1 && !name[n]) {
		if (w->usb || w->ata)
			return 0; /* usb-storage has a host per USB device; AHCI one per port */
		snprintf(id, sizeof(id), "scsi %s", name);
		l = add(t, TOPO_HOST, TOPO_SHARED, id);
		snprintf(l->name, sizeof(l->name), "SCSI host %u", a);
		snprintf(t->port, sizeof(t->port), "scsi %s", name);
		return 0;
	}
	if (sscanf(name, "%u:%u:%u:%u%n", &a, &b, &cc, &d, &n) == 4 && !name[n]) {
		char target[PATH_MAX];
		snprintf(target, sizeof(target), "%s", w->cur);
		if ((c = strrchr(target, '/')))
			*c = '\0';
		if (t->port[0] && (d > 0 || luns(target) > 1))
			snprintf(t->port + strlen(t->port), sizeof(t->port) - strlen(t->port), " lun %u", d);
		return 0;
	}
	if (sscanf(name, "mmc%u%n", &a, &n) == 1) {
		if (!name[n]) {
			l = add(t, TOPO_HOST, TOPO_SHARED, name);
			snprintf(l->name, sizeof(l->name), "SD/MMC host %s", name);
			snprintf(t->port, sizeof(t->port), "%s", name);
		} else if (name[n] == ':') { /* the card */
			attr(w->cur, "serial", t->serial, sizeof(t->serial));
			attr(w->cur, "name", t->product, sizeof(t->product));
		}
		return 0;
	}
	if (sscanf(name, "nvme%u%n", &a, &n) == 1 && !name[n]) {
		l = add(t, TOPO_HOST, TOPO_TURNS, name);
		snprintf(l->name, sizeof(l->name), "NVMe controller %s", name);
		snprintf(t->port, sizeof(t->port), "%s", name);
		attr(w->cur, "serial", t->serial, sizeof(t->serial));
		attr(w->cur, "model", t->product, sizeof(t->product));
		return 0;
	}
	if (sscanf(name, "virtio%u%n", &a, &n) == 1 && !name[n]) {
		l = add(t, TOPO_HOST, TOPO_TURNS, name);
		snprintf(l->name, sizeof(l->name), "virtio device %s", name);
		snprintf(t->port, sizeof(t->port), "%s", name);
		return 0;
	}
	/* a controller without PCI (a platform device), known by its driver */
	snprintf(buf, sizeof(buf), "%.80s/driver", w->cur);
	if (!w->usb && strlen(w->cur) < 80 && sysroot_exists(buf)) {
		snprintf(id, sizeof(id), "controller %s", name);
		l = add(t, TOPO_CONTROLLER, TOPO_NO_LIMIT, id);
		snprintf(l->name, sizeof(l->name), "controller %s", name);
		snprintf(w->ctrl, sizeof(w->ctrl), "%s", w->cur);
	}
	return 0;
}

static void block_topo(dev_t rdev, struct topo *t, int depth);

/* The disk under a file system of device number fs, as a last link that
 * its files share: what "what" (a file, a loop's file) lies on. */
static void on_disk(dev_t fs, struct topo *t, const char *what, int depth)
{
	char link[64], dir[PATH_MAX], part[PATH_MAX + 16], id[TOPO_ID];
	struct topo_link *l;

	sysroot_path(link, sizeof(link), SYSROOT_BLOCK_BY_NUMBER, "%u:%u", major(fs), minor(fs));
	if (!sysroot_realpath(link, dir)) {
		unknown(t, "%s on a file system with no disk under it (tmpfs, overlay, btrfs, a network file "
			"system)", what);
		return;
	}
	snprintf(part, sizeof(part), "%s/partition", dir);
	if (sysroot_exists(part))
		*strrchr(dir, '/') = '\0';
	block_topo(fs, t, depth + 1);
	if (!t->known)
		return;
	snprintf(id, sizeof(id), "disk %.40s", base(dir));
	l = add(t, TOPO_DISK, TOPO_TURNS, id);
	snprintf(l->name, sizeof(l->name), "the disk %.40s", base(dir));
	snprintf(t->port + strlen(t->port), sizeof(t->port) - strlen(t->port), "%sdisk %.40s",
		 t->port[0] ? ", " : "", base(dir));
}

static void virtual_topo(const char *dir, struct topo *t, int depth)
{
	char file[PATH_MAX], what[PATH_MAX + 32];
	struct stat st;

	if (attr(dir, "loop/backing_file", file, sizeof(file))) {
		unknown(t, "%s is a virtual block device: the devices under it are not followed", base(dir));
		return;
	}
	snprintf(what, sizeof(what), "%.40s, a loop device over %.200s,", base(dir), file);
	if (sysroot_stat(file, &st)) {
		unknown(t, "%s whose file cannot be found", what);
		return;
	}
	if (S_ISBLK(st.st_mode))
		block_topo(st.st_rdev, t, depth + 1);
	else
		on_disk(st.st_dev, t, what, depth);
}

static void block_topo(dev_t rdev, struct topo *t, int depth)
{
	char link[64], dir[PATH_MAX], part[PATH_MAX + 16];
	struct walk w = { .t = t };
	const char *p, *root = "/sys/devices/";

	t->known = 1;
	if (depth > MAX_DEPTH)
		return unknown(t, "%s", "loop devices nested too deep to follow");
	sysroot_path(link, sizeof(link), SYSROOT_BLOCK_BY_NUMBER, "%u:%u", major(rdev), minor(rdev));
	if (!sysroot_realpath(link, dir))
		return unknown(t, "block device %s is not in sysfs (removed?)", link + strlen(link) - strlen(base(link)));
	snprintf(part, sizeof(part), "%s/partition", dir);
	if (sysroot_exists(part))
		*strrchr(dir, '/') = '\0';
	if (strncmp(dir, root, strlen(root)))
		return unknown(t, "%s is not under /sys/devices", dir);
	if (!strncmp(dir + strlen(root), "virtual/", 8))
		return virtual_topo(dir, t, depth);
	snprintf(w.cur, sizeof(w.cur), "/sys/devices");
	for (p = dir + strlen(root); *p;) {
		size_t n = strcspn(p, "/");
		char name[48]; /* sysfs names are short; a longer one is cut (it still names one place) */
		snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : sizeof(name) - 1), p);
		snprintf(w.cur + strlen(w.cur), sizeof(w.cur) - strlen(w.cur), "/%s", name);
		if (step(&w, name))
			break;
		p += n + (p[n] == '/');
	}
	if (!t->n)
		return unknown(t, "sysfs shows %s in a place this tool does not read", base(dir));
	if (!t->port[0])
		snprintf(t->port, sizeof(t->port), "%s", t->link[t->n - 1].id);
}

static void sim_topo(const char *spec, struct topo *t)
{
	struct sim_params p;
	struct fb_err e = { 0 };
	struct topo_link *l;
	char id[TOPO_ID];
	const char *bus;

	if (sim_parse(spec, &p, &e))
		return unknown(t, "%s", e.msg);
	if (!p.bus[0])
		return unknown(t, "%s", "a simulated card with no bus= key: where it is plugged in is not known");
	t->known = 1;
	bus = p.mapbus[0] ? p.mapbus : p.bus;
	snprintf(id, sizeof(id), "sim %s", bus);
	l = add(t, TOPO_SIM_BUS, TOPO_RATE, id);
	snprintf(l->name, sizeof(l->name), "simulated link %s", bus);
	l->rate = l->write_rate = (double)p.link;
	l->mbps = (double)p.link * 8 / 1e6;
	l = add(t, TOPO_DISK, TOPO_NO_LIMIT, "sim card");
	snprintf(l->name, sizeof(l->name), "the simulated card");
	l->rate = (double)(p.read_rate > p.write_rate ? p.read_rate : p.write_rate);
	l->write_rate = (double)p.write_rate;
	snprintf(t->port, sizeof(t->port), "sim bus %s", bus);
}

void topo_of(const char *path, struct topo *t)
{
	struct stat st;

	memset(t, 0, sizeof(*t));
	if (dev_is_sim(path))
		return sim_topo(path + 4, t);
	if (sysroot_stat(pin_path(path), &st))
		return unknown(t, "%s cannot be found", path);
	if (S_ISBLK(st.st_mode))
		return block_topo(st.st_rdev, t, 0);
	if (S_ISREG(st.st_mode))
		return on_disk(st.st_dev, t, "a file", 0);
	unknown(t, "%s is neither a block device nor a file", path);
}

/* ------------------------------------------------------------ grouping */

/* Every link some device lies behind, once, with who does. */
struct shared {
	const struct topo_link *l;
	size_t depth;            /* its index in the first member's links */
	size_t *who;
	double *demand;          /* each member's own bottleneck below it (0: not known) */
	size_t n, cap;
};

static const struct topo_link unknown_link = {
	.kind = TOPO_UNKNOWN, .limit = TOPO_SHARED, .id = "unknown", .name = "devices whose map cannot be read",
};

static size_t find(size_t *up, size_t i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

static int note(struct shared **v, size_t *nv, size_t *cap, const struct topo_link *l, size_t depth, size_t dev,
		double demand)
{
	struct shared *s = NULL;

	for (size_t i = 0; i < *nv && !s; i++)
		if (!strcmp((*v)[i].l->id, l->id))
			s = &(*v)[i];
	if (!s) {
		if (*nv == *cap) {
			size_t c = *cap ? 2 * *cap : 16;
			struct shared *nw = realloc(*v, c * sizeof(*nw));
			if (!nw)
				return -1;
			*v = nw;
			*cap = c;
		}
		s = &(*v)[(*nv)++];
		memset(s, 0, sizeof(*s));
		s->l = l;
		s->depth = depth;
	}
	if (s->n == s->cap) {
		size_t c = s->cap ? 2 * s->cap : 4;
		size_t *w = realloc(s->who, c * sizeof(*w));
		double *d = w ? realloc(s->demand, c * sizeof(*d)) : NULL;
		if (w)
			s->who = w;
		if (!d)
			return -1;
		s->demand = d;
		s->cap = c;
	}
	s->who[s->n] = dev;
	s->demand[s->n++] = demand;
	return 0;
}

/* Does the link bind its devices (they take turns)?  *sum: what they
 * could move through it together (0: not known). */
static int binds(const struct shared *s, double *sum)
{
	*sum = 0;
	if (s->n < 2 || s->l->limit == TOPO_NO_LIMIT)
		return 0;
	for (size_t i = 0; i < s->n; i++)
		*sum += s->demand[i] > 0 ? s->demand[i] : s->l->rate;
	if (s->l->limit != TOPO_RATE)
		return 1;
	return s->l->rate <= 0 || *sum > s->l->rate * (1 + TOPO_SLACK);
}

int topo_group(const struct topo *t, size_t n, struct topo_map *m)
{
	struct shared *v = NULL;
	size_t nv = 0, cap = 0, *up = calloc(n ? n : 1, sizeof(*up));
	size_t *best = calloc(n ? n : 1, sizeof(*best)), *num = calloc(n ? n : 1, sizeof(*num));
	double *best_sum = calloc(n ? n : 1, sizeof(*best_sum));
	int rc = -1;

	memset(m, 0, sizeof(*m));
	m->n = n;
	m->group = calloc(n ? n : 1, sizeof(*m->group));
	m->g = calloc(n ? n : 1, sizeof(*m->g));
	if (!up || !best || !num || !best_sum || !m->group || !m->g)
		goto out;
	for (size_t i = 0; i < n; i++) {
		up[i] = i;
		best[i] = (size_t)-1;
		if (!t[i].known && note(&v, &nv, &cap, &unknown_link, 0, i, 0))
			goto out;
		for (size_t k = 0; t[i].known && k < t[i].n; k++)
			if (note(&v, &nv, &cap, &t[i].link[k], k, i, topo_own_rate(&t[i], k + 1)))
				goto out;
	}
	for (size_t s = 0; s < nv; s++) {
		double sum;
		if (!binds(&v[s], &sum))
			continue;
		for (size_t i = 1; i < v[s].n; i++)
			up[find(up, v[s].who[i])] = find(up, v[s].who[0]);
	}
	/* each group's link: the binding one with the most members, the
	 * deepest of those (nearest the cards) */
	for (size_t s = 0; s < nv; s++) {
		double sum;
		size_t r;
		if (!binds(&v[s], &sum))
			continue;
		r = find(up, v[s].who[0]);
		if (best[r] == (size_t)-1 || v[s].n > v[best[r]].n ||
		    (v[s].n == v[best[r]].n && v[s].depth > v[best[r]].depth)) {
			best[r] = s;
			best_sum[r] = sum;
		}
	}
	for (size_t i = 0; i < n; i++)
		num[i] = (size_t)-1;
	for (size_t i = 0; i < n; i++) {
		size_t r = find(up, i);
		if (num[r] == (size_t)-1) {
			struct topo_group *g = &m->g[m->ngroups];
			num[r] = m->ngroups++;
			if (best[r] != (size_t)-1) {
				g->by = *v[best[r]].l;
				g->demand = best_sum[r];
			}
		}
		m->group[i] = num[r];
		m->g[num[r]].members++;
	}
	for (size_t g = 0; g < m->ngroups; g++)
		m->g[g].turns = m->g[g].members > 1;
	rc = 0;
out:
	for (size_t s = 0; s < nv; s++) {
		free(v[s].who);
		free(v[s].demand);
	}
	free(v);
	free(up);
	free(best);
	free(num);
	free(best_sum);
	if (rc)
		topo_map_free(m);
	return rc;
}

void topo_map_free(struct topo_map *m)
{
	free(m->group);
	free(m->g);
	memset(m, 0, sizeof(*m));
}

void topo_join(struct topo_map *m, size_t a, size_t b, const char *by)
{
	size_t ga = m->group[a], gb = m->group[b];
	struct topo_group *g;

	if (ga == gb)
		return;
	if (gb < ga) { /* keep the lower number */
		size_t x = ga;
		ga = gb;
		gb = x;
	}
	g = &m->g[ga];
	g->members += m->g[gb].members;
	g->turns = 1;
	memset(&g->by, 0, sizeof(g->by));
	g->by.kind = TOPO_MEASURED;
	g->by.limit = TOPO_SHARED;
	snprintf(g->by.id, sizeof(g->by.id), "measured");
	snprintf(g->by.name, sizeof(g->by.name), "%s", by);
	g->demand = 0;
	for (size_t i = 0; i < m->n; i++)
		m->group[i] = m->group[i] == gb ? ga : m->group[i] > gb ? m->group[i] - 1 : m->group[i];
	memmove(&m->g[gb], &m->g[gb + 1], (m->ngroups - gb - 1) * sizeof(m->g[0]));
	m->ngroups--;
}

void topo_group_why(const struct topo_group *g, char *buf, size_t len)
{
	const struct topo_link *l = &g->by;
	char r[32], w[32], d[32];

	if (!g->turns) {
		snprintf(buf, len, "side by side: it shares no link too slow for it with another card");
		return;
	}
	switch (l->kind) {
	case TOPO_UNKNOWN:
		snprintf(buf, len, "one at a time: where these %zu are plugged in is not known", g->members);
		return;
	case TOPO_MEASURED:
		snprintf(buf, len, "take turns: %s", l->name);
		return;
	default:
		break;
	}
	if (l->limit == TOPO_TURNS) {
		snprintf(buf, len, "take turns: the %zu %s %s", g->members,
			 l->kind == TOPO_USB_DEVICE ? "are slots of one" : l->kind == TOPO_DISK ? "lie on" : "share",
			 l->name);
		if (l->kind == TOPO_USB_DEVICE)
			snprintf(buf + strlen(buf), len - strlen(buf) > 0 ? len - strlen(buf) : 0,
				 ", which takes one command at a time");
		return;
	}
	if (l->limit == TOPO_SHARED || l->rate <= 0) {
		snprintf(buf, len, "take turns: the %zu share %s, at a rate sysfs does not show", g->members, l->name);
		return;
	}
	format_rate(r, sizeof(r), l->rate);
	format_rate(w, sizeof(w), l->write_rate > 0 ? l->write_rate : l->rate);
	format_rate(d, sizeof(d), g->demand);
	if (l->kind == TOPO_SIM_BUS)
		snprintf(buf, len, "take turns: %s carries %s in all; the %zu cards on it could move %s", l->name, r,
			 g->members, d);
	else
		snprintf(buf, len, "take turns: %s (%g Mbit/s) carries ~%s of reads, ~%s of writes in all; the %zu "
			 "cards behind it could move ~%s", l->name, l->mbps, r, w, g->members, d);
}
