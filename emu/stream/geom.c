/* SPDX-License-Identifier: MIT */
/*
 * geom.c: machine settings (the `machine` line, and -m and -c FILE
 * through emu/incache's inc_settings), all as key=value:
 *   wordlines=W  bitlines=B  arrays=A (per way)  ways=N (per bank)  mesh=XxY
 * and the controller's settings (duality-cache §3.1.2, §5.5):
 *   fp=ftz|ieee  latency=baseline|optimised  cordic=K (1..60)
 * The sizes' defaults are infinity-stream Table 2 (sram_geom_default);
 * the settings' defaults (ftz, baseline, 17) are stored as 0, so a
 * geometry has one representation and a zeroed one is valid.
 *
 * Each value is checked on its own here, with sram_geom_check's own
 * messages; limits that involve several keys (total arrays, total bytes)
 * can only be checked once every key is known, by the caller with
 * sram_geom_check -- the `machine` line and inc_settings do.
 */
#include "program.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "text.h"

static const char *const geom_keys[EMU_GEOM_KEYS] = {
	"wordlines", "bitlines", "arrays", "ways", "mesh", "fp", "latency", "cordic",
};
enum { KEY_MESH = 4, KEY_FP, KEY_LATENCY, KEY_CORDIC };
static const char *const fp_names[] = {"ftz", "ieee"};
static const char *const latency_names[] = {"baseline", "optimised"};

int emu_geom_key_index(const char *key)
{
	for (int i = 0; i < EMU_GEOM_KEYS; i++)
		if (strcmp(key, geom_keys[i]) == 0)
			return i;
	return -1;
}

/* A positive decimal number of at most 9 digits, ending at *end. */
static int scan_count(const char *s, const char **end, unsigned *v)
{
	uint64_t x = 0;
	size_t n = 0;
	while (s[n] >= '0' && s[n] <= '9') {
		x = x * 10 + (uint64_t)(s[n] - '0');
		if (++n > 9)
			return -1;
	}
	*end = s + n;
	*v = (unsigned)x;
	return n ? 0 : -1;
}

/* The smallest valid machine with one field taken from g: what
 * sram_geom_check then says concerns that field alone. */
static const char *check_field(const sram_geom *g, int key)
{
	sram_geom t = {.wordlines = 8, .bitlines = 8, .arrays_per_way = 1,
		       .ways_per_bank = 1, .mesh_x = 1, .mesh_y = 1};
	switch (key) {
	case 0: t.wordlines = g->wordlines; break;
	case 1: t.bitlines = g->bitlines; break;
	case 2: t.arrays_per_way = g->arrays_per_way; break;
	case 3: t.ways_per_bank = g->ways_per_bank; break;
	default: t.mesh_x = g->mesh_x; t.mesh_y = g->mesh_y; break;
	}
	return sram_geom_check(&t);
}

/* fp=, latency= and cordic=: the controller's settings. */
static int set_control(sram_geom *g, int k, const char *value, const char **err)
{
	const char *end;
	unsigned v;
	if (k == KEY_FP || k == KEY_LATENCY) {
		const char *const *names = k == KEY_FP ? fp_names : latency_names;
		if (strcmp(value, names[0]) && strcmp(value, names[1])) {
			*err = k == KEY_FP ? "expected ftz (subnormals flushed to zero, the default) "
					     "or ieee (subnormals exact)"
					   : "expected baseline (the default) or optimised";
			return -1;
		}
		*(k == KEY_FP ? &g->fp_ieee : &g->latency_opt) = strcmp(value, names[0]) != 0;
		return 0;
	}
	if (scan_count(value, &end, &v) || *end || v < 1 || v > ISA_CORDIC_MAX) {
		*err = "expected the number of CORDIC iterations k, from 1 to 60";
		return -1;
	}
	g->cordic_iters = v == ISA_CORDIC_DEFAULT ? 0 : v;
	return 0;
}

int emu_geom_set(sram_geom *g, const char *key, const char *value,
		 const char **err)
{
	const int k = emu_geom_key_index(key);
	sram_geom t = *g;
	const char *end;
	unsigned v, y;
	if (k < 0) {
		*err = "unknown machine setting; expected " EMU_GEOM_KEY_LIST;
		return -1;
	}
	if (k >= KEY_FP)
		return set_control(g, k, value, err);
	if (k == KEY_MESH) {
		if (scan_count(value, &end, &v) || (*end != 'x' && *end != 'X') ||
		    scan_count(end + 1, &end, &y) || *end) {
			*err = "expected XxY, the mesh's banks across and down, e.g. 8x8";
			return -1;
		}
		t.mesh_x = v;
		t.mesh_y = y;
	} else {
		if (scan_count(value, &end, &v) || *end) {
			*err = "expected a decimal number";
			return -1;
		}
		unsigned *f[] = {&t.wordlines, &t.bitlines, &t.arrays_per_way, &t.ways_per_bank};
		*f[k] = v;
	}
	if ((*err = check_field(&t, k)) != NULL)
		return -1;
	*g = t;
	return 0;
}

int emu_geom_format(const sram_geom *g, char *buf, size_t size)
{
	/* The settings only when not default: a stream written before they
	 * existed formats as it always did. */
	char k[24] = "";
	if (g->cordic_iters)
		snprintf(k, sizeof k, " cordic=%u", g->cordic_iters);
	return snprintf(buf, size, "wordlines=%u bitlines=%u arrays=%u ways=%u mesh=%ux%u%s%s%s",
			g->wordlines, g->bitlines, g->arrays_per_way, g->ways_per_bank,
			g->mesh_x, g->mesh_y, g->fp_ieee ? " fp=ieee" : "",
			g->latency_opt ? " latency=optimised" : "", k);
}

unsigned emu_geom_cordic(const sram_geom *g)
{
	return g->cordic_iters ? g->cordic_iters : ISA_CORDIC_DEFAULT;
}

void emu_geom_override_init(emu_geom_override *o)
{
	o->g = sram_geom_default();
	o->keys = 0;
}

int emu_geom_override_set(emu_geom_override *o, const char *key,
			  const char *value, const char **err)
{
	if (emu_geom_set(&o->g, key, value, err))
		return -1;
	o->keys |= 1u << emu_geom_key_index(key);
	return 0;
}

void emu_geom_override_apply(const emu_geom_override *o, sram_geom *g)
{
	if (!o)
		return;
	if (o->keys & 1)
		g->wordlines = o->g.wordlines;
	if (o->keys & 2)
		g->bitlines = o->g.bitlines;
	if (o->keys & 4)
		g->arrays_per_way = o->g.arrays_per_way;
	if (o->keys & 8)
		g->ways_per_bank = o->g.ways_per_bank;
	if (o->keys & 16) {
		g->mesh_x = o->g.mesh_x;
		g->mesh_y = o->g.mesh_y;
	}
	if (o->keys & 32)
		g->fp_ieee = o->g.fp_ieee;
	if (o->keys & 64)
		g->latency_opt = o->g.latency_opt;
	if (o->keys & 128)
		g->cordic_iters = o->g.cordic_iters;
}
