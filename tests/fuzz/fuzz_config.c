/* SPDX-License-Identifier: MIT */
/*
 * fuzz_config.c: machine config files (emu/geom.c, KEY = VAL lines).
 *
 * Any bytes, written to a file of this process's own and loaded: a
 * valid machine, or a refusal with a message.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	if (!path[0])
		snprintf(path, sizeof path, "/tmp/infsim-fuzz-config-%ld", (long)getpid());
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	emu_geom_override o;
	diag d;
	diag_clear(&d);
	emu_geom_override_init(&o);
	if (emu_geom_override_load(&o, path, &d) != 0)
		fuzz_require(d.set && d.msg[0], "a refused config has a message");
	else
		fuzz_require(sram_geom_check(&o.g) == NULL, "a loaded machine is valid");
	unlink(path);
	return 0;
}
