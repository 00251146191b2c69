/* tests/unit/tree.c — dumped trees replayed: tests/sysroot/NAME.tree, a
 * text dump of what a machine's /sys, /proc and /dev show, made into a new
 * temporary directory that lib/sysroot.c (as the unit tests build it,
 * tests/unit/sysroot_hook.c) reads in place of /.  A tree file holds, one a
 * line (blank lines and lines starting with # are skipped):
 *
 *   [DIR]            the paths below are under DIR ([] : the root again)
 *   PATH = TEXT      the line TEXT appended to file PATH ("PATH =": empty)
 *   PATH -> TARGET   a symbolic link; a TARGET starting with / is that place
 *                    in the tree, written as the relative link sysfs makes
 *   PATH/            a directory
 *   PATH size N      a sparse file of N bytes
 *   include NAME     tests/sysroot/NAME.tree replayed here
 *
 * A file that holds "block MAJ:MIN" stands for a block device node (making
 * one needs root; lib/sysroot.c's test build reads it as one).  Paths are
 * relative and never go up (".."), and every link must resolve inside the
 * tree, so a fixture cannot reach the real system. */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/unit.h"

#define MAX_LINKS 512
#define MAX_DEPTH 4

struct replay {
	char root[PATH_MAX];
	char links[MAX_LINKS][PATH_MAX / 4]; /* relative to root, checked at the end */
	size_t nlinks;
	char *err;
	size_t errlen;
};

