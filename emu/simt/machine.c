/* SPDX-License-Identifier: MIT */
/*
 * machine.c: the SIMT machine (duality-cache §3.3).  Each CB is four TBs
 * of four 256x256 arrays (one sram "way" of infsim's geometry a TB, one
 * sram bank a CB).  A CB holds S = min(ctas_per_cb, 1024 / block,
 * ceil(grid / cbs)) CTAs at once (simt_ctas_per_cb, simt_cta_place): a
 * launch's CTAs go to the CBs S at a time,
 * in turn, CTA i in slot i mod S of CB (i / S) mod cbs, its thread t on
 * the CB's bitline (i mod S) x block + t, which is bitline mod 256 of
 * TB bitline / 256.  The CTAs of a CB share its PC (lockstep); barriers
 * and shuffles are each CTA's own.
 *
 * The CB has one PC.  Each thread keeps where it is; the CB issues the
 * lowest PC of its live threads to the threads waiting there (its active
 * mask).  A predicated branch back to a loop's head thus repeats the
 * loop while any thread's predicate is set (the wired-OR jump_en) and
 * the threads that left wait after it; a branch forward parks its
 * threads at the label until the others arrive.  Divergence costs the
 * bundles each side issues; there is no other control flow (§3.3).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "machine_int.h"

bool simt_mask_any(const simt_mask *m)
{
	for (unsigned i = 0; i < SIMT_MASK_WORDS; i++)
		if (m->w[i])
			return true;
	return false;
}

unsigned simt_mask_count(const simt_mask *m)
{
	unsigned n = 0;
	for (unsigned i = 0; i < SIMT_MASK_WORDS; i++)
		n += (unsigned)__builtin_popcountll(m->w[i]);
	return n;
}

simt_mask simt_guarded(const simt_cb *cb, const simt_instr *in, const simt_mask *act)
{
	simt_mask r = *act;
	if (in->guard < 0)
		return r;
	const simt_mask *p = &cb->pred[in->guard];
	for (unsigned i = 0; i < SIMT_MASK_WORDS; i++)
		r.w[i] &= in->guard_neg ? ~p->w[i] : p->w[i];
	return r;
}

simt_machine *simt_machine_new(const simt_program *p, diag *d)
{
	sram_geom g = {
		.wordlines = SIMT_WORDLINES, .bitlines = SIMT_TB_THREADS,
		.arrays_per_way = SIMT_ARRAYS, .ways_per_bank = SIMT_TBS,
		.mesh_x = p->cbs, .mesh_y = 1,
		.fp_ieee = p->ieee, .latency_opt = p->latency_opt,
	};
	simt_machine *m = calloc(1, sizeof *m);
	if (m) {
		m->s = sram_new(&g);
		m->mem = malloc(p->mem_bytes ? p->mem_bytes : 4);
		m->held = malloc(p->cbs * sizeof *m->held);
		m->cb_cycles = calloc(p->cbs, sizeof *m->cb_cycles);
	}
	if (!m || !m->s || !m->mem || !m->held || !m->cb_cycles) {
		simt_machine_free(m);
		diag_file(d, p->path, "out of memory for a machine of %u CBs", p->cbs);
		return NULL;
	}
	m->p = p;
	if (p->mem_bytes) /* no global memory: p->init is NULL */
		memcpy(m->mem, p->init, p->mem_bytes);
	isa_prog_init(&m->prog);
	for (unsigned c = 0; c < p->cbs; c++)
		m->held[c] = -1;
	return m;
}

void simt_machine_free(simt_machine *m)
{
	if (!m)
		return;
	sram_free(m->s);
	isa_prog_free(&m->prog);
	free(m->mem_w);
	free(m->reg_w);
	free(m->kbase);
	free(m->mem);
	free(m->held);
	free(m->cb_cycles);
	free(m);
}

const uint32_t *simt_machine_mem(const simt_machine *m)
{
	return m->mem;
}

const simt_stats *simt_machine_stats(const simt_machine *m)
{
	return &m->st;
}

