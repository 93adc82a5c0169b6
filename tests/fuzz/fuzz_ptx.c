/* SPDX-License-Identifier: MIT */
/*
 * fuzz_ptx.c: libFuzzer target for PTX (emu/ptx/, doc/PTX.md).  Every
 * input is read as a module; when one parses, its kernel 0 is launched on
 * the reference with two CTAs of 40 threads (two warps, the second
 * partial), every parameter pointing into a 4 KiB global memory, and a
 * bound of 20000 steps, so a fuzzed loop stops quickly; then the same
 * launch is translated for the SIMT machine (emu/simt/ptxc.c) and, when
 * it translates, run there within 2000 bundles.  Only crashes, leaks,
 * hangs and a refusal without a message are failures; a run's own
 * errors (out of bounds, divergence, the bounds) are expected.
 * Built by `make fuzz` (tests/fuzz/fuzz.sh) and replayed on
 * tests/fuzz/corpus/ptx by `make check`.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "ptx.h"
#include "ptxc.h"
#include "simt.h"

#define MEM_BASE 0x1000u
#define MEM_SIZE 4096u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ptx_module *m;
	diag d;
	diag_clear(&d);
	if (ptx_read("fuzz.ptx", (const char *)data, size, &m, &d) < 0) {
		fuzz_require(d.set, "a refused module has a message");
		return 0;
	}
	if (ptx_nkernels(m) > 0) {
		static uint8_t bytes[MEM_SIZE];
		memset(bytes, 0, sizeof bytes);
		ptx_mem mem = {bytes, MEM_BASE, MEM_SIZE};
		uint64_t args[64];
		size_t np = ptx_nparams(m, 0);
		for (size_t i = 0; i < np && i < 64; i++)
			args[i] = ptx_param(m, 0, i).is_ptr ? MEM_BASE + 256 * (i % 8) : 7 + i;
		ptx_launch l = {0, {2, 1, 1}, {40, 1, 1}, args, np < 64 ? np : 64, 20000};
		ptx_where w;
		diag_clear(&d);
		if (ptx_ref_run(m, &l, &mem, &w, &d) < 0)
			fuzz_require(d.set, "a failed run has a message");
		simt_ptx_call call = { .kernel = 0, .gdim = { 2, 1, 1 }, .bdim = { 40, 1, 1 },
				       .args = args, .nargs = l.nargs };
		simt_program q;
		diag_clear(&d);
		if (simt_ptx_program("fuzz.ptx", m, &call, 1, MEM_BASE + MEM_SIZE, SIMT_MAP_VLIW, &q, &d) == 0) {
			q.max_bundles = 2000;
			simt_machine *sm = simt_machine_new(&q, &d);
			if (sm && simt_machine_run(sm, &d) < 0)
				fuzz_require(d.set, "a failed machine run has a message");
			simt_machine_free(sm);
			simt_program_free(&q);
		} else {
			fuzz_require(d.set, "a refused translation has a message");
		}
	}
	ptx_module_free(m);
	return 0;
}
