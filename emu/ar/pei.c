/* SPDX-License-Identifier: MIT */
/*
 * pei.c: the baseline of §VI, PIM-Enabled Instructions [18], counted on
 * the same operations.  A compute unit at each vault; one operand of an
 * Update (src2, regular or irregular) is loaded into the host's cache
 * and shipped with the PEI to the vault of the other (src1), which
 * computes the products and returns the partial to the host; the host
 * accumulates and stores the target when the Gather's barrier closes.
 * An Update with one operand loads it and ships it with an atomic PEI
 * to the target's vault.
 * Assignments are ordinary loads and stores.  Every packet crosses the
 * host link of the controller nearest the cube it goes to, then the
 * minimal route to that cube.  Loads are "normal" data, PEI packets and
 * stores "active" data, as in Fig 10.
 */
#include "ar_private.h"

static void packet(const ar_config *c, ar_stats *st, int cube, unsigned bytes, bool normal)
{
	int host = ar_host_cube(c, (unsigned)ar_nearest_host(c, cube));
	st->pei_pk.packets++;
	st->pei_pk.bytes += bytes;
	st->pei_pk.byte_hops += (uint64_t)bytes * ar_hops(c, host, cube);
	if (normal)
		st->pei_host_normal += bytes;
	else
		st->pei_host_active += bytes;
}

/* A load of k elements in one block: request and response. */
static void load(const ar_config *c, ar_stats *st, uint64_t addr, unsigned k, unsigned es)
{
	int cube = ar_cube_of(c, addr);
	packet(c, st, cube, ar_pk_bytes(AR_PK_OPREQ, 0), true);
	packet(c, st, cube, ar_pk_bytes(AR_PK_OPRESP, k * es), true);
}

static void store(const ar_config *c, ar_stats *st, uint64_t addr, unsigned es)
{
	packet(c, st, ar_cube_of(c, addr), ar_pk_bytes(AR_PK_COMMIT, 8 + es), false);
}

static void load_src2(const ar_config *c, ar_stats *st, const ar_hostop *op)
{
	if (op->pat != AR_RR) {
		for (unsigned e = 0; e < (op->pat == AR_RI ? op->n : 1); e++)
			load(c, st, op->a2[e], 1, op->esize);
		return;
	}
	unsigned e = 0;
	while (e < op->n) {
		uint64_t a = op->a2[0] + (uint64_t)e * op->esize;
		unsigned k = (unsigned)((AR_BLOCK - a % AR_BLOCK) / op->esize);
		k = k > op->n - e ? op->n - e : k;
		load(c, st, a, k, op->esize);
		e += k;
	}
}

void ar_pei_count(const ar_config *c, const ar_hostop *op, ar_stats *st)
{
	if (op->gather) {
		store(c, st, op->target, op->esize);
		return;
	}
	if (!ar_op_is_flow(op->op)) {
		if (op->op != AR_OP_CONST)
			load(c, st, op->a1, 1, op->esize);
		if (op->op == AR_OP_DIV)
			load(c, st, op->a2[0], 1, op->esize);
		store(c, st, op->target, op->esize);
		st->pei_cube_compute[ar_cube_of(c, op->target)]++;
		return;
	}
	if (!op->has_b) {
		/* One operand (reduce, rand_reduce): §VI-A 3, "in PEI, it needs
		 * to bring part of the data on chip and offload it with the
		 * instruction", and §VI-B 1, PEI "can only optimize atomic
		 * updates": the operand is loaded into the host and shipped with
		 * an atomic PEI to the target's vault, which adds it in (no
		 * result comes back). */
		unsigned k = op->n;
		load(c, st, op->a1, k, op->esize);
		int tc = ar_cube_of(c, op->target);
		packet(c, st, tc, ar_pk_bytes(AR_PK_UPDATE, 8 + k * op->esize + 4), false);
		st->pei_cube_compute[tc] += op->n;
		return;
	}
	load_src2(c, st, op);
	unsigned shipped = op->n * op->esize;
	int cube = ar_cube_of(c, op->a1);
	packet(c, st, cube, ar_pk_bytes(AR_PK_UPDATE, 8 + shipped + 4), false);
	packet(c, st, cube, ar_pk_bytes(AR_PK_GRESP, 8), false);
	st->pei_cube_compute[cube] += op->n;
}