int simt_machine_reg(simt_machine *m, unsigned cta, unsigned t, unsigned reg, uint32_t *out)
{
	if (!m->held_slots || cta >= m->held_grid || t >= m->held_block || reg >= SIMT_REGS_MAX)
		return -1;
	unsigned slot = cta % m->held_slots, cb = (cta / m->held_slots) % m->p->cbs;
	if (m->held[cb] != (int64_t)(cta - slot))
		return -1;
	*out = (uint32_t)simt_port_read(m, cb, slot * m->held_block + t, reg, 32);
	return 0;
}

int simt_machine_track(simt_machine *m, diag *d)
{
	const simt_program *p = m->p;
	if (m->kbase)
		return 0;
	uint64_t total = 0;
	m->kbase = malloc((p->nk ? p->nk : 1) * sizeof *m->kbase);
	for (size_t k = 0; m->kbase && k < p->nk; k++) {
		m->kbase[k] = (uint32_t)total;
		total += p->k[k].n;
	}
	/* at = (bundle number * slots + slot) + 1, below SIMT_WRITER_OUTSIDE */
	if (total * SIMT_BUNDLE_MAX + 1 >= SIMT_WRITER_OUTSIDE) {
		free(m->kbase);
		m->kbase = NULL;
		diag_file(d, p->path, "too many bundles (%llu) to name the writer of each word",
			  (unsigned long long)total);
		return -1;
	}
	m->mem_w = calloc(p->mem_bytes / 4 + 1, sizeof *m->mem_w);
	m->reg_w = calloc((size_t)p->cbs * SIMT_CB_THREADS * SIMT_REGS_MAX, sizeof *m->reg_w);
	if (!m->kbase || !m->mem_w || !m->reg_w) {
		free(m->kbase);
		free(m->mem_w);
		free(m->reg_w);
		m->kbase = NULL, m->mem_w = m->reg_w = NULL;
		diag_file(d, p->path, "out of memory for the writers of %u bytes", p->mem_bytes);
		return -1;
	}
	return 0;
}

static size_t reg_slot(unsigned cb, unsigned t, unsigned reg)
{
	return ((size_t)cb * SIMT_CB_THREADS + t) * SIMT_REGS_MAX + reg;
}

simt_writer simt_machine_mem_writer(const simt_machine *m, uint32_t w)
{
	return m->mem_w && w < m->p->mem_bytes / 4 ? m->mem_w[w] : (simt_writer){ 0, 0 };
}

simt_writer simt_machine_reg_writer(const simt_machine *m, unsigned cb, unsigned t, unsigned reg)
{
	if (!m->reg_w || cb >= m->p->cbs || t >= SIMT_CB_THREADS || reg >= SIMT_REGS_MAX)
		return (simt_writer){ 0, 0 };
	return m->reg_w[reg_slot(cb, t, reg)];
}

void simt_machine_mark_mem(simt_machine *m, uint32_t w)
{
	if (m->mem_w && w < m->p->mem_bytes / 4)
		m->mem_w[w] = (simt_writer){ (uint32_t)m->st.cb_runs + m->running, SIMT_WRITER_OUTSIDE };
}

void simt_machine_mark_reg(simt_machine *m, unsigned cb, unsigned t, unsigned reg)
{
	if (m->reg_w && cb < m->p->cbs && t < SIMT_CB_THREADS && reg < SIMT_REGS_MAX)
		m->reg_w[reg_slot(cb, t, reg)] =
			(simt_writer){ (uint32_t)m->st.cb_runs + m->running, SIMT_WRITER_OUTSIDE };
}

bool simt_writer_instr(const simt_machine *m, uint32_t at, unsigned *kernel, uint32_t *pc,
		       unsigned *slot)
{
	if (!m->kbase || at == 0 || at == SIMT_WRITER_OUTSIDE)
		return false;
	uint32_t b = (at - 1) / SIMT_BUNDLE_MAX;
	size_t k = m->p->nk;
	while (k > 0 && m->kbase[k - 1] > b)
		k--;
	if (k == 0)
		return false;
	*kernel = (unsigned)(k - 1);
	*pc = b - m->kbase[k - 1];
	*slot = (at - 1) % SIMT_BUNDLE_MAX;
	return *pc < m->p->k[k - 1].n;
}

/* Instruction i of bundle b wrote for the threads of g: its register d,
 * or (a store) the words at the TMU's addresses. */
