/* SPDX-License-Identifier: MIT */
/*
 * insn.c: an opcode word such as "setp.ltu.and.f32" or
 * "ld.global.nc.v2.f32" into an instruction's op, types and modifiers
 * (doc/PTX.md, "Instructions").  Each suffix is checked against what its
 * op takes, so a word is either decoded whole or refused whole, named.
 */
#include <string.h>

#include "ptx_int.h"

static const char *const op_names[] = {
#define PTX_OP(name, text) text,
#include "ops.def"
#undef PTX_OP
};

const char *ptx_op_name(unsigned op)
{
	return op < PO_COUNT ? op_names[op] : "?";
}

typedef struct word {
	const char *s;
	size_t n;
} word;

static bool is(word w, const char *lit)
{
	size_t n = strlen(lit);
	return w.n == n && memcmp(w.s, lit, n) == 0;
}

static int find(word w, const char *const *names, int count)
{
	for (int i = 0; i < count; i++)
		if (names[i] && is(w, names[i]))
			return i;
	return -1;
}

static const char *const type_names[] = {
	NULL, "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64",
	"s8", "s16", "s32", "s64", "f16", "f32", "f64", "pred", "f16x2"
};
static const char *const cmp_names[] = {
	"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
	"equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"
};
static const char *const rnd_names[] = {
	NULL, "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"
};
static const char *const atom_names[] = {
	"add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec"
};
static const char *const mode_names[] = {
	"up", "down", "bfly", "idx", "all", "any", "uni", "ballot",
	"lo", "hi", "wide", "l", "r",
	"finite", "infinite", "number", "notanumber", "normal", "subnormal"
};
static const char *const space_names[] = {
	NULL, "global", "shared", "local", "param", "const"
};
/* Suffixes that say something about caching, ordering or scope, which a
 * one-thread-at-a-time reference with no caches does not need. */
static const char *const ignored_mem[] = {
	"ca", "cg", "cs", "lu", "cv", "nc", "wb", "wt", "weak", "volatile",
	"relaxed", "acquire", "release", "cta", "gpu", "sys"
};

unsigned ptx_type_bits(unsigned t)
{
	static const uint8_t bits[] = {0, 8, 16, 32, 64, 8, 16, 32, 64, 8, 16, 32, 64, 16, 32, 64, 1, 32};
	return t < sizeof bits ? bits[t] : 0;
}

bool ptx_type_signed(unsigned t)
{
	return t >= PT_S8 && t <= PT_S64;
}

bool ptx_type_float(unsigned t)
{
	return t == PT_F16 || t == PT_F32 || t == PT_F64;
}

static bool int_type(unsigned t)
{
	return t >= PT_B8 && t <= PT_S64;
}

static int refuse(ptx_lex *x, const ptx_tok_t *t)
{
	return ptx_err(x, t->line, t->col, "'%.*s' is not in infsim's PTX subset (doc/PTX.md)",
		       (int)(t->len > 80 ? 80 : t->len), t->s);
}

/* Which suffix kinds each op takes. */
enum { K_TYPE = 1, K_RND = 2, K_CMP = 4, K_SPACE = 8, K_FTZ = 16, K_SAT = 32,
       K_APPROX = 64, K_VEC = 128, K_HALF = 256, K_BOOL = 512, K_ATOM = 1024,
       K_MODE = 2048, K_MEMIGN = 4096, K_SYNC = 8192, K_TO = 16384, K_UNI = 32768,
       K_FULL = 65536, K_TWOTYPES = 131072, K_SHF = 262144, K_TESTP = 524288,
       K_SCOPE = 1048576 };

