/* cost.c — the cost: line (see cost.h). */
#include "report/cost.h"

#include "lib/units.h"
#include "lib/wrap.h"

void report_cost_text(FILE *f, const struct cost *c)
{
	char w[40] = "", t[32], took[32], pt[40];

	if (c->writes)
		snprintf(w, sizeof(w), " (%s)", format_size(t, sizeof(t), c->written));
	format_time(t, sizeof(t), c->device_ns);
	format_time(took, sizeof(took), c->wall_ns);
	report_para(f, "cost: %llu reads, %llu writes%s; device time %s, took %s", (unsigned long long)c->reads,
		    (unsigned long long)c->writes, w, t, took);
	for (int i = 0; i < c->nparts; i++) {
		const struct cost_part *p = &c->part[i];
		text_pad(pt, sizeof(pt), format_time(t, sizeof(t), p->device_ns), -9);
		if (p->counted)
			fprintf(f, "%s%-12s %s %7llu reads %7llu writes %9s\n", WRAP_EVIDENCE, p->name, pt,
				(unsigned long long)p->reads, (unsigned long long)p->writes,
				format_size(w, sizeof(w), p->written));
		else if (p->note)
			wrap_printf(f, WRAP_REPORT, WRAP_EVIDENCE, WRAP_HANG, "%-12s %s    %s", p->name, pt, p->note);
		else
			fprintf(f, "%s%-12s %s\n", WRAP_EVIDENCE, p->name, pt);
	}
}