static void record_writes(simt_machine *m, const simt_kernel *k, const simt_bundle *b,
			  unsigned i, const simt_mask *g)
{
	const simt_instr *in = &b->in[i];
	if (!m->kbase || (in->opc != SIMT_ST && !simt_opinfo_of(in->opc)->has_d))
		return;
	uint32_t bundle = m->kbase[k - m->p->k] + (uint32_t)(b - k->b);
	simt_writer w = { 0, bundle * SIMT_BUNDLE_MAX + i + 1 };
	for (unsigned t = 0; t < SIMT_CB_THREADS; t++) {
		if (!simt_mask_bit(g, t))
			continue;
		w.run = (uint32_t)m->st.cb_runs + 1 + t / m->cb.ntid;
		if (in->opc == SIMT_ST || in->opc == SIMT_ATOM) {
			unsigned n = simt_type_bits(in->type) / 8;
			m->mem_w[m->addr[t] / 4] = w;
			m->mem_w[(m->addr[t] + n - 1) / 4] = w;
		}
		if (in->opc != SIMT_ST)
			m->reg_w[reg_slot(m->cb.index, t, in->d)] = w;
	}
}

/* CTAs cta .. cta + n - 1 start together on CB cb with their registers,
 * latches and predicates cleared: the runtime's launch writes the rows
 * through the port. */
static void cta_start(simt_machine *m, unsigned cb, uint32_t cta, unsigned n,
		      const simt_launch *l)
{
	simt_cb *c = &m->cb;
	memset(c, 0, sizeof *c);
	c->index = cb;
	c->cta = cta;
	c->ctas = n;
	c->ntid = l->block;
	c->nctaid = l->grid;
	for (unsigned t = 0; t < n * l->block; t++)
		simt_mask_put(&c->live, t, true);
	for (unsigned tb = 0; tb < SIMT_TBS; tb++)
		for (unsigned k = 0; k < SIMT_ARRAYS; k++) {
			unsigned a = simt_array_of(cb, tb, k);
			for (unsigned w = 0; w < SIMT_WORDLINES; w++)
				memset(sram_row(m->s, a, w), 0, SIMT_TB_WORDS * sizeof(uint64_t));
			memset(sram_latch_words(m->s, a, SRAM_TAG), 0, SIMT_TB_WORDS * sizeof(uint64_t));
			memset(sram_latch_words(m->s, a, SRAM_CARRY), 0, SIMT_TB_WORDS * sizeof(uint64_t));
		}
	if (m->reg_w)
		memset(&m->reg_w[reg_slot(cb, 0, 0)], 0,
		       SIMT_CB_THREADS * SIMT_REGS_MAX * sizeof *m->reg_w);
}

/* One bundle on the active threads: its compute latency is the longest
 * slot (each slot's data-dependent length, §3.1.2), its memory cycles
 * the memory operation's. */
static int bundle_run(simt_machine *m, const simt_kernel *k, const simt_bundle *b,
		      const simt_mask *act, uint64_t *cycles, diag *d)
{
	uint64_t run = 0, base = 0, mem = 0, serial = 0;
	const simt_instr *last = &b->in[b->n - 1];
	/* a barrier is each CTA's: every running thread of a CTA it issues to */
	for (unsigned s = 0; b->n && last->opc == SIMT_BAR && s < m->cb.ctas; s++) {
		unsigned here = 0, live = 0, n = m->cb.ntid;
		for (unsigned t = s * n; t < (s + 1) * n; t++) {
			here += simt_mask_bit(act, t);
			live += simt_mask_bit(&m->cb.live, t);
		}
		if (here && here != live) {
			diag_at(d, m->p->path, last->line, last->col,
				"kernel '%s': CTA %u: bar.sync reached by %u of the CTA's %u running threads: a barrier in divergent code",
				k->name, m->cb.cta + s, here, live);
			return -1;
		}
	}
	for (unsigned i = 0; i < b->n; i++) {
		const simt_instr *in = &b->in[i];
		simt_mask g = simt_guarded(&m->cb, in, act);
		unsigned slot = simt_instr_slot(m->p, in);
		if (slot == SIMT_SLOT_CTL)
			continue;
		if (slot == SIMT_SLOT_MEM) {
			int64_t c = in->opc == SIMT_SHFL ? simt_shfl_run(m, k, in, act, &g, d)
				: simt_mem_run(m, k, in, &g, d);
			if (c < 0)
				return -1;
			mem = (uint64_t)c;
			record_writes(m, k, b, i, &g);
			continue;
		}
		m->st.slot_ops++;
		simt_cost cost = { SIMT_REG_BITS, SIMT_REG_BITS };
		bool moved = in->opc == SIMT_MOV && (in->a.kind == SIMT_O_SPECIAL ||
			(in->a.kind == SIMT_O_REG && simt_reg_array(m->p, in->a.reg) != slot));
		if (moved)
			simt_move_run(m, in, &g);
		else if (simt_slot_run(m, in, &g, &cost, d) < 0)
			return -1;
		record_writes(m, k, b, i, &g);
		/* On one array a copy between arrays is not needed. */
		if (!(moved && in->a.kind == SIMT_O_REG))
			serial += cost.run;
		run = cost.run > run ? cost.run : run;
		base = cost.base > base ? cost.base : base;
	}
	m->st.compute_cycles += run;
	m->st.baseline_cycles += base;
	m->st.memory_cycles += mem;
	m->st.one_array_cycles += serial;
	*cycles = run + mem;
	return 0;
}

