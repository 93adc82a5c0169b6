/* SPDX-License-Identifier: MIT */
/*
 * record.c: `record vcd FILE [ARRAY]...` writes every micro-op the
 * machine runs as a time step of a VCD waveform (IEEE 1364 value change
 * dump, viewable in GTKWave): for each recorded array, its wordlines,
 * the carry and tag latches, the enable mask, the sensed BL and BLB (one
 * B-bit vector each, bit k = bitline k), and which wordlines the last
 * micro-op activated and wrote (W-bit vectors).  Time is the cycle count.
 * The scopes nest as the hardware does, bank → way → array (bankB,
 * wayW, arrayA: the numbers of BANK.WAY.ARRAY), arrays in order; an
 * array named twice is recorded once.
 * The file is written atomically (lib/outfile.h) when recording stops.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "outfile.h"

#define RECORD_MAX_ARRAYS 16
enum { SIG_LATCHES = 5, SIG_ACT = SIG_LATCHES, SIG_WRITE, SIG_EXTRA };

struct dbg_record {
	outfile o;
	char *path;
	unsigned arrays[RECORD_MAX_ARRAYS];
	unsigned narrays;
	unsigned per_array;  /* signals per array: W wordlines + SIG_EXTRA */
	unsigned width;      /* characters per value: max(W, B) + 1 */
	char *prev;          /* the last value written of each signal */
	uint64_t time;
	bool timed;          /* a "#time" line was written */
};

/* Identifier codes: printable characters from '%' to '~' (avoiding '$',
 * which starts VCD keywords), base 90, least significant first. */
static void signal_id(unsigned i, char id[8])
{
	size_t n = 0;
	do {
		id[n++] = (char)('%' + i % 90);
		i /= 90;
	} while (i && n < 7);
	id[n] = '\0';
}

/* The current value of signal sig of recorded array k, MSB first. */
static void signal_value(const dbg_session *s, unsigned k, unsigned sig, char *out)
{
	const sram_machine *m = s->em->m;
	unsigned a = s->rec->arrays[k], W = m->g.wordlines, B = m->g.bitlines;
	const sram_way *w = &m->ways[a / m->g.arrays_per_way];
	if (sig < W || sig - W < SIG_LATCHES) {
		for (unsigned bl = 0; bl < B; bl++)
			out[B - 1 - bl] = (char)('0' + (sig < W ? sram_get_bit(m, a, sig, bl)
						   : sram_get_latch(m, a, (enum sram_latch)(sig - W), bl)));
		out[B] = '\0';
		return;
	}
	for (unsigned wl = 0; wl < W; wl++) {
		const bool on = sig - W == SIG_WRITE ? w->last_dst == wl
						     : sram_way_activated(w, wl);
		out[W - 1 - wl] = on ? '1' : '0';
	}
	out[W] = '\0';
}

/* Write every signal whose value changed (all of them when force). */
static void dump_changes(dbg_session *s, bool force)
{
	struct dbg_record *r = s->rec;
	char id[8];
	for (unsigned k = 0; k < r->narrays; k++)
		for (unsigned sig = 0; sig < r->per_array; sig++) {
			unsigned i = k * r->per_array + sig;
			char *prev = r->prev + (size_t)i * r->width;
			char now[SRAM_MAX_DIM + 1];
			signal_value(s, k, sig, now);
			if (!force && strcmp(now, prev) == 0)
				continue;
			strcpy(prev, now);
			signal_id(i, id);
			fprintf(r->o.f, "b%s %s\n", now, id);
		}
}

/* The $var lines of recorded array k. */
static void write_vars(struct dbg_record *r, const sram_machine *m, unsigned k)
{
	static const char *const extra[] = { "C", "T", "E", "BL", "BLB", "act", "write" };
	char id[8];
	for (unsigned sig = 0; sig < r->per_array; sig++) {
		signal_id(k * r->per_array + sig, id);
		unsigned W = m->g.wordlines, bits = sig < W + SIG_LATCHES ? m->g.bitlines : W;
		if (sig < W)
			fprintf(r->o.f, "$var reg %u %s wl%u $end\n", bits, id, sig);
		else
			fprintf(r->o.f, "$var reg %u %s %s $end\n", bits, id, extra[sig - W]);
	}
}

/* The scopes: a bank's and a way's open while their arrays follow one
 * another (the arrays are in increasing order, so each opens once). */
static void write_scopes(struct dbg_record *r, const sram_machine *m)
{
	const unsigned apw = m->g.arrays_per_way, wpb = m->g.ways_per_bank;
	for (unsigned k = 0; k < r->narrays; k++) {
		const unsigned a = r->arrays[k], way = a / apw, bank = way / wpb;
		const bool new_bank = k == 0 || r->arrays[k - 1] / apw / wpb != bank;
		const bool new_way = new_bank || r->arrays[k - 1] / apw != way;
		if (new_bank)
			fprintf(r->o.f, "$scope module bank%u $end\n", bank);
		if (new_way)
			fprintf(r->o.f, "$scope module way%u $end\n", way % wpb);
		fprintf(r->o.f, "$scope module array%u $end\n", a % apw);
		write_vars(r, m, k);
		fprintf(r->o.f, "$upscope $end\n");
		const bool last = k + 1 == r->narrays;
		const bool way_ends = last || r->arrays[k + 1] / apw != way;
		if (way_ends)
			fprintf(r->o.f, "$upscope $end\n");
		if (way_ends && (last || r->arrays[k + 1] / apw / wpb != bank))
			fprintf(r->o.f, "$upscope $end\n");
	}
}

