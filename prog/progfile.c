/* progfile.c — parsing VM programs written as text (see progfile.h). */
#include "prog/progfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

#define MAX_DEPTH 32
#define MAX_FILE (1 << 20)


/* opcode name -> opcode (from vm.h's table) */
static int opcode_of(const char *w, size_t n, enum vm_opcode *code)
{
	for (int c = 0; c < VM_NOPCODES; c++) {
		const char *name = vm_opcode_name((enum vm_opcode)c);
		if (strlen(name) == n && !strncmp(name, w, n)) {
			*code = (enum vm_opcode)c;
			return 0;
		}
	}
	return -1;
}

/* "read, write, ..." from the table, for error messages. */
static void opcode_list(char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int c = 0; c < VM_NOPCODES && at < len; c++) {
		int n = snprintf(buf + at, len - at, "%s%s", c ? ", " : "", vm_opcode_name((enum vm_opcode)c));
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

struct parser {
	const char *file;
	const struct prog_vars *vars;
	int line;
	const char *line_start;
	struct fb_err *e;
};

__attribute__((format(printf, 3, 4))) static int perr(struct parser *p, const char *at, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return fb_fail(p->e, EXIT_USAGE, "%s:%d:%d: %s", p->file, p->line, (int)(at - p->line_start) + 1, msg);
}

/* One factor: a size, a hex byte, or $variable. */
static int factor(struct parser *p, const char *s, size_t n, const char *at, int64_t *out)
{
	char buf[64];
	uint64_t v;
	const char *why;

	if (n >= sizeof(buf))
		return perr(p, at, "expected a number, got a word of %zu characters", n);
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[0] == '$') {
		for (int i = 0; i < p->vars->n; i++)
			if (!strcmp(p->vars->name[i], buf + 1)) {
				if (p->vars->list[i])
					return perr(p, at, "%s is a list: use it alone in an off-list argument", buf);
				if (p->vars->value[i] > INT64_MAX)
					return perr(p, at, "%s is too large (%llu)", buf,
						    (unsigned long long)p->vars->value[i]);
				*out = (int64_t)p->vars->value[i];
				return 0;
			}
		return perr(p, at, "unknown variable '%s' (the list: man flashbench, PROGRAM FILES)", buf);
	}
	if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
		char *end;
		errno = 0;
		v = strtoull(buf + 2, &end, 16);
		if (errno || *end || end == buf + 2 || v > INT64_MAX)
			return perr(p, at, "expected a hex number below 2^63, got '%s'", buf);
		*out = (int64_t)v;
		return 0;
	}
	if (parse_size(buf, &v, &why) || v > INT64_MAX)
		return perr(p, at, "expected a number or size such as 512, 24k or 1.5M, got '%s'", buf);
	*out = (int64_t)v;
	return 0;
}

/* An argument: [-]factor{(*|/)factor}. */
static int argument(struct parser *p, const char *s, size_t n, int64_t *out)
{
	const char *end = s + n, *q = s;
	int neg = 0;
	int64_t acc = 0;
	char op = 0;

	if (q < end && *q == '-') {
		neg = 1;
		q++;
		if (q == end)
			return perr(p, q, "expected a number after '-'");
	}
	while (q < end) {
		const char *f = q;
		int64_t v = 0;
		while (q < end && *q != '*' && *q != '/')
			q++;
		if (q == f)
			return perr(p, f, "expected a number before '%s'", q < end ? (*q == '*' ? "*" : "/") : "end");
		if (factor(p, f, (size_t)(q - f), f, &v))
			return -1;
		if (!op)
			acc = v;
		else if (op == '*') {
			if (__builtin_mul_overflow(acc, v, &acc))
				return perr(p, f, "the product overflows 64 bits (%.*s)", (int)(end - s), s);
		}
		else if (v == 0)
			return perr(p, f, "division by zero");
		else
			acc /= v;
		if (q < end)
			op = *q++;
		if (q == end && (q[-1] == '*' || q[-1] == '/'))
			return perr(p, q, "expected a number after '%s'", q[-1] == '*' ? "*" : "/");
	}
	*out = neg ? -acc : acc;
	return 0;
}