/* Where each active thread goes after bundle pc. */
static void advance(simt_machine *m, const simt_kernel *k, uint32_t pc, const simt_mask *act)
{
	simt_cb *c = &m->cb;
	const simt_bundle *b = &k->b[pc];
	const simt_instr *ctl = b->n && simt_instr_slot(m->p, &b->in[b->n - 1]) == SIMT_SLOT_CTL &&
		b->in[b->n - 1].opc != SIMT_BAR ? &b->in[b->n - 1] : NULL;
	simt_mask taken = { { 0 } };
	if (ctl)
		taken = simt_guarded(c, ctl, act);
	if (ctl && ctl->opc == SIMT_BRA && simt_mask_any(&taken))
		m->st.jumps_taken++;
	for (unsigned t = 0; t < SIMT_CB_THREADS; t++) {
		if (!simt_mask_bit(act, t))
			continue;
		bool tk = simt_mask_bit(&taken, t);
		uint32_t next = tk && ctl->opc == SIMT_BRA ? ctl->target : pc + 1;
		if ((tk && ctl->opc == SIMT_EXIT) || next >= k->n)
			simt_mask_put(&c->live, t, false);
		c->pc[t] = next;
	}
}

static bool at_barrier(const simt_kernel *k, uint32_t pc)
{
	return k && pc < k->n && k->b[pc].n && k->b[pc].in[k->b[pc].n - 1].opc == SIMT_BAR;
}

/* The CB's PC: the lowest of its live threads'; act: those there.  A
 * thread at a barrier waits there until every live thread of its CTA is
 * at it: the others run first, the lowest of theirs.  UINT32_MAX - 1
 * when every live thread of some CTA waits at a barrier but not all at
 * the same one (*stuck: that CTA's first live bitline; k NULL: no
 * barriers, the lowest PC). */
static uint32_t issue_pc_k(const simt_cb *c, const simt_kernel *k, simt_mask *act,
			   unsigned *stuck)
{
	uint32_t pc = UINT32_MAX;
	unsigned n = c->ntid ? c->ntid : SIMT_CB_THREADS;
	memset(act, 0, sizeof *act);
	for (unsigned s = 0; s * n < SIMT_CB_THREADS; s++) {
		/* CTA s: do its live threads wait at one PC, all at barriers? */
		unsigned end = (s + 1) * n < SIMT_CB_THREADS ? (s + 1) * n : SIMT_CB_THREADS;
		uint32_t first = UINT32_MAX;
		bool same = true, all_bar = true;
		for (unsigned t = s * n; t < end; t++) {
			if (!simt_mask_bit(&c->live, t))
				continue;
			if (first == UINT32_MAX)
				first = c->pc[t];
			same &= c->pc[t] == first;
			all_bar &= at_barrier(k, c->pc[t]);
		}
		if (first == UINT32_MAX)
			continue;
		if (all_bar && !same) {
			for (unsigned t = s * n; stuck && t < end; t++)
				if (simt_mask_bit(&c->live, t)) {
					*stuck = t;
					break;
				}
			return UINT32_MAX - 1;
		}
		for (unsigned t = s * n; t < end; t++)
			if (simt_mask_bit(&c->live, t) && (same || !at_barrier(k, c->pc[t])) &&
			    c->pc[t] <= pc) {
				if (c->pc[t] < pc)
					memset(act, 0, sizeof *act);
				pc = c->pc[t];
				simt_mask_put(act, t, true);
			}
	}
	return pc;
}

