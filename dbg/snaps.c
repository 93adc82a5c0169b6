/* SPDX-License-Identifier: MIT */
/*
 * snaps.c: the snapshots that bound reverse execution (`set reverse`,
 * `show reverse`).
 *
 * Going back used to rebuild the machine at the history's base and run
 * it forward to the target: after a hundred large commands a reverse
 * step ran them all again.  Now, at the last command boundary before
 * the run goes an interval of micro-ops past the last snapshot, a
 * whole-machine snapshot is taken (emu/machine/snap.h: only the non-zero
 * words of the pages the run changed since the previous snapshot are
 * copied), and reverse.c restores the last snapshot at or before its
 * target and replays the rest, at most an interval (or one command, if
 * a command is longer; doc/DEBUGGER.md, "Reverse execution").
 *
 * The snapshots live within a memory budget.  When it is full, old
 * snapshots are thinned (thin() says how), never the newest, which the
 * next reverse step needs: unlike gdb's record, whose buffer forgets the
 * oldest history first, every point of the run stays reachable, and the
 * replay is short near the position and grows with the distance back.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

enum {
	RSNAP_EVERY = 4096,                  /* micro-ops between snapshots */
};
#define RSNAP_BUDGET (UINT64_C(256) << 20) /* bytes */

/* The settings; 0 in a session is the default. */
static uint64_t every(const dbg_session *s)
{
	return s->rsnap_every ? s->rsnap_every : RSNAP_EVERY;
}

static uint64_t budget(const dbg_session *s)
{
	return s->rsnap_budget ? s->rsnap_budget : RSNAP_BUDGET;
}

void dbg_rsnap_init(dbg_session *s)
{
	/* tests/test_dbg.c: a Ctrl-C that arrives at a known point of a replay */
	const char *v = getenv("INFSDB_REPLAY_INTERRUPT");
	uint64_t n;
	s->replay_interrupt = v && dbg_parse_u64(v, &n) ? n : 0;
}

void dbg_rsnap_clear(dbg_session *s)
{
	for (size_t i = 0; i < s->nrsnaps; i++)
		emu_snap_free(s->rsnaps[i].snap);
	s->nrsnaps = 0;
	if (!s->em) {
		free(s->rsnaps);
		s->rsnaps = NULL;
		s->caprsnaps = 0;
	}
}

