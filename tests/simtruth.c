/* tests/simtruth.c — prints what a simulated card truly keeps (sim_truth,
 * from its keys alone), one line per mark, for the rating zoo to score
 * flashbench --rating against:
 *
 *   simtruth sim:SPEC
 *   MARK keeps|breaks FIGURE|- VALUE host|-
 *
 * (FIGURE: what it breaks first, as --rating --json names it; host: the
 * simulated host cannot show the mark). */
#include <stdio.h>
#include <string.h>

#include "dev/sdreg.h"
#include "dev/sim.h"

int main(int argc, char **argv)
{
	struct sim_params p;
	struct sim_truth t;
	struct fb_err e;

	if (argc != 2 || strncmp(argv[1], "sim:", 4) || sim_parse(argv[1] + 4, &p, &e)) {
		fprintf(stderr, "usage: simtruth sim:SPEC%s%s\n", argc == 2 && !strncmp(argv[1], "sim:", 4) ? ": " : "",
			argc == 2 && !strncmp(argv[1], "sim:", 4) ? e.msg : "");
		return 2;
	}
	sim_truth(&p, &t);
	for (unsigned i = 0; i < SD_MARKS; i++)
		printf("%s %s %s %g %s\n", sd_marks[i].name, t.mark[i].keeps ? "keeps" : "breaks",
		       t.mark[i].figure ? sd_figure_name[t.mark[i].figure] : "-", t.mark[i].value,
		       t.mark[i].host ? "host" : "-");
	return 0;
}