/* An off-list argument: arguments separated by commas; a list variable
 * alone between commas stands for all its values.  *out is malloc'd. */
static int list_argument(struct parser *p, const char *s, size_t n, int64_t **out, size_t *nout)
{
	const char *end = s + n, *q = s;
	size_t cap = 0;

	*out = NULL;
	*nout = 0;
	while (q <= end) {
		const char *f = q;
		const int64_t *vals;
		int64_t one;
		size_t k = 1;
		int i = p->vars->n;
		while (q < end && *q != ',')
			q++;
		if (q == f) {
			free(*out);
			*out = NULL;
			return perr(p, f, "expected a number or list variable %s", q < end ? "before ','" : "at the end");
		}
		if (*f == '$')
			for (i = 0; i < p->vars->n; i++)
				if (strlen(p->vars->name[i]) == (size_t)(q - f - 1) &&
				    !strncmp(p->vars->name[i], f + 1, (size_t)(q - f - 1)))
					break;
		if (i < p->vars->n && p->vars->list[i]) {
			vals = p->vars->list[i];
			k = p->vars->nlist[i];
		} else if (argument(p, f, (size_t)(q - f), &one)) {
			free(*out);
			*out = NULL;
			return -1;
		} else {
			vals = &one;
		}
		if (*nout + k > cap) {
			size_t want = (*nout + k) * 2;
			int64_t *m = realloc(*out, want * sizeof(*m));
			if (!m) {
				free(*out);
				*out = NULL;
				return fb_fail(p->e, EXIT_DEVICE, "out of memory");
			}
			*out = m;
			cap = want;
		}
		if (k)
			memcpy(*out + *nout, vals, k * sizeof(*vals));
		*nout += k;
		q++;
	}
	return 0;
}

static const char *word(const char **s)
{
	const char *w;

	while (**s == ' ' || **s == '\t' || **s == '\r')
		(*s)++;
	w = *s;
	while (**s && **s != ' ' && **s != '\t' && **s != '\r' && **s != '\n' && **s != '#')
		(*s)++;
	return w;
}

static char *dup_label(const char *s, size_t n)
{
	char *l = malloc(n + 1);
	if (l) {
		memcpy(l, s, n);
		l[n] = '\0';
	}
	return l;
}

/* The words after the arguments that set flags. */
static const struct {
	const char *word;
	unsigned clear, set;
} flag_words[] = {
	{ "sum", VM_REDUCE_MASK, VM_SUM }, { "min", VM_REDUCE_MASK, VM_MIN }, { "avg", VM_REDUCE_MASK, VM_AVG },
	{ "max", VM_REDUCE_MASK, VM_MAX }, { "keep", 0, VM_KEEP },
};

/* Is v a value of this kind of argument (vm.h's table)? */
static int check_arg(struct parser *p, const char *at, enum vm_arg kind, int64_t v)
{
	switch (kind) {
	case VM_ARG_COUNT: return v < 0 ? perr(p, at, "a count must not be negative") : 0;
	case VM_ARG_SIZE: return v < 0 ? perr(p, at, "a size must not be negative") : 0;
	case VM_ARG_BYTE:
		return v < 0 || v > 255 ? perr(p, at, "a byte is 0 to 255 (0x00 to 0xff), got %lld", (long long)v) : 0;
	default: return 0;
	}
}

/* Parse one operation line (from s, after the indentation). */
static struct vm_op *operation(struct parser *p, const char *s)
{
	const char *w = word(&s);
	enum vm_opcode code;
	int nargs;
	int64_t a[2] = { 0, 0 }, *list = NULL;
	size_t nlist = 0;
	unsigned flags = 0;
	struct vm_op *op;
	char *label = NULL;

