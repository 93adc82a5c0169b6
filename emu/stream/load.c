/* SPDX-License-Identifier: MIT */
/*
 * load.c: reading a stream file, text or binary, for the machine that
 * the user's settings give (emu_load_file in program.h).  infsim and
 * infsdb both load streams through here.
 */
#include "program.h"

#include <stdlib.h>
#include <string.h>

#include "text.h"

/* The binary form: named *.inb, or with a NUL byte in its first two
 * words (its version word has several; text never has one).  The
 * decoder then checks the magic. */
static bool is_binary(const char *path, const char *bytes, size_t len)
{
	size_t n = strlen(path);
	return (n >= 4 && strcmp(path + n - 4, ".inb") == 0) ||
	       memchr(bytes, '\0', len < 16 ? len : 16);
}

/* Bytes to little-endian words, then emu_decode. */
static int decode_bytes(const char *path, const char *bytes, size_t len,
			emu_program *p, diag *d)
{
	if (len % 8) {
		diag_file(d, path, "a binary stream is a whole number of 64-bit words; this file has %zu bytes",
			  len);
		return -1;
	}
	uint64_t *words = malloc(len ? len : 1);
	if (!words) {
		diag_file(d, path, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < len / 8; i++) {
		uint64_t w = 0;
		for (unsigned k = 0; k < 8; k++)
			w |= (uint64_t)(unsigned char)bytes[i * 8 + k] << (8 * k);
		words[i] = w;
	}
	int rc = emu_decode(path, words, len / 8, p, d);
	free(words);
	return rc;
}

static bool geom_equal(const sram_geom *a, const sram_geom *b)
{
	return a->wordlines == b->wordlines && a->bitlines == b->bitlines &&
	       a->arrays_per_way == b->arrays_per_way &&
	       a->ways_per_bank == b->ways_per_bank && a->mesh_x == b->mesh_x &&
	       a->mesh_y == b->mesh_y && a->fp_ieee == b->fp_ieee &&
	       a->latency_opt == b->latency_opt && a->cordic_iters == b->cordic_iters;
}

int emu_load_text(const char *path, const char *bytes, size_t len, const emu_geom_override *ov,
		  emu_program *out, diag *d)
{
	emu_program_init(out);
	const sram_geom g = sram_geom_default();
	const bool binary = is_binary(path, bytes, len);
	int rc = binary ? decode_bytes(path, bytes, len, out, d)
			: emu_parse_over(path, bytes, len, &g, ov, out, d);
	if (rc == 0 && binary && ov) {
		sram_geom want = out->geom;
		emu_geom_override_apply(ov, &want);
		if (!geom_equal(&want, &out->geom)) {
			diag_file(d, path, "a binary stream's machine is fixed; resize the text stream and assemble it again");
			rc = EMU_LOAD_FIXED_MACHINE;
		}
	}
	if (rc < 0)
		emu_program_free(out);
	return rc;
}

int emu_load_file(const char *path, const emu_geom_override *ov,
		  emu_program *out, diag *d)
{
	char *bytes = NULL;
	size_t len = 0;
	emu_program_init(out);
	if (text_read_file(path, TEXT_FILE_MAX, &bytes, &len, d) < 0)
		return -1;
	int rc = emu_load_text(path, bytes, len, ov, out, d);
	free(bytes);
	return rc;
}
