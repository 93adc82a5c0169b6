/* SPDX-License-Identifier: MIT */
/*
 * fuzz_dbg.c: debugger command lines and expressions (dbg/), run on a
 * small loaded program in batch mode (fuzz_dbg.h).
 *
 * The first byte picks the program (a stream, a tDFG program, or a
 * stream validated against its tDFG); the rest is up to 24 command
 * lines.  Whatever they are, each command runs or fails with a message,
 * with no crash, no sanitizer report and no leak, and the session can
 * still run the program to its end and check it afterwards.
 */
#include "fuzz_dbg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	fuzz_dbg_init();
	dbg_session s;
	fuzz_dbg_open(&s, (enum fuzz_dbg_prog)(data[0] % FUZZ_DBG_PROGS));
	fuzz_dbg_run_lines(&s, data + 1, size - 1, 24);
	if (!s.quit) {
		/* still usable: to the end, and compared */
		static const uint8_t tail[] = "delete\nundisplay\ncontinue\ncheck\n";
		fuzz_dbg_run_lines(&s, tail, sizeof tail - 1, 4);
	}
	fuzz_dbg_close(&s);
	return 0;
}