	if (opcode_of(w, (size_t)(s - w), &code)) {
		char names[300];
		opcode_list(names, sizeof(names));
		perr(p, w, "expected an operation (%s), got '%.*s'", names, (int)(s - w < 39 ? s - w : 39), w);
		return NULL;
	}
	nargs = vm_opcode_nargs(code);
	for (int i = 0; i < nargs; i++) {
		const char *x = word(&s);
		if (s == x) {
			perr(p, x, "expected %s", i == 0 ? "an argument" : "a second argument");
			return NULL;
		}
		if (vm_opinfo(code)->arg[i] == VM_ARG_LIST) {
			if (list_argument(p, x, (size_t)(s - x), &list, &nlist))
				return NULL;
			continue;
		}
		if (argument(p, x, (size_t)(s - x), &a[i]) || check_arg(p, x, vm_opinfo(code)->arg[i], a[i]))
			return NULL;
	}
	for (;;) {
		const char *x = word(&s);
		size_t n = (size_t)(s - x), f;
		if (!n)
			break;
		for (f = 0; f < sizeof(flag_words) / sizeof(flag_words[0]); f++)
			if (strlen(flag_words[f].word) == n && !strncmp(x, flag_words[f].word, n))
				break;
		if (f < sizeof(flag_words) / sizeof(flag_words[0])) {
			flags = (flags & ~flag_words[f].clear) | flag_words[f].set;
		} else if (n > 6 && !strncmp(x, "label=", 6)) {
			free(label);
			label = dup_label(x + 6, n - 6);
		} else {
			perr(p, x, "expected sum, min, avg, max, keep or label=NAME, got '%.*s'", (int)(n < 39 ? n : 39), x);
			free(label);
			free(list);
			return NULL;
		}
	}
	op = vm_new(code, a[0], a[1], flags, NULL);
	if (op) {
		op->label = label;
		op->owns_label = 1;
		op->list = list;
		op->nlist = nlist;
	} else {
		free(label);
		free(list);
	}
	return op;
}

/* The indentation of a line: its width (tabs to multiples of 8), and which
 * characters made it (1 spaces, 2 tabs). */
static const char *indentation(const char *q, int *width, int *kind)
{
	*width = 0;
	*kind = 0;
	for (; *q == ' ' || *q == '\t'; q++) {
		*width += *q == '\t' ? 8 - *width % 8 : 1;
		*kind |= *q == '\t' ? 2 : 1;
	}
	return q;
}

/* "format NAME": one of the names the caller handed in (vars->formats) */
static int parse_format(struct parser *p, const char *q, const char **format)
{
	const char *const *names = p->vars->formats;
	const char *f = q + 6, *w = word(&f);
	char list[256];
	size_t n = 0;

	if (!names)
		return 0;
	for (; *names; names++) {
		if (strlen(*names) == (size_t)(f - w) && !strncmp(*names, w, (size_t)(f - w))) {
			*format = *names;
			return 0;
		}
		n += (size_t)snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0, "%s%s", n ? ", " : "", *names);
	}
	return perr(p, w, "expected a format: %s", list);
}

