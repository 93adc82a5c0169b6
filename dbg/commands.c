/* SPDX-License-Identifier: MIT */
/*
 * commands.c: infsdb's one command table and what reads it: dispatch with
 * gdb's unique-prefix abbreviations and aliases, `help`, `source` and
 * readline completion.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <readline/readline.h>

#include "dbg.h"
#include "text.h"

static int cmd_help(dbg_session *s, char *args);
static int cmd_source(dbg_session *s, char *args);
static int cmd_quit(dbg_session *s, char *args);
static int cmd_info(dbg_session *s, char *args);
static int cmd_echo(dbg_session *s, char *args);
static int cmd_apropos(dbg_session *s, char *args);

static const dbg_command info_commands[] = {
	{ "breakpoints", "b break watchpoints", "status", dbg_cmd_info_breakpoints, false,
	  "List breakpoints and watchpoints.",
	  "info breakpoints\n"
	  "List every breakpoint and watchpoint: number, type, whether it is\n"
	  "enabled, where it stops, its condition and how often it was hit.", NULL },
	{ "buffers", "arrays", "status", dbg_cmd_info_buffers, false,
	  "List the stream's buffers (the program's arrays).",
	  "info buffers\n"
	  "List every buffer: name, element type, length, first wordline, arrays\n"
	  "and init= directive.", NULL },
	{ "checkpoints", NULL, "status", dbg_cmd_info_checkpoints, false,
	  "List the checkpoints of a target's program.",
	  "info checkpoints\n"
	  "List the checkpoints `checkpoint` took (on a program of Active-Routing,\n"
	  "near-stream computing, VIMA or SIMT), * marking the one at the position.", NULL },
	{ "display", NULL, "status", dbg_cmd_info_display, false,
	  "List the expressions shown after every stop.",
	  "info display\nList the auto-display expressions with their numbers.", NULL },
	{ "frame", "f", "status", dbg_cmd_info_frame, false,
	  "Describe the selected level of the position.",
	  "info frame\n"
	  "Describe the level `frame` selected (the innermost by default): what it\n"
	  "is, the level inside it and the level around it (see `where`).", NULL },
	{ "source", NULL, "status", dbg_cmd_info_source, false,
	  "Describe the current source file.",
	  "info source\n"
	  "As gdb's: the current source file (the stream, the tDFG, or another\n"
	  "system's program), where it is, how many lines it has, its language\n"
	  "(the kind of program), and what the program is: its commands and\n"
	  "buffers, a tDFG's nodes and regions, the tDFG of --tdfg.", NULL },
	{ "line", NULL, "status", dbg_cmd_info_line, false,
	  "Show what a source line or a command is.",
	  "info line [LOCATION]\n"
	  "Without LOCATION, the command the machine is in or before: its source\n"
	  "line, text and micro-op count, and on a tDFG the node it computes.\n"
	  "With LOCATION (*N, N, :LINE, FILE:LINE or a node, as `help break` says),\n"
	  "that command, or the node and the commands a tDFG line lowers to.", NULL },
	{ "layout", NULL, "status", dbg_cmd_info_layout, false,
	  "Show the Layout Override Table and the tile maps.",
	  "info layout [TENSOR]\n"
	  "Show the Layout Override Table of the stream's tensors (infinity-stream\n"
	  "Table 1: base address, type, sizes, tiles, wordlines, arrays, banks,\n"
	  "transpose state) and each tensor's tile map: for every tile, its\n"
	  "coordinates, its array as (bank, way, array) and the elements it holds,\n"
	  "as `infsim layout` prints them.  With TENSOR, that tensor's map only.", NULL },
	{ "machine", "source program", "status", dbg_cmd_info_machine, false,
	  "Show the machine's sizes and the position.",
	  "info machine\n"
	  "Show the machine (wordlines, bitlines, arrays, ways, banks), the\n"
	  "controller's settings (fp=ftz|ieee, latency=baseline|optimised,\n"
	  "cordic=K), the stream, and the current command, micro-op and cycle\n"
	  "count.", NULL },
	{ "nodes", NULL, "status", dbg_cmd_info_nodes, false,
	  "List the nodes of a tDFG program.",
	  "info nodes\n"
	  "List every node of the tDFG: its name, kind (input, const, shift, bcast,\n"
	  "compute, ...), element type, domain (the box of the lattice its value is\n"
	  "defined on, LO:HI per dimension, innermost first, HI excluded), the\n"
	  "wordlines the JIT gave it, the commands of the lowered stream that\n"
	  "compute it and its source line.  Only for a tDFG program.", NULL },
	{ "regions", NULL, "status", dbg_cmd_info_regions, false,
	  "List the regions of a tDFG program.",
	  "info regions\n"
	  "List every region of the tDFG: its name, source line, shape and tile\n"
	  "(innermost first), first array, nodes and commands.  Only for a tDFG\n"
	  "program.", NULL },
	{ "registers", "r reg", "status", dbg_cmd_info_registers, false,
	  "Show the wordline allocation.",
	  "info registers\n"
	  "Show which wordlines of the arrays hold which buffer (with its type\n"
	  "and arrays) and which are the scratch rows the micro-programs use.\n"
	  "A command stream is one region: the allocation does not change.\n"
	  "On a tDFG program, the allocation of the current region (the JIT's\n"
	  "local register allocation, infinity-stream 3.4): each node with its\n"
	  "kind, type, wordlines, source line, last use and state now: not yet\n"
	  "computed, being computed, live, dead (its value is still there), or\n"
	  "dead and holding a later node's value (the node whose command last\n"
	  "wrote over its cells).", NULL },
	{ "stats", NULL, "status", dbg_cmd_info_stats, false,
	  "Show cycles and micro-op counts so far.",
	  "info stats\n"
	  "Show the statistics `infsim run --stats` prints, for the commands\n"
	  "finished so far: cycles (and, next to them, the baseline latency, which\n"
	  "differs with latency=optimised), reads, writes, logic and activations\n"
	  "by command kind and by bank, and the transpose unit.", NULL },
	{ NULL, NULL, NULL, NULL, false, NULL, NULL, NULL },
};

static const dbg_command dump_commands[] = {
	{ "array", NULL, "data", dbg_cmd_dump_array, false,
	  "Show one array's bits with its latches.",
	  "dump array ARRAY [WL_FROM:WL_TO] [BL_FROM:BL_TO]\n"
	  "Show a bit matrix of wordlines x bitlines of ARRAY (a global array\n"
	  "number, or BANK.WAY.ARRAY), bitline 0 leftmost, with rows for the\n"
	  "carry latch C, the tag latch T, the enable mask E and the sensed BL\n"
	  "and BLB of the last micro-op.  The wordlines the last micro-op\n"
	  "activated are marked 'act', the one it wrote 'write'.  Ranges are\n"
	  "inclusive; by default all wordlines and bitlines (at most 64).", NULL },
	{ "tile", NULL, "data", dbg_cmd_dump_tile, false,
	  "Show the elements of one tile of a tensor as a grid.",
	  "dump tile[/FMT] TENSOR TILE\n"
	  "Show the elements of tile number TILE of TENSOR (numbered as `info\n"
	  "layout` numbers them) as a T0 x T1 grid: a row per index i1, a column\n"
	  "per index i0, labelled with the tensor's own indexes (so the element in\n"
	  "row i, column j is TENSOR[i][j]); a 3-d tile gives one grid per slice\n"
	  "i2.  Each element is read from its transposed bits in the tile's array\n"
	  "and shown in the tensor's format, or with FMT as print's (x, t, d, u,\n"
	  "f: /x shows the bits).  Cells of a boundary tile past the tensor's\n"
	  "edge show -.", NULL },
	{ NULL, NULL, NULL, NULL, false, NULL, NULL, NULL },
};

static const dbg_command set_commands[] = {
	{ "var", "variable", "data", dbg_cmd_set_var, false,
	  "Write one element.",
	  "set var BUF[INDEX] = EXPR\n"
	  "Write EXPR into element INDEX of BUF through the array's port, as the\n"
	  "transpose unit would.  The reference model is not changed, so a later\n"
	  "`check` reports the element as a difference.  A float element gets\n"
	  "EXPR rounded to its format as the machine's fp mode rounds (fp=ftz\n"
	  "flushes what would be subnormal), a .qN element EXPR rounded to its\n"
	  "fraction bits, an integer element EXPR truncated toward zero.  A value\n"
	  "that does not fit (beyond the format's largest finite value, outside\n"
	  "-4 <= x < 4 for .qN, outside the integer's range) is refused.", NULL },
	{ "confirm", NULL, "support", dbg_cmd_set_confirm, false,
	  "Set whether to confirm (gdb's setting; infsdb never asks).",
	  "set confirm on|off\n"
	  "gdb asks before a command that loses state when confirm is on; infsdb\n"
	  "never asks (run restarts, delete deletes), so the setting is only kept\n"
	  "and shown, and a gdb script that begins with `set confirm off` runs.", NULL },
	{ "listsize", NULL, "support", dbg_cmd_set_listsize, false,
	  "Set how many lines list shows.",
	  "set listsize N | set listsize unlimited\n"
	  "Make `list` show N commands (or tDFG lines) at a time; 10 by default.", NULL },
	{ "logging", NULL, "support", dbg_cmd_set_logging, false,
	  "Copy the session to a file.",
	  "set logging on [FILE] | set logging off\n"
	  "set logging enabled on|off | set logging file FILE | set logging overwrite on|off\n"
	  "While logging, everything infsdb prints (its output and its error\n"
	  "messages) is also written to FILE (infsdb.txt by default), each command\n"
	  "line first, after \"(infsdb) \": a transcript of the session.  The file\n"
	  "is appended to, unless overwrite is on.", NULL },
	{ "height", NULL, "support", dbg_cmd_set_height, false,
	  "Set the lines of a page (gdb's setting; infsdb never pages).",
	  "set height N | set height unlimited\n"
	  "Kept and shown, so that a gdb script's `set height 0` runs: infsdb\n"
	  "never stops its output to wait for a key.", NULL },
	{ "width", NULL, "support", dbg_cmd_set_width, false,
	  "Set the characters of a line (gdb's setting; infsdb does not wrap).",
	  "set width N | set width unlimited\n"
	  "Kept and shown, so that a gdb script's `set width 0` runs.", NULL },
	{ "print", "p pr", "support", dbg_cmd_set_print, false,
	  "Set how print shows values.",
	  "set print elements N|unlimited | set print repeats N|unlimited\n"
	  "set print pretty|address|symbol|array|... on|off\n"
	  "They change print of a whole buffer or tensor, as gdb's of an array:\n"
	  "elements: at most N elements (200), then \"...\"; repeats: a run of N\n"
	  "or more equal elements (10) as \"V <repeats K times>\"; pretty, array:\n"
	  "one element (a tensor's innermost row) a line; array-indexes: \"[i] =\"\n"
	  "before each; null-stop: an 8-bit buffer ends at its first zero.\n"
	  "address, symbol: the hex and the <BUF+K> of print/a.  The others are\n"
	  "accepted and shown (`show print`) so that gdb scripts run, without\n"
	  "effect: a buffer has no union, object, vtable or frame.", NULL },
	{ "auto-load", NULL, "support", dbg_cmd_set_auto_load, false,
	  "Set Which folders' ./.infsdbinit infsdb reads.",
	  "set auto-load safe-path [DIR[:DIR]...]\n"
	  "infsdb reads ./.infsdbinit, the init file of the folder it starts in,\n"
	  "only when that folder is DIR or under one (\"/\" trusts every folder), as\n"
	  "gdb's auto-load safe-path: a file that arrived with a program (a\n"
	  "student's hand-in, a download) does not run its commands, `shell`\n"
	  "among them, unasked.  The list is empty by default; set it in\n"
	  "~/.infsdbinit or with -iex, which are read before ./.infsdbinit.  A\n"
	  "relative DIR is taken from the current folder, ~/DIR from $HOME.\n"
	  "-batch never reads\n"
	  "./.infsdbinit; -ix FILE reads a named one in any case.", NULL },
	{ "pagination", NULL, "support", dbg_cmd_set_pagination, false,
	  "Set pagination (gdb's setting; infsdb never pages).",
	  "set pagination on|off\n"
	  "infsdb never stops its output to wait for a key, so the setting is only\n"
	  "kept and shown, and a gdb script that begins with `set pagination off`\n"
	  "runs unchanged.", NULL },
	{ "history", NULL, "support", dbg_cmd_set_history, false,
	  "Set how many commands the history keeps.",
	  "set history size N | set history size unlimited\n"
	  "Keep the last N commands typed, in the session and in ~/.infsdb_history\n"
	  "(which is cut to N lines when infsdb ends).  The default is 256, or\n"
	  "the environment variable INFSDB_HISTSIZE (a number; empty or -1 for\n"
	  "unlimited), as gdb's GDBHISTSIZE.", NULL },
	{ "reverse", NULL, "running", dbg_cmd_set_reverse, false,
	  "Set the snapshots of reverse execution.",
	  "set reverse interval N | set reverse interval unlimited\n"
	  "set reverse budget SIZE | set reverse budget unlimited\n"
	  "As the program runs, infsdb snapshots the whole machine between\n"
	  "commands, at least N micro-ops apart (4096 by default), keeping only\n"
	  "the pages of the SRAM that changed since the previous snapshot.  A\n"
	  "reverse command restores the last snapshot before its target and\n"
	  "replays the rest, less than an interval.  The snapshots hold at most\n"
	  "SIZE bytes (a number, or with K, M or G: 256M by default); when that\n"
	  "is full, old ones are thinned, never the newest, so they stay dense\n"
	  "near the position and spaced wider further back.  `interval unlimited`\n"
	  "takes none: going back then replays from the start.  `show reverse`\n"
	  "shows them.", NULL },
	{ "checkpoint", NULL, "running", dbg_cmd_set_checkpoint, false,
	  "Set how checkpoint files are stored.",
	  "set checkpoint compression zstd | set checkpoint compression none\n"
	  "Compress the files `checkpoint save` writes with zstd, or not (the\n"
	  "default).  `checkpoint load` reads both: the file's header says which.", NULL },
	{ NULL, NULL, NULL, NULL, false, NULL, NULL, NULL },
};

static const dbg_command record_commands[] = {
	{ "stop", NULL, "data", dbg_cmd_record_stop, false,
	  "Stop recording and write the file.",
	  "record stop\nStop recording and write the VCD file (atomically).", NULL },
	{ "vcd", NULL, "data", dbg_cmd_record_vcd, false,
	  "Record micro-ops as a VCD waveform.",
	  "record vcd FILE [ARRAY]...\n"
	  "From now on, write every micro-op the machine runs as a time step of a\n"
	  "VCD waveform (viewable in GTKWave), time being the cycle count.  For\n"
	  "each ARRAY (a number or BANK.WAY.ARRAY; array 0 by default; at most\n"
	  "16): its wordlines wl0.., the latches C and T, the enable mask E, the\n"
	  "sensed BL and BLB (B-bit vectors, bit k = bitline k), and the\n"
	  "wordlines the last micro-op activated (act) and wrote (write) as\n"
	  "W-bit vectors.  The file is written when recording stops: `record\n"
	  "stop`, `kill`, `run`, `start`, `checkpoint load`, a reverse command, or\n"
	  "the end of the session.", NULL },
	{ NULL, NULL, NULL, NULL, false, NULL, NULL, NULL },
};

static const dbg_command show_commands[] = {
	{ "confirm", NULL, "support", dbg_cmd_show_confirm, false,
	  "Show the confirm setting.", "show confirm", NULL },
	{ "convenience", "conv", "support", dbg_cmd_show_convenience, false,
	  "Show the convenience variables.",
	  "show convenience\nList the variables `set $NAME = EXPR` made, with their values.", NULL },
	{ "history", NULL, "support", dbg_cmd_show_history, false,
	  "Show the size of the command history.", "show history size", NULL },
	{ "listsize", NULL, "support", dbg_cmd_show_listsize, false,
	  "Show how many lines list shows.", "show listsize", NULL },
	{ "logging", NULL, "support", dbg_cmd_show_logging, false,
	  "Show the logging settings.", "show logging", NULL },
	{ "pagination", NULL, "support", dbg_cmd_show_pagination, false,
	  "Show the pagination setting.", "show pagination", NULL },
	{ "auto-load", NULL, "support", dbg_cmd_show_auto_load, false,
	  "Show which folders' ./.infsdbinit infsdb reads.", "show auto-load safe-path", NULL },
	{ "height", NULL, "support", dbg_cmd_show_height, false,
	  "Show the height setting.", "show height", NULL },
	{ "width", NULL, "support", dbg_cmd_show_width, false,
	  "Show the width setting.", "show width", NULL },
	{ "print", NULL, "support", dbg_cmd_show_print, false,
	  "Show the print settings.", "show print [NAME]", NULL },
	{ "reverse", NULL, "running", dbg_cmd_show_reverse, false,
	  "Show the snapshots of reverse execution.",
	  "show reverse\n"
	  "Show the settings `set reverse` changes, the snapshots (the micro-op\n"
	  "of the history each stands at) and the bytes they hold, the position,\n"
	  "and how many micro-ops the last reverse command replayed.", NULL },
	{ "user", NULL, "support", dbg_cmd_show_user, false,
	  "Show user-defined commands.",
	  "show user [NAME]\nShow the lines of the user command NAME, or of all of them.", NULL },
	{ "values", NULL, "support", dbg_cmd_show_values, false,
	  "Show the value history.",
	  "show values\n"
	  "Show the last ten values of the value history, $N = VALUE, each with\n"
	  "the expression print showed it for.", NULL },
	{ "version", NULL, "support", dbg_cmd_show_version, false,
	  "Show infsdb's version.", "show version", NULL },
	{ NULL, NULL, NULL, NULL, false, NULL, NULL, NULL },
};

static const dbg_command tui_commands[] = {
	{ "bitline", NULL, "support", dbg_cmd_tui_bitline, false,
	  "Highlight one bitline in the array view.",
	  "tui bitline N | tui bitline off\n"
	  "Underline bitline N's column in the TUI's array view (a 'v' above it),\n"
	  "to follow one element through a micro-program.", NULL },
	{ "console", NULL, "support", dbg_cmd_tui_console, false,
	  "Set the console's height in the TUI.",
	  "tui console N | tui console auto\n"
	  "Give the TUI's console N lines (the listing and the views keep the\n"
	  "rest, at least 6 rows for the views); auto: a quarter of the screen.", NULL },
	{ "disable", NULL, "support", dbg_cmd_tui_disable, false,
	  "Leave the text user interface.",
	  "tui disable\nLeave the TUI and go on in the plain console (also Ctrl-X A).", NULL },
	{ "element", NULL, "support", dbg_cmd_tui_element, false,
	  "Choose what the TUI's element view shows.",
	  "tui element [NAME]\n"
	  "Show buffer or tensor NAME in the TUI's element view: its elements in\n"
	  "the array the array view shows (a tensor's tile as a grid), in its\n"
	  "format, those that changed since the previous stop in reverse video.\n"
	  "Without NAME the view follows the current command: the buffer it\n"
	  "writes in that array, else the one shown before, else the array's\n"
	  "first.  PageUp and PageDown scroll the console back and forth.", NULL },
	{ "rows", NULL, "support", dbg_cmd_tui_rows, false,
	  "Choose the wordlines the array view shows.",
	  "tui rows A-B | tui rows auto\n"
	  "Show wordlines A to B in the TUI's array view (as many as fit), whatever\n"
	  "the micro-op activates; auto: the activated and written wordlines, then\n"
	  "the command's operands.", NULL },
	{ "view", NULL, "support", dbg_cmd_tui_view, false,
	  "Choose the target view the TUI's state window draws.",
	  "tui view [NAME]\n"
	  "On a program of another system than streams, draw the target's view\n"
	  "NAME in the TUI's state window: flows (Active-Routing), divergence,\n"
	  "bundles or threads (SIMT), cache (VIMA), streams or regions (near-stream\n"
	  "computing).  The first is shown until then.  Without NAME, list the\n"
	  "target's views, * at the one shown.", NULL },
	{ "enable", NULL, "support", dbg_cmd_tui_enable, false,
	  "Enter the text user interface.",
	  "tui enable\n"
	  "On a program of another system than streams (.ar, .nsc, .vima, .simt):\n"
	  "show, above the console, its source around the position (=> marks the\n"
	  "line), a bar with the position, and the state window, which draws the\n"
	  "view `tui view` picks.  On a stream:\n"
	  "show, above the console, the commands around the current one (=> marks\n"
	  "it; on a tDFG program, the tDFG's source lines around the current\n"
	  "node's line, which => marks) and the array view: the current command's\n"
	  "first selected array, wordlines x bitlines, with the carry (C) and tag\n"
	  "(T) latches and the enable mask (E).  The wordlines the last micro-op\n"
	  "activated are marked act, the one it wrote wr; the bits that changed\n"
	  "since the previous stop are in reverse video.  The wordlines shown are\n"
	  "the activated and written ones and the command's operands, as many as\n"
	  "fit.  Ctrl-X A enters and leaves the TUI; `infsdb -tui` starts in it.\n"
	  "Without a terminal (or in batch mode) it says so and the session goes\n"
	  "on in plain text.", NULL },
	{ NULL, NULL, NULL, NULL, false, NULL, NULL, NULL },
};

static const dbg_command checkpoint_commands[] = {
	{ "load", NULL, "running", dbg_cmd_checkpoint_load, false,
	  "Restore the machine from a file.",
	  "checkpoint load FILE\n"
	  "Restore the exact machine state and position saved in FILE.  A file\n"
	  "from another version of infsim, another machine or another program\n"
	  "is refused with a message, and the session is left as it was.  The\n"
	  "reference model is rebuilt by replaying the finished commands.", NULL },
	{ "save", NULL, "running", dbg_cmd_checkpoint_save, false,
	  "Save the machine to a file.",
	  "checkpoint save FILE\n"
	  "Write the exact machine state (cells, latches, enable masks, sensed\n"
	  "BL/BLB, last activated wordlines, statistics) and the position\n"
	  "(command and micro-op) to FILE, atomically.  Anywhere: inside a\n"
	  "data-dependent command the file also holds the rows as they were when\n"
	  "it started (its per-bank traces are found again from them), and while\n"
	  "transfers between banks wait for their sync it holds their bits.\n"
	  "`set checkpoint compression zstd` compresses the file.", NULL },
	{ NULL, NULL, NULL, NULL, false, NULL, NULL, NULL },
};

const dbg_command dbg_commands[] = {
	{ "run", "r", "running", dbg_cmd_run, false,
	  "Run the program from the start.",
	  "run\n"
	  "Start the program on a fresh machine (buffers filled by their init=\n"
	  "directives) and run until a breakpoint, a watchpoint, Ctrl-C or the end.", NULL },
	{ "start", NULL, "running", dbg_cmd_start, false,
	  "Start the program and stop before command 0.",
	  "start\nStart the program on a fresh machine and stop before its first command.", NULL },
	{ "continue", "c cont", "running", dbg_cmd_continue, true,
	  "Continue running the program.",
	  "continue\n"
	  "Run from the current position until a breakpoint, a watchpoint,\n"
	  "Ctrl-C or the end of the program.", NULL },
	{ "step", "s", "running", dbg_cmd_step, true,
	  "Run N whole commands (default 1).",
	  "step [N]\n"
	  "Run to the end of the current command, or run the next command, N\n"
	  "times.  Stops early at a breakpoint or watchpoint.", NULL },
	{ "next", "n", "running", dbg_cmd_next, true,
	  "Run to the end of the current tDFG node, N times (default 1).",
	  "next [N]\n"
	  "On a tDFG program, run to the end of the node the machine is in (its\n"
	  "last command done), N times: the machine then stands before the first\n"
	  "command of the next node.  Stops early at a breakpoint or watchpoint,\n"
	  "as continue.  On a command stream, which has no nodes, next is step.", NULL },
	{ "finish", "fin", "running", dbg_cmd_finish, false,
	  "Run to the end of the current command or node, or of the selected level.",
	  "finish\n"
	  "Run to the end of the innermost level the machine is in, as gdb's\n"
	  "finish ends the innermost frame: inside a command (one of its micro-ops\n"
	  "has run), that command; at a command boundary of a tDFG program, the\n"
	  "node of the next command; at a boundary of a command stream, the next\n"
	  "command.  After `frame N`, `up` or `down`, the level selected instead\n"
	  "(`up` then `finish` ends the node or the region around the position;\n"
	  "see `where`).  Stops early at a breakpoint or watchpoint.", NULL },
	{ "stepi", "si", "running", dbg_cmd_stepi, true,
	  "Run N micro-ops (default 1).",
	  "stepi [N]\n"
	  "Run N micro-ops: each is one cycle of the selected arrays (wordline\n"
	  "activations, the sensed BL/BLB, latch updates and one write).", NULL },
	{ "nexti", "ni", "running", dbg_cmd_stepi, true,
	  "Run N micro-ops (default 1), as stepi.",
	  "nexti [N]\n"
	  "gdb's nexti steps one instruction, over a call; a micro-op calls\n"
	  "nothing, so nexti runs N micro-ops as stepi does.", NULL },
	{ "until", "u", "running", dbg_cmd_until, false,
	  "Run until a location is next.",
	  "until [LOCATION]\n"
	  "Run until the machine is before LOCATION (or a breakpoint, a\n"
	  "watchpoint, or the end of the program).  LOCATION is read as `break`\n"
	  "reads it: *N a command index, N a command index on a stream and a\n"
	  "source line on a tDFG, :LINE or FILE:LINE a line, a node's name.\n"
	  "Without LOCATION, run the rest of the current command, as gdb's until\n"
	  "runs to the next line.", NULL },
	{ "advance", NULL, "running", dbg_cmd_advance, false,
	  "Run until a location is next.",
	  "advance LOCATION\n"
	  "Run until the machine is before LOCATION (see `help until`), stopping\n"
	  "early at a breakpoint or watchpoint, as gdb's advance.", NULL },
	{ "reverse-stepi", "rsi", "running", dbg_cmd_reverse_stepi, true,
	  "Go back N micro-ops (default 1).",
	  "reverse-stepi [N]\n"
	  "Go back N micro-ops.  The machine is rebuilt from the start of the run\n"
	  "(or from the last `set var` or `checkpoint load`) and run forward to\n"
	  "that point, so it holds exactly the bits it had there.", NULL },
	{ "reverse-step", "rs", "running", dbg_cmd_reverse_step, true,
	  "Go back to the start of a command, N times.",
	  "reverse-step [N]\n"
	  "Go back to the start of the current command (if it has started) or of\n"
	  "the previous one, N times.", NULL },
	{ "reverse-continue", "rc", "running", dbg_cmd_reverse_continue, false,
	  "Run backward to the previous breakpoint.",
	  "reverse-continue\n"
	  "Go back to the last point before the position where a breakpoint or\n"
	  "watchpoint stops the machine, or to the start of the history.", NULL },
	{ "reverse-next", "rn", "running", dbg_cmd_reverse_next, true,
	  "Go back to the start of a tDFG node, N times.",
	  "reverse-next [N]\n"
	  "On a tDFG program, go back to the start of the current node (if one of\n"
	  "its commands has run) or of the previous node, N times.  On a command\n"
	  "stream, which has no nodes, reverse-next is reverse-step.", NULL },
	{ "reverse-finish", NULL, "running", dbg_cmd_reverse_finish, false,
	  "Go back to where the current level began.",
	  "reverse-finish\n"
	  "Go back to the start of the innermost level the machine is inside, as\n"
	  "gdb's reverse-finish goes back to the call of the current function:\n"
	  "inside a command, its start; at a command boundary inside a tDFG node,\n"
	  "the node's start; at a node's start, its region's start; else the\n"
	  "start of the history.", NULL },
	{ "restart", NULL, "running", dbg_cmd_restart, false,
	  "Go back to a checkpoint.",
	  "restart N\n"
	  "On a program of Active-Routing, near-stream computing, VIMA or SIMT,\n"
	  "restore checkpoint N (`checkpoint` took it, `info checkpoints` lists\n"
	  "them): the program's whole state as it was there.  The history of\n"
	  "reverse execution starts again from it.", NULL },
	{ "kill", "k", "running", dbg_cmd_kill, false,
	  "Stop the program being run.",
	  "kill\nDiscard the machine; `run` or `start` begin again.", NULL },
	{ "break", "b br", "breakpoints", dbg_cmd_break, false,
	  "Set a breakpoint.",
	  "break LOCATION [if EXPR]\n"
	  "LOCATION is one of\n"
	  "  N          before command index N (0 is the first command); on a\n"
	  "             tDFG program, source line N of the tDFG, as below\n"
	  "  *N         before command index N, on any program\n"
	  "  :LINE      before the command on source line LINE (also FILE:LINE)\n"
	  "  NODE, node NAME\n"
	  "             on a tDFG program, before the first command of the node\n"
	  "             (a line or :LINE or FILE:LINE of the tDFG names the node\n"
	  "             defined on it); with `end` after it, once its last\n"
	  "             command is done (break s1 end)\n"
	  "  OPCODE     before every command of that mnemonic (add, mul, sel, ...),\n"
	  "             whatever its type (add stops on add.u8 and add.f16)\n"
	  "  MOVE-KIND  before every move of that kind: mv.intra, mv.inter,\n"
	  "             mv.bcast, mv.const, sync, or mv for any move\n"
	  "  cycle N    as soon as N cycles have run\n"
	  "With `if EXPR` the machine stops only where EXPR is not zero.", NULL },
	{ "tbreak", NULL, "breakpoints", dbg_cmd_tbreak, false,
	  "Set a breakpoint that is deleted when hit.",
	  "tbreak LOCATION [if EXPR]\nAs `break`, but the breakpoint is deleted once it stops the machine.", NULL },
	{ "rbreak", NULL, "breakpoints", dbg_cmd_rbreak, false,
	  "Set a breakpoint on everything whose name matches a regular expression.",
	  "rbreak REGEX\n"
	  "As gdb's rbreak on functions: a breakpoint on every command mnemonic\n"
	  "of the program that REGEX matches (by opcode, as `break add`, and by\n"
	  "move kind, mv.intra ...), on a tDFG program first on every node whose\n"
	  "name it matches; on another system's program, on every source line\n"
	  "whose text it matches and that holds a unit to stop at.  REGEX is a\n"
	  "POSIX basic regular expression, as grep's (\\| alternates).  Lists\n"
	  "each breakpoint it sets.", NULL },
	{ "watch", NULL, "breakpoints", dbg_cmd_watch, false,
	  "Stop when an expression changes.",
	  "watch EXPR [if COND]\n"
	  "Evaluate EXPR (typically an element, BUF[i]) after every micro-op\n"
	  "and stop on the micro-op that changed it, showing the old and new\n"
	  "values (a float element in its format; a change is any change of its\n"
	  "bits, so -0 after +0 is one).  With `if COND`, stop only when COND is\n"
	  "not zero after the change.", NULL },
	{ "rwatch", NULL, "breakpoints", dbg_cmd_rwatch, false,
	  "Stop when an element is read.",
	  "rwatch BUF[INDEX] [if COND]\n"
	  "Stop after every micro-op that reads the element: one that activates\n"
	  "(senses) a wordline holding one of its bits, in its array, with its\n"
	  "bitline enabled.  A move that copies the element's wordlines reads it.", NULL },
	{ "awatch", NULL, "breakpoints", dbg_cmd_awatch, false,
	  "Stop when an element is read or written.",
	  "awatch BUF[INDEX] [if COND]\n"
	  "Stop after every micro-op that reads the element (as rwatch) or\n"
	  "writes one of its bits, showing its value, and the old value when it\n"
	  "changed.", NULL },
	{ "commands", NULL, "breakpoints", dbg_cmd_commands, false,
	  "Give a breakpoint commands to run when it stops the machine.",
	  "commands [N]\n"
	  "Read the lines that follow, up to a line saying just `end`, as the\n"
	  "commands of breakpoint or watchpoint N (the last one made without N).\n"
	  "Each time it stops the machine, they run after the stop is shown, as\n"
	  "typed.  `silent` as the first line leaves the stop unshown; a line that\n"
	  "moves the machine (continue, step, ...) ends them, as gdb does, and the\n"
	  "commands of the breakpoint that stops it next run then.  if/while\n"
	  "blocks may be among them.  `commands N` then `end` removes them;\n"
	  "`info breakpoints` lists them.", NULL },
	{ "condition", NULL, "breakpoints", dbg_cmd_condition, false,
	  "Set or remove a breakpoint's condition.",
	  "condition N [EXPR]\n"
	  "Make breakpoint or watchpoint N stop only when EXPR is not zero; without\n"
	  "EXPR, always (the condition is removed).", NULL },
	{ "ignore", NULL, "breakpoints", dbg_cmd_ignore, false,
	  "Pass a breakpoint a number of times.",
	  "ignore N COUNT\n"
	  "Let breakpoint or watchpoint N pass the next COUNT times it would stop\n"
	  "(its condition, if any, holding); 0 stops it again at once.", NULL },
	{ "delete", "d", "breakpoints", dbg_cmd_delete, false,
	  "Delete breakpoints (all without argument).",
	  "delete [breakpoints] [N | N-M]... | delete display [N]...\n"
	  "Delete the breakpoints or watchpoints numbered N (or N to M), or all;\n"
	  "`delete display`, the displays numbered N (as undisplay).", NULL },
	{ "disable", NULL, "breakpoints", dbg_cmd_disable, false,
	  "Disable breakpoints.",
	  "disable [breakpoints] [N | N-M]... | disable display [N]...\n"
	  "Disable the breakpoints numbered N (or N to M; all without argument);\n"
	  "`disable display`, the displays numbered N (all without N): they are\n"
	  "kept, and not shown after a stop until enabled.", NULL },
	{ "enable", NULL, "breakpoints", dbg_cmd_enable, false,
	  "Enable breakpoints.",
	  "enable [breakpoints] [N | N-M]... | enable display [N]...\n"
	  "enable once N... | enable delete N... | enable count COUNT N...\n"
	  "Enable the breakpoints numbered N (or N to M; all without argument),\n"
	  "or the displays.  `once`: disabled again after its next stop;\n"
	  "`delete`: deleted after its next stop, as a tbreak; `count COUNT`:\n"
	  "disabled after COUNT stops.", NULL },
	{ "print", "p inspect", "data", dbg_cmd_print, true,
	  "Print the value of an expression.",
	  "print[/FMT] EXPR\n"
	  "FMT is x (hex), t (binary), d (signed) or u (unsigned), each of the\n"
	  "value's bits (a float element's own bits, a computed float's 64), or f\n"
	  "(a float: an integer's bits read as a float of its width, 16, 32 or 64).\n"
	  "EXPR uses integers (10, 0x1f, 0b101, 017 octal), float literals (1.5,\n"
	  "-2e-3, 0x1p-4, inf, nan), elements BUF[i], $pc, $upc, $cycle, the SRAM\n"
	  "functions ($cell, $row, $col, $C, $T, $E, $BL, $BLB), the value history\n"
	  "($ the last value printed, $$ the one before, $$N, $N), convenience\n"
	  "variables ($NAME, see `set`), and C's operators with C's precedence:\n"
	  "unary - ! ~, * / %, + -, << >>, < <= > >=, == !=, &, ^, |, &&, || and\n"
	  "?: (&&, || and ?: evaluate only the side they need).  An element is\n"
	  "read from its transposed bits; a float or .qN element is the exact\n"
	  "value of its format, and an operation with a float gives a float, as\n"
	  "in C (& | ^ ~ << >> % take integers).  Each value printed is recorded\n"
	  "in the value history ($1, $2, ...; `show values`).  A bare buffer name\n"
	  "prints every element.", NULL },
	{ "output", NULL, "data", dbg_cmd_output, false,
	  "Print a value alone.",
	  "output[/FMT] EXPR\n"
	  "Print the value of EXPR (FMT as print's) with nothing before it and no\n"
	  "newline after it, and without recording it in the value history.", NULL },
	{ "printf", NULL, "data", dbg_cmd_printf, false,
	  "Print values with a C format.",
	  "printf \"FORMAT\", EXPR...\n"
	  "Print the values of the EXPRs as C's printf formats them: %d %i %u %o\n"
	  "%x %X %c take integers (a float is truncated), %f %e %g %a take floats\n"
	  "(an integer is converted); flags, width and precision as C's; length\n"
	  "letters (l, ll) are accepted: every integer has 64 bits.  Escapes \\n\n"
	  "\\t \\\" \\\\ in FORMAT.  Nothing is printed when an argument fails.", NULL },
	{ "expect", NULL, "data", dbg_cmd_expect, false,
	  "Check a result; a difference fails the batch session.",
	  "expect BUF FILE.npy | expect EXPR == VALUE | expect EXPR\n"
	  "Compare buffer BUF with the array in FILE.npy (as `infsim run -d`\n"
	  "writes it: the element type and count must match) element by element,\n"
	  "bit for bit, naming the first element that differs; or check that\n"
	  "EXPR equals VALUE (== compares values, as print's ==), or that EXPR is\n"
	  "not zero.  Prints \"expect: ok\" or the difference; a difference makes\n"
	  "the exit status of a batch session 3, so `infsdb -batch` grades a lab.", NULL },
	{ "x", NULL, "data", dbg_cmd_x, true,
	  "Examine an array's bits, a buffer's elements or the commands.",
	  "x/NFU ARRAY WL | x/NFU BUF[I] | x/NFU BUF | x/Ni LOCATION | x\n"
	  "Show N units (default 1) from the address: of ARRAY's bits from\n"
	  "wordline WL (ARRAY a number or BANK.WAY.ARRAY), of BUF's elements from\n"
	  "element I (0 without [I]), or N commands from LOCATION or $pc (i).\n"
	  "F is a format of print's (x z t o d u c f a s) or i; x, z and t show\n"
	  "every digit of the unit, bit 0 rightmost.  U is b, h, w or g (8, 16,\n"
	  "32, 64 bits); without one, the unit is a whole wordline or an element.\n"
	  "The count comes first, then the letters in any order; the format and\n"
	  "the unit are remembered for the next x, and x alone or Enter goes on\n"
	  "after the last unit shown, as gdb's.", NULL },
	{ "dump", NULL, "data", NULL, false,
	  "Show SRAM contents.",
	  "dump array ARRAY [WL_FROM:WL_TO] [BL_FROM:BL_TO] | dump tile[/FMT] TENSOR TILE\n"
	  "See `help dump array` and `help dump tile`.", dump_commands },
	{ "set", NULL, "data", dbg_cmd_set, false,
	  "Change the machine's state, a variable or a setting.",
	  "set var BUF[INDEX] = EXPR | set $NAME = EXPR | set SETTING VALUE\n"
	  "`set $NAME = EXPR` keeps the value of EXPR in the convenience variable\n"
	  "$NAME for later expressions.  The settings: checkpoint compression,\n"
	  "confirm, history size, listsize, logging, pagination (see `help set SETTING`; `show` shows\n"
	  "them).", set_commands },
	{ "checkpoint", NULL, "running", dbg_cmd_checkpoint, false,
	  "Save or restore the exact machine state.",
	  "checkpoint save FILE | checkpoint load FILE | checkpoint\n"
	  "See `help checkpoint save` and `help checkpoint load`.  On a program of\n"
	  "Active-Routing, near-stream computing, VIMA or SIMT, `checkpoint` alone\n"
	  "keeps the program's whole state in the session, as gdb's checkpoint:\n"
	  "`restart N` goes back to it, `info checkpoints` lists them and `delete\n"
	  "checkpoint N` forgets one.", checkpoint_commands },
	{ "record", NULL, "data", NULL, false,
	  "Record micro-ops to a file.",
	  "record vcd FILE [ARRAY]... | record stop\n"
	  "See `help record vcd`.", record_commands },
	{ "display", NULL, "data", dbg_cmd_display, false,
	  "Print an expression after every stop.",
	  "display[/FMT] EXPR\n"
	  "Add EXPR to the expressions shown after every stop (FMT as print's).\n"
	  "display/NF ARRAY WL\n"
	  "With a count N, show `x/NF ARRAY WL` after every stop, as gdb's\n"
	  "display/N examines memory: N wordlines of the array (F is x or t).\n"
	  "Without an argument, show them all now.", NULL },
	{ "undisplay", NULL, "data", dbg_cmd_undisplay, false,
	  "Stop displaying expressions.",
	  "undisplay [N]...\nRemove the displays numbered N (all without argument).", NULL },
	{ "check", NULL, "data", dbg_cmd_check_all, false,
	  "Compare the buffers with the scalar reference model.",
	  "check\n"
	  "Compare every buffer with the reference model, which applies each\n"
	  "command in plain C as the machine finishes it.  Report the first\n"
	  "wrong element with the expected and actual values and the bits that\n"
	  "differ.  In the middle of a command, the buffers it writes are not\n"
	  "compared.  In batch mode a difference makes the exit status 3.\n"
	  "On a tDFG program, then compare every node that has computed and\n"
	  "whose wordlines no later command wrote over with what the tDFG means\n"
	  "(the tDFG reference, over the node's domain), reporting the first\n"
	  "wrong element, and say how many nodes were not compared.\n"
	  "check every command\n"
	  "From now on, after every command, compare the buffers it wrote and\n"
	  "stop at the first command that leaves a wrong element.\n"
	  "check every node\n"
	  "On a tDFG program: from now on, after the last command of each node,\n"
	  "compare the node with the tDFG reference and stop at the first node\n"
	  "that diverges.  With --tdfg FILE: at each node marker of the stream.\n"
	  "check every off\n"
	  "Stop doing either.", NULL },
	{ "bisect", NULL, "data", dbg_cmd_bisect, false,
	  "Find the first command that wrote a wrong element.",
	  "bisect\n"
	  "Replay the history (from the start of the run, or the last `set var`\n"
	  "or `checkpoint load`) up to the position, comparing after every\n"
	  "command the buffers it wrote with the reference model.  Stop before\n"
	  "the first command that wrote a wrong element, naming the element, or\n"
	  "come back to the position if none did.  Buffers that already differ\n"
	  "at the start of the history are named first.", NULL },
	{ "disassemble", NULL, "data", dbg_cmd_disassemble, false,
	  "List the micro-ops of the current command.",
	  "disassemble [LOCATION | FROM,TO | FROM,+N]\n"
	  "List the micro-ops of the command the machine is in or before, one a\n"
	  "line as the position shows them, `=>` marking the next one: all of\n"
	  "them, or FROM to TO (TO excluded, as gdb) or N from FROM.  With a\n"
	  "LOCATION (as break reads it: N, *N, :LINE, FILE:LINE, a tDFG node),\n"
	  "the micro-ops of the command there, or of each command of the node.\n"
	  "Once a data-dependent command has started under latency=optimised,\n"
	  "these are the micro-ops of its longest bank trace; before it starts,\n"
	  "its baseline program.", NULL },
	{ "where", "bt backtrace", "status", dbg_cmd_where, false,
	  "Show the nesting of the position.",
	  "where [N] | backtrace [N] | bt [N]\n"
	  "Show where the machine is, innermost level first as gdb shows frames:\n"
	  "#0 the micro-op (inside a command), the command, on a tDFG the node it\n"
	  "computes and the node's region, then the program, each with its\n"
	  "file:line.  With N, the N innermost levels.", NULL },
	{ "frame", "f", "status", dbg_cmd_frame, false,
	  "Select a level of the position.",
	  "frame [N]\n"
	  "Select level N of `where` (0, the innermost, by default) and show it;\n"
	  "`list` then lists around that level (a node's or region's line) and\n"
	  "`info frame` describes it, until the machine moves.", NULL },
	{ "up", NULL, "status", dbg_cmd_up, false,
	  "Select an outer level.",
	  "up [N]\nSelect the level N (default 1) outside the selected one (see `frame`).", NULL },
	{ "down", "do", "status", dbg_cmd_down, false,
	  "Select an inner level.",
	  "down [N]\nSelect the level N (default 1) inside the selected one (see `frame`).", NULL },
	{ "list", "l", "status", dbg_cmd_list, true,
	  "List the commands (or tDFG lines) around the position.",
	  "list [N]\n"
	  "List the commands around command N, or around the current position\n"
	  "(`=>` marks the next command).\n"
	  "list [LINE | NODE | A,B]\n"
	  "On a tDFG program, list its source lines: around the current node's\n"
	  "line (`=>` marks it), around LINE or NODE's line, or lines A to B (each\n"
	  "a line or a node).  Enter after a listing shows the lines that follow,\n"
	  "as long as the machine has not moved.", NULL },
	{ "info", "i", "status", cmd_info, false,
	  "Show things about the session.",
	  "info SUBCOMMAND\nSubcommands: breakpoints, buffers, display, frame, layout, line, machine,\nnodes, regions, registers, stats.",
	  info_commands },
	{ "help", "h", "support", cmd_help, false,
	  "Describe commands.",
	  "help [CLASS | COMMAND | all]\n"
	  "Without argument, list the classes of commands; with a class (running,\n"
	  "breakpoints, data, status, support, user-defined), its commands; with a\n"
	  "command, its full description; `help all`, every command by class.", NULL },
	{ "apropos", NULL, "support", cmd_apropos, false,
	  "Search the commands' help for a word.",
	  "apropos WORD\n"
	  "List every command (and subcommand) whose name or help mentions WORD,\n"
	  "ignoring case.", NULL },
	{ "show", NULL, "support", dbg_cmd_show, false,
	  "Show a setting, the value history or user commands.",
	  "show [SETTING]\n"
	  "Without argument, every setting.  See the subcommands below.", show_commands },
	{ "define", NULL, "support", dbg_cmd_define, false,
	  "Define a new command.",
	  "define NAME\n"
	  "Read the lines that follow, up to a line saying just `end`, as the\n"
	  "body of the command NAME.  Running NAME runs them in turn, with $arg0\n"
	  "to $arg9 replaced by its arguments and $argc by their number; the\n"
	  "first that fails ends it.  `define` again replaces the body.", NULL },
	{ "document", NULL, "support", dbg_cmd_document, false,
	  "Document a user-defined command.",
	  "document NAME\n"
	  "Read the lines that follow, up to `end`, as the help of NAME (made\n"
	  "with define), which `help NAME` then shows.", NULL },
	{ "if", NULL, "support", dbg_cmd_if, false,
	  "Run lines if an expression is not zero.",
	  "if EXPR\n  LINES\n[else\n  LINES]\nend\n"
	  "Run the first LINES if EXPR is not zero, else those after `else`.  At\n"
	  "the prompt, in a file read by source or -x, in a define's body and in\n"
	  "a breakpoint's commands; blocks nest.", NULL },
	{ "while", NULL, "support", dbg_cmd_while, false,
	  "Run lines while an expression is not zero.",
	  "while EXPR\n  LINES\nend\n"
	  "Run LINES again and again while EXPR is not zero; `loop_break` leaves\n"
	  "the loop, `loop_continue` goes on with its next turn; Ctrl-C stops it.", NULL },
	{ "loop_break", NULL, "support", dbg_cmd_block_word, false,
	  "Leave the innermost while loop.", "loop_break\nOnly inside a while's lines.", NULL },
	{ "loop_continue", NULL, "support", dbg_cmd_block_word, false,
	  "Go on with the next turn of the innermost while loop.",
	  "loop_continue\nOnly inside a while's lines.", NULL },
	{ "else", NULL, "support", dbg_cmd_block_word, false,
	  "Begin the lines an if runs when its expression is zero.", "else\nSee `help if`.", NULL },
	{ "end", NULL, "support", dbg_cmd_block_word, false,
	  "End a define, document, commands, if or while.",
	  "end\nEnds the lines of the block it closes.", NULL },
	{ "silent", NULL, "breakpoints", dbg_cmd_block_word, false,
	  "Show nothing when a breakpoint stops (first line of commands).",
	  "silent\nAs the first line of `commands`, the stop is not shown.", NULL },
	{ "add-auto-load-safe-path", NULL, "support", dbg_cmd_add_auto_load_safe_path, false,
	  "Trust one more folder's ./.infsdbinit.",
	  "add-auto-load-safe-path DIR\n"
	  "Add DIR to `set auto-load safe-path` (see \"help set auto-load\").", NULL },
	{ "shell", "!", "support", dbg_cmd_shell, false,
	  "Run a shell command.",
	  "shell CMD | !CMD\n"
	  "Run CMD with /bin/sh; its output is shown (and logged), a status other\n"
	  "than 0 is reported.  Without CMD, at a terminal, an interactive shell.", NULL },
	{ "source", NULL, "support", cmd_source, false,
	  "Read commands from a file.",
	  "source FILE\nExecute the commands in FILE, one per line (# starts a comment).", NULL },
	{ "echo", NULL, "support", cmd_echo, false,
	  "Print text.",
	  "echo TEXT\nPrint TEXT; \\n is a newline, \\t a tab (no newline is added).", NULL },
	{ "tui", NULL, "support", NULL, false,
	  "The text user interface.",
	  "tui enable | tui disable | tui element [NAME] | tui rows A-B | tui bitline N\n"
	  "| tui console N | tui view [NAME]\n"
	  "See `help tui enable`, `help tui element`, `help tui rows`, `help tui\n"
	  "bitline`, `help tui console` and `help tui view`.", tui_commands },
	{ "layout", NULL, "support", dbg_cmd_layout, false,
	  "Choose the TUI's windows (and turn it on).",
	  "layout src | asm | split | regs | next | prev\n"
	  "As gdb's, turn the TUI on with the windows of a layout: src the\n"
	  "listing (commands, or a tDFG's lines), asm the array view (the\n"
	  "wordlines the micro-ops act on), split both (the default), regs the\n"
	  "listing with the latches C, T, E and the element view; the console\n"
	  "is always below.  next and prev go round them; alone, list them.", NULL },
	{ "focus", "fs", "support", dbg_cmd_focus, false,
	  "Give the TUI's scrolling keys to a window.",
	  "focus src | asm | regs | cmd | next | prev\n"
	  "As gdb's, PageUp, PageDown, Up and Down then scroll that window (the\n"
	  "listing, the array view's wordlines, the element view's rows) instead\n"
	  "of the console's scrollback and history (cmd).  The window must be\n"
	  "one the layout shows; next and prev go round those.", NULL },
	{ "refresh", NULL, "support", dbg_cmd_refresh, false,
	  "Redraw the TUI (Ctrl-L).",
	  "refresh\nRepaint the whole TUI screen, as gdb's (turning the TUI on).", NULL },
	{ "quit", "q exit", "support", cmd_quit, false,
	  "Leave infsdb.",
	  "quit [EXPR]\nLeave infsdb; with EXPR, its value is the exit status.", NULL },
	{ NULL, NULL, NULL, NULL, false, NULL, NULL, NULL },
};

static const char *const classes[] = { "running", "breakpoints", "data",
				       "status", "support", "user-defined", NULL };

/* ---- small parsers ---- */