static unsigned kinds_of(unsigned op)
{
	switch (op) {
	case PO_ADD: case PO_SUB: case PO_MUL:
		return K_TYPE | K_RND | K_FTZ | K_SAT | K_HALF;
	case PO_MAD:
		return K_TYPE | K_RND | K_FTZ | K_SAT | K_HALF;
	case PO_FMA:
		return K_TYPE | K_RND | K_FTZ | K_SAT;
	case PO_DIV:
		return K_TYPE | K_RND | K_FTZ | K_APPROX | K_FULL;
	case PO_RCP: case PO_SQRT:
		return K_TYPE | K_RND | K_FTZ | K_APPROX;
	case PO_RSQRT: case PO_SIN: case PO_COS: case PO_EX2: case PO_LG2:
		return K_TYPE | K_FTZ | K_APPROX;
	case PO_ABS: case PO_NEG: case PO_MIN: case PO_MAX:
		return K_TYPE | K_FTZ;
	case PO_SETP:
		return K_TYPE | K_CMP | K_BOOL | K_FTZ;
	case PO_CVT:
		return K_TYPE | K_TWOTYPES | K_RND | K_FTZ | K_SAT;
	case PO_CVTA:
		return K_TYPE | K_SPACE | K_TO;
	case PO_LD: case PO_LDU: case PO_ST:
		return K_TYPE | K_SPACE | K_VEC | K_MEMIGN;
	case PO_ATOM: case PO_RED:
		return K_TYPE | K_SPACE | K_ATOM | K_MEMIGN;
	case PO_BAR: case PO_BARRIER:
		return K_SYNC;
	case PO_MEMBAR: case PO_FENCE:
		return K_SCOPE;
	case PO_SHFL: case PO_VOTE:
		return K_TYPE | K_MODE | K_SYNC;
	case PO_BRA: case PO_CALL:
		return K_UNI;
	case PO_RET: case PO_EXIT:
		return 0;
	case PO_SHF:
		return K_TYPE | K_SHF;
	case PO_TESTP:
		return K_TYPE | K_TESTP;
	default:
		return K_TYPE;
	}
}

/* f16 and f16x2 arithmetic (sm_53 on): add sub mul and fma with .rn
 * (fma must say it) .ftz .sat; neg abs min max with .ftz; setp.f16
 * (not .f16x2); moves, loads and stores take the types as bits. */
static bool half_op(unsigned op, const ptx_ins *in)
{
	bool rn = in->mod == PR_NONE || in->mod == PR_RN;
	switch (op) {
	case PO_ADD: case PO_SUB: case PO_MUL:
		return rn;
	case PO_FMA:
		return in->mod == PR_RN;
	case PO_NEG: case PO_ABS: case PO_MIN: case PO_MAX:
		return !(in->flags & PF_SAT);
	case PO_SETP:
		return in->type == PT_F16;
	case PO_MOV: case PO_LD: case PO_LDU: case PO_ST: case PO_CVT: case PO_SELP:
		return true; /* checked below as for any type */
	default:
		return false;
	}
}

