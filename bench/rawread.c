/* bench/rawread.c — the control for the overhead benchmark: a bare loop of
 * O_DIRECT preads of SIZE bytes at consecutive offsets, each timed with
 * CLOCK_MONOTONIC_RAW; prints "min median p99" in ns. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static long long t[100000];
	long n, size;
	void *buf;
	int fd;

	if (argc != 4 || (n = atol(argv[3])) <= 0 || n > 100000 || (size = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: rawread DEVICE SIZE COUNT\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, 4096, (size_t)size)) {
		perror(argv[1]);
		return 1;
	}
	for (long i = 0; i < n; i++) {
		long long a = now();
		if (pread(fd, buf, (size_t)size, (off_t)(i * size)) != size) {
			perror("pread");
			return 1;
		}
		t[i] = now() - a;
	}
	qsort(t, (size_t)n, sizeof(t[0]), cmp);
	printf("%lld %lld %lld\n", t[0], t[n / 2], t[(n * 99) / 100]);
	return 0;
}