int progfile_parse(const char *file, const char *text, const struct prog_vars *vars, struct vm_op **out,
		   const char **format, struct fb_err *e)
{
	static const char *const kind_name[] = { "", "spaces", "tabs" };
	struct parser p = { .file = file, .vars = vars, .e = e };
	struct vm_op *stack[MAX_DEPTH + 1], *root = NULL;
	int indent[MAX_DEPTH + 1], has_len[MAX_DEPTH + 1], depth = 0, seen_op = 0;
	int file_kind = 0, kind_line = 0;  /* how the first indented line was indented */
	const char *s = text;

	*format = vars->formats ? "tree" : NULL;
	*out = NULL;
	while (*s) {
		const char *line = s, *q;
		int ind, kind, parent_len;
		struct vm_op *op;

		p.line++;
		p.line_start = line;
		q = indentation(line, &ind, &kind);
		s = strchr(line, '\n');
		s = s ? s + 1 : line + strlen(line);
		if (*q == '#' || *q == '\n' || *q == '\0' || (*q == '\r' && (q[1] == '\n' || !q[1])))
			continue;
		if (kind == 3) {
			perr(&p, line, "the indentation mixes tabs and spaces: use one or the other");
			goto fail;
		}
		if (kind && file_kind && kind != file_kind) {
			perr(&p, line, "indented with %s, but line %d is indented with %s: use one or the other",
			     kind_name[kind], kind_line, kind_name[file_kind]);
			goto fail;
		}
		if (kind && !file_kind) {
			file_kind = kind;
			kind_line = p.line;
		}
		if (!strncmp(q, "format", 6) && (q[6] == ' ' || q[6] == '\t')) {
			if (seen_op) {
				perr(&p, q, "'format' must come before the first operation");
				goto fail;
			}
			if (parse_format(&p, q, format))
				goto fail;
			continue;
		}
		if (!(op = operation(&p, q)))
			goto fail;
		seen_op = 1;
		if (!root) {
			if (ind != 0) {
				vm_free(op);
				perr(&p, q, "the first operation must not be indented");
				goto fail;
			}
			depth = -1;
		} else {
			while (depth >= 0 && indent[depth] >= ind)
				depth--;
			if (depth < 0) {
				vm_free(op);
				perr(&p, q, "a program has one outermost operation; indent this line below it");
				goto fail;
			}
			if (depth >= MAX_DEPTH) {
				vm_free(op);
				perr(&p, q, "nested too deeply");
				goto fail;
			}
			if (vm_opinfo(stack[depth]->code)->io) {
				perr(&p, q, "%s takes no body: indent this line no deeper than the %s above it",
				     vm_opcode_name(stack[depth]->code), vm_opcode_name(stack[depth]->code));
				vm_free(op);
				goto fail;
			}
		}
		parent_len = depth >= 0 && has_len[depth];
		if (vm_opinfo(op->code)->io && !parent_len) {
			perr(&p, q, "%s has no length: add a len line above it", vm_opcode_name(op->code));
			vm_free(op);
			goto fail;
		}
		if (!root) {
			root = op;
		} else if (!vm_add(stack[depth], op)) {
			root = NULL; /* vm_add freed both: the tree is gone */
			fb_fail(e, EXIT_DEVICE, "out of memory");
			goto fail;
		}
		stack[++depth] = op;
		indent[depth] = ind;
		has_len[depth] = parent_len || op->code == VM_LEN || op->code == VM_LEN_UNIT;
	}
	if (!root)
		return fb_fail(e, EXIT_USAGE, "%s: no operation in the program", file);
	*out = root;
	return 0;
fail:
	vm_free(root);
	return -1;
}

int progfile_load(const char *file, const struct prog_vars *vars, struct vm_op **out, const char **format,
		  struct fb_err *e)
{
	FILE *f = fopen(file, "re");
	char *text;
	size_t n;
	int rc;

	if (!f)
		return fb_fail(e, EXIT_USAGE, "%s: cannot read the program: %s", file, strerror(errno));
	text = malloc(MAX_FILE + 1);
	if (!text) {
		fclose(f);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	n = fread(text, 1, MAX_FILE + 1, f);
	fclose(f);
	if (n > MAX_FILE) {
		free(text);
		return fb_fail(e, EXIT_USAGE, "%s: the program is larger than 1 MiB", file);
	}
	text[n] = '\0';
	if (strlen(text) != n) {
		free(text);
		return fb_fail(e, EXIT_USAGE, "%s: not a text file", file);
	}
	rc = progfile_parse(file, text, vars, out, format, e);
	free(text);
	return rc;
}

int prog_vars_set_list(struct prog_vars *v, const char *name, const int64_t *list, size_t n)
{
	int i;

	for (i = 0; i < v->n && strcmp(v->name[i], name); i++)
		;
	if (i == PROG_VARS)
		return -1;
	v->name[i] = name;
	v->value[i] = 0;
	v->list[i] = list;
	v->nlist[i] = n;
	if (i == v->n)
		v->n++;
	return 0;
}

int prog_vars_set(struct prog_vars *v, const char *name, uint64_t value)
{
	if (prog_vars_set_list(v, name, NULL, 0))
		return -1;
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->name[i], name))
			v->value[i] = value;
	return 0;
}

/* Does op or any op below it satisfy test? */
static int program_has(const struct vm_op *op, int (*test)(enum vm_opcode))
{
	if (test(op->code))
		return 1;
	for (size_t i = 0; i < op->nbody; i++)
		if (program_has(op->body[i], test))
			return 1;
	return 0;
}

int program_writes(const struct vm_op *op)
{
	return program_has(op, vm_opcode_writes);
}

static int is_rewrite(enum vm_opcode code)
{
	return code == VM_REWRITE;
}

int program_rewrites(const struct vm_op *op)
{
	return program_has(op, is_rewrite);
}
