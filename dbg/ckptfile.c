/* SPDX-License-Identifier: MIT */
/*
 * ckptfile.c: the bytes of a checkpoint file's body (format 4).
 *
 * The body is the snapshot's words, little-endian, then an XXH3-64
 * checksum of those bytes; with `set checkpoint compression zstd` the
 * whole body is one zstd frame that records its decompressed size.  A
 * checkpoint of the default machine is some 140 MB of mostly zero
 * cells: XXH3 reads it at memory speed where the byte-at-a-time FNV-1a
 * of format 3 took over a second, and zstd makes it a few MB
 * (doc/PERFORMANCE.md, "Checkpoints").  Both come from Debian's
 * libxxhash-dev and libzstd-dev (doc/ARCHITECTURE.md says why).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>
#include <zstd.h>

#include "dbg.h"

/* zstd's level 1: the fastest of its normal levels; the cells of a
 * checkpoint are so repetitive that higher levels gain little and cost
 * several times the time (doc/PERFORMANCE.md). */
enum { CKPT_ZSTD_LEVEL = 1 };

uint64_t dbg_ckpt_hash(const void *bytes, size_t len)
{
	return XXH3_64bits(bytes, len);
}

static void put_le(unsigned char *p, uint64_t v)
{
	for (unsigned b = 0; b < 8; b++)
		p[b] = (unsigned char)(v >> (8 * b));
}

static uint64_t get_le(const unsigned char *p)
{
	uint64_t v = 0;
	for (unsigned b = 0; b < 8; b++)
		v |= (uint64_t)p[b] << (8 * b);
	return v;
}

/* The raw body of n words: the words and their checksum, in *out. */
static int raw_body(const uint64_t *w, size_t n, unsigned char **out, size_t *len)
{
	if (n > SIZE_MAX / 8 - 1)
		return -1;
	unsigned char *p = malloc((n + 1) * 8);
	if (!p)
		return -1;
	for (size_t i = 0; i < n; i++)
		put_le(p + i * 8, w[i]);
	put_le(p + n * 8, dbg_ckpt_hash(p, n * 8));
	*out = p;
	*len = (n + 1) * 8;
	return 0;
}

int dbg_ckpt_encode(const uint64_t *w, size_t n, bool zstd, unsigned char **out, size_t *len,
		    const char **why)
{
	unsigned char *raw;
	size_t rawlen;
	if (raw_body(w, n, &raw, &rawlen) < 0) {
		*why = "out of memory";
		return -1;
	}
	if (!zstd) {
		*out = raw;
		*len = rawlen;
		return 0;
	}
	const size_t cap = ZSTD_compressBound(rawlen);
	unsigned char *z = ZSTD_isError(cap) ? NULL : malloc(cap);
	size_t zlen = z ? ZSTD_compress(z, cap, raw, rawlen, CKPT_ZSTD_LEVEL) : 0;
	free(raw);
	if (!z || ZSTD_isError(zlen)) {
		*why = z ? ZSTD_getErrorName(zlen) : "out of memory";
		free(z);
		return -1;
	}
	*out = z;
	*len = zlen;
	return 0;
}

/* A zstd body decompressed, within limit bytes: NULL with *why. */
static unsigned char *unzstd(const unsigned char *bytes, size_t len, size_t limit,
			     size_t *rawlen, const char **why)
{
	const unsigned long long size = ZSTD_getFrameContentSize(bytes, len);
	if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN ||
	    ZSTD_findFrameCompressedSize(bytes, len) != len) {
		*why = "not one zstd frame of known size";
		return NULL;
	}
	if (size > limit) {
		*why = "its decompressed size is larger than this machine's checkpoints";
		return NULL;
	}
	unsigned char *raw = malloc(size ? (size_t)size : 1);
	if (!raw) {
		*why = "out of memory";
		return NULL;
	}
	const size_t got = ZSTD_decompress(raw, (size_t)size, bytes, len);
	if (ZSTD_isError(got) || got != size) {
		*why = "its zstd data is corrupt";
		free(raw);
		return NULL;
	}
	*rawlen = got;
	return raw;
}

int dbg_ckpt_decode(const unsigned char *bytes, size_t len, bool zstd, size_t limit,
		    uint64_t **w, size_t *n, const char **why)
{
	unsigned char *raw = NULL;
	if (zstd) {
		if (!(raw = unzstd(bytes, len, limit, &len, why)))
			return -1;
		bytes = raw;
	}
	int rc = -1;
	*w = NULL;
	if (len % 8 || len < 8) {
		*why = "wrong size";
	} else if (dbg_ckpt_hash(bytes, len - 8) != get_le(bytes + len - 8)) {
		*why = "its checksum does not match: the file was changed or cut short";
	} else if (!(*w = malloc(len > 8 ? len - 8 : 1))) {
		*why = "out of memory";
	} else {
		*n = len / 8 - 1;
		for (size_t i = 0; i < *n; i++)
			(*w)[i] = get_le(bytes + i * 8);
		rc = 0;
	}
	free(raw);
	return rc;
}
