/* SPDX-License-Identifier: MIT */
/*
 * target_mode.h: what target.c (running, snapshots) and target_data.c
 * (values, frames, information, checkpoints, reverse execution) share.
 */
#ifndef INFSIM_DBG_TARGET_MODE_H
#define INFSIM_DBG_TARGET_MODE_H

#include "dbg.h"

#define TGT_UNITS_MAX 8

/* A snapshot of the history: the state after `at` finest units, and the
 * count of every level there. */
typedef struct dbg_tgt_snap {
	uint64_t at;
	tgt_snap *snap;
	size_t bytes;
	uint64_t counts[TGT_UNITS_MAX];
} dbg_tgt_snap;

/* A checkpoint (`checkpoint`, `restart N`). */
typedef struct dbg_tgt_ckpt {
	unsigned num;
	uint64_t at;
	tgt_snap *snap;
	char what[320];
} dbg_tgt_ckpt;

typedef struct dbg_tgt_mode {
	dbg_tgt_args args;
	dbg_tgt_snap *snaps;   /* increasing at; snaps[0] the history's base */
	size_t nsnaps, capsnaps;
	uint64_t bytes;
	dbg_tgt_ckpt *ckpts;
	size_t nckpts;
	unsigned next_ckpt;
	uint64_t replayed;     /* finest units the last reverse motion replayed */
} dbg_tgt_mode;

/* Open the program afresh (stepping) and fill -l's arrays: 0, or -1
 * with *st and d. */
int dbg_tgt_open(dbg_session *s, tgt_status *st, diag *d);
/* Finest units done: the position of the history. */
uint64_t dbg_tgt_pos(const dbg_session *s);
/* The source's text (malloc'd, NUL-terminated) and its path, or NULL. */
char *dbg_tgt_source_text(dbg_session *s, const char **path);
/* The source line the position is on (0 if none). */
unsigned dbg_tgt_position_line(dbg_session *s);
/* Unit u's name for n of them: "event", "events". */
const char *dbg_tgt_unit_word(const tgt_ops *ops, unsigned u, uint64_t n);
int dbg_tgt_snap_note(dbg_session *s, bool force);
int dbg_tgt_history_reset(dbg_session *s);
void dbg_tgt_print_position(dbg_session *s);
void dbg_tgt_report_end(dbg_session *s);
int dbg_tgt_need_running(dbg_session *s);
int dbg_tgt_go(dbg_session *s, bool (*stop)(dbg_session *, void *), void *ctx, bool from_start);
unsigned dbg_tgt_finish_level(const dbg_session *s);

int dbg_tcmd_print(dbg_session *s, char *args);
int dbg_tcmd_x(dbg_session *s, char *args);
int dbg_tcmd_set_var(dbg_session *s, char *args);
int dbg_tcmd_display(dbg_session *s, char *args);
int dbg_tcmd_where(dbg_session *s, char *args);
int dbg_tcmd_frame(dbg_session *s, char *args);
int dbg_tcmd_up(dbg_session *s, char *args);
int dbg_tcmd_down(dbg_session *s, char *args);
int dbg_tcmd_list(dbg_session *s, char *args);
int dbg_tcmd_info_stats(dbg_session *s, char *args);
int dbg_tcmd_info_line(dbg_session *s, char *args);
int dbg_tcmd_info_frame(dbg_session *s, char *args);
int dbg_tcmd_info_arrays(dbg_session *s, char *args);
int dbg_tcmd_info_program(dbg_session *s, char *args);
int dbg_tcmd_check(dbg_session *s, char *args);
int dbg_tcmd_expect(dbg_session *s, char *args);
int dbg_tcmd_delete(dbg_session *s, char *args);
int dbg_tcmd_checkpoint(dbg_session *s, char *args);
int dbg_tcmd_restart(dbg_session *s, char *args);
int dbg_tcmd_info_checkpoints(dbg_session *s, char *args);
int dbg_tcmd_not_file(dbg_session *s, char *args);
int dbg_tcmd_stream_only(dbg_session *s, char *args);
int dbg_tcmd_show_reverse(dbg_session *s, char *args);
int dbg_tcmd_reverse_stepi(dbg_session *s, char *args);
int dbg_tcmd_reverse_step(dbg_session *s, char *args);
int dbg_tcmd_reverse_next(dbg_session *s, char *args);
int dbg_tcmd_reverse_continue(dbg_session *s, char *args);
int dbg_tcmd_reverse_finish(dbg_session *s, char *args);

#endif
