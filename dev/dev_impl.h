/* dev_impl.h — what the device backends (dev_block.c, dev_sim.c) and
 * layers (guard/layer.c) share with dev.c; nothing else includes it. */
#ifndef FLASHBENCH_DEV_IMPL_H
#define FLASHBENCH_DEV_IMPL_H

#include "dev.h"

struct dev {
	const struct dev_ops *ops;
	char *path;
	unsigned caps;
	uint64_t size;
	unsigned sector, physical;
	void *priv;               /* the backend's own state */
	struct dev *lower;        /* a layer: the device it wraps (NULL for a backend) */
	struct dev_tally written; /* what was written or discarded through this handle */
};

/* Fill d (path set, the rest zero) or return -1 with e filled. */
int dev_block_open(struct dev *d, const char *path, enum dev_mode mode, struct fb_err *e);
int dev_sim_open(struct dev *d, const char *spec, struct fb_err *e);

#endif
