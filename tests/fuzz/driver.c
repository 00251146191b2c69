/* tests/fuzz/driver.c — runs a fuzz harness without libFuzzer: every file
 * of its corpus once, then seeded random mutations of them (bit flips,
 * bytes set, inserted, deleted, chunks copied between inputs, the
 * characters the parsers care about).  make check uses it for a short,
 * fixed run; make fuzz uses it for a timed run when libFuzzer is missing.
 *
 *   NAME [-n RUNS] [-t SECONDS] [-s SEED] [-T HANG_SECONDS] [-o DIR] CORPUS...
 *
 * An input that hangs (HANG_SECONDS, default 10) or makes a sanitizer
 * stop the program is written to DIR/NAME-crash (default: the current
 * directory) before the program dies.  Prints one summary line. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

#define INPUT_MAX 4096
#define MAX_POOL 4096

struct input {
	uint8_t *data;
	size_t size;
};

static struct input pool[MAX_POOL];
static size_t npool, ncorpus;
static uint8_t current[INPUT_MAX];
static size_t current_size;
static char crash_path[4096];
static uint64_t rng;

/* Set by the sanitizer runtime when it is linked in. */
__attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)(void));

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Async-signal-safe: save the input that is running. */
static void save_current(void)
{
	int fd = open(crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	static const char msg[] = "driver: the input that failed is saved in ";

	if (fd >= 0) {
		if (write(fd, current, current_size) < 0) {
			/* nothing more can be done here */
		}
		close(fd);
	}
	if (write(2, msg, sizeof(msg) - 1) < 0 || write(2, crash_path, strlen(crash_path)) < 0 || write(2, "\n", 1) < 0)
		return;
}

static void on_alarm(int sig)
{
	static const char msg[] = "driver: an input ran too long (a hang)\n";
	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0) {
		/* ignore */
	}
	save_current();
	_exit(70);
}

static void on_fatal(int sig)
{
	save_current();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void add(const uint8_t *data, size_t size)
{
	uint8_t *copy;

	if (npool == MAX_POOL || !(copy = malloc(size ? size : 1)))
		return;
	memcpy(copy, data, size);
	pool[npool].data = copy;
	pool[npool++].size = size;
}

static void load_file(const char *path)
{
	uint8_t buf[INPUT_MAX];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	add(buf, n);
}

static void load(const char *path)
{
	struct stat st;
	struct dirent **names;
	int n;

	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		load_file(path);
		return;
	}
	n = scandir(path, &names, NULL, alphasort); /* sorted: runs repeat exactly */
	for (int i = 0; i < n; i++) {
		char full[4096];
		if (names[i]->d_name[0] != '.') {
			snprintf(full, sizeof(full), "%s/%s", path, names[i]->d_name);
			load_file(full);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

static void run(void)
{
	uint8_t *copy = malloc(current_size ? current_size : 1); /* exact size: ASan sees overreads */

	if (!copy)
		return;
	memcpy(copy, current, current_size);
	LLVMFuzzerTestOneInput(copy, current_size);
	free(copy);
}

static void mutate(void)
{
	static const char special[] = "\n\r\t *-/$#,=.0123456789kKMGxX";
	int rounds = 1 + (int)(next() % 4);

	for (int r = 0; r < rounds; r++) {
		size_t at = current_size ? (size_t)(next() % current_size) : 0;
		switch (next() % 8) {
		case 0: /* flip a bit */
			if (current_size)
				current[at] ^= (uint8_t)(1u << (next() % 8));
			break;
		case 1: /* any byte */
			if (current_size)
				current[at] = (uint8_t)next();
			break;
		case 2: /* a character the parsers care about */
			if (current_size)
				current[at] = (uint8_t)special[next() % (sizeof(special) - 1)];
			break;
		case 3: /* insert one */
			if (current_size < INPUT_MAX) {
				memmove(current + at + 1, current + at, current_size - at);
				current[at] = (uint8_t)special[next() % (sizeof(special) - 1)];
				current_size++;
			}
			break;
		case 4: { /* delete a few */
			size_t n = 1 + (size_t)(next() % 8);
			if (at + n > current_size)
				n = current_size - at;
			memmove(current + at, current + at + n, current_size - at - n);
			current_size -= n;
			break;
		}
		case 5: { /* copy a chunk of another input here */
			const struct input *o = &pool[next() % npool];
			size_t from = o->size ? (size_t)(next() % o->size) : 0, n = 1 + (size_t)(next() % 64);
			if (from + n > o->size)
				n = o->size - from;
			if (current_size + n > INPUT_MAX)
				n = INPUT_MAX - current_size;
			memmove(current + at + n, current + at, current_size - at);
			memcpy(current + at, o->data + from, n);
			current_size += n;
			break;
		}
		case 6: /* truncate */
			current_size = at;
			break;
		default: { /* a digit run, to reach large numbers */
			size_t n = 1 + (size_t)(next() % 24);
			if (current_size + n > INPUT_MAX)
				n = INPUT_MAX - current_size;
			memmove(current + at + n, current + at, current_size - at);
			memset(current + at, '9', n);
			current_size += n;
			break;
		}
		}
	}
}

int main(int argc, char **argv)
{
	unsigned long long runs = 10000, seed = 1, done = 0;
	double seconds = 0;
	unsigned hang = 10;
	const char *dir = ".", *name = strrchr(argv[0], '/');
	struct timespec t0, t;
	int opt;

	name = name ? name + 1 : argv[0];
	while ((opt = getopt(argc, argv, "n:t:s:T:o:")) != -1) {
		switch (opt) {
		case 'n': runs = strtoull(optarg, NULL, 10); break;
		case 't': seconds = strtod(optarg, NULL); break;
		case 's': seed = strtoull(optarg, NULL, 10); break;
		case 'T': hang = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'o': dir = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-n RUNS] [-t SECONDS] [-s SEED] [-T HANG_SECONDS] [-o DIR] CORPUS...\n",
				name);
			return 2;
		}
	}
	snprintf(crash_path, sizeof(crash_path), "%s/%s-crash", dir, name);
	for (int i = optind; i < argc; i++)
		load(argv[i]);
	ncorpus = npool;
	if (!npool)
		add((const uint8_t *)"", 0);
	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	signal(SIGALRM, on_alarm);
	signal(SIGSEGV, on_fatal);
	signal(SIGABRT, on_fatal);
	signal(SIGFPE, on_fatal);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(save_current);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < ncorpus; i++, done++) {
		memcpy(current, pool[i].data, pool[i].size);
		current_size = pool[i].size;
		alarm(hang);
		run();
	}
	for (unsigned long long i = 0; seconds > 0 || i < runs; i++, done++) {
		const struct input *o = &pool[next() % npool];
		if (seconds > 0 && i % 256 == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 >= seconds)
				break;
		}
		memcpy(current, o->data, o->size);
		current_size = o->size;
		mutate();
		alarm(hang);
		run();
		if (next() % 16 == 0) /* keep some mutants: later mutations go deeper */
			add(current, current_size);
	}
	alarm(0);
	clock_gettime(CLOCK_MONOTONIC, &t);
	printf("%s: %llu executions (%zu corpus files, then mutations; seed %llu) in %.1f s\n", name, done, ncorpus,
	       seed, (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9);
	for (size_t i = 0; i < npool; i++)
		free(pool[i].data);
	return 0;
}
