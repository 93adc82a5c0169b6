/* SPDX-License-Identifier: MIT */
/*
 * embed.c: using libinfsim from C, as a compiler's test suite would.
 *
 * Build against an installed infsim:
 *   cc embed.c $(pkg-config --cflags --libs infsim) -o embed
 * It parses a stream from a string, runs it bit by bit on the emulated
 * SRAM, runs the scalar reference beside it, and compares every buffer.
 * Exit status 0 when they agree.
 */
#include <infsim/machine.h>
#include <infsim/check.h>
#include <infsim/refmodel.h>

#include <stdio.h>
#include <string.h>

static const char stream[] =
	"machine wordlines=128 bitlines=64 arrays=2 ways=1 mesh=1x1\n"
	"buffer A i16 100 wl=0 arrays=0:1:2 init=random:7\n"
	"buffer B i16 100 wl=16 arrays=0:1:2 init=random:8\n"
	"buffer C i16 100 wl=32 arrays=0:1:2\n"
	"mul.i16 C, A, B\n"
	"sub.i16 C, C, A\n";

int main(void)
{
	emu_program p;
	diag d;
	sram_geom g = sram_geom_default();
	diag_clear(&d);
	if (emu_parse("embed", stream, strlen(stream), &g, &p, &d) != 0) {
		fprintf(stderr, "%s\n", d.msg);
		return 1;
	}
	emu_machine *em = emu_machine_new(&p, &d);
	emu_ref *ref = em ? emu_ref_new(&p, &d) : NULL;
	int rc = !em || !ref || emu_init_buffers(em, &d) != 0;
	if (!rc) {
		emu_ref_init_buffers(ref);
		for (size_t i = 0; i < p.ncmds && !rc; i++)
			rc = emu_run_cmd(em, &d) < 0 || emu_ref_run_cmd(ref, i, &d) < 0;
	}
	for (size_t b = 0; b < p.nbufs && !rc; b++) {
		emu_mismatch mm;
		if (!emu_ref_compare(ref, em, &p.bufs[b], &mm)) {
			printf("%s[%llu]: expected %llu, got %llu\n", mm.buf->name,
			       (unsigned long long)mm.index,
			       (unsigned long long)mm.expected,
			       (unsigned long long)mm.actual);
			rc = 1;
		}
	}
	if (d.set)
		fprintf(stderr, "%s\n", d.msg);
	if (!rc)
		printf("C[0] = %lld after %llu cycles; the reference agrees\n",
		       (long long)isa_sext(emu_elem_get(em, &p.bufs[2], 0), 16),
		       (unsigned long long)em->st.total.cycles);
	emu_ref_free(ref);
	emu_machine_free(em);
	emu_program_free(&p);
	return rc;
}
