/* SPDX-License-Identifier: MIT */
/*
 * settings.c: gdb's settings under infsdb (`set pagination`, `set
 * confirm`, `set listsize`, `set logging`), `show`, and `shell`.
 *
 * A gdb script usually begins with `set pagination off` and `set
 * confirm off`: infsdb never pages its output nor asks before acting
 * (run restarts, delete deletes), so both settings are kept and shown
 * as gdb shows them, and a script that sets them runs unchanged.
 *
 * Logging copies everything infsdb prints (stdout and stderr) to a
 * file, with each command line before its output, so that a teacher
 * gets a student's whole session: stdout and stderr are replaced by
 * streams that write both to their file descriptor and to the log.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dbg.h"

/* ---- on / off ---- */

/* "on"/"off" (also 1/0, yes/no, enable/disable, as gdb). */
static int parse_bool(dbg_session *s, const char *what, char *args, bool *out)
{
	args = dbg_trim(args);
	static const char *const on[] = { "on", "1", "yes", "enable", NULL };
	static const char *const off[] = { "off", "0", "no", "disable", NULL };
	for (int k = 0; on[k]; k++) {
		if (strcmp(args, on[k]) == 0 || (!*args && k == 0)) {
			*out = true;
			return 0;
		}
		if (strcmp(args, off[k]) == 0) {
			*out = false;
			return 0;
		}
	}
	dbg_error(s, "set %s: \"on\" or \"off\" expected, got \"%s\".", what, args);
	return -1;
}

int dbg_cmd_set_pagination(dbg_session *s, char *args)
{
	return parse_bool(s, "pagination", args, &s->pagination);
}

int dbg_cmd_set_confirm(dbg_session *s, char *args)
{
	return parse_bool(s, "confirm", args, &s->confirm);
}

int dbg_cmd_show_pagination(dbg_session *s, char *args)
{
	(void)args;
	printf("State of pagination is %s (infsdb never pages its output).\n",
	       s->pagination ? "on" : "off");
	return 0;
}

int dbg_cmd_show_confirm(dbg_session *s, char *args)
{
	(void)args;
	printf("Whether to confirm potentially dangerous operations is %s (infsdb never asks).\n",
	       s->confirm ? "on" : "off");
	return 0;
}

int dbg_cmd_set_listsize(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	uint64_t n;
	if (strcmp(args, "unlimited") == 0 || strcmp(args, "0") == 0) {
		s->listsize = 100000; /* every line of any program a person lists */
		return 0;
	}
	if (!dbg_parse_u64(args, &n) || n > 100000) {
		dbg_error(s, "set listsize: expected a number of lines from 1 to 100000, or "
			  "unlimited, got \"%s\".", args);
		return -1;
	}
	s->listsize = (unsigned)n;
	return 0;
}

int dbg_cmd_show_listsize(dbg_session *s, char *args)
{
	(void)args;
	if (s->listsize >= 100000)
		printf("Number of source lines infsdb will list by default is unlimited.\n");
	else
		printf("Number of source lines infsdb will list by default is %u.\n",
		       s->listsize ? s->listsize : 10);
	return 0;
}

/* ---- width, height, print ---- */

/* N or unlimited (0 is unlimited too, as gdb's width and height). */
static int parse_count(dbg_session *s, const char *what, char *args, unsigned *out)
{
	args = dbg_trim(args);
	uint64_t n;
	if (strcmp(args, "unlimited") == 0) {
		*out = 0;
		return 0;
	}
	if (!dbg_parse_u64(args, &n) || n > 1000000) {
		dbg_error(s, "set %s: expected a number or \"unlimited\", got \"%s\".", what, args);
		return -1;
	}
	*out = (unsigned)n;
	return 0;
}

int dbg_cmd_set_width(dbg_session *s, char *args)
{
	return parse_count(s, "width", args, &s->width);
}

int dbg_cmd_set_height(dbg_session *s, char *args)
{
	return parse_count(s, "height", args, &s->height);
}

static void show_count(const char *what, unsigned v, const char *note)
{
	if (v)
		printf("Number of %s is %u%s.\n", what, v, note);
	else
		printf("Number of %s is unlimited%s.\n", what, note);
}

