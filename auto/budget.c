/* budget.c — the cost bound of --auto --write (see budget.h). */
#include "auto/budget.h"

#include <math.h>

uint64_t budget_default_bytes(uint64_t dev_size, uint64_t erase)
{
	uint64_t share = dev_size / 100, need = BUDGET_ERASE_BLOCKS * erase;

	if (share > BUDGET_SHARE_MAX)
		share = BUDGET_SHARE_MAX;
	if (need < BUDGET_BURST)
		need = BUDGET_BURST;
	/* never half the medium or more (a small card); whole MiB, as it is
	 * announced */
	if (share + need > dev_size / 2)
		return dev_size / 2 >> 20 << 20;
	return (share + need + (1 << 20) - 1) >> 20 << 20;
}

void budget_part(struct budget *b, double weight, double weights_left, uint64_t reserve)
{
	uint64_t left = b->bytes > b->written ? b->bytes - b->written : 0;

	b->part_ns = b->ns > 0 && weights_left > 0 ? b->elapsed + fmax(0, b->ns - b->elapsed) * weight / weights_left : 0;
	b->part_bytes = b->bytes ? b->written + (left > reserve ? left - reserve : 0) : 0;
}

double budget_estimate(const struct budget *b, uint64_t writes, double per_write, uint64_t reads)
{
	return (double)writes * per_write + (double)reads * b->worst_read;
}

unsigned budget_over(const struct budget *b, uint64_t bytes, double est_ns)
{
	double surprise = fmax(b->worst_write, b->write_floor);

	return (b->bytes && b->written + bytes > b->bytes ? BUDGET_BYTES : 0) |
	       (b->ns > 0 && b->elapsed + est_ns + surprise > b->ns ? BUDGET_TIME : 0);
}

int budget_check(const struct budget *b, uint64_t bytes, double est_ns)
{
	return budget_over(b, bytes, est_ns) ? 2 : 0;
}

unsigned budget_part_over(const struct budget *b)
{
	return (b->part_ns > 0 && b->elapsed >= b->part_ns ? BUDGET_TIME : 0) |
	       (b->part_bytes && b->written >= b->part_bytes ? BUDGET_BYTES : 0);
}

int budget_part_spent(const struct budget *b)
{
	return budget_part_over(b) != 0;
}

void budget_spent(struct budget *b, uint64_t bytes, double ns, double slowest, double fastest, uint64_t requests,
		  int writes)
{
	b->written += bytes;
	b->elapsed += ns;
	if (!writes) {
		b->worst_read = fmax(b->worst_read, slowest);
		return;
	}
	b->worst_write = fmax(b->worst_write, slowest);
	if (requests && bytes) {
		double per = fastest / ((double)bytes / (double)requests);
		if (!b->fast_write_per_byte || per < b->fast_write_per_byte)
			b->fast_write_per_byte = per;
	}
}
