/* tests/fuzz/sim_spec.c — fuzzes the sim: device spec parser (sim_parse)
 * and runs a few requests on each model it accepts. */
#include "fuzz.h"
#include "dev/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_text(data, size);
	struct sim_params p;
	struct sim *s;
	struct fb_err e;

	if (!spec)
		return 0;
	if (sim_parse(spec, &p, &e) == 0 && sim_create(&s, &p, &e) == 0) {
		uint64_t last = p.size / p.sector - 1; /* a few requests of one sector */
		for (uint64_t i = 0; i < 4; i++) {
			uint64_t off = (last * i / 3) * p.sector;
			sim_read(s, off, p.sector);
			sim_write(s, off, p.sector);
			sim_discard(s, off, p.sector);
		}
		sim_destroy(s);
	}
	free(spec);
	return 0;
}