int ptx_decode_opcode(ptx_lex *x, const ptx_tok_t *t, ptx_ins *in)
{
	word parts[12];
	size_t np = 0, start = 0;
	for (size_t i = 0; i <= t->len; i++) {
		if (i == t->len || t->s[i] == '.') {
			if (np == 12 || i == start)
				return refuse(x, t);
			parts[np++] = (word){t->s + start, i - start};
			start = i + 1;
		}
	}
	int op = find(parts[0], op_names, PO_COUNT);
	if (op < 0)
		return refuse(x, t);
	in->op = (uint16_t)op;
	in->vec = 1;
	unsigned k = kinds_of((unsigned)op), ntypes = 0;
	bool have_mode = false, have_cmp = false, have_atom = false, sync = false;
	for (size_t p = 1; p < np; p++) {
		word w = parts[p];
		int v;
		if ((k & K_TYPE) && (v = find(w, type_names, 18)) > 0) {
			if (ntypes == 0)
				in->type = (uint8_t)v;
			else if (ntypes == 1 && (k & K_TWOTYPES))
				in->stype = (uint8_t)v;
			else if (op == PO_VOTE && ntypes == 0)
				in->type = (uint8_t)v;
			else
				return refuse(x, t);
			ntypes++;
		} else if ((k & K_CMP) && !have_cmp && (v = find(w, cmp_names, 18)) >= 0) {
			in->mod = (uint8_t)v;
			have_cmp = true;
		} else if ((k & K_BOOL) && have_cmp && !in->boolop && (is(w, "and") || is(w, "or") || is(w, "xor"))) {
			in->boolop = is(w, "and") ? PB_AND : is(w, "or") ? PB_OR : PB_XOR;
		} else if ((k & K_RND) && !in->mod && (v = find(w, rnd_names, 9)) > 0) {
			in->mod = (uint8_t)v;
		} else if ((k & K_HALF) && !in->mod && (is(w, "lo") || is(w, "hi") || is(w, "wide"))) {
			in->mod = is(w, "lo") ? PM_LO : is(w, "hi") ? PM_HI : PM_WIDE;
			have_mode = true;
		} else if ((k & K_SPACE) && !in->space && (v = find(w, space_names, 6)) > 0) {
			in->space = (uint8_t)v;
		} else if ((k & K_FTZ) && is(w, "ftz")) {
			in->flags |= PF_FTZ;
		} else if ((k & K_SAT) && is(w, "sat")) {
			in->flags |= PF_SAT;
		} else if ((k & K_APPROX) && is(w, "approx")) {
			in->flags |= PF_APPROX;
		} else if ((k & K_FULL) && is(w, "full")) {
			in->flags |= PF_FULL;
		} else if ((k & K_VEC) && in->vec == 1 && (is(w, "v2") || is(w, "v4"))) {
			in->vec = is(w, "v2") ? 2 : 4;
		} else if ((k & K_ATOM) && !have_atom && (v = find(w, atom_names, 10)) >= 0) {
			in->mod = (uint8_t)v;
			have_atom = true;
		} else if ((k & K_MODE) && !have_mode && (v = find(w, mode_names, 8)) >= 0 &&
			   (op == PO_SHFL ? v <= PM_IDX : v >= PM_ALL)) {
			in->mod = (uint8_t)v;
			have_mode = true;
		} else if ((k & K_TESTP) && !have_mode && (v = find(w, mode_names, 19)) >= PM_FINITE) {
			in->mod = (uint8_t)v;
			have_mode = true;
		} else if ((k & K_SHF) && (is(w, "l") || is(w, "r")) && !have_mode) {
			in->mod = is(w, "l") ? PM_L : PM_R;
			have_mode = true;
		} else if ((k & K_SHF) && (is(w, "wrap") || is(w, "clamp"))) {
			if (is(w, "wrap"))
				in->flags |= PF_WRAP;
		} else if ((k & K_MEMIGN) && find(w, ignored_mem, 16) >= 0) {
			/* no cache and no reordering in the reference */
		} else if ((k & K_SCOPE) && (is(w, "cta") || is(w, "gl") || is(w, "sys") || is(w, "gpu") ||
					     is(w, "sc") || is(w, "acq_rel"))) {
		} else if ((k & K_SYNC) && (is(w, "sync") || is(w, "aligned"))) {
			sync = sync || is(w, "sync");
		} else if ((k & K_TO) && is(w, "to") && p == 1) {
			in->stype = 1; /* cvta.to: to the space (else from it) */
		} else if ((k & K_UNI) && is(w, "uni")) {
		} else {
			return refuse(x, t);
		}
	}
	/* what each op needs */
	unsigned ty = in->type;
	bool ok = true;
	switch (op) {
	case PO_BAR: case PO_BARRIER:
		ok = sync || (op == PO_BAR && np == 1);
		break;
	case PO_SHFL:
		ok = sync && have_mode && ty == PT_B32;
		break;
	case PO_VOTE:
		ok = sync && have_mode && (in->mod == PM_BALLOT ? ty == PT_B32 : ty == PT_PRED);
		break;
	case PO_BRA: case PO_RET: case PO_EXIT: case PO_CALL: case PO_MEMBAR: case PO_FENCE:
		ok = ntypes == 0;
		break;
	case PO_CVT:
		ok = ntypes == 2 && ty != PT_PRED && in->stype != PT_PRED;
		break;
	case PO_CVTA:
		ok = (ty == PT_U32 || ty == PT_U64) && in->space && in->space != PS_PARAM;
		break;
	case PO_LD: case PO_LDU: case PO_ST:
		ok = ntypes == 1 && ty != PT_PRED && in->space != PS_PARAM + 10;
		break;
	case PO_ATOM: case PO_RED:
		ok = ntypes == 1 && have_atom && (in->space == PS_GENERIC || in->space == PS_GLOBAL ||
						  in->space == PS_SHARED) && ty != PT_PRED && ty != PT_F16;
		break;
	case PO_SETP:
		ok = ntypes == 1 && have_cmp && ty != PT_PRED && ty != PT_F16X2;
		break;
	case PO_TESTP:
		ok = have_mode && (ty == PT_F32 || ty == PT_F64);
		break;
	case PO_SHF:
		ok = have_mode && ty == PT_B32;
		break;
	default:
		ok = ntypes == 1;
		break;
	}
	if (!ok)
		return refuse(x, t);
	/* the types each op computes on; f16 and f16x2: add sub mul fma neg
	 * abs min max (half_op) and setp.f16 */
	bool fl = ptx_type_float(ty);
	if (ty == PT_F16 || ty == PT_F16X2) {
		if (!half_op(op, in))
			return refuse(x, t);
		if (op != PO_SETP && op != PO_MOV && op != PO_LD && op != PO_LDU && op != PO_ST &&
		    op != PO_CVT && op != PO_SELP)
			return 0;
	}
	if (ty == PT_F16X2 && (op == PO_CVT || op == PO_SELP))
		return refuse(x, t);
	switch (op) {
	case PO_ADD: case PO_SUB: case PO_MUL: case PO_MAD:
		if (fl)
			ok = ty != PT_F16 && !have_mode && (op != PO_MAD || in->mod != PR_NONE || ty == PT_F32) &&
			     in->mod <= PR_RP && (ty == PT_F32 || !(in->flags & (PF_FTZ | PF_SAT)));
		else if (op == PO_ADD || op == PO_SUB)
			ok = ty > PT_B64 && ptx_type_bits(ty) >= 16 && in->mod == PR_NONE && !(in->flags & PF_FTZ) &&
			     (!(in->flags & PF_SAT) || ty == PT_S32);
		else
			ok = ty > PT_B64 && int_type(ty) && ptx_type_bits(ty) >= 16 && have_mode && !(in->flags & PF_FTZ) &&
			     (!(in->flags & PF_SAT) || (op == PO_MAD && ty == PT_S32 && in->mod == PM_HI)) &&
			     (in->mod != PM_WIDE || ptx_type_bits(ty) <= 32);
		break;
	case PO_FMA:
		ok = (ty == PT_F32 || ty == PT_F64) && in->mod >= PR_RN && in->mod <= PR_RP &&
		     (ty == PT_F32 || !(in->flags & (PF_FTZ | PF_SAT)));
		break;
	case PO_DIV:
		if (fl)
			ok = ty != PT_F16 && ((in->flags & (PF_APPROX | PF_FULL)) ? in->mod == PR_NONE && ty == PT_F32
					       : in->mod >= PR_RN && in->mod <= PR_RP);
		else
			ok = int_type(ty) && ptx_type_bits(ty) >= 16 && !in->flags && !in->mod && ty > PT_B64;
		break;
	case PO_REM: case PO_SAD:
		ok = ty > PT_B64 && int_type(ty) && ptx_type_bits(ty) >= 16;
		break;
	case PO_RCP: case PO_SQRT:
		ok = (ty == PT_F32 || ty == PT_F64) &&
		     ((in->flags & PF_APPROX) ? in->mod == PR_NONE : in->mod >= PR_RN && in->mod <= PR_RP);
		break;
	case PO_RSQRT: case PO_SIN: case PO_COS: case PO_EX2: case PO_LG2:
		ok = (in->flags & PF_APPROX) && ty == PT_F32;
		break;
	case PO_ABS: case PO_NEG: case PO_MIN: case PO_MAX:
		ok = fl ? ty != PT_F16 && (ty == PT_F32 || !(in->flags & PF_FTZ))
			: ty > PT_B64 && ptx_type_bits(ty) >= 16 && !(in->flags & PF_FTZ) &&
			  ((op != PO_ABS && op != PO_NEG) || ptx_type_signed(ty));
		break;
	case PO_AND: case PO_OR: case PO_XOR: case PO_NOT: case PO_CNOT:
		ok = (ty >= PT_B16 && ty <= PT_B64) || (ty == PT_PRED && op != PO_CNOT);
		break;
	case PO_SHL:
		ok = ty >= PT_B16 && ty <= PT_B64;
		break;
	case PO_SHR:
		ok = int_type(ty) && ptx_type_bits(ty) >= 16;
		break;
	case PO_POPC: case PO_CLZ: case PO_BREV:
		ok = ty == PT_B32 || ty == PT_B64;
		break;
	case PO_BFE:
		ok = ty == PT_U32 || ty == PT_U64 || ty == PT_S32 || ty == PT_S64;
		break;
	case PO_BFI:
		ok = ty == PT_B32 || ty == PT_B64;
		break;
	case PO_PRMT:
		ok = ty == PT_B32;
		break;
	case PO_SELP:
		ok = ty != PT_PRED && ty != PT_B8 && ty != PT_U8 && ty != PT_S8 && ty != PT_F16;
		break;
	case PO_MOV:
		ok = ty != PT_B8 && ty != PT_U8 && ty != PT_S8;
		break;
	case PO_CVT: {
		unsigned st = in->stype;
		bool dfl = fl, sfl = ptx_type_float(st);
		if (dfl && sfl) {
			if (ty == st)
				ok = (in->mod == PR_NONE || in->mod >= PR_RNI) && ty != PT_F16;
			else if (ptx_type_bits(ty) < ptx_type_bits(st))
				ok = ty == PT_F16 ? in->mod == PR_RN : in->mod >= PR_RN && in->mod <= PR_RP;
			else
				ok = in->mod == PR_NONE;
		} else if (dfl) {
			ok = ty != PT_F16 && in->mod >= PR_RN && in->mod <= PR_RP;
		} else if (sfl) {
			ok = st != PT_F16 && in->mod >= PR_RNI && !(in->flags & PF_SAT);
		} else {
			ok = in->mod == PR_NONE && !(in->flags & PF_FTZ);
		}
		if (in->flags & PF_FTZ)
			ok = ok && (ty == PT_F32 || st == PT_F32);
		break;
	}
	case PO_ATOM: case PO_RED: {
		unsigned a = in->mod;
		if (a == PA_ADD)
			ok = ty == PT_U32 || ty == PT_S32 || ty == PT_U64 || ty == PT_F32 || ty == PT_F64;
		else if (a == PA_MIN || a == PA_MAX)
			ok = ty == PT_U32 || ty == PT_S32 || ty == PT_U64 || ty == PT_S64;
		else if (a == PA_INC || a == PA_DEC)
			ok = ty == PT_U32;
		else
			ok = ty == PT_B32 || ty == PT_B64;
		if (op == PO_RED && (a == PA_EXCH || a == PA_CAS))
			ok = false;
		break;
	}
	case PO_LD: case PO_LDU: case PO_ST:
		ok = op != PO_LDU || in->space == PS_GLOBAL;
		if (in->vec > 1 && ptx_type_bits(ty) * in->vec > 128)
			ok = false;
		break;
	case PO_SETP:
		ok = fl ? true : (in->mod <= PC_HS && !(in->flags & PF_FTZ) &&
				  (ty > PT_B64 || in->mod <= PC_NE) && ptx_type_bits(ty) >= 16);
		if (fl && ((in->mod >= PC_LO && in->mod <= PC_HS)))
			ok = false;
		break;
	default:
		break;
	}
	if (!ok)
		return refuse(x, t);
	return 0;
}