/* The number of snapshots at or before at. */
static size_t count_upto(const dbg_session *s, uint64_t at)
{
	size_t lo = 0, hi = s->nrsnaps;
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		if (s->rsnaps[mid].since <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const dbg_rsnap *dbg_rsnap_before(const dbg_session *s, uint64_t at)
{
	const size_t k = count_upto(s, at);
	return k ? &s->rsnaps[k - 1] : NULL;
}

static void drop(dbg_session *s, size_t i)
{
	emu_snap_free(s->rsnaps[i].snap);
	memmove(&s->rsnaps[i], &s->rsnaps[i + 1], (s->nrsnaps - i - 1) * sizeof *s->rsnaps);
	s->nrsnaps--;
}

/* Thin the snapshots to the budget.  The interior snapshot whose
 * neighbours are closest for its age goes first (gap over distance from
 * the newest), so the survivors are dense near the position, where
 * reverse steps go, and spaced ever wider back to the start: going back
 * k micro-ops replays about a constant fraction of k.  The newest goes
 * last. */
static void thin(dbg_session *s)
{
	while (s->rpool.bytes > budget(s) && s->nrsnaps > 0) {
		if (s->nrsnaps <= 2) {
			drop(s, 0);
			continue;
		}
		const uint64_t now = s->rsnaps[s->nrsnaps - 1].since;
		size_t best = 1;
		double least = 0;
		for (size_t i = 1; i + 1 < s->nrsnaps; i++) {
			const double gap = (double)(s->rsnaps[i + 1].since - s->rsnaps[i - 1].since);
			const double r = gap / (double)(now - s->rsnaps[i].since);
			if (i == 1 || r < least) {
				least = r;
				best = i;
			}
		}
		drop(s, best);
	}
}

static int insert(dbg_session *s, size_t at, emu_snap *snap)
{
	if (s->nrsnaps == s->caprsnaps) {
		const size_t cap = s->caprsnaps ? 2 * s->caprsnaps : 16;
		dbg_rsnap *v = realloc(s->rsnaps, cap * sizeof *v);
		if (!v)
			return -1;
		s->rsnaps = v;
		s->caprsnaps = cap;
	}
	memmove(&s->rsnaps[at + 1], &s->rsnaps[at], (s->nrsnaps - at) * sizeof *s->rsnaps);
	s->rsnaps[at] = (dbg_rsnap){ s->since, snap };
	s->nrsnaps++;
	return 0;
}

/* The micro-ops of the command the machine stands before: its baseline
 * program's, which a data-dependent command's longest bank trace may
 * exceed by a little.  At the end, an interval: the end is where
 * reverse commands start, so it gets its snapshot. */
static uint64_t next_length(const dbg_session *s)
{
	if (emu_done(s->em))
		return every(s);
	isa_prog p;
	isa_prog_init(&p);
	const uint64_t n = emu_cmd_uprog(s->em, s->em->pc, &p) == 0 && p.n ? p.n : 1;
	isa_prog_free(&p);
	return n;
}

void dbg_rsnap_note(dbg_session *s)
{
	if (!s->em || s->em->upc != 0 || every(s) == UINT64_MAX)
		return;
	const size_t k = count_upto(s, s->since);
	/* the last boundary before the next command would carry the run an
	 * interval past the last snapshot: so no two snapshots are more than
	 * an interval apart (or one command, when a command is longer) */
	if (k && (s->since == s->rsnaps[k - 1].since ||
		  s->since - s->rsnaps[k - 1].since + next_length(s) <= every(s)))
		return;
	diag d;
	diag_clear(&d);
	/* pages equal to the previous snapshot's are shared with it */
	emu_snap *snap = emu_snap_take(s->em, k ? s->rsnaps[k - 1].snap : NULL, &s->rpool, &d);
	if (!snap)
		return; /* without it, going back replays from an earlier one */
	if (insert(s, k, snap) < 0) {
		emu_snap_free(snap);
		return;
	}
	thin(s);
}

int dbg_ref_ready(dbg_session *s)
{
	if (!s->ref_stale)
		return 0;
	diag d;
	diag_clear(&d);
	emu_ref *ref = emu_ref_new(&s->prog, &d);
	if (!ref || emu_ref_init_buffers(ref) < 0) {
		emu_ref_free(ref);
		dbg_error(s, "%s", d.set ? d.msg : "out of memory for the reference model");
		return -1;
	}
	dbg_loads_start(s, NULL, ref);
	size_t pc = 0;
	while (pc < s->em->pc && dbg_ref_run_cmd(s, ref, pc, &d) == 0)
		pc++;
	snprintf(s->ref_err, sizeof s->ref_err, "%s", d.set ? d.msg : "");
	emu_ref_free(s->ref);
	s->ref = ref;
	s->ref_pc = pc;
	s->ref_stale = false;
	return 0;
}

int dbg_rsnap_restore(dbg_session *s, const dbg_rsnap *r)
{
	diag d;
	diag_clear(&d);
	if (emu_snap_restore(s->em, r->snap, &d) < 0) {
		dbg_error(s, "%s", d.msg);
		dbg_session_stop(s);
		return -1;
	}
	s->since = r->since;
	/* the command boundaries after the snapshot are found again */
	while (s->nbounds > 0 && s->bounds[s->nbounds - 1] > s->since)
		s->nbounds--;
	if ((s->nbounds == 0 || s->bounds[s->nbounds - 1] != s->since) &&
	    s->nbounds < s->capbounds)
		s->bounds[s->nbounds++] = s->since;
	/* the reference only runs forward: rebuilt when next compared (a
	 * run of the whole history in plain C, which a reverse step need
	 * not wait for) */
	if (s->ref_pc > s->em->pc)
		s->ref_stale = true;
	return 0;
}

/* ---- set reverse, show reverse ---- */

/* "N", "NK", "NM", "NG" (binary units) or "unlimited". */
static bool parse_size(const char *text, uint64_t *out)
{
	if (strcmp(text, "unlimited") == 0) {
		*out = UINT64_MAX;
		return true;
	}
	char num[32];
	size_t n = strlen(text);
	unsigned shift = 0;
	const char unit = n ? text[n - 1] : 0;
	if (unit == 'K' || unit == 'M' || unit == 'G') {
		shift = unit == 'K' ? 10 : unit == 'M' ? 20 : 30;
		n--;
	}
	if (n == 0 || n >= sizeof num)
		return false;
	memcpy(num, text, n);
	num[n] = '\0';
	uint64_t v;
	if (!dbg_parse_u64(num, &v) || v > (UINT64_MAX >> shift))
		return false;
	*out = v << shift;
	return true;
}

static int set_budget(dbg_session *s, char *args)
{
	uint64_t v;
	if (!parse_size(args, &v) || v == 0) {
		dbg_error(s, "set reverse budget: expected a size in bytes (with K, M or G) or "
			  "\"unlimited\", got \"%s\".", args);
		return -1;
	}
	s->rsnap_budget = v;
	thin(s);
	return 0;
}

static int set_interval(dbg_session *s, char *args)
{
	uint64_t v;
	if (strcmp(args, "unlimited") == 0) {
		v = UINT64_MAX;
	} else if (!dbg_parse_u64(args, &v) || v == 0) {
		dbg_error(s, "set reverse interval: expected a positive number of micro-ops or "
			  "\"unlimited\", got \"%s\".", args);
		return -1;
	}
	s->rsnap_every = v;
	return 0;
}

int dbg_cmd_set_reverse(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	size_t n = strcspn(args, " \t");
	char *rest = dbg_trim(args + n);
	if (n && strncmp(args, "budget", n) == 0 && *rest)
		return set_budget(s, rest);
	if (n && strncmp(args, "interval", n) == 0 && *rest)
		return set_interval(s, rest);
	dbg_error(s, "\"set reverse\" takes \"budget SIZE\" or \"interval N\".");
	return -1;
}

static void print_amount(const char *what, uint64_t v, const char *unit)
{
	if (v == UINT64_MAX)
		printf("%s: unlimited\n", what);
	else
		printf("%s: %" PRIu64 "%s\n", what, v, unit);
}

int dbg_cmd_show_reverse(dbg_session *s, char *args)
{
	if (*dbg_trim(args)) {
		dbg_error(s, "\"show reverse\" takes no arguments.");
		return -1;
	}
	print_amount("Snapshot interval", every(s), " micro-ops");
	print_amount("Snapshot budget", budget(s), " bytes");
	if (!s->em) {
		printf("No snapshots: the program is not being run.\n");
		return 0;
	}
	printf("Snapshots: %zu, holding %zu bytes, at micro-op", s->nrsnaps, s->rpool.bytes);
	for (size_t i = 0; i < s->nrsnaps; i++)
		printf("%s %" PRIu64, i ? "," : "", s->rsnaps[i].since);
	printf("%s\n", s->nrsnaps ? "" : "s: none");
	printf("Position: micro-op %" PRIu64 " of the history; the last reverse motion "
	       "replayed %" PRIu64 ".\n", s->since, s->replayed);
	return 0;
}