static uint32_t issue_pc(const simt_cb *c, simt_mask *act)
{
	return issue_pc_k(c, NULL, act, NULL);
}


/* Issue one bundle of the running CTA (the CB's PC and mask). */
static int bundle_step(simt_machine *m, diag *d)
{
	simt_cb *c = &m->cb;
	const simt_kernel *k = &m->p->k[m->p->l[m->launch].kernel];
	simt_mask act;
	unsigned t = 0;
	uint32_t pc = issue_pc_k(c, k, &act, &t);
	if (pc == UINT32_MAX - 1) {
		const simt_instr *bar = &k->b[c->pc[t]].in[k->b[c->pc[t]].n - 1];
		diag_at(d, m->p->path, bar->line, bar->col,
			"kernel '%s': CTA %u: every running thread waits at a bar.sync, but not at the same one (thread %u waits here): a barrier in divergent code",
			k->name, simt_cb_cta(c, t), simt_cb_tid(c, t));
		return -1;
	}
	if (++m->issued > m->p->max_bundles || m->cta_cycles > m->p->max_cycles) {
		const bool b = m->issued > m->p->max_bundles;
		char who[48];
		if (c->ctas > 1)
			snprintf(who, sizeof who, "CTAs %u to %u", c->cta, c->cta + c->ctas - 1);
		else
			snprintf(who, sizeof who, "CTA %u", c->cta);
		diag_at(d, m->p->path, k->b[pc].line, 0,
			"kernel '%s': %s did not end within %llu %s (a runaway loop? it was "
			"issuing bundle %u; raise the bound with .machine %s=N)", k->name, who,
			(unsigned long long)(b ? m->p->max_bundles : m->p->max_cycles),
			b ? "bundles" : "cycles", pc, b ? "max_bundles" : "max_cycles");
		return -1;
	}
	uint64_t cy;
	if (bundle_run(m, k, &k->b[pc], &act, &cy, d) < 0)
		return -1;
	m->cta_cycles += cy;
	m->st.bundles++;
	m->st.thread_slots += simt_mask_count(&act);
	m->st.lane_slots += SIMT_CB_THREADS;
	advance(m, k, pc, &act);
	return 0;
}

/* The CTAs that ran on the CB have ended; then the launch, perhaps. */
static void cta_end(simt_machine *m)
{
	const simt_program *p = m->p;
	unsigned cb = m->cb.index;
	m->cb_cycles[cb] += m->cta_cycles;
	m->held[cb] = m->cb.cta;
	m->st.cb_runs += m->cb.ctas;
	m->st.cb_groups++;
	m->running = false;
	if ((m->next_cta += m->cb.ctas) < p->l[m->launch].grid)
		return;
	uint64_t longest = 0;
	for (unsigned c = 0; c < p->cbs; c++)
		longest = m->cb_cycles[c] > longest ? m->cb_cycles[c] : longest;
	m->st.critical_path += longest;
	m->launch++;
	m->next_cta = 0;
}

/* Start the next CTA (and its launch): false when none is left. */
static bool cta_next(simt_machine *m)
{
	const simt_program *p = m->p;
	if (m->launch >= p->nl)
		return false;
	const simt_launch *l = &p->l[m->launch];
	if (m->next_cta == 0) {
		memset(m->cb_cycles, 0, p->cbs * sizeof *m->cb_cycles);
		for (unsigned c = 0; c < p->cbs; c++)
			m->held[c] = -1;
		m->held_block = l->block;
		m->held_slots = simt_ctas_per_cb(p, l);
		m->held_grid = l->grid;
	}
	unsigned cb, slot, s = simt_ctas_per_cb(p, l);
	simt_cta_place(p, l, m->next_cta, &cb, &slot);
	cta_start(m, cb, m->next_cta, l->grid - m->next_cta < s ? l->grid - m->next_cta : s, l);
	m->running = true;
	m->issued = 0;
	m->cta_cycles = 0;
	return true;
}

