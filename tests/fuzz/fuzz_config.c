/* SPDX-License-Identifier: MIT */
/*
 * fuzz_config.c: machine config files (KEY = VAL lines), `-c FILE` of
 * every front: every target's reader (tgt_config_read,
 * emu/target/files.c), then the in-cache machine's settings
 * (inc_settings, emu/incache/target.c).
 *
 * Any bytes, written to a file of this process's own and loaded: a
 * valid machine, or a refusal with a message; the settings of a file
 * read each have a key and a value, on increasing lines.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "incache.h"
#include "program.h"
#include "target.h"

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
	diag d;
	tgt_setting *set;
	size_t n;
	char *text;
	diag_clear(&d);
	if (tgt_config_read(path, &set, &n, &text, &d) != 0) {
		fuzz_require(d.set && d.msg[0], "a refused -c file has a message");
	} else {
		emu_geom_override o;
		diag_clear(&d);
		if (inc_settings(set, n, &o, &d) != 0)
			fuzz_require(d.set && d.msg[0], "a refused machine has a message");
		else
			fuzz_require(sram_geom_check(&o.g) == NULL, "a machine taken is valid");
		for (size_t i = 0; i < n; i++) {
			fuzz_require(set[i].key[0] && set[i].value[0], "a setting has a key and a value");
			fuzz_require(i == 0 || set[i].line > set[i - 1].line, "settings in line order");
			for (size_t k = 0; k < i; k++)
				fuzz_require(strcmp(set[k].key, set[i].key) != 0, "a key once");
		}
		free(set);
		free(text);
	}
	unlink(path);
	return 0;
}
