/* tests/nbdsim.c — the tree's flash simulator (dev/sim.c) served as an NBD
 * export, so that a guest of the real-kernel lab (tests/vm/lab) sees a
 * flash-like disk behind a real driver: QEMU's NBD client connects to the
 * Unix socket, the guest reads /dev/vdX through virtio-blk, and every
 * request takes, in real time, the time the model gives it times SCALE.
 *
 *     nbdsim SOCKET SPEC SCALE
 *
 * SPEC is what follows "sim:" (a preset and keys); SCALE 0 serves the
 * same card with no time at all.  Requests are served one
 * at a time in arrival order, as a card serves them: request n ends at
 * max(its arrival, the end of request n-1) + modelled time x SCALE.  Data
 * is the sim's own (what it was made with, what was written).  Prints
 * "ready" on standard output once the socket listens, serves clients one
 * after another, and ends on SIGTERM or when the socket file is removed.
 * Also prints, per client, one line "served N requests, late L ns" on
 * standard error: how far past its deadline the slowest reply went out
 * (the host's own noise, which the test can weigh). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "dev/sim.h"

#define NBD_MAGIC 0x4e42444d41474943ULL        /* "NBDMAGIC" */
#define NBD_OPTS_MAGIC 0x49484156454f5054ULL   /* "IHAVEOPT" */
#define NBD_REP_MAGIC 0x0003e889045565a9ULL
#define NBD_REQUEST_MAGIC 0x25609513u
#define NBD_REPLY_MAGIC 0x67446698u
enum { OPT_EXPORT_NAME = 1, OPT_ABORT = 2, OPT_INFO = 6, OPT_GO = 7 };
enum { REP_ACK = 1, REP_INFO = 3, REP_ERR_UNSUP = (1u << 31) + 1 };
enum { CMD_READ = 0, CMD_WRITE = 1, CMD_DISC = 2, CMD_FLUSH = 3, CMD_TRIM = 4 };
enum { FLAG_FIXED_NEWSTYLE = 1, FLAG_NO_ZEROES = 2 };
enum { TX_HAS_FLAGS = 1, TX_SEND_FLUSH = 4, TX_SEND_TRIM = 32 };
#define MAX_REQUEST (32u << 20)

static volatile sig_atomic_t stop;
static void on_term(int sig) { (void)sig; stop = 1; }

