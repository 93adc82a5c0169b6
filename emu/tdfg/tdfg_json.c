/* SPDX-License-Identifier: MIT */
/*
 * tdfg_json.c: the published artifact's tDFG dumps (tdfg_json.h), read
 * with json-c and mapped onto infsim's tDFG (infinity-stream §3.2).
 *
 * The dump is protobuf LLVM.TDG.TDFG printed as JSON, read as proto3
 * JSON readers (protobuf's JsonParser) take it: a field by its .proto
 * name or its lowerCamelCase JSON name, not both; an integer as a
 * number or a string holding one, in any form that is integral and in
 * range (4, "4", 4.0, 4e0); an enum by name or number; a field absent
 * or null is its default.  Beyond that reading is strict: a field of
 * the wrong JSON type, an unknown field, a missing one infsim needs, a
 * pattern that is not a box of the lattice, an edge to no node, a
 * cycle, all stop the read with the JSON path of the culprit.
 *
 * The mapping (doc/TDFG.md has the table): the nodes' common pum_tile is
 * the region's lattice and tile; each node's `pattern`, a box of that
 * lattice, is the infsim node's domain; Value nodes of one region_vaddr
 * are one input (one array in memory); Load nodes are inputs; a Move is
 * a shift (§3.2 mv), a broadcast when its send_pattern reuses one
 * element (a stride 0, §3.2 bc), or nothing when it moves by zero (the
 * artifact emits no command for it); Compute is a constant or a command.
 * Node N is named nN; its temporaries nN_src and nN_mul.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "text.h"
#include "tdfg_json.h"

#define DIMS EMU_LAYOUT_DIMS
#define PAT_MAX 8      /* (stride, tc) pairs of an AffinePattern */
#define WHERE_MAX 160  /* a JSON path in a message */

/* store_stream is infsim's, not the artifact's: a strm.store or
 * strm.update node (doc/TDFG.md, "The store stream in JSON"). */
enum jkind { JK_VALUE, JK_MOVE, JK_LOAD, JK_COMPUTE, JK_SYNC, JK_STORE, JK_KINDS };
static const char *const jkind_names[JK_KINDS] = {"value", "move", "load", "compute", "sync",
						  "store_stream"};
#define KIND_LIST "value, move, load, compute, sync or store_stream"

/* A store stream's op: STORE writes, the others read-modify-write. */
enum jsop { SOP_STORE, SOP_ADD, SOP_MIN, SOP_MAX, SOP_COUNT };
static const char *const sop_names[SOP_COUNT] = {"STORE", "ADD", "MIN", "MAX"};
static const char *const sop_cmds[SOP_COUNT] = {NULL, "add", "min", "max"};

/* The artifact's Compute.OpCode, in its numbering. */
enum jop { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_CMP, OP_MADD, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"ADD", "SUB", "MUL", "DIV", "CMP", "MADD"};
/* What each becomes (CMP: see doc/TDFG.md; MADD on integers: mul, add). */
static const char *const op_cmds[OP_COUNT] = {"add", "sub", "mul", "div", "min", "madd"};

enum jconst { JC_OP, JC_INT, JC_FLOAT };

/* A box of the lattice; reuse >= 0: a send_pattern reading one element
 * `count` times along dimension reuse (a broadcast). */
typedef struct jbox {
	uint64_t lo[DIMS], hi[DIMS];
	int reuse;
	uint64_t count;
} jbox;

typedef struct jpat {
	int64_t start;
	size_t np;
	int64_t stride[PAT_MAX], tc[PAT_MAX];
} jpat;

typedef struct jnode {
	uint32_t id;
	uint8_t kind, cnst, op;
	uint8_t sop;           /* store_stream.op */
	int32_t sdim;          /* store_stream.dim, -1 if absent (affine) */
	int32_t iconst;
	float fconst;
	uint64_t vaddr;
	jpat tile, pat, spat;  /* pum_tile, pattern, move.send_pattern */
	jbox box, send;        /* pattern and send_pattern as boxes */
	uint32_t arg[3];       /* operands (indexes into jctx.n) */
	uint32_t nargs;        /* edges leaving it (may exceed 3) */
	uint32_t users;
	long tn;               /* the infsim node it is, -1 none yet */
} jnode;

typedef struct jctx {
	const char *path;
	diag *d;
	jnode *n;
	size_t nn;
	unsigned fmt, width, sg;
	uint8_t nd;
	uint64_t shape[DIMS], tile[DIMS];
	uint32_t *order;       /* a topological order (operands first) */
	emu_tdfg *t;
	size_t capn;
} jctx;

