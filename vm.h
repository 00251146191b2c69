/* vm.h — the test VM.  A test is a program: a tree of operations.  Each
 * operation sets a register or loops, and runs its body (its child
 * operations, in order) once per step; I/O operations are the leaves.  The VM
 * walks the tree against a device and returns a result tree of the same
 * shape: one node per operation run, holding the time of every request below
 * it (count, bytes, min, max, total) and a reduced value.  The VM never
 * prints.
 *
 * Registers: off (byte offset), len (request length), unit (a size that loops
 * such as the chunk size or alignment step set), pattern (written byte; the
 * pass number of signatures).
 * The opcodes are the table VM_OPCODES below: it makes the enum, the names
 * the program parser reads (progfile.c), the arguments it checks and the
 * one-line meanings doc/program.md lists.
 *
 * Every operation also has a reduction, how its value comes from its
 * children's values (an I/O leaf's value is its time in ns): VM_SUM (the
 * default), VM_MIN, VM_AVG or VM_MAX; and VM_KEEP, whether its children's
 * result nodes are kept (for output and analysis) or only summed up. */
#ifndef FLASHBENCH_VM_H
#define FLASHBENCH_VM_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "lib/sig.h"

struct dev;
struct extents;

/* Argument kinds: what the parser accepts for an argument. */
enum vm_arg {
	VM_ARG_NONE,
	VM_ARG_COUNT,           /* a number >= 0 */
	VM_ARG_SIZE,            /* bytes >= 0 */
	VM_ARG_DELTA,           /* bytes, may be negative */
	VM_ARG_BYTE,            /* 0 .. 255 */
	VM_ARG_LIST,            /* bytes, comma-separated, may be negative; a list variable expands */
};

/* The opcode table.  X(CODE, name, io, args, kind of a, kind of b, meaning);
 * io marks the I/O leaves, which take no body. */
#define VM_OPCODES(X)                                                                                         \
	X(READ,        "read",        1, "",          NONE,  NONE,  "read len bytes at off")                      \
	X(WRITE,       "write",       1, "",          NONE,  NONE,  "write len bytes of the pattern at off")      \
	X(ERASE,       "erase",       1, "",          NONE,  NONE,  "discard len bytes at off")                   \
	X(SIG_WRITE,   "sig-write",   1, "",          NONE,  NONE,  "write len bytes of signatures at off (each sector: its offset, the run's salt, pass = pattern)") \
	X(SIG_READ,    "sig-read",    1, "",          NONE,  NONE,  "read len bytes at off and check their signatures (good, moved, stale, foreign)") \
	X(REWRITE,     "rewrite",     1, "",          NONE,  NONE,  "read len bytes at off and write the same bytes back (a write that changes nothing)") \
	X(SEQ,         "seq",         0, "",          NONE,  NONE,  "run the body once")                          \
	X(REPEAT,      "repeat",      0, "N",         COUNT, NONE,  "run the body N times")                       \
	X(LEN,         "len",         0, "SIZE",      SIZE,  NONE,  "len = SIZE")                                 \
	X(LEN_UNIT,    "len-unit",    0, "",          NONE,  NONE,  "len = unit")                                 \
	X(PATTERN,     "pattern",     0, "BYTE",      BYTE,  NONE,  "pattern = BYTE (0x00, 0xff, 0x5a)")          \
	X(OFF,         "off",         0, "SIZE",      DELTA, NONE,  "off += SIZE (may be negative)")              \
	X(OFF_UNIT,    "off-unit",    0, "NUM DEN",   COUNT, COUNT, "off += unit * NUM / DEN")                    \
	X(OFF_LINEAR,  "off-linear",  0, "STEP N",    SIZE,  COUNT, "for i < N: off += i * STEP (STEP 0: unit)")  \
	X(OFF_SPAN,    "off-span",    0, "SPAN",      SIZE,  NONE,  "for i < SPAN / unit: off += i * unit")       \
	X(OFF_SHUFFLE, "off-shuffle", 0, "SPAN SEED", SIZE,  COUNT, "the same in a pseudo-random order visiting each once") \
	X(OFF_LIST,    "off-list",    0, "A,B,...",   LIST,  NONE,  "for each v of the list, in order: off += v")  \
	X(UNIT_HALVE,  "unit-halve",  0, "FROM TO",   SIZE,  SIZE,  "for unit = FROM; unit >= TO; unit /= 2")     \
	X(UNIT_DOUBLE, "unit-double", 0, "FROM TO",   SIZE,  SIZE,  "for unit = FROM; unit <= TO; unit *= 2")     \
	X(QUEUE,       "queue",       0, "DEPTH",     COUNT, NONE,  "the body's reads and writes with up to DEPTH in flight (its time: the queue's)")

#define VM_ENUM_(code, name, io, args, ka, kb, meaning) VM_##code,
enum vm_opcode { VM_OPCODES(VM_ENUM_) VM_NOPCODES };
#undef VM_ENUM_

struct vm_opinfo {
	const char *name;       /* as programs spell it */
	int io;                 /* an I/O leaf: no body */
	const char *args;       /* argument names, for the docs ("STEP N") */
	enum vm_arg arg[2];     /* what each argument may be (VM_ARG_NONE: absent) */
	const char *meaning;    /* one line */
};

