/* SPDX-License-Identifier: MIT */
/*
 * dram.c: the 3-D stacked memory under VIMA and the cost model (VIMA
 * §III-D, Table I; doc/VIMA.md "Cost model").
 *
 * A vector-cache line goes to or from DRAM as 64 B sub-requests, 128 for
 * an 8 KB line (§III-D), spread over 32 vaults x 8 banks with 256 B rows
 * under a closed-row policy.  The paper does not give the address map;
 * infsim interleaves 64 B blocks over the vaults first, then over the
 * banks:
 *     vault = address bits 6..10, bank = address bits 11..13
 * so an 8 KB line puts 4 sub-requests on every vault, each in a
 * different bank, and the 4 banks of consecutive lines alternate.
 *
 * Time: the sub-requests the sequencer issues together (the misses of one
 * instruction with their victims' write-backs, a host store's write-back,
 * the final flush) form a batch.  With closed rows every sub-request is an
 * activate, a column access and a precharge: it completes tRCD + tCAS +
 * its burst after it starts, and its bank takes the next one tRC = tRAS +
 * tRP later.  A vault's data bus carries 10 GB/s, one 64 B burst per
 * 6.4 ns: 32 vaults x 10 GB/s is the 320 GB/s the paper gives the memory
 * (§II-B, [18], [19]), so no batch moves more.  The batch ends when the
 * slowest vault does.
 *
 * The write-back of the line a commit evicts goes to a one-line write
 * buffer and leaves with the next batch the sequencer issues (the next
 * instruction's misses, or at the latest the next commit's, a host
 * store's or the flush), so its DRAM latency overlaps instead of adding
 * a batch of its own (doc/VIMA.md, "Cost model").
 *
 * Times are counted in units of 1/8330 ns: a DRAM cycle (1666 MHz) is
 * 5000 of them, a 64 B burst at 10 GB/s 53312.  A batch's time becomes
 * VIMA cycles (1 GHz) rounding up.
 */
#include "vima_int.h"

/* Table I: DRAM@1666 MHz, CAS-RP-RCD-RAS-CWD = 9-9-9-24-7. */
enum { T_CAS = 9, T_RP = 9, T_RCD = 9, T_RAS = 24, T_CWD = 7 };
/* In units of 1/8330 ns: one DRAM cycle, one 64 B burst on a vault's bus
 * at 10 GB/s (6.4 ns), and one VIMA cycle. */
enum { U_DRAM = 5000, U_BURST = 53312, U_VIMA = 8330 };

/* Table I's energies (pJ) and static powers (mW). */
#define PJ_PER_BIT_VIMA 4.8
#define PJ_PER_BIT_HOST 10.8
#define PJ_PER_LINE 194.0
#define MW_STATIC (3200.0 + 134.0 + 4000.0) /* logic, vector cache, DRAM */

void vima_dram_line(vima_unit *u, uint64_t addr, bool write)
{
	const unsigned n = u->vbytes / VIMA_SUB_BYTES;
	for (unsigned k = 0; k < n; k++) {
		const uint64_t a = addr + (uint64_t)k * VIMA_SUB_BYTES;
		const unsigned vault = (unsigned)(a >> 6) & 31, bank = (unsigned)(a >> 11) & 7;
		u->batch[vault][bank]++;
		u->st.sub[vault][bank]++;
	}
	u->batch_n += n;
	if (write) {
		u->st.sub_writes += n;
		u->st.dram_write_bytes += u->vbytes;
	} else {
		u->st.sub_reads += n;
		u->st.dram_read_bytes += u->vbytes;
	}
	u->st.energy_dram_pj += PJ_PER_BIT_VIMA * 8.0 * u->vbytes;
}

void vima_dram_defer(vima_unit *u)
{
	for (unsigned v = 0; v < VIMA_VAULTS; v++)
		for (unsigned b = 0; b < VIMA_BANKS; b++) {
			u->pend[v][b] += u->batch[v][b];
			u->batch[v][b] = 0;
		}
	u->pend_n += u->batch_n;
	u->batch_n = 0;
}

uint64_t vima_dram_batch_cycles(vima_unit *u)
{
	if (u->batch_n + u->pend_n == 0)
		return 0;
	const uint64_t lat = (uint64_t)(T_RCD + (T_CAS > T_CWD ? T_CAS : T_CWD)) * U_DRAM + U_BURST;
	const uint64_t trc = (uint64_t)(T_RAS + T_RP) * U_DRAM;
	uint64_t worst = 0;
	for (unsigned v = 0; v < VIMA_VAULTS; v++) {
		uint64_t nv = 0;
		for (unsigned b = 0; b < VIMA_BANKS; b++) {
			const uint64_t k = u->batch[v][b] + u->pend[v][b];
			nv += k;
			if (k && (k - 1) * trc + lat > worst)
				worst = (k - 1) * trc + lat;
			u->batch[v][b] = u->pend[v][b] = 0;
		}
		if (nv && (uint64_t)(T_RCD + T_CAS) * U_DRAM + nv * U_BURST > worst)
			worst = (uint64_t)(T_RCD + T_CAS) * U_DRAM + nv * U_BURST;
	}
	u->batch_n = u->pend_n = 0;
	return (worst + U_VIMA - 1) / U_VIMA;
}

/* Table I: 256 int units, alu/mul/div 8-12-28 cycles, and 256 fp units,
 * 13-13-28, "for 8 KB pipelined": eight passes of 256 lanes.  A 256 B
 * vector needs one pass, so seven cycles fewer (infsim's reading). */
uint64_t vima_fu_cycles(vima_fu fu, bool fp, unsigned vbytes)
{
	static const unsigned lat[2][3] = { { 8, 12, 28 }, { 13, 13, 28 } };
	const unsigned c = lat[fp][fu];
	return vbytes == VIMA_VECTOR ? c : c - 7;
}

void vima_energy_static(vima_stats *s, uint64_t cycles)
{
	/* mW x ns = pJ; one VIMA cycle is 1 ns. */
	s->energy_static_pj += MW_STATIC * (double)cycles;
}

double vima_energy_pj(const vima_stats *s)
{
	return s->energy_dram_pj + s->energy_host_dram_pj + s->energy_cache_pj +
	       s->energy_static_pj;
}

/* Host traffic (write-backs of 64 B host lines) at the x86 energy. */
void vima_host_dram(vima_unit *u, uint64_t bytes)
{
	u->st.host_dram_bytes += bytes;
	u->st.energy_host_dram_pj += PJ_PER_BIT_HOST * 8.0 * (double)bytes;
}

/* One access to a vector-cache line (a lookup that hits, a fill, a
 * commit, the read of a write-back). */
void vima_cache_energy(vima_unit *u)
{
	u->st.cache_accesses++;
	u->st.energy_cache_pj += PJ_PER_LINE;
}
