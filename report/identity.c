/* identity.c — the device's identity record in the outputs: its JSON, and the text
 * reports' heading (see identity.h). */
#include "report/identity.h"

#include "lib/units.h"

void json_identity(struct json *j, const struct identity *id)
{
	json_tool(j);
	json_object(j, "device");
	json_string(j, "path", id->path);
	json_uint(j, "size", id->size);
	json_uint(j, "logical_sector", id->sector);
	json_uint(j, "physical_sector", id->physical);
	json_bool(j, "simulated", id->simulated);
	for (int i = 0; i < id->info.n; i++)
		json_string(j, id->info.name[i], id->info.value[i]);
	if (id->model[0].key)
		json_record(j, "model", id->model);
	json_end(j);
}

void identity_text(FILE *f, const char *mode, const struct identity *id)
{
	char sz[32];

	format_size(sz, sizeof(sz), id->size);
	fprintf(f, "flashbench --%s: %s, %s (%llu bytes), %u-byte sectors\n", mode, id->path, sz,
		(unsigned long long)id->size, id->sector);
	for (int i = 0; i < id->info.n; i++)
		fprintf(f, "    %s: %s\n", id->info.name[i], id->info.value[i]);
	fputc('\n', f);
}
