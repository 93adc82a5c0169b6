/* SPDX-License-Identifier: MIT */
/*
 * fuzz_simt.c: libFuzzer target for DC-PTX (emu/simt/, doc/SIMT.md).
 * Every input is parsed; one that parses is run, within small bounds (at
 * most 2 CBs, 4 CTA runs, 256 bundles a CTA), on the machine and on the
 * reference.  The bounds keep an input near a second of CPU with the
 * sanitizers: a bit-serial fp32 mad loop of 2000 bundles took 5 s, and 6
 * CTA runs of 500 bundles 4 s, which a loaded machine stretched to 19 s,
 * next to the 20 s time-out; longer loops and more CTAs repeat what the
 * first ones cover.  When both finish they must
 * agree bit for bit unless the program's threads race on memory, which a
 * fuzzed program may do, so only crashes, leaks, hangs and out-of-bounds
 * accesses are failures.
 * Built by `make fuzz` (tests/fuzz/fuzz.sh) and replayed on
 * tests/fuzz/corpus/simt by `make check`.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz.h"
#include "simt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	simt_program p;
	diag d;
	diag_clear(&d);
	if (simt_parse("fuzz.simt", (const char *)data, size, &p, &d) < 0) {
		fuzz_require(d.set, "a refused program has a message");
		return 0;
	}
	uint64_t ctas = 0;
	for (size_t i = 0; i < p.nl; i++)
		ctas += p.l[i].grid;
	if (p.cbs <= 2 && ctas <= 4 && p.mem_bytes <= (1u << 20)) {
		if (p.max_bundles > 256)
			p.max_bundles = 256;
		simt_machine *m = simt_machine_new(&p, &d);
		if (m) {
			simt_machine_run(m, &d);
			simt_machine_free(m);
		}
		diag_clear(&d);
		simt_ref *r = simt_ref_new(&p, &d);
		if (r) {
			simt_ref_run(r, &d);
			simt_ref_free(r);
		}
	}
	simt_program_free(&p);
	return 0;
}