/* The row of an opcode (NULL when out of range). */
const struct vm_opinfo *vm_opinfo(enum vm_opcode code);
/* How many arguments it takes (0-2). */
int vm_opcode_nargs(enum vm_opcode code);
/* Does it write to the device (write, erase, sig-write, rewrite)? */
int vm_opcode_writes(enum vm_opcode code);
/* Does it change what the device holds (a write other than rewrite)? */
int vm_opcode_changes(enum vm_opcode code);

enum vm_flags {
	VM_SUM = 0, VM_MIN = 1, VM_AVG = 2, VM_MAX = 3, VM_REDUCE_MASK = 3,
	VM_KEEP = 4,
};

struct vm_op {
	enum vm_opcode code;
	int64_t a, b;
	unsigned flags;
	const char *label;      /* optional name for output ("pre", "on") */
	int owns_label;         /* label was allocated: vm_free frees it */
	int64_t *list;          /* off-list's values (vm_free frees them) */
	size_t nlist;
	struct vm_op **body;
	size_t nbody;
};

struct vm_stats {
	uint64_t count, bytes;
	uint64_t min_ns, max_ns;
	double total_ns;
	struct sig_tally sig;       /* sig-read: what the sectors below held */
};

struct vm_result {
	const struct vm_op *op;     /* what ran: valid while its program lives */
	uint64_t off, len, unit;    /* registers when the node ran */
	double value;               /* reduced value (ns) */
	struct vm_stats st;         /* every request below this node */
	struct vm_result *kid;      /* kept children (VM_KEEP) */
	size_t nkid;
};

/* What a program will do, found without any I/O. */
struct vm_plan {
	uint64_t requests;
	uint64_t max_len;                  /* largest request */
	uint64_t write_lo, write_hi;       /* bytes written or erased (lo == hi: none) */
	uint64_t bytes_written;
	uint64_t kept;                     /* result nodes kept (bounded: see vm.c) */
};

/* Build a node: vm_new(code, a, b, flags, child..., NULL).  Returns NULL when
 * memory runs out (children are then freed). */
struct vm_op *vm_new(enum vm_opcode code, int64_t a, int64_t b, unsigned flags, ...)
	__attribute__((sentinel));
struct vm_op *vm_label(struct vm_op *op, const char *label);
/* Append a child; returns op, or NULL after freeing both on failure. */
struct vm_op *vm_add(struct vm_op *op, struct vm_op *child);
void vm_free(struct vm_op *op);

const char *vm_opcode_name(enum vm_opcode code);

/* Walk the program without I/O: the requests it makes on a device of this
 * size and sector size.  Fails (e filled, usage status) on a request past
 * the end, an unaligned or empty one, a loop that would not end, or more
 * kept result nodes than memory should hold. */
int vm_plan(const struct vm_op *prog, uint64_t dev_size, unsigned sector,
	    struct vm_plan *plan, struct fb_err *e);

/* Like vm_plan (plan may be NULL), also gathering the ranges the program
 * writes or erases (writes) and those it changes (changes: all but a
 * rewrite's, which writes back the bytes it read); either may be NULL.  The
 * caller frees them (extents_free), also after a failure. */
int vm_plan_extents(const struct vm_op *prog, uint64_t dev_size, unsigned sector, struct vm_plan *plan,
		    struct extents *writes, struct extents *changes, struct fb_err *e);

/* Called after each request with the requests done so far (may be NULL). */
typedef void (*vm_progress_fn)(void *ctx, uint64_t done);
/* Called when a kept result node is complete, with its depth below the root
 * (1: a child of the root) and whether every node above it is the first
 * kept child of its parent (the path the output formats read their rows
 * from).  The node may move once the call returns (its parent's children
 * grow); this is how results reach the output while a program runs, and the
 * VM itself never prints. */
typedef void (*vm_result_fn)(void *ctx, const struct vm_result *node, unsigned depth, int first_path);

struct vm_run {
	const volatile sig_atomic_t *stop;  /* set by a signal: stop after this request */
	uint64_t salt;                      /* the run's signatures (sig-write, sig-read) */
	vm_progress_fn progress;
	void *progress_ctx;
	vm_result_fn on_result;             /* may be NULL */
	void *result_ctx;
	int keep_partial;                   /* on a failure, *out gets the tree so far */
	const struct vm_plan *plan;         /* the caller's vm_plan of this program, if it made one */
	/* a time bound: no request starts once the program's device time plus
	 * its slowest request so far would pass deadline_ns (0: none); then
	 * *deadline_hit is set and vm_run fails as on a stop */
	double deadline_ns;
	int *deadline_hit;
};

/* Run the program.  Before its first request a device that saves what is
 * changed first (DEV_CAP_SAVES_FIRST) is told the ranges the program
 * changes (dev_will_write).  The result tree is freed with vm_result_free.  Returns 0,
 * or -1 with e filled (an I/O error names the offset; a stop says so); then
 * *out is NULL, or with keep_partial the tree as far as it got (each node
 * on_result was told of is complete; the others may not be). */
int vm_run(const struct vm_op *prog, struct dev *d, const struct vm_run *how,
	   struct vm_result **out, struct fb_err *e);
void vm_result_free(struct vm_result *r);

/* Widen the written range [*lo, *hi) (lo == hi: none yet) by the plan's. */
void vm_plan_span(const struct vm_plan *p, uint64_t *lo, uint64_t *hi);

/* Add b's requests to a. */
void vm_stats_add(struct vm_stats *a, const struct vm_stats *b);

/* Bytes per second of everything below r. */
double vm_throughput(const struct vm_result *r);

#endif