char *dbg_trim(char *text)
{
	while (isspace((unsigned char)*text))
		text++;
	size_t n = strlen(text);
	while (n && isspace((unsigned char)text[n - 1]))
		text[--n] = '\0';
	return text;
}

bool dbg_parse_u64(const char *text, uint64_t *out)
{
	if (!isdigit((unsigned char)*text))
		return false;
	char *end;
	errno = 0;
	bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	unsigned long long v = strtoull(text, &end, hex ? 16 : 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* ---- lookup ---- */

static bool alias_matches(const char *aliases, const char *word, size_t len)
{
	for (const char *a = aliases; a && *a;) {
		size_t n = strcspn(a, " ");
		if (n == len && strncmp(a, word, len) == 0)
			return true;
		a += n;
		a += strspn(a, " ");
	}
	return false;
}

const dbg_command *dbg_command_exact(const char *name, size_t len)
{
	for (const dbg_command *c = dbg_commands; c->name; c++)
		if ((strlen(c->name) == len && strncmp(c->name, name, len) == 0) ||
		    alias_matches(c->aliases, name, len))
			return c;
	return NULL;
}

/* gdb's commands that infsdb spells otherwise, and what to type. */
static const struct {
	const char *gdb, *hint;
} equivalents[] = {
	{ "jump", "until LOCATION, or checkpoint load" },
	{ "return", "finish (the machine has no calls to return from)" },
	{ "call", "print EXPR" }, { "ptype", "info buffers" }, { "whatis", "info buffers" },
	{ "target", "nothing: reverse execution needs no record target (reverse-step)" },
	{ "attach", "infsdb PROG (infsdb runs its own machine)" },
	{ "file", "infsdb PROG (start infsdb on the program)" },
	{ "stepping", "step, next, stepi" }, { "tstart", "record vcd FILE" },
	{ "dprintf", "break LOCATION, then a user command with printf (define)" },
	{ "catch", "break OPCODE or break MOVE-KIND (see help break)" },
	{ "thread", "info machine (one controller runs every bank)" },
	{ "save", "checkpoint save FILE" }, { "core-file", "checkpoint load FILE" },
	{ "generate-core-file", "checkpoint save FILE" }, { "gcore", "checkpoint save FILE" },
	{ "skip", "next (a whole tDFG node) or until LOCATION" },
	{ NULL, NULL },
};

/* "  (infsdb: ...)" naming what to type for a gdb command, or "". */
static const char *equivalent(const char *word, size_t len)
{
	for (int k = 0; equivalents[k].gdb; k++)
		if (strlen(equivalents[k].gdb) == len && strncmp(equivalents[k].gdb, word, len) == 0)
			return equivalents[k].hint;
	return NULL;
}

/* gdb's info subcommands infsdb spells otherwise. */
static const char *info_equivalent(const char *word, size_t len)
{
	static const struct {
		const char *gdb, *hint;
	} info[] = {
		{ "locals", "info buffers" }, { "variables", "info buffers" },
		{ "args", "info buffers" }, { "threads", "info machine" },
		{ "all-registers", "info registers" },
		{ "watchpoints", "info breakpoints" }, { "symbol", "info buffers" },
		{ "stack", "where" }, { "sharedlibrary", "info layout" },
		{ NULL, NULL },
	};
	for (int k = 0; info[k].gdb; k++)
		if (strlen(info[k].gdb) == len && strncmp(info[k].gdb, word, len) == 0)
			return info[k].hint;
	return NULL;
}

/* The command word[0..len) names in table: exact name or alias first,
 * else the one command it is a prefix of.  NULL with an error reported
 * (unknown or ambiguous; prefix is "" or "info " for the messages). */
static const dbg_command *lookup(dbg_session *s, const dbg_command *table,
				 const char *word, size_t len, const char *prefix)
{
	const dbg_command *found = NULL;
	size_t nfound = 0;
	for (const dbg_command *c = table; c->name; c++) {
		if ((strlen(c->name) == len && strncmp(c->name, word, len) == 0) ||
		    alias_matches(c->aliases, word, len))
			return c;
		if (strncmp(c->name, word, len) == 0) {
			found = c;
			nfound++;
		}
	}
	if (nfound == 1)
		return found;
	if (nfound == 0) {
		const char *hint = !*prefix ? equivalent(word, len)
			: strcmp(prefix, "info ") == 0 ? info_equivalent(word, len) : NULL;
		if (hint)
			dbg_error(s, "Undefined %scommand: \"%.*s\".  In infsdb: %s.", prefix,
				  (int)len, word, hint);
		else
			dbg_error(s, "Undefined %scommand: \"%.*s\".  Try \"help%s%.*s\".", prefix,
				  (int)len, word, *prefix ? " " : "", (int)strcspn(prefix, " "),
				  prefix);
		return NULL;
	}
	char list[512] = "";
	size_t used = 0;
	for (const dbg_command *c = table; c->name; c++)
		if (strncmp(c->name, word, len) == 0 && used < sizeof list)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
						 used ? ", " : "", c->name);
	dbg_error(s, "Ambiguous %scommand \"%.*s\": %s.", prefix, (int)len, word, list);
	return NULL;
}

/* Split "name/fmt args": the command word ends at a space or '/'. */
static size_t word_length(const char *line)
{
	size_t n = 0;
	while (line[n] && !isspace((unsigned char)line[n]) && line[n] != '/')
		n++;
	return n;
}

static int run_command(dbg_session *s, const dbg_command *table, char *line,
		       const char *prefix, bool *repeat)
{
	size_t len = word_length(line);
	if (len == 0) {
		dbg_error(s, "Undefined %scommand: \"%s\".  Try \"help\".", prefix, line);
		return -1;
	}
	if (table == dbg_commands) {
		const int rc = dbg_user_run(s, line, len, dbg_trim(line + len));
		if (rc <= 0)
			return rc;
	}
	if (s->ops && table == info_commands) { /* info WHAT of the target's own */
		const int rc = dbg_tgt_info(s, line, len, dbg_trim(line + len));
		if (rc <= 0)
			return rc;
	}
	const dbg_command *c = lookup(s, table, line, len, prefix);
	if (!c)
		return -1;
	*repeat = c->repeat;
	char *args = line + len;
	const dbg_handler fn = s->ops && c->fn ? dbg_tgt_handler(c) : c->fn;
	if (c->sub) {
		args = dbg_trim(args);
		/* `set $i = 1`: not a subcommand's name */
		if ((!*args || !isalpha((unsigned char)*args)) && fn)
			return fn(s, args);
		if (!*args) {
			dbg_error(s, "\"%s\" must be followed by the name of a subcommand.", c->name);
			return -1;
		}
		char sub_prefix[64];
		snprintf(sub_prefix, sizeof sub_prefix, "%s ", c->name);
		return run_command(s, c->sub, args, sub_prefix, repeat);
	}
	return fn(s, args);
}

int dbg_execute(dbg_session *s, const char *text, bool *repeat)
{
	*repeat = false;
	char *copy = strdup(text);
	if (!copy) {
		dbg_error(s, "out of memory");
		return -1;
	}
	char *line = dbg_trim(copy);
	int rc = 0;
	if (dbg_user_collect(s, line)) { /* a line of define or document */
		free(copy);
		return 0;
	}
	if (*line && *line != '#')
		dbg_logging_command(line);
	if (*line == '!')
		rc = dbg_cmd_shell(s, line + 1);
	else if (*line && *line != '#')
		rc = run_command(s, dbg_commands, line, "", repeat);
	free(copy);
	dbg_bp_run_due(s); /* the commands of the breakpoint it stopped at */
	fflush(stdout);
	return rc;
}

/* ---- info, help, source, echo, quit ---- */

/* "info" alone lists its subcommands, as gdb does. */
static int cmd_info(dbg_session *s, char *args)
{
	(void)args;
	printf("List of info subcommands:\n\n");
	for (const dbg_command *c = info_commands; c->name; c++)
		printf("info %-12s -- %s\n", c->name, c->brief);
	for (const tgt_info *i = s->ops ? s->ops->infos : NULL; i && i->name; i++)
		printf("info %-12s -- %s (%s)\n", i->name, i->help, s->ops->name);
	return 0;
}

/* The first line of a user command's documentation. */
static void user_brief(const dbg_user_cmd *u, char *buf, size_t size)
{
	if (u->doc)
		snprintf(buf, size, "%.*s", (int)strcspn(u->doc, "\n"), u->doc);
	else
		snprintf(buf, size, "User-defined.");
}

static void help_class(const dbg_session *s, const char *cls)
{
	printf("List of commands (class %s):\n\n", cls);
	for (const dbg_command *c = dbg_commands; c->name; c++)
		if (strcmp(c->cls, cls) == 0)
			printf("%-16s -- %s\n", c->name, c->brief);
	if (strcmp(cls, "user-defined") != 0)
		return;
	for (size_t i = 0; i < s->nusers; i++) {
		char brief[256];
		user_brief(&s->users[i], brief, sizeof brief);
		printf("%-16s -- %s\n", s->users[i].name, brief);
	}
	if (!s->nusers)
		printf("(none yet: \"define NAME\" makes one)\n");
}

static const char *const class_briefs[] = {
	"Running the program, forward and backward.",
	"Stopping the program: breakpoints and watchpoints.",
	"Examining and changing the machine's data; checking results.",
	"Status inquiries: the position, the program, the machine.",
	"Support facilities: help, scripts, settings, the TUI.",
	"User-defined commands (define).",
};

/* `help` without argument: the classes, as gdb lists them. */
static void help_classes(void)
{
	printf("List of classes of commands:\n\n");
	for (int i = 0; classes[i]; i++)
		printf("%-16s -- %s\n", classes[i], class_briefs[i]);
	printf("\nType \"help\" followed by a class name for a list of commands in that class.\n"
	       "Type \"help all\" for the list of all commands.\n"
	       "Type \"help\" followed by a command name for its full description.\n"
	       "Type \"apropos WORD\" to search for commands related to WORD.\n"
	       "Command names may be abbreviated if unambiguous.\n");
}

static void help_command(const dbg_command *c)
{
	printf("%s\n", c->help);
	if (c->aliases)
		printf("Aliases: %s\n", c->aliases);
	for (const dbg_command *sub = c->sub; sub && sub->name; sub++)
		printf("%s %-12s -- %s\n", c->name, sub->name, sub->brief);
}

static int help_topic(dbg_session *s, char *args)
{
	for (int i = 0; classes[i]; i++)
		if (strcmp(args, classes[i]) == 0) {
			help_class(s, classes[i]);
			return 0;
		}
	size_t len = word_length(args);
	const dbg_user_cmd *u = dbg_user_find(s, args, len);
	if (u) {
		printf("%s\n", u->doc ? u->doc : "User-defined.");
		return 0;
	}
	const dbg_command *c = lookup(s, dbg_commands, args, len, "");
	if (!c)
		return -1;
	char *rest = dbg_trim(args + len);
	if (*rest && c->sub) {
		char sub_prefix[64];
		snprintf(sub_prefix, sizeof sub_prefix, "%s ", c->name);
		const dbg_command *sub = lookup(s, c->sub, rest, word_length(rest), sub_prefix);
		if (!sub)
			return -1;
		c = sub;
	}
	help_command(c);
	return 0;
}

static int cmd_help(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (strcmp(args, "all") == 0) {
		for (int i = 0; classes[i]; i++) {
			help_class(s, classes[i]);
			printf("\n");
		}
		printf("Type \"help\" followed by a command name for its full description.\n"
		       "Command names may be abbreviated if unambiguous.\n");
		return 0;
	}
	if (*args)
		return help_topic(s, args);
	help_classes();
	return 0;
}

/* ---- apropos ---- */

/* Does text contain word, ignoring case? */
static bool mentions(const char *text, const char *word)
{
	const size_t n = strlen(word);
	for (const char *p = text; p && *p; p++)
		if (strncasecmp(p, word, n) == 0)
			return true;
	return false;
}

static size_t apropos_table(const dbg_command *table, const char *prefix, const char *word)
{
	size_t found = 0;
	for (const dbg_command *c = table; c->name; c++) {
		if (mentions(c->name, word) || mentions(c->help, word) || mentions(c->brief, word)) {
			char name[64];
			snprintf(name, sizeof name, "%s%s", prefix, c->name);
			printf("%-20s -- %s\n", name, c->brief);
			found++;
		}
		if (c->sub) {
			char sub_prefix[64];
			snprintf(sub_prefix, sizeof sub_prefix, "%s%s ", prefix, c->name);
			found += apropos_table(c->sub, sub_prefix, word);
		}
	}
	return found;
}

static int cmd_apropos(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (!*args) {
		dbg_error(s, "apropos: expected a word to search the help for.");
		return -1;
	}
	size_t found = apropos_table(dbg_commands, "", args);
	for (size_t i = 0; i < s->nusers; i++)
		if (mentions(s->users[i].name, args) || mentions(s->users[i].doc, args)) {
			char brief[256];
			user_brief(&s->users[i], brief, sizeof brief);
			printf("%-20s -- %s\n", s->users[i].name, brief);
			found++;
		}
	if (!found)
		printf("No command's help mentions \"%s\".\n", args);
	return 0;
}

/* The next line of a command file into buf (without its newline), its
 * number counted: 1, 0 at the end, or -1 with an error named at the line
 * (a line longer than TEXT_LINE_MAX bytes, a NUL byte, a read error), so
 * that no file, /dev/zero included, takes unbounded memory or time to
 * refuse. */
static int source_line(dbg_session *s, FILE *f, const char *path, char *buf, size_t size)
{
	size_t n = 0;
	int c;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0') {
			dbg_error(s, "%s:%u: a NUL byte; expected lines of text.", path,
				  s->source_line + 1);
			return -1;
		}
		if (n + 2 > size) {
			dbg_error(s, "%s:%u: a line longer than %d bytes; expected commands of at "
				  "most that.", path, s->source_line + 1, TEXT_LINE_MAX);
			return -1;
		}
		buf[n++] = (char)c;
	}
	if (c == EOF && ferror(f)) {
		dbg_error(s, "%s:%u: %s.", path, s->source_line + 1, strerror(errno));
		return -1;
	}
	if (c == EOF && n == 0)
		return 0;
	buf[n++] = '\n';
	buf[n] = '\0';
	s->source_line++;
	return 1;
}