static void write_header(dbg_session *s)
{
	struct dbg_record *r = s->rec;
	fprintf(r->o.f, "$version infsdb (infsim) %s $end\n$timescale 1 ns $end\n",
		PACKAGE_VERSION);
	write_scopes(r, s->em->m);
	fprintf(r->o.f, "$enddefinitions $end\n#%" PRIu64 "\n$dumpvars\n", dbg_cycles(s));
	dump_changes(s, true);
	fprintf(r->o.f, "$end\n");
	r->time = dbg_cycles(s);
}

void dbg_record_step(dbg_session *s)
{
	struct dbg_record *r = s->rec;
	if (!r)
		return;
	uint64_t now = dbg_cycles(s);
	if (now != r->time) {
		fprintf(r->o.f, "#%" PRIu64 "\n", now);
		r->time = now;
	}
	dump_changes(s, false);
}

static void record_free(struct dbg_record *r)
{
	free(r->path);
	free(r->prev);
	free(r);
}

int dbg_record_stop(dbg_session *s)
{
	struct dbg_record *r = s->rec;
	if (!r)
		return 0;
	s->rec = NULL;
	diag d;
	diag_clear(&d);
	int rc = outfile_commit(&r->o, &d);
	if (rc < 0)
		dbg_error(s, "record: %s", d.msg);
	else
		printf("Recording of %s written (cycles up to %" PRIu64 ").\n", r->path, r->time);
	record_free(r);
	return rc;
}

static int cmp_unsigned(const void *a, const void *b)
{
	const unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/* The arrays named in args (array 0 when none), each once, in order. */
static int parse_arrays(dbg_session *s, char *args, struct dbg_record *r)
{
	char *save = NULL;
	for (char *w = strtok_r(args, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		unsigned a;
		if (dbg_parse_array(s, w, &a) < 0)
			return -1;
		bool seen = false;
		for (unsigned k = 0; k < r->narrays; k++)
			seen |= r->arrays[k] == a;
		if (seen)
			continue;
		if (r->narrays == RECORD_MAX_ARRAYS) {
			dbg_error(s, "record vcd: at most %d arrays.", RECORD_MAX_ARRAYS);
			return -1;
		}
		r->arrays[r->narrays++] = a;
	}
	if (r->narrays == 0)
		r->arrays[r->narrays++] = 0;
	qsort(r->arrays, r->narrays, sizeof r->arrays[0], cmp_unsigned);
	return 0;
}

static struct dbg_record *record_new(dbg_session *s, char *args)
{
	struct dbg_record *r = calloc(1, sizeof *r);
	char *save = NULL, *path = strtok_r(args, " \t", &save);
	if (!r || !path) {
		free(r);
		dbg_error(s, r ? "record vcd: expected FILE [ARRAY]..." : "out of memory");
		return NULL;
	}
	const sram_geom *g = &s->em->m->g;
	r->per_array = g->wordlines + SIG_EXTRA;
	r->width = (g->wordlines > g->bitlines ? g->wordlines : g->bitlines) + 1;
	r->path = strdup(path);
	if (!r->path || parse_arrays(s, save, r) < 0) {
		if (!r->path)
			dbg_error(s, "out of memory");
		record_free(r);
		return NULL;
	}
	r->prev = calloc((size_t)r->narrays * r->per_array, r->width);
	if (!r->prev) {
		dbg_error(s, "out of memory");
		record_free(r);
		return NULL;
	}
	return r;
}

int dbg_cmd_record_vcd(dbg_session *s, char *args)
{
	if (dbg_need_machine(s) < 0)
		return -1;
	if (s->rec) {
		dbg_error(s, "record vcd: already recording to %s (\"record stop\" first).",
			  s->rec->path);
		return -1;
	}
	struct dbg_record *r = record_new(s, args);
	diag d;
	diag_clear(&d);
	if (!r)
		return -1;
	if (outfile_open(&r->o, r->path, &d) < 0) {
		dbg_error(s, "record vcd: %s", d.msg);
		record_free(r);
		return -1;
	}
	s->rec = r;
	write_header(s);
	printf("Recording %u array%s to %s from cycle %" PRIu64 ".\n", r->narrays,
	       r->narrays == 1 ? "" : "s", r->path, r->time);
	return 0;
}

int dbg_cmd_record_stop(dbg_session *s, char *args)
{
	if (*dbg_trim(args)) {
		dbg_error(s, "\"record stop\" takes no arguments.");
		return -1;
	}
	if (!s->rec) {
		dbg_error(s, "record stop: not recording.");
		return -1;
	}
	return dbg_record_stop(s);
}