/* all n bytes in (wr 0) or out (wr 1), or -1 */
static int xfer(int fd, void *buf, size_t n, int wr)
{
	char *p = buf;
	while (n) {
		ssize_t r = wr ? write(fd, p, n) : read(fd, p, n);
		if (r < 0 && errno == EINTR && !stop)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}
static int get(int fd, void *buf, size_t n) { return xfer(fd, buf, n, 0); }
static int put(int fd, const void *buf, size_t n) { return xfer(fd, (void *)buf, n, 1); }

/* big-endian fields, as NBD sends them */
static void be(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}
static uint64_t unbe(const unsigned char *p, int bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v = v << 8 | p[i];
	return v;
}

static int opt_reply(int fd, uint32_t opt, uint32_t type, const void *data, uint32_t len)
{
	unsigned char h[20];
	be(h, NBD_REP_MAGIC, 8);
	be(h + 8, opt, 4);
	be(h + 12, type, 4);
	be(h + 16, len, 4);
	return put(fd, h, sizeof h) || (len && put(fd, data, len)) ? -1 : 0;
}

/* The handshake (fixed newstyle): 0 once transmission begins, -1 when the
 * client went away or aborted. */
static int handshake(int fd, uint64_t size)
{
	unsigned char h[18], f[4], o[16], info[12];
	uint16_t tx = TX_HAS_FLAGS | TX_SEND_FLUSH | TX_SEND_TRIM;
	be(h, NBD_MAGIC, 8);
	be(h + 8, NBD_OPTS_MAGIC, 8);
	be(h + 16, FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES, 2);
	if (put(fd, h, sizeof h) || get(fd, f, 4))
		return -1;
	int zeroes = !(unbe(f, 4) & FLAG_NO_ZEROES);
	for (;;) {
		if (get(fd, o, 16) || unbe(o, 8) != NBD_OPTS_MAGIC)
			return -1;
		uint32_t opt = (uint32_t)unbe(o + 8, 4), len = (uint32_t)unbe(o + 12, 4);
		if (len > 4096)
			return -1;
		unsigned char data[4096];
		if (len && get(fd, data, len))
			return -1;
		if (opt == OPT_EXPORT_NAME) {
			unsigned char r[10 + 124] = { 0 };
			be(r, size, 8);
			be(r + 8, tx, 2);
			return put(fd, r, zeroes ? sizeof r : 10);
		}
		if (opt == OPT_INFO || opt == OPT_GO) {
			be(info, 0, 2); /* NBD_INFO_EXPORT */
			be(info + 2, size, 8);
			be(info + 10, tx, 2);
			if (opt_reply(fd, opt, REP_INFO, info, sizeof info) || opt_reply(fd, opt, REP_ACK, NULL, 0))
				return -1;
			if (opt == OPT_GO)
				return 0;
			continue;
		}
		if (opt == OPT_ABORT) {
			opt_reply(fd, opt, REP_ACK, NULL, 0);
			return -1;
		}
		if (opt_reply(fd, opt, REP_ERR_UNSUP, NULL, 0))
			return -1;
	}
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void sleep_until(uint64_t ns)
{
	struct timespec t = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR && !stop)
		;
}

/* Serve one client until it disconnects. */
static void serve(int fd, struct sim *s, double scale, char *buf)
{
	uint64_t size = sim_params_of(s)->size, busy_until = 0, late = 0, n = 0;
	unsigned char q[28], r[16];
	if (handshake(fd, size))
		return;
	while (!stop && !get(fd, q, sizeof q)) {
		uint64_t arrived = now_ns();
		if (unbe(q, 4) != NBD_REQUEST_MAGIC)
			break;
		unsigned type = (unsigned)unbe(q + 6, 2);
		uint64_t off = unbe(q + 16, 8), len = unbe(q + 24, 4), ns = 0;
		int err = 0;
		if (type == CMD_DISC)
			break;
		if ((type == CMD_READ || type == CMD_WRITE || type == CMD_TRIM) &&
			(len > MAX_REQUEST || off > size || len > size - off))
			err = EINVAL;
		if (type == CMD_WRITE && len <= MAX_REQUEST && get(fd, buf, len))
			break;
		if (!err) {
			switch (type) {
			case CMD_READ:
				ns = sim_read(s, off, len);
				err = sim_data_read(s, off, len, buf) ? EIO : 0;
				break;
			case CMD_WRITE:
				ns = sim_write(s, off, len);
				err = sim_data_write(s, off, len, buf, 0) ? ENOSPC : 0;
				break;
			case CMD_TRIM: ns = sim_discard(s, off, len); break;
			case CMD_FLUSH: break;
			default: err = EINVAL;
			}
		}
		uint64_t start = arrived > busy_until ? arrived : busy_until;
		busy_until = start + (uint64_t)((double)ns * scale);
		sleep_until(busy_until);
		uint64_t sent = now_ns();
		if (sent - busy_until > late)
			late = sent - busy_until;
		be(r, NBD_REPLY_MAGIC, 4);
		be(r + 4, (uint64_t)err, 4);
		memcpy(r + 8, q + 8, 8);
		if (put(fd, r, sizeof r) || (type == CMD_READ && !err && put(fd, buf, len)))
			break;
		n++;
	}
	fprintf(stderr, "nbdsim: served %llu requests, late %llu ns at most\n", (unsigned long long)n,
		(unsigned long long)late);
}

int main(int argc, char **argv)
{
	struct sim_params p;
	struct fb_err e;
	struct sim *s;
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char *end;
	if (argc != 4) {
		fprintf(stderr, "usage: nbdsim SOCKET SPEC SCALE\n");
		return 2;
	}
	double scale = strtod(argv[3], &end);
	if (*end || !(scale >= 0 && scale < 1e6) || strlen(argv[1]) >= sizeof a.sun_path) {
		fprintf(stderr, "nbdsim: bad scale %s or socket path too long\n", argv[3]);
		return 2;
	}
	if (sim_parse(argv[2], &p, &e) || sim_create(&s, &p, &e)) {
		fprintf(stderr, "nbdsim: %s\n", e.msg);
		return 2;
	}
	char *buf = malloc(MAX_REQUEST);
	int l = socket(AF_UNIX, SOCK_STREAM, 0);
	strcpy(a.sun_path, argv[1]);
	if (!buf || l < 0 || bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, 1)) {
		perror("nbdsim");
		return 1;
	}
	struct sigaction sa = { .sa_handler = on_term };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	printf("ready\n");
	fflush(stdout);
	struct stat st;
	while (!stop && stat(argv[1], &st) == 0) {
		int c = accept(l, NULL, NULL);
		if (c < 0)
			continue;
		serve(c, s, scale, buf);
		close(c);
	}
	unlink(argv[1]);
	sim_destroy(s);
	free(buf);
	return 0;
}