int dbg_cmd_show_width(dbg_session *s, char *args)
{
	(void)args;
	show_count("characters infsdb thinks are in a line", s->width,
		   " (infsdb does not wrap its output)");
	return 0;
}

int dbg_cmd_show_height(dbg_session *s, char *args)
{
	(void)args;
	show_count("lines infsdb thinks are in a page", s->height, " (infsdb never pages)");
	return 0;
}

/* gdb's `set print` settings.  Those with a meaning here change print
 * of a whole buffer or tensor (inspect.c, doc/DEBUGGER.md "Printing a
 * whole buffer"): pretty and array (one element, or one row of a
 * tensor, a line), array-indexes ([i] = before each), elements (at most
 * that many), repeats (runs collapsed to <repeats N times>), null-stop
 * (an 8-bit buffer ends at its first zero); address and symbol change
 * /a (the hex, the <BUF+K>).  The others are kept and shown so that gdb
 * scripts run: a buffer has no union, object, vtable or frame for them
 * to change. */
static const struct {
	const char *name;
	bool on;          /* gdb's default */
} print_bools[] = {
	{ "pretty", false }, { "address", true }, { "symbol", true }, { "array", false },
	{ "array-indexes", false }, { "union", true }, { "demangle", true },
	{ "object", false }, { "static-members", true }, { "vtbl", false },
	{ "null-stop", false }, { "sevenbit-strings", false }, { "frame-arguments", true },
	{ "entry-values", false }, { "symbol-filename", false }, { NULL, false },
};
static const char *const print_nums[] = { "elements", "repeats", NULL };
static const unsigned print_num_default[] = { 200, 10 };

bool dbg_print_setting(const dbg_session *s, const char *name)
{
	for (int k = 0; print_bools[k].name; k++)
		if (strcmp(print_bools[k].name, name) == 0)
			return (s->print_on >> k & 1) != print_bools[k].on;
	return false;
}

unsigned dbg_print_elements(const dbg_session *s)
{
	return s->print_num[0] == 0 ? print_num_default[0]
		: s->print_num[0] == UINT32_MAX ? 0 : s->print_num[0];
}

unsigned dbg_print_repeats(const dbg_session *s)
{
	return s->print_num[1] == 0 ? print_num_default[1]
		: s->print_num[1] == UINT32_MAX ? 0 : s->print_num[1];
}

int dbg_cmd_set_print(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	const size_t n = strcspn(args, " \t");
	char *value = dbg_trim(args + n);
	for (int k = 0; print_bools[k].name; k++)
		if (n && strlen(print_bools[k].name) == n && strncmp(print_bools[k].name, args, n) == 0) {
			bool on;
			char what[64];
			snprintf(what, sizeof what, "print %s", print_bools[k].name);
			if (parse_bool(s, what, value, &on) < 0)
				return -1;
			/* the bit says "not gdb's default", so a zeroed session has them */
			s->print_on = (s->print_on & ~(UINT32_C(1) << k)) |
				      (uint32_t)(on != print_bools[k].on) << k;
			return 0;
		}
	for (int k = 0; print_nums[k]; k++)
		if (n && strlen(print_nums[k]) == n && strncmp(print_nums[k], args, n) == 0) {
			unsigned v;
			char what[64];
			snprintf(what, sizeof what, "print %s", print_nums[k]);
			if (parse_count(s, what, value, &v) < 0)
				return -1;
			s->print_num[k] = v ? v : UINT32_MAX;
			return 0;
		}
	dbg_error(s, "set print: expected a setting (pretty, address, symbol, array, elements, "
		  "repeats, ...; \"show print\" lists them), got \"%.*s\".", (int)n, args);
	return -1;
}

