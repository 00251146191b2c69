/* salt.c — random bits with a fallback (salt.h). */
#include "lib/salt.h"

#include <sys/random.h>
#include <time.h>
#include <unistd.h>

uint64_t salt_new(void)
{
	static uint64_t count;
	struct timespec ts;
	uint64_t v = 0;

	if (getrandom(&v, sizeof(v), 0) != sizeof(v) || !v) {
		clock_gettime(CLOCK_REALTIME, &ts);
		v = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^ (uint64_t)getpid() << 32 ^ ++count;
	}
	return v ? v : 1;
}
