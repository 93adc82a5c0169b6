/* SPDX-License-Identifier: MIT */
/*
 * expr.c: integer expressions of .vima programs (array sizes, constants,
 * loop bounds, vector addresses), evaluated from their postfix code with
 * every overflow and division by zero caught.
 */
#include "vima_int.h"

#define STACK_MAX 64

static int apply(int kind, int64_t x, int64_t y, int64_t *out, const char **why)
{
	bool ovf = false;
	switch (kind) {
	case VIMA_C_ADD: ovf = __builtin_add_overflow(x, y, out); break;
	case VIMA_C_SUB: ovf = __builtin_sub_overflow(x, y, out); break;
	case VIMA_C_MUL: ovf = __builtin_mul_overflow(x, y, out); break;
	default:
		if (y == 0) {
			*why = "division by zero";
			return -1;
		}
		if (x == INT64_MIN && y == -1) {
			ovf = true;
			break;
		}
		*out = kind == VIMA_C_DIV ? x / y : x % y;
	}
	if (ovf)
		*why = "the value overflows 64 bits";
	return ovf ? -1 : 0;
}

int vima_eval(const vima_program *p, vima_code c, const int64_t *vars,
	      int64_t *out, const char **why)
{
	int64_t st[STACK_MAX];
	int n = 0;
	for (uint32_t i = 0; i < c.len; i++) {
		const vima_cop *op = &p->code[c.start + i];
		if (op->kind == VIMA_C_NUM || op->kind == VIMA_C_VAR) {
			if (n == STACK_MAX) {
				*why = "the expression is too deep";
				return -1;
			}
			st[n++] = op->kind == VIMA_C_NUM ? op->v : vars[op->v];
		} else if (op->kind == VIMA_C_NEG) {
			if (st[n - 1] == INT64_MIN) {
				*why = "the value overflows 64 bits";
				return -1;
			}
			st[n - 1] = -st[n - 1];
		} else {
			if (apply(op->kind, st[n - 2], st[n - 1], &st[n - 2], why) < 0)
				return -1;
			n--;
		}
	}
	*out = st[0];
	return 0;
}