int simt_machine_step(simt_machine *m, diag *d)
{
	if (!m->running && !cta_next(m))
		return 0;
	if (bundle_step(m, d) < 0)
		return -1;
	if (!simt_mask_any(&m->cb.live))
		cta_end(m);
	return 1;
}

int simt_machine_run(simt_machine *m, diag *d)
{
	int rc;
	while ((rc = simt_machine_step(m, d)) > 0)
		;
	return rc;
}

bool simt_machine_where(simt_machine *m, simt_where *w)
{
	if (!m->running && !cta_next(m))
		return false;
	w->launch = (unsigned)m->launch;
	w->kernel = m->p->l[m->launch].kernel;
	w->cta = m->cb.cta;
	w->ctas = m->cb.ctas;
	w->ntid = m->cb.ntid;
	w->cb = m->cb.index;
	w->pc = issue_pc_k(&m->cb, &m->p->k[w->kernel], &w->active, NULL);
	if (w->pc == UINT32_MAX - 1)
		w->pc = issue_pc(&m->cb, &w->active);
	memcpy(w->pred, m->cb.pred, sizeof w->pred);
	w->live = m->cb.live;
	return true;
}

uint32_t simt_machine_thread_reg(simt_machine *m, unsigned t, unsigned reg)
{
	return (uint32_t)simt_port_read(m, m->cb.index, t, reg, 32);
}

uint32_t simt_machine_thread_pc(const simt_machine *m, unsigned t)
{
	return m->cb.pc[t];
}

uint64_t simt_machine_cycles(const simt_machine *m)
{
	if (m->launch >= m->p->nl)
		return m->st.critical_path;
	uint64_t longest = 0;
	for (unsigned c = 0; c < m->p->cbs; c++) {
		uint64_t cy = m->cb_cycles[c] + (m->running && c == m->cb.index ? m->cta_cycles : 0);
		longest = cy > longest ? cy : longest;
	}
	return m->st.critical_path + longest;
}

void simt_machine_copy(simt_machine *dst, const simt_machine *src)
{
	const simt_program *p = src->p;
	sram_copy_state(dst->s, src->s);
	memcpy(dst->mem, src->mem, p->mem_bytes);
	dst->st = src->st;
	dst->cb = src->cb;
	memcpy(dst->held, src->held, p->cbs * sizeof *dst->held);
	memcpy(dst->cb_cycles, src->cb_cycles, p->cbs * sizeof *dst->cb_cycles);
	dst->held_block = src->held_block;
	dst->held_slots = src->held_slots;
	dst->held_grid = src->held_grid;
	dst->launch = src->launch;
	dst->next_cta = src->next_cta;
	dst->running = src->running;
	dst->issued = src->issued;
	dst->cta_cycles = src->cta_cycles;
	if (dst->mem_w && src->mem_w) {
		memcpy(dst->mem_w, src->mem_w, (p->mem_bytes / 4 + 1) * sizeof *dst->mem_w);
		memcpy(dst->reg_w, src->reg_w,
		       (size_t)p->cbs * SIMT_CB_THREADS * SIMT_REGS_MAX * sizeof *dst->reg_w);
	}
}

void simt_where_slots(const simt_program *p, const simt_where *w, simt_mask slot[SIMT_ARRAYS + 2])
{
	memset(slot, 0, (SIMT_ARRAYS + 2) * sizeof *slot);
	const simt_bundle *b = &p->k[w->kernel].b[w->pc];
	for (unsigned i = 0; i < b->n; i++) {
		const simt_instr *in = &b->in[i];
		unsigned k = simt_instr_slot(p, in);
		for (unsigned j = 0; j < SIMT_MASK_WORDS; j++) {
			uint64_t g = in->guard < 0 ? ~UINT64_C(0) : w->pred[in->guard].w[j];
			slot[k].w[j] = w->active.w[j] & (in->guard_neg ? ~g : g);
		}
	}
}