static int fail(struct replay *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct replay *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Make directory p and those above it (up to the root, which exists). */
static int make_dir(struct replay *r, char *p)
{
	char *slash;

	if (!mkdir(p, 0755) || errno == EEXIST)
		return 0;
	if (errno != ENOENT || !(slash = strrchr(p, '/')) || slash - p <= (ptrdiff_t)strlen(r->root))
		return fail(r, "cannot make %s: %s", p, strerror(errno));
	*slash = '\0';
	if (make_dir(r, p))
		return -1;
	*slash = '/';
	if (mkdir(p, 0755) && errno != EEXIST)
		return fail(r, "cannot make %s: %s", p, strerror(errno));
	return 0;
}

/* Make the directories above rel (relative to root). */
static int parents(struct replay *r, const char *rel)
{
	char p[PATH_MAX * 2], *last;
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", r->root, rel);
	if (!(last = strrchr(p + strlen(r->root) + 1, '/')))
		return 0;
	*last = '\0';
	return !stat(p, &st) && S_ISDIR(st.st_mode) ? 0 : make_dir(r, p);
}

/* target ("/a/b", a place in the tree) as a link at rel names it: the
 * directories rel and target share are left out ("../" for each other one
 * above rel). */
static void relative(const char *rel, const char *target, char *out, size_t len)
{
	const char *t = target + 1, *l = rel;
	size_t n = 0;

	/* the directories both start with */
	for (;;) {
		const char *ls = strchr(l, '/'), *ts = strchr(t, '/');
		size_t k = ls ? (size_t)(ls - l) : 0;
		if (!ls || !(ts ? (size_t)(ts - t) == k : strlen(t) == k) || strncmp(l, t, k))
			break;
		l = ls + 1;
		t = ts ? ts + 1 : t + k;
	}
	out[0] = '\0';
	for (const char *s = l; (s = strchr(s, '/')); s++)
		n += (size_t)snprintf(out + n, len - n, "../");
	if (*t)
		snprintf(out + n, len - n, "%s", t);
	else if (n)
		out[n - 1] = '\0'; /* "../.." */
	else
		snprintf(out, len, ".");
}

static int replay_file(struct replay *r, const char *name, int depth);

static int replay_line(struct replay *r, char *line, char *dir, size_t dirlen, int depth)
{
	char rel[PATH_MAX], full[PATH_MAX * 2], *sp, *rest;
	size_t n = strlen(line);
	FILE *f;

	while (n && (line[n - 1] == '\n' || line[n - 1] == ' '))
		line[--n] = '\0';
	if (!n || line[0] == '#')
		return 0;
	if (line[0] == '[') {
		if (line[n - 1] != ']' || n - 2 >= dirlen)
			return fail(r, "a section reads [DIR]: %s", line);
		snprintf(dir, dirlen, "%.*s", (int)(n - 2), line + 1);
		if (dir[0] == '/')
			memmove(dir, dir + 1, strlen(dir));
		return 0;
	}
	if (!strncmp(line, "include ", 8))
		return depth < MAX_DEPTH ? replay_file(r, line + 8, depth + 1) :
					   fail(r, "includes nest too deep");
	sp = strchr(line, ' ');
	rest = sp ? sp + 1 : line + n;
	if (sp)
		*sp = '\0';
	if ((size_t)snprintf(rel, sizeof(rel), "%s%s%s", dir, dir[0] ? "/" : "", line) >=
	    sizeof(r->links[0]) || line[0] == '/' || strstr(rel, ".."))
		return fail(r, "%s: a path is relative, short and never goes up", line);
	if (parents(r, rel))
		return -1;
	snprintf(full, sizeof(full), "%s/%s", r->root, rel);
	if (!sp && rel[strlen(rel) - 1] == '/') {
		if (mkdir(full, 0755) && errno != EEXIST)
			return fail(r, "cannot make %s: %s", full, strerror(errno));
		return 0;
	}
	if (!strncmp(rest, "-> ", 3)) {
		char target[PATH_MAX];
		if (rest[3] == '/')
			relative(rel, rest + 3, target, sizeof(target));
		else
			snprintf(target, sizeof(target), "%s", rest + 3);
		if (symlink(target, full) || r->nlinks == MAX_LINKS)
			return fail(r, "cannot link %s to %s: %s", rel, target, strerror(errno));
		memcpy(r->links[r->nlinks++], rel, strlen(rel) + 1); /* it fits: checked above */
		return 0;
	}
	if (!strncmp(rest, "size ", 5)) {
		if (!(f = fopen(full, "w")) || ftruncate(fileno(f), strtoll(rest + 5, NULL, 10)))
			return fail(r, "cannot make %s: %s", full, strerror(errno));
		return fclose(f);
	}
	if (rest[0] != '=' || (rest[1] && rest[1] != ' '))
		return fail(r, "not a line of a tree: %s %s", line, rest);
	if (!(f = fopen(full, "a")))
		return fail(r, "cannot write %s: %s", full, strerror(errno));
	if (rest[1])
		fprintf(f, "%s\n", rest + 2);
	return fclose(f);
}

static int replay_file(struct replay *r, const char *name, int depth)
{
	char path[PATH_MAX], dir[PATH_MAX] = "", *line = NULL;
	size_t cap = 0;
	int rc = 0, no = 0;
	FILE *f;

	snprintf(path, sizeof(path), "tests/sysroot/%s.tree", name);
	if (!(f = fopen(path, "r")))
		return fail(r, "cannot read %s (run from the source tree): %s", path,
			    strerror(errno));
	while (!rc && getline(&line, &cap, f) > 0) {
		no++;
		rc = replay_line(r, line, dir, sizeof(dir), depth);
	}
	if (rc && !strstr(r->err, ".tree:")) {
		char why[400];
		snprintf(why, sizeof(why), "%s", r->err);
		fail(r, "%s:%d: %s", path, no, why);
	}
	free(line);
	fclose(f);
	return rc;
}

const char *unit_scratch(void)
{
	const char *tmp = getenv("TMPDIR");
	struct stat st;

	if (!stat("/dev/shm", &st) && S_ISDIR(st.st_mode) && !access("/dev/shm", W_OK | X_OK))
		return "/dev/shm";
	return tmp && *tmp ? tmp : "/tmp";
}

int unit_tree(const char *name, char *root, size_t len, char *err, size_t errlen)
{
	struct replay *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return snprintf(err, errlen, "out of memory"), -1;
	r->err = err;
	r->errlen = errlen;
	snprintf(r->root, sizeof(r->root), "%s/flashbench-tree.XXXXXX", unit_scratch());
	if (!mkdtemp(r->root)) {
		free(r);
		return snprintf(err, errlen, "mkdtemp: %s", strerror(errno)), -1;
	}
	snprintf(root, len, "%s", r->root);
	if (!realpath(root, r->root)) /* the links are checked against where it really is */
		snprintf(r->root, sizeof(r->root), "%s", root);
	rc = replay_file(r, name, 0);
	for (size_t i = 0; !rc && i < r->nlinks; i++) {
		char p[PATH_MAX + 8], real[PATH_MAX];
		size_t n = strlen(r->root);
		snprintf(p, sizeof(p), "%s/%s", r->root, r->links[i]);
		if (!realpath(p, real) || strncmp(real, r->root, n) || (real[n] && real[n] != '/'))
			rc = fail(r, "tests/sysroot/%s.tree: the link %s does not resolve inside "
				  "the tree", name, r->links[i]);
	}
	free(r);
	if (!rc)
		sysroot_test_root(root);
	else
		unit_tree_end(root);
	return rc;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

void unit_tree_end(const char *root)
{
	sysroot_test_root(NULL);
	if (root[0])
		nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
