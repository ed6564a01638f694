// SPDX-License-Identifier: BSD-2-Clause
/*
 * RV32GC/RV64GC instruction length and control-transfer classification for
 * N-Trace (spec chapter 2's itype table, 4-bit values).  Compressed
 * instructions included.  "link" means x1 or x5.
 */
#include <tally/ntrace.h>

static bool is_link(unsigned r)
{
	return r == 1 || r == 5;
}

static int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ull << (bits - 1);

	return (int64_t)((v ^ m) - m);
}

static uint64_t wrap(uint64_t a, unsigned xlen)
{
	return xlen == 32 ? (uint32_t)a : a;
}

unsigned ntrace_isa_len(uint16_t low)
{
	if ((low & 3) != 3)
		return 2;
	if ((low & 0x1c) != 0x1c)
		return 4;
	return 0;	/* 48-bit and longer: not in RV32GC/RV64GC */
}

bool ntrace_itype_is_call(unsigned itype)
{
	return itype == NTRACE_ITYPE_INDIRECT_CALL || itype == NTRACE_ITYPE_DIRECT_CALL;
}

/* itype of a taken JALR rd, rs1 (spec chapter 2, 4-bit values) */
static uint8_t jalr_itype(unsigned rd, unsigned rs1)
{
	if (is_link(rd)) {
		if (is_link(rs1) && rd != rs1)
			return NTRACE_ITYPE_COROUTINE_SWAP;
		return NTRACE_ITYPE_INDIRECT_CALL;
	}
	if (is_link(rs1))
		return NTRACE_ITYPE_RETURN;
	if (rd == 0)
		return NTRACE_ITYPE_INDIRECT_JUMP_NL;
	return NTRACE_ITYPE_INDIRECT_JUMP_L;
}

static uint8_t jal_itype(unsigned rd)
{
	if (is_link(rd))
		return NTRACE_ITYPE_DIRECT_CALL;
	return rd == 0 ? NTRACE_ITYPE_DIRECT_JUMP_NL : NTRACE_ITYPE_DIRECT_JUMP_L;
}

static void decode32(uint32_t insn, uint64_t pc, unsigned xlen, struct ntrace_insn *o)
{
	unsigned opcode = insn & 0x7f, rd = (insn >> 7) & 31, rs1 = (insn >> 15) & 31;
	unsigned funct3 = (insn >> 12) & 7;
	uint64_t imm;

	o->rd = (uint8_t)rd;
	o->rs1 = (uint8_t)rs1;
	switch (opcode) {
	case 0x63:	/* BRANCH */
		if (funct3 == 2 || funct3 == 3)
			return;
		imm = ((insn >> 31) & 1) << 12 | ((insn >> 25) & 0x3f) << 5 |
		      ((insn >> 8) & 0xf) << 1 | ((insn >> 7) & 1) << 11;
		o->kind = NTRACE_K_BRANCH;
		o->itype = NTRACE_ITYPE_BRANCH_TAKEN;
		o->target = wrap(pc + (uint64_t)sext(imm, 13), xlen);
		return;
	case 0x6f:	/* JAL */
		imm = ((insn >> 31) & 1) << 20 | ((insn >> 21) & 0x3ff) << 1 |
		      ((insn >> 20) & 1) << 11 | ((insn >> 12) & 0xff) << 12;
		o->kind = NTRACE_K_JUMP;
		o->itype = jal_itype(rd);
		o->target = wrap(pc + (uint64_t)sext(imm, 21), xlen);
		return;
	case 0x67:	/* JALR */
		if (funct3 != 0)
			return;
		o->kind = NTRACE_K_INDIRECT;
		o->itype = jalr_itype(rd, rs1);
		o->imm = (int32_t)sext(insn >> 20, 12);
		return;
	case 0x37:	/* LUI: a constant for a sequential jump */
	case 0x17:	/* AUIPC */
		if (rd == 0)
			return;
		o->const_load = true;
		o->target = (uint64_t)sext(insn & 0xfffff000u, 32);
		if (opcode == 0x17)
			o->target += pc;
		o->target = wrap(o->target, xlen);
		return;
	case 0x73:	/* SYSTEM */
		if (insn == 0x00000073 || insn == 0x00100073) {		/* ECALL, EBREAK */
			o->kind = NTRACE_K_TRAP;
			o->itype = NTRACE_ITYPE_EXCEPTION;
		} else if (insn == 0x30200073 || insn == 0x10200073 ||	/* MRET, SRET */
			   insn == 0x70200073 || insn == 0x7b200073) {	/* MNRET, DRET */
			o->kind = NTRACE_K_TRAP_RETURN;
			o->itype = NTRACE_ITYPE_TRAP_RETURN;
		}
		return;
	}
}