int dbg_cmd_show_print(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	bool shown = false;
	for (int k = 0; print_bools[k].name; k++)
		if (!*args || strcmp(args, print_bools[k].name) == 0) {
			printf("print %s: %s\n", print_bools[k].name,
			       dbg_print_setting(s, print_bools[k].name) ? "on" : "off");
			shown = true;
		}
	for (int k = 0; print_nums[k]; k++)
		if (!*args || strcmp(args, print_nums[k]) == 0) {
			const unsigned v = s->print_num[k] == 0 ? print_num_default[k]
					   : s->print_num[k] == UINT32_MAX ? 0 : s->print_num[k];
			if (v)
				printf("print %s: %u\n", print_nums[k], v);
			else
				printf("print %s: unlimited\n", print_nums[k]);
			shown = true;
		}
	if (!shown) {
		dbg_error(s, "show print: no setting \"%s\".", args);
		return -1;
	}
	return 0;
}

int dbg_cmd_show_history(dbg_session *s, char *args)
{
	(void)s;
	(void)args;
	const long n = dbg_history_size();
	if (n < 0)
		printf("The size of the command history is unlimited.\n");
	else
		printf("The size of the command history is %ld.\n", n);
	return 0;
}

int dbg_cmd_show_version(dbg_session *s, char *args)
{
	(void)s;
	(void)args;
	printf("infsdb (infsim) %s\n", PACKAGE_VERSION);
	return 0;
}

/* ---- auto-load safe-path: which folders' ./.infsdbinit is trusted ---- */

/* A folder of the list, resolved (a folder that does not exist stays as
 * written: it can match nothing real). */
static void resolve(const char *dir, size_t n, char *out, size_t size)
{
	char given[4096];
	snprintf(given, sizeof given, "%.*s", (int)n, dir);
	if (!realpath(given, out))
		snprintf(out, size, "%s", given);
}

bool dbg_safe_path_allows(const dbg_session *s, const char *dir)
{
	for (const char *p = s->safe_path; p && *p;) {
		const size_t n = strcspn(p, ":");
		char d[4096];
		if (n) {
			resolve(p, n, d, sizeof d);
			const size_t len = strlen(d);
			if (!strcmp(d, "/") || (!strncmp(dir, d, len) && (dir[len] == '/' || !dir[len])))
				return true;
		}
		p += n + (p[n] == ':');
	}
	return false;
}

/* The list, each relative folder made absolute from the current one;
 * append: after the list there was. */
static int set_safe_path(dbg_session *s, const char *what, const char *list, bool append)
{
	char cwd[4096];
	if (!getcwd(cwd, sizeof cwd))
		cwd[0] = '\0';
	const char *old = append && s->safe_path ? s->safe_path : "";
	size_t items = 1;
	for (const char *p = list; *p; p++)
		items += *p == ':';
	const char *h = getenv("HOME");
	const size_t hlen = h ? strlen(h) : 0, longest = strlen(cwd) > hlen ? strlen(cwd) : hlen;
	const size_t cap = strlen(old) + strlen(list) + items * (longest + 2) + 1;
	char *out = malloc(cap);
	if (!out) {
		dbg_error(s, "%s: out of memory", what);
		return -1;
	}
	size_t n = (size_t)snprintf(out, cap, "%s", old);
	const char *home = getenv("HOME");
	for (const char *p = list; *p && n < cap;) {
		const size_t len = strcspn(p, ":");
		/* ~/DIR is under HOME, as a shell reads it; else relative to cwd */
		const bool tilde = home && *home && len >= 1 && p[0] == '~' && (len == 1 || p[1] == '/');
		const char *base = p[0] == '/' ? "" : tilde ? home : cwd;
		const char *q = tilde ? p + 1 : p;
		const size_t qlen = tilde ? len - 1 : len;
		if (len)
			n += (size_t)snprintf(out + n, cap - n, "%s%s%s%.*s", n ? ":" : "", base,
					      p[0] == '/' || tilde ? "" : "/", (int)qlen, q);
		p += len + (p[len] == ':');
	}
	free(s->safe_path);
	s->safe_path = out;
	return 0;
}

int dbg_cmd_set_auto_load(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (strncmp(args, "safe-path", 9) != 0 || (args[9] && args[9] != ' ' && args[9] != '\t')) {
		dbg_error(s, "set auto-load: expected \"safe-path [DIR[:DIR]...]\" (which folders' "
			  "./.infsdbinit infsdb reads).");
		return -1;
	}
	return set_safe_path(s, "set auto-load safe-path", dbg_trim(args + 9), false);
}

