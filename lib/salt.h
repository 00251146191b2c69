/* salt.h — 64 random bits for what must differ from run to run (the
 * signatures' salt, a journal's id, a simulated card's journal name): from
 * getrandom, or when it fails from the clock, the PID and a counter. */
#ifndef FLASHBENCH_SALT_H
#define FLASHBENCH_SALT_H

#include <stdint.h>

/* Never 0. */
uint64_t salt_new(void);

#endif
