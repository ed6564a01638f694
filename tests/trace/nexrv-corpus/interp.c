// SPDX-License-Identifier: BSD-2-Clause
/*
 * A small stack-machine interpreter (switch dispatch: an indirect jump per
 * bytecode) running a program that counts primes below 700 by trial
 * division and sums a Collatz sequence.
 */
#include "lib.h"

enum op { PUSH, LOAD, STORE, ADD, SUB, MUL, MOD, LT, JZ, JMP, DUP, DROP, HALT, INC, DIV, NEZ, AND1 };

struct insn {
	uint8_t op;
	int32_t arg;
};

static int64_t run(const struct insn *code, int64_t *vars)
{
	int64_t stack[64];
	int sp = 0, pc = 0;

	for (;;) {
		const struct insn *in = &code[pc++];

		switch (in->op) {
		case PUSH:  stack[sp++] = in->arg; break;
		case LOAD:  stack[sp++] = vars[in->arg]; break;
		case STORE: vars[in->arg] = stack[--sp]; break;
		case ADD:   sp--; stack[sp - 1] += stack[sp]; break;
		case SUB:   sp--; stack[sp - 1] -= stack[sp]; break;
		case MUL:   sp--; stack[sp - 1] *= stack[sp]; break;
		case DIV:   sp--; stack[sp - 1] /= stack[sp]; break;
		case MOD:   sp--; stack[sp - 1] %= stack[sp]; break;
		case LT:    sp--; stack[sp - 1] = stack[sp - 1] < stack[sp]; break;
		case NEZ:   stack[sp - 1] = stack[sp - 1] != 0; break;
		case AND1:  stack[sp - 1] &= 1; break;
		case JZ:    if (!stack[--sp]) pc = in->arg; break;
		case JMP:   pc = in->arg; break;
		case DUP:   stack[sp] = stack[sp - 1]; sp++; break;
		case DROP:  sp--; break;
		case INC:   vars[in->arg]++; break;
		case HALT:  return sp ? stack[sp - 1] : 0;
		}
	}
}

/* vars: 0 n, 1 d, 2 count, 3 is_prime, 4 x, 5 steps */
static const struct insn primes[] = {
	/* 0 */ { PUSH, 2 }, { STORE, 0 }, { PUSH, 0 }, { STORE, 2 },
	/* 4: while n < 700 */ { LOAD, 0 }, { PUSH, 700 }, { LT, 0 }, { JZ, 34 },
	/* 8 */ { PUSH, 1 }, { STORE, 3 }, { PUSH, 2 }, { STORE, 1 },
	/* 12: while !(n < d * d) */ { LOAD, 0 }, { LOAD, 1 }, { LOAD, 1 }, { MUL, 0 },
	/* 16 */ { LT, 0 }, { JZ, 19 }, { JMP, 28 },
	/* 19: n % d == 0: not prime */ { LOAD, 0 }, { LOAD, 1 }, { MOD, 0 }, { JZ, 26 },
	/* 23 */ { INC, 1 }, { JMP, 12 }, { HALT, 0 },
	/* 26 */ { PUSH, 0 }, { STORE, 3 },
	/* 28: count += is_prime */ { LOAD, 2 }, { LOAD, 3 }, { ADD, 0 }, { STORE, 2 },
	/* 32 */ { INC, 0 }, { JMP, 4 },
	/* 34 */ { LOAD, 2 }, { HALT, 0 },
};

static const struct insn collatz[] = {
	/* 0: x != 1 */ { LOAD, 4 }, { PUSH, 1 }, { SUB, 0 }, { NEZ, 0 }, { JZ, 22 },
	/* 5: even? */ { LOAD, 4 }, { AND1, 0 }, { JZ, 16 },
	/* 8: x = 3x + 1 */ { LOAD, 4 }, { PUSH, 3 }, { MUL, 0 }, { PUSH, 1 }, { ADD, 0 },
	/* 13 */ { STORE, 4 }, { INC, 5 }, { JMP, 0 },
	/* 16: x /= 2 */ { LOAD, 4 }, { PUSH, 2 }, { DIV, 0 }, { STORE, 4 }, { INC, 5 },
	/* 21 */ { JMP, 0 },
	/* 22 */ { LOAD, 5 }, { HALT, 0 },
};

int main(void)
{
	int64_t vars[8] = { 0 };
	uint64_t steps = 0;

	report("interp primes", (uint64_t)run(primes, vars));
	for (int64_t x0 = 27; x0 < 60; x0++) {
		vars[4] = x0;
		vars[5] = 0;
		steps += (uint64_t)run(collatz, vars);
	}
	report("interp collatz steps", steps);
	return 0;
}