int dbg_cmd_add_auto_load_safe_path(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (!*args) {
		dbg_error(s, "add-auto-load-safe-path: a folder is required.");
		return -1;
	}
	return set_safe_path(s, "add-auto-load-safe-path", args, true);
}

int dbg_cmd_show_auto_load(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (*args && strcmp(args, "safe-path") != 0) {
		dbg_error(s, "show auto-load: expected \"safe-path\".");
		return -1;
	}
	printf("List of directories from which it is safe to read ./.infsdbinit is \"%s\".\n",
	       s->safe_path ? s->safe_path : "");
	return 0;
}

/* `set` alone or `set $NAME = EXPR` (the subcommands are the table's). */
int dbg_cmd_set(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (*args == '$')
		return dbg_cmd_set_conv(s, args);
	if (!*args)
		dbg_error(s, "Argument required (expression to compute): set var BUF[INDEX] = EXPR, "
			  "set $NAME = EXPR or set SETTING VALUE.");
	else
		dbg_error(s, "set: \"%s\" is not a setting nor $NAME = EXPR (see \"help set\").",
			  args);
	return -1;
}

/* `show` alone: every setting, as gdb's show. */
int dbg_cmd_show(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (*args) {
		dbg_error(s, "Undefined show command: \"%s\".  Try \"help show\".", args);
		return -1;
	}
	dbg_cmd_show_confirm(s, args);
	dbg_cmd_show_history(s, args);
	dbg_cmd_show_listsize(s, args);
	dbg_cmd_show_logging(s, args);
	dbg_cmd_show_pagination(s, args);
	return dbg_cmd_show_version(s, args);
}

/* ---- logging ---- */

/* The log, and the streams stdout and stderr were before it began. */
static FILE *log_file;
static FILE *real_out, *real_err;