int dbg_source(dbg_session *s, const char *path)
{
	if (s->source_depth >= 16) {
		dbg_error(s, "%s: source files nested too deeply", path);
		return -1;
	}
	/* "-": standard input (infsdb -x -), read once */
	const bool std_in = !strcmp(path, "-");
	FILE *f = std_in ? stdin : fopen(path, "r");
	struct stat st;
	if (!f) {
		dbg_error(s, "%s: %s.", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		dbg_error(s, "%s: is a folder; expected a file of commands.", path);
		if (!std_in)
			fclose(f);
		return -1;
	}
	s->source_depth++;
	const char *outer_path = s->source_path;
	const unsigned outer_line = s->source_line;
	s->source_path = path;
	s->source_line = 0;
	/* one buffer a level: a nested source's path points into its line */
	char *line = malloc(TEXT_LINE_MAX + 2);
	int rc = 0, got = line ? 1 : (dbg_error(s, "%s: out of memory", path), -1);
	bool repeat;
	while (!s->quit && got > 0 && (got = source_line(s, f, path, line, TEXT_LINE_MAX + 2)) > 0) {
		if (dbg_execute(s, line, &repeat) < 0)
			rc = -1;
	}
	if (got < 0)
		rc = -1;
	else if (!s->quit && s->block) {
		dbg_user_input_end(s, s->source_depth); /* a define or if without end */
		rc = -1;
	}
	free(line);
	if (!std_in)
		fclose(f);
	s->source_path = outer_path;
	s->source_line = outer_line;
	s->source_depth--;
	return rc;
}

static int cmd_source(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (!*args) {
		dbg_error(s, "source command requires file name of file to source.");
		return -1;
	}
	return dbg_source(s, args);
}

static int cmd_echo(dbg_session *s, char *args)
{
	(void)s;
	if (*args == ' ')
		args++;
	for (const char *p = args; *p; p++) {
		if (p[0] == '\\' && (p[1] == 'n' || p[1] == 't')) {
			putchar(p[1] == 'n' ? '\n' : '\t');
			p++;
		} else if (p[0] == '\\' && p[1]) {
			putchar(p[1]);
			p++;
		} else {
			putchar(*p);
		}
	}
	return 0;
}

/* `quit [N]`: N is the exit status, as gdb's quit EXPR. */
static int cmd_quit(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (*args) {
		dbg_value v;
		if (dbg_eval(s, args, &v) < 0)
			return -1;
		s->exit_code = v.is_float ? (int)v.f : (int)v.v;
		s->exit_set = true;
	}
	s->quit = true;
	return 0;
}

/* ---- completion ---- */

static dbg_session *completion_session;
static const dbg_command *completion_table;

static char *complete_command(const char *text, int state)
{
	static const dbg_command *c;
	if (!state)
		c = completion_table;
	size_t len = strlen(text);
	for (; c && c->name; c++)
		if (strncmp(c->name, text, len) == 0)
			return strdup((c++)->name);
	return NULL;
}

static char *complete_buffer(const char *text, int state)
{
	static size_t i;
	const emu_program *p = &completion_session->prog;
	if (!state)
		i = 0;
	size_t len = strlen(text);
	for (; completion_session->loaded && i < p->nbufs; i++)
		if (strncmp(p->bufs[i].name, text, len) == 0)
			return strdup(p->bufs[i++].name);
	return NULL;
}

/* The table the word at start completes in: the top level for the first
 * word, a command's subcommands (or all commands after "help") for the
 * second, NULL (buffer names) otherwise.  A tDFG program's nodes are
 * tensors of its lowered stream under their own names, so `break s`,
 * `list s`, `print s` and `tui element s` complete node names. */
static const dbg_command *table_at(int start)
{
	const char *line = rl_line_buffer;
	size_t i = strspn(line, " ");
	if ((int)i >= start)
		return dbg_commands;
	size_t len = word_length(line + i);
	size_t next = i + len + strspn(line + i + len, " ");
	if ((int)next < start)
		return NULL;
	if (len && strncmp(line + i, "help", len) == 0)
		return dbg_commands;
	for (const dbg_command *c = dbg_commands; c->name; c++)
		if (c->sub && len && strncmp(c->name, line + i, len) == 0)
			return c->sub;
	return NULL;
}

static char **complete(const char *text, int start, int end)
{
	(void)end;
	rl_attempted_completion_over = 1;
	completion_table = table_at(start);
	if (completion_table)
		return rl_completion_matches(text, complete_command);
	rl_completion_append_character = '\0'; /* a buffer name is followed by [ */
	return rl_completion_matches(text, complete_buffer);
}

void dbg_completion_init(dbg_session *s)
{
	completion_session = s;
	rl_attempted_completion_function = complete;
	/* No '-': command names such as reverse-step contain it, and a
	 * subtraction can be written with spaces around it. */
	rl_completer_word_break_characters = " \t[]()+*/%<>=!&|,";
}