static int jerr(jctx *c, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int jerr(jctx *c, const char *where, const char *fmt, ...)
{
	char msg[DIAG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_file(c->d, c->path, "%s: %s", where, msg);
	return -1;
}

bool emu_tdfg_json_path(const char *path)
{
	const size_t n = path ? strlen(path) : 0;
	return n > 5 && strcmp(path + n - 5, ".json") == 0;
}

int emu_tdfg_json_type(const char *type, unsigned *fmt, unsigned *width,
		       unsigned *is_signed, const char **why)
{
	if (!type || isa_type_parse(type, strlen(type), fmt, width, is_signed)) {
		*why = "expected an element type: f32, or iN or uN with N 8, 16, 32 or 64";
		return -1;
	}
	const bool ok = *fmt == ISA_FMT_F32 ||
			(*fmt == ISA_FMT_INT && (*width == 8 || *width == 16 || *width == 32 ||
						 *width == 64));
	*why = ok ? NULL : "the artifact's scalars are f32 or integers of 8, 16, 32 or 64 bits";
	return ok ? 0 : -1;
}

/* ---- JSON values, for messages ---- */

static const char *jtype_name(json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null: return "null";
	case json_type_boolean: return "a boolean";
	case json_type_double:
	case json_type_int: return "a number";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	}
	return "a value";
}

/* "a string \"abc\"", "the number 12": what was found instead. */
static const char *found(json_object *o, char *buf, size_t size)
{
	const json_type ty = json_object_get_type(o);
	if (ty == json_type_string) {
		const char *s = json_object_get_string(o);
		size_t n = 0;
		while (s[n] && n < 32 && s[n] >= 0x20 && s[n] < 0x7f && s[n] != '"')
			n++;
		snprintf(buf, size, "the string \"%.*s%s\"", (int)n, s, s[n] ? "..." : "");
	} else if (ty == json_type_int || ty == json_type_double) {
		snprintf(buf, size, "the number %.40s", json_object_get_string(o));
	} else {
		snprintf(buf, size, "%s", jtype_name(o));
	}
	return buf;
}

/* A JSON path into out (WHERE_MAX bytes), cut if it must be. */
static void wpath(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void wpath(char *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out, WHERE_MAX, fmt, ap);
	va_end(ap);
}

static void where_field(char *out, const char *where, const char *key)
{
	wpath(out, "%s.%s", where, key);
}

/* ---- fields, as proto3 JSON readers take them ---- */

#define NAME_MAX_LEN 32 /* the longest field name, send_split_out_dim, and room */

/* The lowerCamelCase JSON name of proto field name (protoc's json_name:
 * each '_' dropped, the letter after it upper-cased): pum_tile, pumTile. */
static void json_name(char out[NAME_MAX_LEN], const char *name)
{
	size_t n = 0;
	bool up = false;
	for (; *name && n < NAME_MAX_LEN - 1; name++) {
		if (*name == '_') {
			up = true;
			continue;
		}
		out[n++] = up && *name >= 'a' && *name <= 'z' ? (char)(*name - 'a' + 'A') : *name;
		up = false;
	}
	out[n] = 0;
}

/* Key names field name: its proto name or its JSON name (a proto3 JSON
 * reader takes both; printers write the JSON name unless told not to). */
static bool names_field(const char *key, const char *name)
{
	char jn[NAME_MAX_LEN];
	json_name(jn, name);
	return strcmp(key, name) == 0 || strcmp(key, jn) == 0;
}

/* Field name of o by either of its names: *v NULL when absent or null
 * (protobuf JSON's default value; an error if required: infsim needs
 * the field and its default will not do).  Both names in one object are
 * an error: one field given twice. */
static int field(jctx *c, json_object *o, const char *where, const char *name, bool required,
		 json_object **v)
{
	const char *key = NULL;
	*v = NULL;
	json_object_object_foreach(o, k, val) {
		if (!names_field(k, name))
			continue;
		if (key) {
			char jn[NAME_MAX_LEN];
			json_name(jn, name);
			return jerr(c, where, "both \"%s\" and \"%s\" given; they name one field (its "
				    "proto name and its lowerCamelCase JSON name), so expected one of them",
				    name, jn);
		}
		key = k;
		*v = val;
	}
	if (key && !*v && required) {
		char w[WHERE_MAX];
		where_field(w, where, name);
		return jerr(c, w, "null, but infsim needs this field");
	}
	if (!key && required)
		return jerr(c, where, "missing field \"%s\"", name);
	return 0;
}

/* Every key of object o names one of allowed (NULL-terminated), and no
 * field is given by both its names. */
static int known_fields(jctx *c, json_object *o, const char *where,
			const char *const *allowed, const char *list)
{
	json_object *v;
	json_object_object_foreach(o, key, val) {
		(void)val;
		size_t i = 0;
		while (allowed[i] && !names_field(key, allowed[i]))
			i++;
		if (!allowed[i]) {
			size_t n = 0;
			while (key[n] && n < 32 && key[n] >= 0x20 && key[n] < 0x7f && key[n] != '"')
				n++;
			return jerr(c, where, "unknown field \"%.*s%s\"; expected %s", (int)n, key,
				    key[n] ? "..." : "", list);
		}
	}
	for (size_t i = 0; allowed[i]; i++)
		if (field(c, o, where, allowed[i], false, &v)) /* by both names */
			return -1;
	return 0;
}

static int want_object(jctx *c, json_object *o, const char *where)
{
	char f[64];
	if (json_object_get_type(o) != json_type_object)
		return jerr(c, where, "expected an object, found %s", found(o, f, sizeof f));
	return 0;
}

/* What a JSON value is as an integer (jnum_of): JN_INT one of 64 bits,
 * *neg and *mag (its magnitude); JN_BIG one beyond; JN_FRAC a number
 * that is not an integer; JN_NAN not a number. */
enum jnum { JN_INT, JN_BIG, JN_FRAC, JN_NAN };

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* The text of a JSON number, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?,
 * read exactly: 1e3, 1000.0 and 10000e-1 are the integer 1000, 1.5 and
 * 1e-3 are not integers. */
static enum jnum number_text(const char *s, bool *neg, uint64_t *mag)
{
	const char *p = s + (s[0] == '-'), *ip = p, *fp;
	size_t ni, nf = 0;
	int64_t exp = 0;
	*neg = false;
	*mag = 0;
	if (!is_digit(*p))
		return JN_NAN;
	p += *p == '0' ? 1 : strspn(p, "0123456789");
	ni = (size_t)(p - ip);
	fp = p + 1;
	if (*p == '.') {
		nf = strspn(fp, "0123456789");
		if (!nf)
			return JN_NAN;
		p = fp + nf;
	}
	if (*p == 'e' || *p == 'E') {
		const bool eneg = *++p == '-';
		p += *p == '-' || *p == '+';
		if (!is_digit(*p))
			return JN_NAN;
		for (; is_digit(*p); p++)
			if (exp < 1000000000) /* far past any length of digits */
				exp = exp * 10 + (*p - '0');
		exp = eneg ? -exp : exp;
	}
	if (*p)
		return JN_NAN;
	/* The digits ip[0..ni) fp[0..nf), times 10^(exp - nf): the first
	 * and the last that are not 0, d0 and d1. */
	const size_t nd = ni + nf;
#define DIGIT(k) ((k) < ni ? ip[k] : fp[(k) - ni])
	size_t d0 = 0, d1 = nd;
	while (d0 < nd && DIGIT(d0) == '0')
		d0++;
	if (d0 == nd)
		return JN_INT; /* 0, also -0 and 0.0e5 */
	while (DIGIT(d1 - 1) == '0')
		d1--;
	const int64_t e = exp - (int64_t)nf + (int64_t)(nd - d1); /* of digit d1 - 1 */
	if (e < 0)
		return JN_FRAC;
	if ((int64_t)(d1 - d0) + e > 20)
		return JN_BIG;
	for (size_t k = d0; k < d1; k++) {
		const unsigned dig = (unsigned)(DIGIT(k) - '0');
		if (*mag > (UINT64_MAX - dig) / 10)
			return JN_BIG;
		*mag = *mag * 10 + dig;
	}
#undef DIGIT
	for (int64_t k = 0; k < e; k++) {
		if (*mag > UINT64_MAX / 10)
			return JN_BIG;
		*mag *= 10;
	}
	*neg = s[0] == '-';
	return JN_INT;
}

/* A JSON value as an integer: a number, or a string holding one (proto3
 * JSON readers take either for every integer field).  json-c's integers
 * are exact: tokenize refuses one beyond 64 bits; its doubles keep their
 * text. */
static enum jnum jnum_of(json_object *x, bool *neg, uint64_t *mag)
{
	switch (json_object_get_type(x)) {
	case json_type_int: {
		const int64_t n = json_object_get_int64(x);
		*neg = n < 0;
		*mag = *neg ? 0 - (uint64_t)n : json_object_get_uint64(x);
		return JN_INT;
	}
	case json_type_double:
	case json_type_string:
		return number_text(json_object_get_string(x), neg, mag);
	default:
		*neg = false;
		*mag = 0;
		return JN_NAN;
	}
}

/* The .proto's integer types. */
enum jint { JI_INT32, JI_UINT32, JI_INT64, JI_UINT64 };
static const struct jint_type {
	const char *name, *range;
	uint64_t neg, pos; /* the largest magnitude below 0, above */
} jint_types[] = {
	[JI_INT32] = {"an int32", "-2147483648 to 2147483647", UINT64_C(1) << 31, INT32_MAX},
	[JI_UINT32] = {"a uint32", "0 to 4294967295", 0, UINT32_MAX},
	[JI_INT64] = {"an int64", "-9223372036854775808 to 9223372036854775807", UINT64_C(1) << 63,
		      INT64_MAX},
	[JI_UINT64] = {"a uint64", "0 to 18446744073709551615", 0, UINT64_MAX},
};

/* "-12", or what was found when it has no 64-bit value. */
static const char *int_text(json_object *x, enum jnum r, bool neg, uint64_t mag, char *buf,
			    size_t size)
{
	if (r != JN_INT)
		return found(x, buf, size);
	snprintf(buf, size, "%s%" PRIu64, neg ? "-" : "", mag);
	return buf;
}

/* Value x of an integer field of type ty: a JSON number or a string
 * holding one, in any form that is integral (4, "4", 4.0, 4e0, "0.4e1"),
 * in the type's range.  A uint64 comes back as its bits. */
static int read_int(jctx *c, json_object *x, const char *w, enum jint ty, int64_t *v)
{
	const struct jint_type *t = &jint_types[ty];
	char f[64];
	bool neg;
	uint64_t mag;
	const enum jnum r = jnum_of(x, &neg, &mag);
	if (r == JN_NAN)
		return jerr(c, w, "expected %s (a number, or a string holding one), found %s", t->name,
			    found(x, f, sizeof f));
	if (r == JN_FRAC)
		return jerr(c, w, "%s is not an integer; expected %s", found(x, f, sizeof f), t->name);
	if (r == JN_BIG || mag > (neg ? t->neg : t->pos))
		return jerr(c, w, "%s is out of range; expected %s, %s",
			    int_text(x, r, neg, mag, f, sizeof f), t->name, t->range);
	*v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return 0;
}

/* An integer field of type ty; absent or null, its default 0 (unless
 * required: scalar_elem_size, whose 0 would not do). */
static int int_field(jctx *c, json_object *o, const char *where, const char *key,
		     bool required, enum jint ty, int64_t *v)
{
	json_object *x;
	char w[WHERE_MAX];
	*v = 0;
	if (field(c, o, where, key, required, &x))
		return -1;
	if (!x)
		return 0;
	where_field(w, where, key);
	return read_int(c, x, w, ty, v);
}

/* An enum field: the value's name, or its number as for an integer
 * field (proto3 JSON readers take both).  The value's index in names,
 * or -1 with what x is as a number in *r, *neg, *mag (jnum_of). */
static int enum_value(json_object *x, const char *const *names, unsigned count, enum jnum *r,
		      bool *neg, uint64_t *mag)
{
	*r = JN_NAN;
	const char *s = json_object_get_type(x) == json_type_string ? json_object_get_string(x)
								    : NULL;
	for (unsigned k = 0; s && k < count; k++)
		if (strcmp(s, names[k]) == 0)
			return (int)k;
	*r = jnum_of(x, neg, mag);
	return *r == JN_INT && !*neg && *mag < count ? (int)*mag : -1;
}

/* ---- AffinePattern: start : stride1 : tc1 : ... ---- */

static int read_pattern(jctx *c, json_object *o, const char *where, jpat *p)
{
	static const char *const top[] = {"start", "params", NULL};
	static const char *const pair[] = {"stride", "tc", NULL};
	json_object *params;
	char w[WHERE_MAX], f[64];
	memset(p, 0, sizeof *p);
	if (want_object(c, o, where) || known_fields(c, o, where, top, "start or params") ||
	    int_field(c, o, where, "start", false, JI_INT64, &p->start) ||
	    field(c, o, where, "params", false, &params))
		return -1;
	if (!params)
		return 0;
	where_field(w, where, "params");
	if (json_object_get_type(params) != json_type_array)
		return jerr(c, w, "expected an array of {\"stride\", \"tc\"}, found %s",
			    found(params, f, sizeof f));
	p->np = json_object_array_length(params);
	if (p->np > PAT_MAX)
		return jerr(c, w, "%zu (stride, tc) pairs; an AffinePattern has at most %d", p->np,
			    PAT_MAX);
	for (size_t i = 0; i < p->np; i++) {
		char wi[WHERE_MAX];
		json_object *e = json_object_array_get_idx(params, i);
		wpath(wi, "%s[%zu]", w, i);
		if (want_object(c, e, wi) || known_fields(c, e, wi, pair, "stride or tc") ||
		    int_field(c, e, wi, "stride", false, JI_INT64, &p->stride[i]) ||
		    int_field(c, e, wi, "tc", false, JI_INT64, &p->tc[i]))
			return -1;
		if (p->tc[i] < 0)
			return jerr(c, wi, "trip count %" PRId64 " is negative", p->tc[i]);
	}
	return 0;
}

/* An empty pattern (no element): the proto's default, 0:1:0. */
static bool pattern_empty(const jpat *p)
{
	for (size_t i = 0; i < p->np; i++)
		if (p->tc[i] == 0)
			return true;
	return p->np == 0;
}

/* pum_tile, a canonical tile (tdfg.h; the artifact's AffinePattern):
 *   0 : 1:T0 : S0:T1 : S0*S1:T2 : T0:S0/T0 : S0*T1:S1/T1 : S0*S1*T2:S2/T2
 * for an N-d array S0 x S1 x S2 cut in tiles T0 x T1 x T2. */
static int tile_of(jctx *c, const jpat *p, const char *where, uint8_t *nd,
		   uint64_t shape[DIMS], uint64_t tile[DIMS])
{
	char w[WHERE_MAX];
	if (p->np == 0 || p->np % 2 || p->np > 2 * DIMS || p->start != 0)
		return jerr(c, where, "expected a canonical tile: start 0 and 2, 4 or 6 (stride, tc) "
			    "pairs, the tile sizes then the tile counts of each dimension");
	const unsigned n = (unsigned)(p->np / 2);
	uint64_t inner = 1;
	for (unsigned k = 0; k < DIMS; k++)
		shape[k] = tile[k] = 1;
	for (unsigned k = 0; k < n; k++) {
		const int64_t t = p->tc[k], g = p->tc[k + n];
		if (t < 1 || g < 1 || t > UINT32_MAX || g > UINT32_MAX / t) {
			wpath(w, "%s.params[%u]", where, t < 1 || t > UINT32_MAX ? k : k + n);
			return jerr(c, w, "tile %" PRId64 " x %" PRId64 " tiles along dimension %u; "
				    "expected sizes from 1 with an array of at most 4294967295", t, g, k);
		}
		tile[k] = (uint64_t)t;
		shape[k] = (uint64_t)(t * g);
		const uint64_t want[2] = {inner, inner * tile[k]};
		for (unsigned h = 0; h < 2; h++)
			if ((uint64_t)p->stride[k + h * n] != want[h]) {
				wpath(w, "%s.params[%u].stride", where, k + h * n);
				return jerr(c, w, "%" PRId64 ", but a canonical tile has %" PRIu64 " here "
					    "(%s)", p->stride[k + h * n], want[h],
					    h ? "the tile size times the inner array sizes"
					      : "the product of the inner array sizes");
			}
		inner *= shape[k];
		if (inner > (UINT64_C(1) << 48))
			return jerr(c, where, "an array of more than 2^48 elements");
	}
	*nd = (uint8_t)n;
	return 0;
}

static void box_text(const jctx *c, const jbox *b, char *buf, size_t size)
{
	size_t n = 0;
	for (unsigned k = 0; k < c->nd && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s[%" PRIu64 ", %" PRIu64 ")", k ? " x " : "",
				      b->lo[k], b->hi[k]);
}

/* A canonical sub-region: start + (stride_k = S0*...*S(k-1), tc_k = the
 * box's extent): a box of the lattice.  In a send_pattern one stride may
 * be 0: one element read tc times (a broadcast). */
static int box_of(jctx *c, const jpat *p, const char *where, bool reuse_ok, jbox *b)
{
	char w[WHERE_MAX];
	uint64_t inner[DIMS], total = 1;
	for (unsigned k = 0; k < DIMS; k++) {
		inner[k] = total;
		total *= c->shape[k];
	}
	if (pattern_empty(p))
		return jerr(c, where, "an empty pattern; expected the box the node's value occupies");
	if (p->np > c->nd)
		return jerr(c, where, "%zu (stride, tc) pairs, but the lattice (pum_tile) has %u "
			    "dimension%s", p->np, c->nd, c->nd == 1 ? "" : "s");
	if (p->start < 0 || (uint64_t)p->start >= total)
		return jerr(c, where, "start %" PRId64 " is outside the lattice of %" PRIu64
			    " elements", p->start, total);
	b->reuse = -1;
	b->count = 0;
	for (unsigned k = 0; k < DIMS; k++) {
		const uint64_t pos = (uint64_t)p->start / inner[k] % c->shape[k];
		uint64_t ext = k < p->np ? (uint64_t)p->tc[k] : 1;
		wpath(w, "%s.params[%u]", where, k);
		if (k < p->np && p->stride[k] == 0 && reuse_ok && b->reuse < 0) {
			b->reuse = (int)k;
			b->count = ext;
			ext = 1;
		} else if (k < p->np && (uint64_t)p->stride[k] != inner[k]) {
			return jerr(c, w, "stride %" PRId64 " along dimension %u; expected %" PRIu64
				    " (the inner array sizes' product: infsim's tensors are boxes)%s",
				    p->stride[k], k, inner[k],
				    reuse_ok ? ", or 0 in one dimension for a broadcast" : "");
		}
		if (ext > c->shape[k] - pos)
			return jerr(c, w, "the box [%" PRIu64 ", %" PRIu64 ") along dimension %u "
				    "extends past the array's %" PRIu64, pos, pos + ext, k,
				    c->shape[k]);
		b->lo[k] = pos;
		b->hi[k] = pos + ext;
	}
	return 0;
}

static bool box_inside(const jbox *in, const jbox *out)
{
	for (unsigned k = 0; k < DIMS; k++)
		if (in->lo[k] < out->lo[k] || in->hi[k] > out->hi[k])
			return false;
	return true;
}

/* ---- nodes ---- */

static void where_node(char *out, uint32_t id, const char *field_name)
{
	wpath(out, "$.nodes[\"%" PRIu32 "\"]%s%s", id, field_name ? "." : "",
	      field_name ? field_name : "");
}

/* A pattern field that must be empty when given (split_out_dim: the
 * artifact repeats a node over an outer loop with it). */
static int empty_pattern_field(jctx *c, json_object *o, const char *where, const char *key)
{
	json_object *x;
	char w[WHERE_MAX];
	jpat p;
	if (field(c, o, where, key, false, &x))
		return -1;
	if (!x)
		return 0;
	where_field(w, where, key);
	if (read_pattern(c, x, w, &p))
		return -1;
	if (!pattern_empty(&p))
		return jerr(c, w, "a split outer dimension (the node repeated over an outer loop); "
			    "infsim runs the tDFG once, so expected the empty pattern 0:1:0");
	return 0;
}

/* compute.op: an OpCode by name or by number. */
static int read_op(jctx *c, json_object *x, const char *w, jnode *n)
{
	char f[64];
	enum jnum r;
	bool neg;
	uint64_t mag;
	const int k = enum_value(x, op_names, OP_COUNT, &r, &neg, &mag);
	if (k >= 0) {
		n->op = (uint8_t)k;
		return 0;
	}
	if (r == JN_INT)
		return jerr(c, w, "unknown OpCode %s%" PRIu64 ", expected ADD, SUB, MUL, DIV, CMP or "
			    "MADD (0 to 5)", neg ? "-" : "", mag);
	if (json_object_get_type(x) == json_type_string)
		return jerr(c, w, "unknown OpCode %s, expected ADD, SUB, MUL, DIV, CMP or MADD",
			    found(x, f, sizeof f) + 11); /* "the string " cut: "FOO" */
	return jerr(c, w, "expected an OpCode (ADD, SUB, MUL, DIV, CMP or MADD), found %s",
		    found(x, f, sizeof f));
}

/* float_const: a JSON number or a string holding one, or "NaN",
 * "Infinity", "-Infinity"; the nearest float (protobuf's float). */
static int read_float(jctx *c, json_object *x, const char *w, jnode *n)
{
	char f[64];
	bool neg;
	uint64_t mag;
	const json_type ty = json_object_get_type(x);
	double v;
	if (ty == json_type_string) {
		const char *s = json_object_get_string(x);
		if (!strcmp(s, "NaN") || !strcmp(s, "Infinity") || !strcmp(s, "-Infinity")) {
			n->fconst = s[0] == 'N' ? NAN : s[0] == '-' ? -INFINITY : INFINITY;
			return 0;
		}
		if (number_text(s, &neg, &mag) == JN_NAN)
			return jerr(c, w, "expected a number (or a string holding one), \"NaN\", "
				    "\"Infinity\" or \"-Infinity\", found %s", found(x, f, sizeof f));
		v = strtod(s, NULL);
	} else if (ty == json_type_int || ty == json_type_double) {
		v = json_object_get_double(x);
	} else {
		return jerr(c, w, "expected a number (float), found %s", found(x, f, sizeof f));
	}
	/* Past FLT_MAX by less than half a float ulp rounds to FLT_MAX: the
	 * 3.4028235e+38 that protobuf prints for it. */
	if (!isfinite(v) || fabs(v) >= 0x1.ffffffp127)
		return jerr(c, w, "%s is not a float (beyond +-3.4028235e38; protobuf JSON writes "
			    "\"Infinity\" and \"NaN\" as strings)", found(x, f, sizeof f));
	n->fconst = (float)v;
	return 0;
}

static int read_compute(jctx *c, json_object *o, const char *where, jnode *n)
{
	static const char *const keys[] = {"compute_node_ptr", "int_const", "float_const", "op",
					   NULL};
	static const char *const one[3] = {"op", "int_const", "float_const"};
	json_object *x[3];
	char w[WHERE_MAX];
	int64_t ptr, v;
	unsigned given = 0;
	if (want_object(c, o, where) ||
	    known_fields(c, o, where, keys, "compute_node_ptr, int_const, float_const or op") ||
	    int_field(c, o, where, "compute_node_ptr", false, JI_UINT64, &ptr))
		return -1;
	for (unsigned k = 0; k < 3; k++) {
		if (field(c, o, where, one[k], false, &x[k]))
			return -1;
		if (x[k] && given++) {
			where_field(w, where, one[k]);
			return jerr(c, w, "a second value of the oneof; a compute node has one of op, "
				    "int_const or float_const");
		}
		if (x[k])
			n->cnst = (uint8_t)k;
	}
	if (!given)
		return jerr(c, where, "expected one of op, int_const or float_const");
	where_field(w, where, one[n->cnst]);
	if (n->cnst == JC_OP)
		return read_op(c, x[0], w, n);
	if (n->cnst == JC_FLOAT)
		return read_float(c, x[2], w, n);
	if (read_int(c, x[1], w, JI_INT32, &v))
		return -1;
	n->iconst = (int32_t)v;
	return 0;
}

/* store_stream { "op": STORE|ADD|MIN|MAX, "dim": uint32 }: op by name
 * or number (0 to 3), absent its default STORE; dim only for an
 * indirect stream (a third operand, the index). */
static int read_store(jctx *c, json_object *o, const char *where, jnode *n)
{
	static const char *const keys[] = {"op", "dim", NULL};
	char w[WHERE_MAX], f[64];
	json_object *x, *y;
	enum jnum r;
	bool neg;
	uint64_t mag;
	int64_t v;
	if (known_fields(c, o, where, keys, "op or dim") || field(c, o, where, "op", false, &x) ||
	    field(c, o, where, "dim", false, &y))
		return -1;
	where_field(w, where, "op");
	const int k = x ? enum_value(x, sop_names, SOP_COUNT, &r, &neg, &mag) : SOP_STORE;
	if (k < 0)
		return jerr(c, w, "expected STORE, ADD, MIN or MAX (a store stream writes, or "
			    "read-modify-writes with the op), found %s", found(x, f, sizeof f));
	n->sop = (uint8_t)k;
	n->sdim = -1;
	if (!y)
		return 0;
	where_field(w, where, "dim");
	if (read_int(c, y, w, JI_UINT32, &v))
		return -1;
	if (v > DIMS - 1)
		return jerr(c, w, "%" PRId64 " is out of range; expected 0 to %d", v, DIMS - 1);
	n->sdim = (int32_t)v;
	return 0;
}

/* The node's kind: exactly one of value, move, load, compute, sync,
 * store_stream. */
static int read_kind(jctx *c, json_object *o, const char *where, jnode *n)
{
	static const char *const value_keys[] = {"region_vaddr", NULL};
	static const char *const move_keys[] = {"send_pattern", "send_split_out_dim", NULL};
	static const char *const load_keys[] = {"send_config_ptr", "recv_config_ptr", NULL};
	static const char *const no_keys[] = {NULL};
	json_object *x = NULL, *y;
	char w[WHERE_MAX], ws[WHERE_MAX];
	int64_t v;
	for (unsigned k = 0; k < JK_KINDS; k++) {
		if (field(c, o, where, jkind_names[k], false, &y))
			return -1;
		where_field(w, where, jkind_names[k]);
		if (y && x)
			return jerr(c, w, "a second kind (the node is a %s); a node has one of "
				    KIND_LIST, jkind_names[n->kind]);
		if (y) {
			x = y;
			n->kind = (uint8_t)k;
		}
	}
	if (!x)
		return jerr(c, where, "expected one of " KIND_LIST " (the node's kind)");
	where_field(w, where, jkind_names[n->kind]);
	if (n->kind != JK_COMPUTE && want_object(c, x, w))
		return -1;
	switch (n->kind) {
	case JK_VALUE:
		if (known_fields(c, x, w, value_keys, "region_vaddr") ||
		    int_field(c, x, w, "region_vaddr", false, JI_UINT64, &v))
			return -1;
		n->vaddr = (uint64_t)v;
		return 0;
	case JK_MOVE:
		if (known_fields(c, x, w, move_keys, "send_pattern or send_split_out_dim") ||
		    field(c, x, w, "send_pattern", true, &y) ||
		    empty_pattern_field(c, x, w, "send_split_out_dim"))
			return -1;
		where_field(ws, w, "send_pattern");
		return read_pattern(c, y, ws, &n->spat);
	case JK_LOAD:
		return known_fields(c, x, w, load_keys, "send_config_ptr or recv_config_ptr") ||
		       int_field(c, x, w, "send_config_ptr", false, JI_UINT64, &v) ||
		       int_field(c, x, w, "recv_config_ptr", false, JI_UINT64, &v) ? -1 : 0;
	case JK_SYNC:
		return known_fields(c, x, w, no_keys, "no field (sync {})");
	case JK_STORE:
		return read_store(c, x, w, n);
	default:
		return read_compute(c, x, w, n);
	}
}

/* A key of map<uint32, Node> nodes: decimal digits, no leading zero
 * (protobuf JSON writes map keys so), at most UINT32_MAX. */
static int parse_key(const char *s, uint32_t *id)
{
	uint64_t v = 0;
	if (!is_digit(s[0]) || (s[0] == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (!is_digit(*s) || (v = v * 10 + (uint64_t)(*s - '0')) > UINT32_MAX)
			return -1;
	}
	*id = (uint32_t)v;
	return 0;
}

/* Node id (the map's key, checked against its "id" field) and its
 * common fields. */
static int read_node(jctx *c, const char *key, json_object *o, jnode *n)
{
	static const char *const keys[] = {"id", "region_name", "pum_tile", "pattern",
		"split_out_dim", "scalar_elem_size", "start_word_line", "value", "move", "load",
		"compute", "sync", "store_stream", NULL};
	char where[WHERE_MAX], w[WHERE_MAX], f[64];
	int64_t id, size, wl;
	json_object *x;
	memset(n, 0, sizeof *n);
	n->tn = -1;
	if (parse_key(key, &n->id))
		return jerr(c, "$.nodes", "key \"%.32s\" is not a node id; expected a uint32 in "
			    "decimal, as a string (\"3\")", key);
	where_node(where, n->id, NULL);
	if (want_object(c, o, where) ||
	    known_fields(c, o, where, keys, "id, region_name, pum_tile, pattern, split_out_dim, "
			 "scalar_elem_size, start_word_line, " KIND_LIST) ||
	    int_field(c, o, where, "id", false, JI_UINT32, &id))
		return -1;
	if ((uint64_t)id != n->id)
		return jerr(c, where, "id %" PRId64 " differs from the node's key \"%" PRIu32 "\"", id,
			    n->id);
	if (field(c, o, where, "region_name", false, &x))
		return -1;
	where_field(w, where, "region_name");
	if (x && json_object_get_type(x) != json_type_string)
		return jerr(c, w, "expected a string, found %s", found(x, f, sizeof f));
	if (int_field(c, o, where, "start_word_line", false, JI_INT32, &wl) ||
	    empty_pattern_field(c, o, where, "split_out_dim") || read_kind(c, o, where, n))
		return -1;
	if (n->kind == JK_SYNC)
		return 0; /* a barrier: no value, no layout */
	const int64_t bytes = c->width / 8;
	if (int_field(c, o, where, "scalar_elem_size", true, JI_INT32, &size))
		return -1;
	where_field(w, where, "scalar_elem_size");
	if (size != bytes)
		return jerr(c, w, "%" PRId64 " bytes, but the element type read (%s%u) has %" PRId64,
			    size, c->fmt == ISA_FMT_F32 ? "f" : c->sg ? "i" : "u", c->width, bytes);
	if (field(c, o, where, "pum_tile", true, &x))
		return -1;
	where_field(w, where, "pum_tile");
	if (read_pattern(c, x, w, &n->tile) || field(c, o, where, "pattern", true, &x))
		return -1;
	where_field(w, where, "pattern");
	return read_pattern(c, x, w, &n->pat);
}

/* ---- the graph ---- */

static int cmp_id(const void *a, const void *b)
{
	const jnode *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static long find_id(const jctx *c, uint32_t id)
{
	size_t lo = 0, hi = c->nn;
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		if (c->n[mid].id == id)
			return (long)mid;
		if (c->n[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int read_nodes(jctx *c, json_object *nodes)
{
	char f[64];
	if (json_object_get_type(nodes) != json_type_object)
		return jerr(c, "$.nodes", "expected an object mapping node ids to nodes, found %s",
			    found(nodes, f, sizeof f));
	const size_t count = (size_t)json_object_object_length(nodes);
	if (count == 0)
		return jerr(c, "$.nodes", "no nodes; a tDFG needs at least one");
	if (count > EMU_TDFG_JSON_MAX_NODES)
		return jerr(c, "$.nodes", "%zu nodes; infsim reads at most %u", count,
			    EMU_TDFG_JSON_MAX_NODES);
	if (!(c->n = calloc(count, sizeof *c->n)))
		return jerr(c, "$.nodes", "out of memory");
	json_object_object_foreach(nodes, key, val) {
		if (read_node(c, key, val, &c->n[c->nn]))
			return -1;
		c->nn++;
	}
	/* json-c keeps the last of duplicate keys, so ids are unique. */
	qsort(c->n, c->nn, sizeof *c->n, cmp_id);
	return 0;
}

/* One edge: user src -> operand dst; operands in the order of edges. */
static int read_edge(jctx *c, json_object *e, size_t i)
{
	static const char *const keys[] = {"src", "dst", NULL};
	char w[WHERE_MAX], wf[WHERE_MAX];
	int64_t end[2];
	long at[2];
	wpath(w, "$.edges[%zu]", i);
	if (want_object(c, e, w) || known_fields(c, e, w, keys, "src or dst"))
		return -1;
	for (unsigned k = 0; k < 2; k++) {
		if (int_field(c, e, w, keys[k], false, JI_UINT32, &end[k]))
			return -1;
		where_field(wf, w, keys[k]);
		if ((at[k] = find_id(c, (uint32_t)end[k])) < 0)
			return jerr(c, wf, "no node %" PRId64 " in $.nodes", end[k]);
		if (c->n[at[k]].kind == JK_SYNC)
			return jerr(c, wf, "node %" PRId64 " is a sync, which has no value and no "
				    "operands", end[k]);
	}
	jnode *u = &c->n[at[0]];
	if (u->nargs < 3)
		u->arg[u->nargs] = (uint32_t)at[1];
	u->nargs++;
	c->n[at[1]].users++;
	return 0;
}

static int read_edges(jctx *c, json_object *edges)
{
	char f[64];
	if (!edges)
		return 0;
	if (json_object_get_type(edges) != json_type_array)
		return jerr(c, "$.edges", "expected an array of {\"src\", \"dst\"}, found %s",
			    found(edges, f, sizeof f));
	const size_t n = json_object_array_length(edges);
	if (n > EMU_TDFG_JSON_MAX_EDGES)
		return jerr(c, "$.edges", "%zu edges; infsim reads at most %u", n,
			    EMU_TDFG_JSON_MAX_EDGES);
	for (size_t i = 0; i < n; i++)
		if (read_edge(c, json_object_array_get_idx(edges, i), i))
			return -1;
	return 0;
}

/* The operands each kind takes (edges leaving the node). */
static unsigned arity(const jnode *n)
{
	switch (n->kind) {
	case JK_MOVE: return 1;
	case JK_COMPUTE: return n->cnst != JC_OP ? 0 : n->op == OP_MADD ? 3 : 2;
	case JK_STORE: return n->sdim >= 0 ? 3 : 2; /* target, values[, index] */
	default: return 0;
	}
}

static int check_arity(jctx *c)
{
	char w[WHERE_MAX];
	for (size_t i = 0; i < c->nn; i++) {
		const jnode *n = &c->n[i];
		const unsigned want = arity(n);
		if (n->nargs == want)
			continue;
		where_node(w, n->id, NULL);
		const char *what = n->kind == JK_STORE ? (n->sdim >= 0 ? "store_stream (with a "
					"dim: target, values, index)" : "store_stream (without a dim: "
					"target, values)")
				   : n->kind != JK_COMPUTE ? jkind_names[n->kind]
				   : n->cnst == JC_OP ? op_names[n->op] : "constant";
		return jerr(c, w, "a %s node takes %u operand%s, but %" PRIu32 " edge%s leave%s it "
			    "($.edges go from a user to an operand)", what, want, want == 1 ? "" : "s",
			    n->nargs, n->nargs == 1 ? "" : "s", n->nargs == 1 ? "s" : "");
	}
	return 0;
}

/* A cycle among the nodes left out of the order (left[i] not
 * UINT32_MAX): each has an operand left too, so following the first one
 * from any of them comes back to a node already seen. */
static int report_cycle(jctx *c, uint32_t *left)
{
	const uint32_t seen = UINT32_MAX - 1;
	size_t i = 0, n = 0;
	char cyc[256], w[WHERE_MAX];
	while (left[i] == UINT32_MAX)
		i++;
	while (left[i] != seen) {
		left[i] = seen;
		uint32_t a = 0;
		while (left[c->n[i].arg[a]] == UINT32_MAX)
			a++;
		i = c->n[i].arg[a];
	}
	const size_t first = i;
	for (size_t steps = 0; steps == 0 || (i != first && steps < c->nn); steps++) {
		if (n < sizeof cyc - 40)
			n += (size_t)snprintf(cyc + n, sizeof cyc - n, "%" PRIu32 " -> ", c->n[i].id);
		uint32_t a = 0;
		while (left[c->n[i].arg[a]] != seen)
			a++;
		i = c->n[i].arg[a];
	}
	snprintf(cyc + n, sizeof cyc - n, "%" PRIu32, c->n[first].id);
	where_node(w, c->n[first].id, NULL);
	return jerr(c, w, "node %" PRIu32 " depends on itself (%s, each an operand of the one "
		    "before); a tDFG is acyclic", c->n[first].id, cyc);
}

/* Kahn's algorithm, smallest id first: c->order, operands first.  A
 * node left over lies on a cycle. */
static int topo_order(jctx *c)
{
	uint32_t *left = calloc(c->nn, sizeof *left);
	size_t done = 0;
	if (!left || !(c->order = calloc(c->nn, sizeof *c->order))) {
		free(left);
		return jerr(c, "$", "out of memory");
	}
	for (size_t i = 0; i < c->nn; i++)
		left[i] = c->n[i].nargs;
	/* Repeated sweeps keep the order deterministic (smallest ready id
	 * first in each sweep); the graph is small (EMU_TDFG_JSON_MAX_NODES). */
	for (bool moved = true; moved && done < c->nn;) {
		moved = false;
		for (size_t i = 0; i < c->nn; i++) {
			if (left[i] != 0)
				continue;
			left[i] = UINT32_MAX;
			c->order[done++] = (uint32_t)i;
			moved = true;
			for (size_t u = 0; u < c->nn; u++)
				for (uint32_t a = 0; a < c->n[u].nargs && a < 3; a++)
					if (c->n[u].arg[a] == i && left[u] != UINT32_MAX)
						left[u]--;
		}
	}
	const int rc = done == c->nn ? 0 : report_cycle(c, left);
	free(left);
	return rc;
}

/* ---- the lattice, the boxes and the artifact's rules ---- */

static bool same_tile(const jpat *a, const jpat *b)
{
	if (a->np != b->np)
		return false;
	for (size_t i = 0; i < a->np; i++)
		if (a->stride[i] != b->stride[i] || a->tc[i] != b->tc[i])
			return false;
	return true;
}

static void dims_text(const uint64_t *v, unsigned nd, char *buf, size_t size)
{
	size_t n = 0;
	for (unsigned k = 0; k < nd && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s%" PRIu64, k ? "x" : "", v[k]);
}

/* One lattice and tile for the whole graph (one infsim region): the
 * first node's pum_tile, which every other node repeats. */
static int lattice(jctx *c)
{
	char w[WHERE_MAX];
	const jnode *first = NULL;
	for (size_t i = 0; i < c->nn; i++) {
		const jnode *n = &c->n[i];
		if (n->kind == JK_SYNC)
			continue;
		where_node(w, n->id, "pum_tile");
		if (!first) {
			first = n;
			if (tile_of(c, &n->tile, w, &c->nd, c->shape, c->tile))
				return -1;
		} else if (!same_tile(&n->tile, &first->tile)) {
			char s[64], t[64];
			dims_text(c->shape, c->nd, s, sizeof s);
			dims_text(c->tile, c->nd, t, sizeof t);
			return jerr(c, w, "differs from node %" PRIu32 "'s (array %s in tiles %s); "
				    "infsim puts a whole tDFG on one lattice and tiling", first->id, s,
				    t);
		}
	}
	if (!first)
		return jerr(c, "$.nodes", "only sync nodes; a tDFG needs a node with a value");
	/* The JIT would refuse it too, but without the JSON path. */
	uint64_t p = 1;
	for (unsigned k = 0; k < c->nd; k++)
		p *= c->tile[k];
	const unsigned b = c->t->geom.bitlines;
	if (p > b || b % p) {
		char t[64];
		dims_text(c->tile, c->nd, t, sizeof t);
		where_node(w, first->id, "pum_tile");
		return jerr(c, w, "tiles of %s = %" PRIu64 " elements, but the machine's arrays have "
			    "%u bitlines; a tile fills an array or a divisor of it (the artifact's "
			    "machine has 256)", t, p, b);
	}
	return 0;
}

static int boxes(jctx *c)
{
	char w[WHERE_MAX];
	for (size_t i = 0; i < c->nn; i++) {
		jnode *n = &c->n[i];
		if (n->kind == JK_SYNC)
			continue;
		where_node(w, n->id, "pattern");
		if (box_of(c, &n->pat, w, false, &n->box))
			return -1;
		where_node(w, n->id, "move.send_pattern");
		if (n->kind == JK_MOVE && box_of(c, &n->spat, w, true, &n->send))
			return -1;
	}
	return 0;
}

/* A compute node works where all its operands are defined (Fig 5). */
static int check_compute(jctx *c, const jnode *n)
{
	char w[WHERE_MAX], a[128], b[128];
	where_node(w, n->id, "pattern");
	for (uint32_t k = 0; k < n->nargs; k++) {
		const jnode *o = &c->n[n->arg[k]];
		if (box_inside(&n->box, &o->box))
			continue;
		box_text(c, &n->box, a, sizeof a);
		box_text(c, &o->box, b, sizeof b);
		return jerr(c, w, "box %s is not inside the box %s of operand node %" PRIu32 "; a "
			    "compute node works where all its operands are defined", a, b, o->id);
	}
	return 0;
}

/* A move (the artifact's DataMoveCompiler rules): its send box lies in
 * the operand's box; the received box (pattern) has the same extents;
 * their starts differ along at most one dimension, which is the reuse
 * dimension if the send_pattern reuses. */
static int check_move(jctx *c, const jnode *n)
{
	char w[WHERE_MAX], a[128], b[128];
	const jnode *o = &c->n[n->arg[0]];
	jbox src = n->send;
	int moving = -1;
	where_node(w, n->id, "move.send_pattern");
	if (!box_inside(&src, &o->box)) {
		box_text(c, &src, a, sizeof a);
		box_text(c, &o->box, b, sizeof b);
		return jerr(c, w, "box %s is not inside the box %s of operand node %" PRIu32, a, b,
			    o->id);
	}
	if (src.reuse >= 0)
		src.hi[src.reuse] = src.lo[src.reuse] + src.count;
	where_node(w, n->id, "pattern");
	for (unsigned k = 0; k < DIMS; k++) {
		if (src.hi[k] - src.lo[k] != n->box.hi[k] - n->box.lo[k])
			return jerr(c, w, "%" PRIu64 " elements along dimension %u, but the "
				    "send_pattern sends %" PRIu64 "; a move keeps the extents",
				    n->box.hi[k] - n->box.lo[k], k, src.hi[k] - src.lo[k]);
		if (src.lo[k] == n->box.lo[k] || (int)k == src.reuse)
			continue;
		if (moving >= 0 || src.reuse >= 0)
			return jerr(c, w, "moves along dimension %u%s%d; a move shifts along one "
				    "dimension (§3.2), a broadcast along its reuse dimension", k,
				    src.reuse >= 0 ? " besides its reuse dimension " : " and ",
				    src.reuse >= 0 ? src.reuse : moving);
		moving = (int)k;
	}
	return 0;
}

/* A store stream (strm.store, strm.update; doc/TDFG.md, "strm nodes"):
 * a type the engines take, MIN and MAX not on floats, an integer index,
 * and its value is its target: the target's box. */
static int check_store(jctx *c, const jnode *n)
{
	char w[WHERE_MAX], a[128], b[128];
	where_node(w, n->id, NULL);
	if (!emu_strm_type_ok(c->fmt, c->width, c->sg))
		return jerr(c, w, "a store stream of %s%u elements; the stream engines take i8, u8, "
			    "i32, u32, i64 and f32", c->fmt == ISA_FMT_F32 ? "f" : c->sg ? "i" : "u",
			    c->width);
	where_node(w, n->id, "store_stream.op");
	if (c->fmt == ISA_FMT_F32 && (n->sop == SOP_MIN || n->sop == SOP_MAX))
		return jerr(c, w, "%s does not take f32 elements; a float update near memory is an "
			    "ADD", sop_names[n->sop]);
	where_node(w, n->id, "store_stream.dim");
	if (n->sdim >= 0 && c->fmt != ISA_FMT_INT)
		return jerr(c, w, "an indirect store stream's index holds integers, but --type "
			    "makes every value f32; without dim the stream is affine");
	if (n->sdim >= c->nd)
		return jerr(c, w, "dimension %" PRId32 ", but the lattice (pum_tile) has %u",
			    n->sdim, c->nd);
	const jnode *t = &c->n[n->arg[0]];
	where_node(w, n->id, "pattern");
	if (memcmp(n->box.lo, t->box.lo, sizeof n->box.lo) ||
	    memcmp(n->box.hi, t->box.hi, sizeof n->box.hi)) {
		box_text(c, &n->box, a, sizeof a);
		box_text(c, &t->box, b, sizeof b);
		return jerr(c, w, "box %s differs from the box %s of its target node %" PRIu32 "; a "
			    "store stream's value is its target, updated in place", a, b, t->id);
	}
	return 0;
}

static int check_rules(jctx *c)
{
	char w[WHERE_MAX];
	for (size_t i = 0; i < c->nn; i++) {
		const jnode *n = &c->n[i];
		if (n->kind == JK_SYNC && n->users) {
			where_node(w, n->id, NULL);
			return jerr(c, w, "a sync node has no value to use");
		}
		if (n->kind == JK_MOVE && check_move(c, n))
			return -1;
		if (n->kind == JK_COMPUTE && check_compute(c, n))
			return -1;
		if (n->kind == JK_STORE && check_store(c, n))
			return -1;
		if (n->kind != JK_COMPUTE || n->cnst == JC_OP)
			continue;
		where_node(w, n->id, n->cnst == JC_INT ? "compute.int_const" : "compute.float_const");
		if ((n->cnst == JC_FLOAT) != (c->fmt == ISA_FMT_F32))
			return jerr(c, w, "%s constant in a graph of %s elements; expected %s",
				    n->cnst == JC_INT ? "an integer" : "a float",
				    c->fmt == ISA_FMT_F32 ? "f32" : "integer",
				    c->fmt == ISA_FMT_F32 ? "float_const" : "int_const");
		const uint64_t m = isa_mask(c->width);
		const int64_t v = n->iconst;
		if (n->cnst == JC_INT && (v < 0 ? (uint64_t)-v > (m >> 1) + 1 : (uint64_t)v > m))
			return jerr(c, w, "%" PRId64 " does not fit in %u bits", v, c->width);
	}
	return 0;
}

/* ---- onto infsim's tDFG ---- */

static emu_tnode *new_tnode(jctx *c, const char *name, uint8_t kind, const jbox *dom)
{
	emu_tdfg *t = c->t;
	if (t->nnodes == c->capn) {
		const size_t nc = c->capn ? c->capn * 2 : 16;
		emu_tnode *nn = realloc(t->nodes, nc * sizeof *nn);
		if (!nn) {
			jerr(c, "$", "out of memory");
			return NULL;
		}
		t->nodes = nn;
		c->capn = nc;
	}
	emu_tnode *x = &t->nodes[t->nnodes++];
	memset(x, 0, sizeof *x);
	snprintf(x->name, sizeof x->name, "%s", name);
	x->kind = kind;
	x->fmt = (uint8_t)c->fmt;
	x->width = (uint8_t)c->width;
	x->is_signed = (uint8_t)c->sg;
	x->buf = -1;
	for (unsigned k = 0; k < DIMS; k++) {
		x->dom.lo[k] = dom->lo[k];
		x->dom.hi[k] = dom->hi[k];
	}
	return x;
}

/* x := MNEMONIC.T of the graph's type (tdfg.c's compute nodes). */
static void set_cmd(jctx *c, emu_tnode *x, const char *mnemonic)
{
	isa_cmd *k = &x->c;
	memset(k, 0, sizeof *k);
	k->a = k->b = k->c3 = k->d = k->d2 = ISA_NONE;
	k->fmt = (uint8_t)c->fmt;
	k->width = (uint8_t)c->width;
	k->is_signed = (uint8_t)c->sg;
	k->op = (uint16_t)isa_lookup_fmt(mnemonic, c->fmt);
}

static void node_name(char *buf, size_t size, uint32_t id, const char *suffix)
{
	snprintf(buf, size, "n%" PRIu32 "%s", id, suffix);
}

/* Inputs: a Load, or the Value nodes of one region_vaddr (one array),
 * whose domain is the box that holds all their patterns.  Their data
 * start as init=random:ID+1 (--load replaces them). */
static int map_input(jctx *c, jnode *n)
{
	char name[EMU_NAME_MAX];
	jbox dom = n->box;
	for (size_t i = 0; n->kind == JK_VALUE && i < c->nn; i++) {
		const jnode *v = &c->n[i];
		if (v->kind != JK_VALUE || v->vaddr != n->vaddr)
			continue;
		for (unsigned k = 0; k < DIMS; k++) {
			dom.lo[k] = v->box.lo[k] < dom.lo[k] ? v->box.lo[k] : dom.lo[k];
			dom.hi[k] = v->box.hi[k] > dom.hi[k] ? v->box.hi[k] : dom.hi[k];
		}
	}
	node_name(name, sizeof name, n->id, "");
	emu_tnode *x = new_tnode(c, name, EMU_TN_INPUT, &dom);
	if (!x)
		return -1;
	snprintf(x->init_text, sizeof x->init_text, "init=random:%" PRIu64, (uint64_t)n->id + 1);
	n->tn = (long)(c->t->nnodes - 1);
	for (size_t i = 0; n->kind == JK_VALUE && i < c->nn; i++)
		if (c->n[i].kind == JK_VALUE && c->n[i].vaddr == n->vaddr)
			c->n[i].tn = n->tn;
	return 0;
}

static int map_compute(jctx *c, jnode *n)
{
	char name[EMU_NAME_MAX], tmp[EMU_NAME_MAX];
	node_name(name, sizeof name, n->id, "");
	if (n->cnst != JC_OP) {
		emu_tnode *x = new_tnode(c, name, EMU_TN_CONST, &n->box);
		if (!x)
			return -1;
		uint32_t bits;
		memcpy(&bits, &n->fconst, sizeof bits);
		x->value = n->cnst == JC_FLOAT ? bits : (uint64_t)(int64_t)n->iconst & isa_mask(c->width);
		n->tn = (long)(c->t->nnodes - 1);
		return 0;
	}
	long arg[3];
	for (uint32_t k = 0; k < n->nargs; k++)
		arg[k] = c->n[n->arg[k]].tn;
	if (n->op == OP_MADD && c->fmt != ISA_FMT_F32) {
		/* No integer madd command: a*b into nN_mul, then + c. */
		node_name(tmp, sizeof tmp, n->id, "_mul");
		emu_tnode *m = new_tnode(c, tmp, EMU_TN_COMPUTE, &n->box);
		if (!m)
			return -1;
		set_cmd(c, m, "mul");
		m->arg[0] = (uint32_t)arg[0];
		m->arg[1] = (uint32_t)arg[1];
		m->nargs = 2;
		arg[0] = (long)(c->t->nnodes - 1);
		arg[1] = arg[2];
	}
	emu_tnode *x = new_tnode(c, name, EMU_TN_COMPUTE, &n->box);
	if (!x)
		return -1;
	const bool imadd = n->op == OP_MADD && c->fmt != ISA_FMT_F32;
	set_cmd(c, x, imadd ? "add" : op_cmds[n->op]);
	x->nargs = (uint8_t)(imadd ? 2 : n->nargs);
	for (unsigned k = 0; k < x->nargs; k++)
		x->arg[k] = (uint32_t)arg[k];
	n->tn = (long)(c->t->nnodes - 1);
	return 0;
}

/* A broadcast reads one element along its dimension; an operand wider
 * there is first cut to the send box by a copy, nN_src. */
static long bcast_source(jctx *c, const jnode *n, long src)
{
	char tmp[EMU_NAME_MAX];
	const emu_tnode *s = &c->t->nodes[src];
	const unsigned d = (unsigned)n->send.reuse;
	if (s->dom.hi[d] - s->dom.lo[d] == 1 && s->dom.lo[d] == n->send.lo[d])
		return src;
	node_name(tmp, sizeof tmp, n->id, "_src");
	emu_tnode *x = new_tnode(c, tmp, EMU_TN_COMPUTE, &n->send);
	if (!x)
		return -1;
	set_cmd(c, x, "copy");
	x->arg[0] = (uint32_t)src;
	x->nargs = 1;
	return (long)(c->t->nnodes - 1);
}

/* A move: a shift by the starts' difference, a broadcast, or, moving by
 * nothing, the operand itself. */
static int map_move(jctx *c, jnode *n)
{
	char name[EMU_NAME_MAX];
	long src = c->n[n->arg[0]].tn;
	int moving = -1;
	for (unsigned k = 0; k < DIMS; k++)
		if (n->send.lo[k] != n->box.lo[k] && (int)k != n->send.reuse)
			moving = (int)k;
	node_name(name, sizeof name, n->id, "");
	if (n->send.reuse >= 0) {
		if ((src = bcast_source(c, n, src)) < 0)
			return -1;
		emu_tnode *x = new_tnode(c, name, EMU_TN_BCAST, &n->box);
		if (!x)
			return -1;
		x->arg[0] = (uint32_t)src;
		x->nargs = 1;
		x->dim = (uint8_t)n->send.reuse;
	} else if (moving >= 0) {
		emu_tnode *x = new_tnode(c, name, EMU_TN_SHIFT, &n->box);
		if (!x)
			return -1;
		x->arg[0] = (uint32_t)src;
		x->nargs = 1;
		x->off[moving] = (int64_t)n->box.lo[moving] - (int64_t)n->send.lo[moving];
	} else {
		n->tn = src; /* the artifact emits no command for it either */
		return 0;
	}
	n->tn = (long)(c->t->nnodes - 1);
	return 0;
}

/* A store stream: strm.store.T or strm.update.OP.T over the target,
 * the values and the index, as tdfg.c's node_update makes it. */
static int map_store(jctx *c, jnode *n)
{
	char name[EMU_NAME_MAX], w[WHERE_MAX], why[256];
	node_name(name, sizeof name, n->id, "");
	emu_tnode *x = new_tnode(c, name, EMU_TN_UPDATE, &n->box);
	if (!x)
		return -1;
	memset(&x->c, 0, sizeof x->c);
	x->c.op = (uint16_t)(n->sop == SOP_STORE ? ISA_COPY
						 : isa_lookup_fmt(sop_cmds[n->sop], c->fmt));
	x->c.fmt = x->fmt;
	x->c.width = x->width;
	x->c.is_signed = x->is_signed;
	x->nargs = (uint8_t)n->nargs;
	for (uint32_t k = 0; k < n->nargs; k++)
		x->arg[k] = (uint32_t)c->n[n->arg[k]].tn;
	x->dim = (uint8_t)(n->sdim >= 0 ? n->sdim : 0);
	x->strm = true;
	n->tn = (long)(c->t->nnodes - 1);
	const emu_tnode *nd = c->t->nodes;
	if (emu_strm_update_domain(&nd[x->arg[0]], &nd[x->arg[1]], x->nargs > 2 ? &nd[x->arg[2]]
				   : NULL, x->dim, &x->dom, why, sizeof why) == 0)
		return 0;
	where_node(w, n->id, NULL);
	return jerr(c, w, "%s", why);
}

static int map_nodes(jctx *c)
{
	for (size_t k = 0; k < c->nn; k++) {
		jnode *n = &c->n[c->order[k]];
		int rc = 0;
		if ((n->kind == JK_VALUE && n->tn < 0) || n->kind == JK_LOAD)
			rc = map_input(c, n);
		else if (n->kind == JK_COMPUTE)
			rc = map_compute(c, n);
		else if (n->kind == JK_MOVE)
			rc = map_move(c, n);
		else if (n->kind == JK_STORE)
			rc = map_store(c, n);
		if (rc)
			return -1;
	}
	/* What no node uses is a result: it keeps its rows to the end. */
	for (size_t i = 0; i < c->nn; i++)
		if (!c->n[i].users && c->n[i].tn >= 0)
			c->t->nodes[c->n[i].tn].output = true;
	return 0;
}

/* The one region: the lattice and the artifact's tile. */
static int make_region(jctx *c)
{
	emu_tdfg *t = c->t;
	if (!(t->regions = calloc(1, sizeof *t->regions)))
		return jerr(c, "$", "out of memory");
	emu_tregion *r = &t->regions[0];
	snprintf(r->name, sizeof r->name, "tdfg");
	r->ndims = c->nd;
	memcpy(r->shape, c->shape, sizeof r->shape);
	memcpy(r->tile, c->tile, sizeof r->tile);
	r->node0 = 0;
	r->node1 = t->nnodes;
	t->nregions = 1;
	return 0;
}

/* ---- the text ---- */

/* A JSON syntax error at byte off: FILE:LINE:COL (COL in bytes). */
static int syntax_error(jctx *c, const char *text, size_t len, size_t off, const char *what)
{
	int line = 1, col = 1;
	for (size_t i = 0; i < off && i < len; i++) {
		col++;
		if (text[i] == '\n') {
			line++;
			col = 1;
		}
	}
	diag_at(c->d, c->path, line, col, "%s", what);
	return -1;
}

/* json-c reads an integer beyond 64 bits as INT64_MIN or UINT64_MAX
 * without a word, so the text (valid JSON here) is searched for one
 * first: FILE:LINE:COL of the first. */
static int wide_integer(jctx *c, const char *text, size_t len)
{
	char what[200];
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '"') {
			while (++i < len && text[i] != '"')
				i += text[i] == '\\';
			continue;
		}
		if (text[i] != '-' && !is_digit(text[i]))
			continue;
		const bool neg = text[i] == '-';
		const char *lim = neg ? "9223372036854775808" : "18446744073709551615";
		const size_t d = i + neg, nl = strlen(lim);
		size_t e = d;
		while (e < len && is_digit(text[e]))
			e++;
		const size_t nd = e - d;
		const bool frac = e < len && (text[e] == '.' || text[e] == 'e' || text[e] == 'E');
		if (!frac && (nd > nl || (nd == nl && memcmp(text + d, lim, nl) > 0))) {
			snprintf(what, sizeof what, "the integer %.*s%s is beyond 64 bits; expected at "
				 "most 64 (an int64 or a uint64), or a float with an exponent (1e+20)",
				 (int)(e - i < 40 ? e - i : 40), text + i, e - i > 40 ? "..." : "");
			return syntax_error(c, text, len, i, what);
		}
		while (e < len && (is_digit(text[e]) || memchr(".eE+-", text[e], 5)))
			e++;
		i = e - 1;
	}
	return 0;
}

/* The DOM of the whole text: one JSON value and only blanks after it. */
static json_object *tokenize(jctx *c, const char *text, size_t len)
{
	char what[160];
	if (len > EMU_TDFG_JSON_MAX_BYTES) {
		jerr(c, "$", "%zu bytes; infsim reads at most %u", len, EMU_TDFG_JSON_MAX_BYTES);
		return NULL;
	}
	const char *nul = memchr(text, 0, len);
	if (nul) {
		syntax_error(c, text, len, (size_t)(nul - text), "NUL byte in the input; expected JSON text");
		return NULL;
	}
	json_tokener *tok = json_tokener_new_ex(EMU_TDFG_JSON_MAX_DEPTH);
	if (!tok) {
		jerr(c, "$", "out of memory");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	json_object *root = json_tokener_parse_ex(tok, text, (int)len);
	const enum json_tokener_error e = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (e == json_tokener_success) {
		while (end < len && strchr(" \t\r\n", text[end]))
			end++;
		if (end == len && !wide_integer(c, text, len))
			return root;
		if (end == len) {
			json_object_put(root);
			return NULL;
		}
		snprintf(what, sizeof what, "unexpected text after the JSON value");
	} else if (e == json_tokener_continue) {
		end = len;
		snprintf(what, sizeof what, "the JSON text ends inside a value (the file may be "
			 "truncated)");
	} else if (e == json_tokener_error_depth) {
		snprintf(what, sizeof what, "JSON nested deeper than %d levels; the schema needs 6",
			 EMU_TDFG_JSON_MAX_DEPTH);
	} else {
		snprintf(what, sizeof what, "invalid JSON: %s", json_tokener_error_desc(e));
	}
	json_object_put(root);
	syntax_error(c, text, len, end, what);
	return NULL;
}

static int read_graph(jctx *c, json_object *root)
{
	static const char *const keys[] = {"nodes", "edges", NULL};
	json_object *nodes, *edges;
	if (want_object(c, root, "$") || known_fields(c, root, "$", keys, "nodes or edges") ||
	    field(c, root, "$", "nodes", true, &nodes) || field(c, root, "$", "edges", false, &edges))
		return -1;
	return read_nodes(c, nodes) || read_edges(c, edges) || check_arity(c) || topo_order(c) ||
	       lattice(c) || boxes(c) || check_rules(c) ? -1 : 0;
}

int emu_tdfg_json_parse(const char *path, const char *text, size_t len,
			const char *type, const sram_geom *geom_default,
			const emu_geom_override *ov, emu_tdfg *out, diag *d)
{
	jctx c;
	const char *why;
	memset(&c, 0, sizeof c);
	emu_tdfg_init(out);
	c.path = path ? path : "<input>";
	c.d = d;
	c.t = out;
	if (geom_default)
		out->geom = *geom_default;
	emu_geom_override_apply(ov, &out->geom);
	if (emu_tdfg_json_type(type, &c.fmt, &c.width, &c.sg, &why)) {
		diag_file(d, c.path, "element type '%s': %s", type ? type : "", why);
		return -1;
	}
	if (!(out->path = strdup(c.path)) || !(out->text = malloc(len ? len : 1))) {
		diag_file(d, c.path, "out of memory");
		return -1;
	}
	memcpy(out->text, text, len);
	out->len = len;
	json_object *root = tokenize(&c, text, len);
	int rc = !root || read_graph(&c, root) || map_nodes(&c) || make_region(&c) ? -1 : 0;
	json_object_put(root);
	free(c.n);
	free(c.order);
	return rc;
}

int emu_tdfg_json_parse_file(const char *path, const char *type,
			     const sram_geom *geom_default, const emu_geom_override *ov,
			     emu_tdfg *t, diag *d)
{
	char *text;
	size_t len;
	emu_tdfg_init(t);
	if (text_read_file(path, EMU_TDFG_JSON_MAX_BYTES, &text, &len, d))
		return -1;
	const int rc = emu_tdfg_json_parse(path, text, len, type, geom_default, ov, t, d);
	free(text);
	return rc;
}

int emu_tdfg_json_load(const char *path, const char *type, const emu_geom_override *ov,
		       emu_tdfg *t, emu_jit *j, diag *d)
{
	const sram_geom def = sram_geom_default();
	memset(j, 0, sizeof *j);
	emu_program_init(&j->prog);
	return emu_tdfg_json_parse_file(path, type, &def, ov, t, d) ? -1 : emu_jit_lower(t, j, d);
}