/* Both to fd (1 or 2) and to the log. */
static ssize_t tee_write(void *cookie, const char *buf, size_t size)
{
	const int fd = (int)(intptr_t)cookie;
	size_t done = 0;
	while (done < size) {
		ssize_t n = write(fd, buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* the terminal is gone: the log still gets it */
		done += (size_t)n;
	}
	if (log_file) {
		fwrite(buf, 1, size, log_file);
		fflush(log_file);
	}
	return (ssize_t)size;
}

static FILE *tee_stream(int fd)
{
	cookie_io_functions_t io = { .write = tee_write };
	FILE *f = fopencookie((void *)(intptr_t)fd, "w", io);
	if (f)
		setvbuf(f, NULL, fd == STDERR_FILENO ? _IONBF : _IOLBF, 0);
	return f;
}

static const char *log_name(const dbg_session *s)
{
	return s->log_path ? s->log_path : "infsdb.txt";
}

static int logging_start(dbg_session *s)
{
	if (log_file) {
		dbg_error(s, "set logging: already logging to \"%s\" (\"set logging off\" first).",
			  log_name(s));
		return -1;
	}
	FILE *f = fopen(log_name(s), s->log_overwrite ? "w" : "a");
	if (!f) {
		dbg_error(s, "set logging: %s: %s.", log_name(s), strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	FILE *out = tee_stream(STDOUT_FILENO), *err = tee_stream(STDERR_FILENO);
	if (!out || !err) {
		if (out)
			fclose(out);
		if (err)
			fclose(err);
		fclose(f);
		dbg_error(s, "out of memory");
		return -1;
	}
	log_file = f;
	real_out = stdout;
	real_err = stderr;
	stdout = out;
	stderr = err;
	printf("Copying output to %s.\n", log_name(s));
	return 0;
}

void dbg_logging_stop(dbg_session *s)
{
	if (!log_file)
		return;
	fflush(stdout);
	fflush(stderr);
	FILE *out = stdout, *err = stderr;
	stdout = real_out;
	stderr = real_err;
	fclose(out);
	fclose(err);
	fclose(log_file);
	log_file = NULL;
	printf("Done logging to %s.\n", log_name(s));
}

void dbg_logging_command(const char *line)
{
	if (log_file) {
		fflush(stdout);
		fflush(stderr);
		fprintf(log_file, "(infsdb) %s\n", line);
		fflush(log_file);
	}
}

/* set logging file FILE | overwrite on|off | enabled on|off */
static int logging_setting(dbg_session *s, char *word, char *rest)
{
	if (strcmp(word, "file") == 0) {
		if (!*rest) {
			dbg_error(s, "set logging file: expected a file name.");
			return -1;
		}
		char *copy = strdup(rest);
		if (!copy) {
			dbg_error(s, "out of memory");
			return -1;
		}
		free(s->log_path);
		s->log_path = copy;
		return 0;
	}
	if (strcmp(word, "overwrite") == 0)
		return parse_bool(s, "logging overwrite", rest, &s->log_overwrite);
	bool on;
	if (parse_bool(s, "logging enabled", rest, &on) < 0)
		return -1;
	if (!on) {
		dbg_logging_stop(s);
		return 0;
	}
	return logging_start(s);
}

int dbg_cmd_set_logging(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	size_t n = strcspn(args, " \t");
	char *rest = dbg_trim(args + n);
	if (args[n])
		args[n] = '\0';
	if (strcmp(args, "on") == 0) { /* gdb's older `set logging on [FILE]` */
		if (*rest && logging_setting(s, "file", rest) < 0)
			return -1;
		return logging_start(s);
	}
	if (strcmp(args, "off") == 0 && !*rest) {
		dbg_logging_stop(s);
		return 0;
	}
	if (strcmp(args, "file") == 0 || strcmp(args, "overwrite") == 0 ||
	    strcmp(args, "enabled") == 0)
		return logging_setting(s, args, rest);
	dbg_error(s, "set logging: expected \"on [FILE]\", \"off\", \"file FILE\", "
		  "\"overwrite on|off\" or \"enabled on|off\", got \"%s%s%s\".", args,
		  *rest ? " " : "", rest);
	return -1;
}

int dbg_cmd_show_logging(dbg_session *s, char *args)
{
	(void)args;
	printf("logging enabled:  Logging is %s.\n", log_file ? "enabled" : "disabled");
	printf("logging file:  The current logfile is \"%s\".\n", log_name(s));
	printf("logging overwrite:  Whether logging overwrites or appends to the log file is %s.\n",
	       s->log_overwrite ? "on" : "off");
	return 0;
}

/* ---- shell ---- */

/* Run cmd with /bin/sh, its output (stdout and stderr) copied to ours,
 * so that a log keeps it too.  Its wait status, or -1. */
static int run_piped(const char *cmd)
{
	size_t n = strlen(cmd) + 16;
	char *full = malloc(n);
	if (!full)
		return -1;
	snprintf(full, n, "(%s\n) 2>&1", cmd);
	FILE *p = popen(full, "r");
	free(full);
	if (!p)
		return -1;
	char buf[4096];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, p)) > 0)
		fwrite(buf, 1, got, stdout);
	fflush(stdout);
	return pclose(p);
}

/* `shell CMD` and `!CMD`: run CMD with /bin/sh, as gdb does; a status
 * other than 0 is reported.  Without CMD, an interactive shell. */
int dbg_cmd_shell(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	fflush(stdout);
	fflush(stderr);
	if (s->no_shell) {
		dbg_error(s, "shell: not run in this session (its commands are not the user's).");
		return -1;
	}
	if (!*args && !s->interactive) {
		dbg_error(s, "shell: expected a command (an interactive shell needs a terminal).");
		return -1;
	}
	const char *shell = getenv("SHELL");
	int status = *args ? run_piped(args) : system(shell && *shell ? shell : "/bin/sh");
	if (status == -1) {
		dbg_error(s, "shell: %s.", strerror(errno));
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		dbg_error(s, "shell: \"%s\" could not be run (exit status 127).", args);
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		printf("[shell exit status %d]\n", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("[shell killed by signal %d]\n", WTERMSIG(status));
	return 0;
}
