/* version.h — the version flashbench reports (--version, JSON). */
#ifndef FLASHBENCH_VERSION
#define FLASHBENCH_VERSION "0.2.0"
#endif
