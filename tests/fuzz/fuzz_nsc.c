/* SPDX-License-Identifier: MIT */
/*
 * fuzz_nsc.c: libFuzzer target for the .nsc parser and the stream engines
 * (emu/nsc/).  Bytes are parsed as a program; one that parses, with a
 * small memory, is run on the engines (every stream forced to the banks,
 * a small iteration bound) and by the reference, and the two memories
 * must agree bit for bit.  Nothing may crash, leak, hang or read out of
 * bounds, whatever the text.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz.h"
#include "nsc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	nsc_program p;
	diag d;
	if (nsc_parse("fuzz.nsc", (const char *)data, size, NULL, 0, &p, &d) < 0)
		return 0;
	nsc_mem a, b;
	if (p.mem_bytes <= (1u << 20) && nsc_mem_init(&a, &p, &d) == 0) {
		if (nsc_mem_copy(&b, &a, &d) == 0) {
			nsc_settings s;
			nsc_stats st;
			nsc_settings_default(&s);
			s.floating = size % 2 ? NSC_FLOAT_BANK : NSC_FLOAT_AUTO;
			s.cache_bytes = 512;
			s.max_iters = 4096;
			s.max_work = 1u << 16;
			int r1 = nsc_run(&p, &a, &s, &st, &d);
			int r2 = nsc_ref_run(&p, &b, &s, &d);
			fuzz_require(r1 == r2, "the engines and the reference fail alike");
			for (int k = 0; r1 == 0 && k < p.narrays; k++)
				fuzz_require(nsc_mem_diff(&a, &b, k) < 0, "the engines equal the reference");
			nsc_mem_free(&b);
		}
		nsc_mem_free(&a);
	}
	nsc_program_free(&p);
	return 0;
}