static void decode16(uint16_t c, uint64_t pc, unsigned xlen, struct ntrace_insn *o)
{
	unsigned q = c & 3, funct3 = c >> 13;
	unsigned r1 = (c >> 7) & 31, r2 = (c >> 2) & 31;
	uint64_t imm;

	if (q == 1 && (funct3 == 5 || (funct3 == 1 && xlen == 32))) {	/* C.J, C.JAL */
		imm = ((c >> 12) & 1) << 11 | ((c >> 11) & 1) << 4 | ((c >> 9) & 3) << 8 |
		      ((c >> 8) & 1) << 10 | ((c >> 7) & 1) << 6 | ((c >> 6) & 1) << 7 |
		      ((c >> 3) & 7) << 1 | ((c >> 2) & 1) << 5;
		o->kind = NTRACE_K_JUMP;
		o->rd = funct3 == 1 ? 1 : 0;
		o->itype = jal_itype(o->rd);
		o->target = wrap(pc + (uint64_t)sext(imm, 12), xlen);
	} else if (q == 1 && (funct3 == 6 || funct3 == 7)) {		/* C.BEQZ, C.BNEZ */
		imm = ((c >> 12) & 1) << 8 | ((c >> 10) & 3) << 3 | ((c >> 5) & 3) << 6 |
		      ((c >> 3) & 3) << 1 | ((c >> 2) & 1) << 5;
		o->kind = NTRACE_K_BRANCH;
		o->itype = NTRACE_ITYPE_BRANCH_TAKEN;
		o->rs1 = (uint8_t)(8 + ((c >> 7) & 7));
		o->target = wrap(pc + (uint64_t)sext(imm, 9), xlen);
	} else if (q == 1 && funct3 == 3 && r1 != 0 && r1 != 2 &&
		   (((c >> 12) & 1) || r2)) {				/* C.LUI */
		imm = ((c >> 12) & 1) << 17 | (uint64_t)r2 << 12;
		o->const_load = true;
		o->rd = (uint8_t)r1;
		o->target = wrap((uint64_t)sext(imm, 18), xlen);
	} else if (q == 2 && funct3 == 4 && r2 == 0) {
		if (!((c >> 12) & 1)) {
			if (r1 == 0)
				return;					/* reserved */
			o->kind = NTRACE_K_INDIRECT;			/* C.JR */
			o->rs1 = (uint8_t)r1;
			o->itype = jalr_itype(0, r1);
		} else if (r1 == 0) {
			o->kind = NTRACE_K_TRAP;			/* C.EBREAK */
			o->itype = NTRACE_ITYPE_EXCEPTION;
		} else {
			o->kind = NTRACE_K_INDIRECT;			/* C.JALR */
			o->rd = 1;
			o->rs1 = (uint8_t)r1;
			o->itype = jalr_itype(1, r1);
		}
	}
}

uint64_t ntrace_seq_jump_target(uint64_t value, int32_t imm, unsigned xlen)
{
	return wrap((value + (uint64_t)(int64_t)imm) & ~1ull, xlen);
}

void ntrace_isa_decode(uint32_t insn, uint64_t pc, unsigned xlen, struct ntrace_insn *out)
{
	*out = (struct ntrace_insn){ 0 };
	out->len = (uint8_t)ntrace_isa_len((uint16_t)insn);
	if (!out->len)
		return;
	out->kind = NTRACE_K_PLAIN;
	out->itype = NTRACE_ITYPE_NONE;
	if (out->len == 4)
		decode32(insn, pc, xlen, out);
	else
		decode16((uint16_t)insn, pc, xlen, out);
}
