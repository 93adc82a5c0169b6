/* SPDX-License-Identifier: MIT */
/* outfile.c: write an output file whole or not at all; see outfile.h. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Temporaries being written, for the signal handler.  A handler may only
 * call async-signal-safe functions: it reads these and calls unlink. */
#define OUTFILE_LIVE 8
static char *volatile outfile_live[OUTFILE_LIVE];

static void live_add(char *tmp)
{
	for (unsigned i = 0; i < OUTFILE_LIVE; i++)
		if (!outfile_live[i]) {
			outfile_live[i] = tmp;
			return;
		}
}

static void live_remove(const char *tmp)
{
	for (unsigned i = 0; i < OUTFILE_LIVE; i++)
		if (outfile_live[i] == tmp)
			outfile_live[i] = NULL;
}

static void on_signal(int sig)
{
	for (unsigned i = 0; i < OUTFILE_LIVE; i++)
		if (outfile_live[i])
			unlink(outfile_live[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

void outfile_cleanup_on_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

/* The folder of path ("." if none), malloc'd. */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	size_t n = slash == path ? 1 : (size_t)(slash - path);
	char *dir = malloc(n + 1);
	if (dir) {
		memcpy(dir, path, n);
		dir[n] = '\0';
	}
	return dir;
}

int outfile_check(const char *path, diag *d)
{
	struct stat st;
	if (!*path) {
		diag_file(d, "infsim", "an output file name is empty");
		return -1;
	}
	if (path[strlen(path) - 1] == '/' ||
	    (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
		diag_file(d, path, "is a directory, not a file to write");
		return -1;
	}
	/* "-", a character device (/dev/null, /dev/stdout, a terminal) and a
	 * pipe are written directly (outfile_open); a rename would replace
	 * them.  Other kinds of file (a socket) are refused. */
	if (!strcmp(path, "-"))
		return 0;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
			return access(path, W_OK) == 0 ? 0 : (diag_file(d, path, "cannot write: %s",
									    strerror(errno)), -1);
		diag_file(d, path, "exists and is not a regular file, a device or a pipe; "
			  "refusing to replace it");
		return -1;
	}
	char *dir = folder_of(path);
	if (!dir) {
		diag_file(d, path, "out of memory");
		return -1;
	}
	int rc = 0;
	if (stat(dir, &st) != 0) {
		diag_file(d, path, "cannot write: folder '%s': %s", dir, strerror(errno));
		rc = -1;
	} else if (!S_ISDIR(st.st_mode)) {
		diag_file(d, path, "cannot write: '%s' is not a folder", dir);
		rc = -1;
	} else if (access(dir, W_OK) != 0) {
		diag_file(d, path, "cannot write: folder '%s': %s", dir, strerror(errno));
		rc = -1;
	}
	free(dir);
	return rc;
}

/* Create "DIR/.NAME.XXXXXX" exclusively.  The mode is 0666 less the
 * umask, like any new file, or the mode of the file being replaced. */
static int create_temp(outfile *o, diag *d)
{
	size_t n = strlen(o->path);
	o->tmp = malloc(n + 16);
	if (!o->tmp) {
		diag_file(d, o->path, "out of memory");
		return -1;
	}
	const char *slash = strrchr(o->path, '/');
	size_t dirlen = slash ? (size_t)(slash - o->path) + 1 : 0;
	uint64_t x = (uint64_t)getpid() * 0x9e3779b97f4a7c15u ^ (uint64_t)time(NULL);
	for (int attempt = 0; attempt < 100; attempt++) {
		x = x * 6364136223846793005u + 1442695040888963407u;
		snprintf(o->tmp, n + 16, "%.*s.%s.%06x", (int)dirlen, o->path,
			 o->path + dirlen, (unsigned)(x >> 40) & 0xffffff);
		int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			break;
		live_add(o->tmp);
		struct stat st;
		if (stat(o->path, &st) == 0 && S_ISREG(st.st_mode))
			(void)fchmod(fd, st.st_mode & 07777);
		o->f = fdopen(fd, "wb");
		if (o->f)
			return 0;
		close(fd);
		unlink(o->tmp);
		live_remove(o->tmp);
		break;
	}
	diag_file(d, o->path, "cannot create a temporary file beside it: %s",
		  strerror(errno));
	free(o->tmp);
	o->tmp = NULL;
	return -1;
}

/* Standard output, a character device or a pipe: written in place. */
static bool is_direct(const char *path)
{
	struct stat st;
	return !strcmp(path, "-") ||
	       (stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)));
}

static int open_direct(outfile *o, diag *d)
{
	o->direct = true;
	if (!strcmp(o->path, "-")) {
		o->f = stdout;
		return 0;
	}
	o->f = fopen(o->path, "wb");
	if (o->f)
		return 0;
	diag_file(d, o->path, "cannot write: %s", strerror(errno));
	return -1;
}

int outfile_open(outfile *o, const char *path, diag *d)
{
	memset(o, 0, sizeof *o);
	if (outfile_check(path, d) < 0)
		return -1;
	o->path = strdup(path);
	if (!o->path) {
		diag_file(d, path, "out of memory");
		return -1;
	}
	if (is_direct(path) ? open_direct(o, d) < 0 : create_temp(o, d) < 0) {
		free(o->path);
		o->path = NULL;
		return -1;
	}
	return 0;
}

static void outfile_release(outfile *o)
{
	live_remove(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof *o);
}

void outfile_abort(outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	outfile_release(o);
}

/* After a rename, the folder's entry must reach the disk too. */
static void sync_folder(const char *path)
{
	char *dir = folder_of(path);
	if (!dir)
		return;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

/* A direct output: flushed (and closed unless it is standard output);
 * what was written stays written. */
static int commit_direct(outfile *o, diag *d)
{
	int failed = fflush(o->f) != 0 || ferror(o->f);
	int err = errno;
	if (o->f != stdout && fclose(o->f) != 0 && !failed) {
		failed = 1;
		err = errno;
	}
	o->f = NULL;
	if (failed)
		diag_file(d, strcmp(o->path, "-") ? o->path : "standard output", "write failed: %s",
			  strerror(err ? err : EIO));
	outfile_release(o);
	return failed ? -1 : 0;
}

int outfile_commit(outfile *o, diag *d)
{
	if (o->direct)
		return commit_direct(o, d);
	int failed = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0;
	int err = errno;
	if (fclose(o->f) != 0 && !failed) {
		failed = 1;
		err = errno;
	}
	o->f = NULL;
	if (!failed && rename(o->tmp, o->path) != 0) {
		failed = 1;
		err = errno;
	}
	if (failed) {
		diag_file(d, o->path, "write failed: %s", strerror(err));
		unlink(o->tmp);
		outfile_release(o);
		return -1;
	}
	sync_folder(o->path);
	outfile_release(o);
	return 0;
}

int outfile_write(const char *path, const void *data, size_t len, diag *d)
{
	outfile o;
	if (outfile_open(&o, path, d) < 0)
		return -1;
	if (len && fwrite(data, 1, len, o.f) != len) {
		diag_file(d, path, "write failed: %s", strerror(errno));
		outfile_abort(&o);
		return -1;
	}
	return outfile_commit(&o, d);
}
