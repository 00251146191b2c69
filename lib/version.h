/* version.h — the version flashbench reports (--version, JSON). */
#ifndef FLASHBENCH_VERSION
#define FLASHBENCH_VERSION "0.2.0"
#endif

/* The version of the JSON documents' layout ("format": N, first in every
 * document, like smartctl's json_format_version): raised when a field is
 * removed, renamed or changes its meaning, not when one is added.  Readers
 * (--analyze, --compare) refuse a document of a later format, and read
 * every earlier one.  2: --auto's and --analyze's alignment_matters moved
 * out of findings, whose every member is now a finding. */
#ifndef FLASHBENCH_JSON_FORMAT
#define FLASHBENCH_JSON_FORMAT 2
#endif
