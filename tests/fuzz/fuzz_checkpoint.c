/* SPDX-License-Identifier: MIT */
/*
 * fuzz_checkpoint.c: infsdb checkpoints (dbg/state.c), on a small
 * loaded program (fuzz_dbg.h).
 *
 * The first byte picks the program and how far the session runs before
 * the load (whole commands, then micro-ops into one: a half-run command
 * and data in flight between banks).  The second picks how the rest is
 * read: (even) as a whole checkpoint file, `checkpoint load` with its
 * header, size and checksum checks; (odd) as the words of a checkpoint's
 * body, restored as if the checksum matched (a file whose checksum
 * holds may still lie), so that the decoder itself is fuzzed.  Either
 * the load is refused with a message and the session is as it was, or
 * the machine it restores runs on: stepped, reversed, run to the end
 * and checked, with no crash, no sanitizer report and no leak.
 */
#include "fuzz_dbg.h"

static void run(dbg_session *s, const char *lines)
{
	fuzz_dbg_run_lines(s, (const uint8_t *)lines, strlen(lines), 16);
}

/* Restore the words of a body directly (what `checkpoint load` does
 * once the checksum holds). */
static void restore_words(dbg_session *s, const uint8_t *data, size_t size)
{
	dbg_snapshot snap = { NULL, size / 8, NULL, 0 };
	snap.w = malloc(snap.n ? snap.n * sizeof *snap.w : 1);
	fuzz_dbg_require(snap.w != NULL, "memory for the words");
	for (size_t i = 0; i < snap.n; i++) {
		snap.w[i] = 0;
		for (unsigned b = 0; b < 8; b++)
			snap.w[i] |= (uint64_t)data[8 * i + b] << (8 * b);
	}
	if (dbg_snapshot_restore(s, &snap, "fuzz") == 0)
		dbg_history_reset(s, &snap);
	else
		free(snap.w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	fuzz_dbg_init();
	dbg_session s;
	const enum fuzz_dbg_prog which = (enum fuzz_dbg_prog)(data[0] % FUZZ_DBG_PROGS);
	fuzz_dbg_open(&s, which);
	char go[64];
	snprintf(go, sizeof go, "start\nnext %u\nstepi %u\n", (data[0] >> 2) % 4,
		 (data[0] >> 4) * 3);
	run(&s, go);
	if (data[1] & 1) {
		restore_words(&s, data + 2, size - 2);
	} else {
		FILE *f = fopen("in.ckpt", "wb");
		fuzz_dbg_require(f && fwrite(data + 2, 1, size - 2, f) == size - 2 && fclose(f) == 0,
			     "write the checkpoint file");
		run(&s, "checkpoint load in.ckpt\n");
	}
	run(&s, "info machine\nstepi\nreverse-stepi\nprint $pc\ncontinue\ncheck\n"
		"checkpoint save out.ckpt\ncheckpoint load out.ckpt\n");
	fuzz_dbg_close(&s);
	return 0;
}
