/* SPDX-License-Identifier: MIT */
/*
 * noc.c: the 8x8 mesh of near-stream-computing Table V: static NUCA (an
 * address's bank by a fixed interleave), X-Y hop counts, and the ledger
 * of messages by kind and of traffic by class (NSC Fig 12: offloaded,
 * control, data), in bytes and bytes x hops; the settings' defaults and
 * the bound on a whole run's work.
 */
#include "nsc_int.h"

#include <inttypes.h>

unsigned nsc_bank_of(uint64_t pa, unsigned interleave)
{
	return (unsigned)((pa / interleave) % NSC_BANKS);
}

/* Bank b sits in tile b: column b % 8, row b / 8; X-Y routing. */
unsigned nsc_hops(unsigned from, unsigned to)
{
	int dx = (int)(from % NSC_MESH) - (int)(to % NSC_MESH);
	int dy = (int)(from / NSC_MESH) - (int)(to / NSC_MESH);
	return (unsigned)((dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy));
}

void nsc_send(nsc_stats *st, nsc_msg m, nsc_class c, unsigned bytes, unsigned from, unsigned to)
{
	st->msgs[m]++;
	st->bytes[c] += bytes;
	st->byte_hops[c] += (uint64_t)bytes * nsc_hops(from, to);
	st->msg_bytes[m] += bytes;
	st->msg_byte_hops[m] += (uint64_t)bytes * nsc_hops(from, to);
	st->tile_msgs_out[from % NSC_BANKS]++;
	st->tile_msgs_in[to % NSC_BANKS]++;
	st->tile_bytes_out[from % NSC_BANKS] += bytes;
	st->tile_bytes_in[to % NSC_BANKS] += bytes;
}

const char *nsc_msg_name(nsc_msg m)
{
	static const char *const names[NSC_NMSG] = {
		"config", "migrate", "forward", "credit", "range", "commit", "done", "end",
		"data", "request", "line", "writeback", "instance" };
	return names[m];
}

const char *nsc_class_name(nsc_class c)
{
	static const char *const names[NSC_NCLASS] = { "offloaded", "control", "data" };
	return names[c];
}

uint64_t nsc_stats_bytes(const nsc_stats *s)
{
	return s->bytes[0] + s->bytes[1] + s->bytes[2];
}

uint64_t nsc_stats_byte_hops(const nsc_stats *s)
{
	return s->byte_hops[0] + s->byte_hops[1] + s->byte_hops[2];
}

uint64_t nsc_stats_sync_hops(const nsc_stats *s)
{
	return s->msg_byte_hops[NSC_M_CREDIT] + s->msg_byte_hops[NSC_M_DONE] + s->msg_byte_hops[NSC_M_COMMIT] +
	       s->msg_byte_hops[NSC_M_RANGE];
}

uint64_t nsc_stats_coord_hops(const nsc_stats *s)
{
	return nsc_stats_sync_hops(s) + s->msg_byte_hops[NSC_M_CONFIG] + s->msg_byte_hops[NSC_M_END] +
	       s->msg_byte_hops[NSC_M_INSTANCE];
}

uint64_t nsc_stats_coord_bytes(const nsc_stats *s)
{
	return s->msg_bytes[NSC_M_CREDIT] + s->msg_bytes[NSC_M_DONE] + s->msg_bytes[NSC_M_COMMIT] +
	       s->msg_bytes[NSC_M_RANGE] + s->msg_bytes[NSC_M_CONFIG] + s->msg_bytes[NSC_M_END] +
	       s->msg_bytes[NSC_M_INSTANCE];
}

void nsc_settings_default(nsc_settings *s)
{
	*s = (nsc_settings){ .interleave = 64, .floating = NSC_FLOAT_AUTO, .range_iters = 8,
			     .window = 16, .cache_bytes = 256u << 10, .core_tile = 0 };
}

int nsc_work_charge(const nsc_settings *s, uint64_t *work, uint64_t n, const char *file,
		    int line, int col, diag *d)
{
	if (!s->max_work)
		return 0;
	if (n > s->max_work - *work) {
		diag_at(d, file, line, col, "the run passes %" PRIu64 " loop trips and region "
			"iterations in all (--max-work)", s->max_work);
		return -1;
	}
	*work += n;
	return 0;
}
