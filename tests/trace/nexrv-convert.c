// SPDX-License-Identifier: BSD-2-Clause
/*
 * The NexRv cross-check's converter (tests/trace/nexrv-xcheck.sh): an
 * executed sequence recorded by tally-trace (one hex address a line, and the
 * T.ntr.code word log, "index address halfword") becomes what the reference
 * encoder and decoder of the N-Trace task group (NexRv) take:
 *
 *   PCSEQ   "0x<addr>,<type><size>" per executed instruction: L linear,
 *           B/BN taken/not-taken branch, J/C direct jump/call, JI/CI
 *           indirect jump/call, R return (the encoder's input);
 *   PCINFO  the same per distinct address, with the direct target (the
 *           decoder's code description: one classification per address).
 *
 * The reference models no trap: an instruction the next address shows was
 * followed by a trap (or that never retires: ECALL, EBREAK), and a trap
 * return, are given as indirect jumps (JI; a direct call followed by a trap
 * stays a call, CI), so that both encoders see the same ingress sequence and
 * every executed instruction is in an I-CNT.
 *
 *   nexrv-convert [--from ADDR] [--max N] [--until-change] ADDRS CODE DIR
 *
 * writes DIR/pcseq, DIR/pcinfo, and the same slice of the run for Tally:
 * DIR/addr (tally-trace decode's format) and DIR/code (the word log, its
 * indexes counted from the slice's first instruction).  --from: the slice
 * starts at ADDR's first execution; --max: N instructions; --until-change:
 * the slice ends before an address runs other code than it ran before
 * (another process, patched text), as PCINFO cannot say that, or before an
 * address NexRv's decoder cannot reconstruct (nexrv_reaches).
 * (The cache of recordings is keyed by this file: what it writes.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tally/ntrace.h>

static void die(const char *what)
{
	fprintf(stderr, "nexrv-convert: %s\n", what);
	exit(2);
}

/* ---- the code: halfwords by address, changed in execution order (the
 * same map keeps each address's PCINFO entry) ------------------------------ */

struct code_map {
	uint64_t *keys;		/* halfword address + 1, 0 = empty */
	uint32_t *vals;
	size_t cap, n;
};

static size_t slot(const struct code_map *m, uint64_t addr)
{
	size_t i = (size_t)((addr >> 1) * 0x9e3779b97f4a7c15ull >> 17) & (m->cap - 1);

	while (m->keys[i] && m->keys[i] != addr + 1)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void code_set(struct code_map *m, uint64_t addr, uint32_t half)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct code_map old = *m;

		m->cap = m->cap ? 2 * m->cap : 1 << 16;
		m->keys = calloc(m->cap, sizeof(*m->keys));
		m->vals = calloc(m->cap, sizeof(*m->vals));
		if (!m->keys || !m->vals)
			die("out of memory");
		m->n = 0;
		for (size_t j = 0; j < old.cap; j++)
			if (old.keys[j])
				code_set(m, old.keys[j] - 1, old.vals[j]);
		free(old.keys);
		free(old.vals);
	}
	i = slot(m, addr);
	if (!m->keys[i])
		m->n++;
	m->keys[i] = addr + 1;
	m->vals[i] = half;
}

static bool code_get(const struct code_map *m, uint64_t addr, uint32_t *half)
{
	size_t i;

	if (!m->cap)
		return false;
	i = slot(m, addr);
	if (!m->keys[i])
		return false;
	*half = m->vals[i];
	return true;
}

/* ---- convert -------------------------------------------------------------- */

/* PCINFO: the first classification seen per address (a changed one counts) */
struct info {
	uint64_t addr, dest;
	char type[4];
	uint8_t size;
};

static struct info *infos;
static size_t ninfos, capinfos;
static struct code_map info_at;		/* address -> index into infos + 1 */
static uint64_t conflicts;

/* false if the address had another classification before (code changed) */
static bool add_info(uint64_t addr, const char *type, unsigned size, uint64_t dest)
{
	uint32_t idx;
	struct info *in;

	if (code_get(&info_at, addr, &idx)) {
		in = &infos[idx - 1];
		if (strcmp(in->type, type) || in->size != size || in->dest != dest) {
			conflicts++;
			return false;
		}
		return true;
	}
	if (ninfos == capinfos) {
		capinfos = capinfos ? 2 * capinfos : 4096;
		infos = realloc(infos, capinfos * sizeof(*infos));
		if (!infos)
			die("out of memory");
	}
	in = &infos[ninfos++];
	in->addr = addr;
	in->dest = dest;
	in->size = (uint8_t)size;
	snprintf(in->type, sizeof(in->type), "%s", type);
	code_set(&info_at, addr, (uint32_t)ninfos);
	return true;
}

/*
 * NexRv's decoder extends every address whose bit 48 is set to 64 bits (it
 * assumes 48-bit virtual addresses): a higher one (Sv57 user space, the
 * vDSO near the top of it) decodes wrongly there.
 */
static bool nexrv_reaches(uint64_t addr)
{
	return addr >> 48 == 0 || addr >> 48 == 0xffff;
}

static int cmp_info(const void *a, const void *b)
{
	const struct info *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct change {
	uint64_t index, addr;
	uint16_t half;
};

static struct change *load_changes(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	struct change *c = NULL;
	size_t cap = 0;
	unsigned long long index, addr;
	unsigned half;

	if (!f)
		die("cannot open the code log");
	*n = 0;
	while (fscanf(f, "%llu %llx %x", &index, &addr, &half) == 3) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 4096;
			c = realloc(c, cap * sizeof(*c));
			if (!c)
				die("out of memory");
		}
		c[(*n)++] = (struct change){ index, addr, (uint16_t)half };
	}
	fclose(f);
	return c;
}

/*
 * The static classification of the instruction at pc (PCINFO) and its type
 * in this execution, knowing the next executed address (PCSEQ).
 */
static void classify(const struct ntrace_insn *in, uint64_t pc, bool has_next, uint64_t next,
		     const char **info_type, const char **seq_type, uint64_t *dest)
{
	uint64_t seq = pc + in->len;

	*dest = 0;
	switch (in->kind) {
	case NTRACE_K_BRANCH:
		*info_type = "BD";
		*dest = in->target;
		*seq_type = !has_next || next == in->target ? "B" : next == seq ? "BN" : "JI";
		return;
	case NTRACE_K_JUMP:
		*dest = in->target;
		if (ntrace_itype_is_call(in->itype)) {
			*info_type = "CD";
			*seq_type = !has_next || next == in->target ? "C" : "CI";
		} else {
			*info_type = "JD";
			*seq_type = !has_next || next == in->target ? "J" : "JI";
		}
		return;
	case NTRACE_K_INDIRECT:
		if (in->itype == NTRACE_ITYPE_RETURN)
			*info_type = *seq_type = "R";
		else if (ntrace_itype_is_call(in->itype) || in->itype == NTRACE_ITYPE_COROUTINE_SWAP)
			*info_type = *seq_type = "CI";
		else
			*info_type = *seq_type = "JI";
		return;
	case NTRACE_K_TRAP_RETURN:
		*info_type = *seq_type = "JI";
		return;
	case NTRACE_K_TRAP:
		*info_type = "L";
		*seq_type = "JI";
		return;
	default:
		*info_type = "L";
		*seq_type = !has_next || next == seq ? "L" : "JI";
		return;
	}
}

static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		die("cannot create an output file");
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

int main(int argc, char **argv)
{
	uint64_t from = 0, max = 0, executed = 0, traps = 0, swaps = 0, first = 0;
	bool started, until_change = false;
	int a = 1;
	struct code_map code = { 0 };
	struct change *ch;
	size_t nch, next_ch = 0;
	FILE *in, *pcseq, *pcinfo, *addr, *words;
	char line[64];
	uint64_t cur = 0;
	bool have_cur = false;

	for (; a < argc && argv[a][0] == '-'; a += 2) {
		if (!strcmp(argv[a], "--until-change")) {
			until_change = true;
			a--;
			continue;
		}
		if (a + 1 >= argc)
			die("option without a value");
		if (!strcmp(argv[a], "--from"))
			from = strtoull(argv[a + 1], NULL, 16);
		else if (!strcmp(argv[a], "--max"))
			max = strtoull(argv[a + 1], NULL, 0);
		else
			die("unknown option");
	}
	if (argc - a != 3)
		die("usage: nexrv-convert [--from ADDR] [--max N] [--until-change] ADDRS CODE DIR");
	in = fopen(argv[a], "r");
	ch = load_changes(argv[a + 1], &nch);
	if (!in)
		die("cannot open the addresses");
	pcseq = open_out(argv[a + 2], "pcseq");
	pcinfo = open_out(argv[a + 2], "pcinfo");
	addr = open_out(argv[a + 2], "addr");
	words = open_out(argv[a + 2], "code");
	started = !from;
	for (uint64_t index = 0;; index++) {
		uint64_t pc = 0;
		bool has_next = fgets(line, sizeof(line), in) != NULL;

		if (has_next)
			pc = strtoull(line, NULL, 16);
		/*
		 * The words of instruction index - 1 (cur): a word logged at index
		 * k applies from instruction k on, and tally-trace logs it up to
		 * two instructions late (its decoder applies the log two early)
		 */
		while (next_ch < nch && ch[next_ch].index <= index + 2) {
			code_set(&code, ch[next_ch].addr, ch[next_ch].half);
			/* the slice's own log: what applies before it, at 0 */
			fprintf(words, "%llu %llx %04x\n",
				(unsigned long long)(started && ch[next_ch].index > first ?
						     ch[next_ch].index - first : 0),
				(unsigned long long)ch[next_ch].addr, ch[next_ch].half);
			next_ch++;
		}
		if (!started && has_next && pc == from) {
			started = true;
			first = index;
		}
		if (!started)
			continue;
		if (max && executed + 1 >= max)
			has_next = false;	/* cur is the last */
		if (have_cur) {
			struct ntrace_insn insn;
			const char *info_type, *seq_type;
			uint32_t lo, hi = 0;
			uint64_t dest;

			if (!code_get(&code, cur, &lo) ||
			    (ntrace_isa_len((uint16_t)lo) == 4 && !code_get(&code, cur + 2, &hi)))
				die("an executed address has no code in the log");
			ntrace_isa_decode(hi << 16 | lo, cur, 64, &insn);
			if (!insn.len)
				die("an executed address has no valid instruction");
			classify(&insn, cur, has_next, pc, &info_type, &seq_type, &dest);
			if (until_change && (!add_info(cur, info_type, insn.len, dest) ||
					     !nexrv_reaches(cur)))
				break;
			if (!until_change)
				add_info(cur, info_type, insn.len, dest);
			/* typed as an indirect jump only because a trap followed */
			traps += strchr(seq_type, 'I') && !strchr(info_type, 'I') && info_type[0] != 'R';
			swaps += insn.itype == NTRACE_ITYPE_COROUTINE_SWAP;
			fprintf(pcseq, "0x%llx,%s%u\n", (unsigned long long)cur, seq_type, insn.len);
			fprintf(addr, "%llx\n", (unsigned long long)cur);
			executed++;
		}
		if (!has_next)
			break;
		cur = pc;
		have_cur = true;
	}
	qsort(infos, ninfos, sizeof(*infos), cmp_info);
	for (size_t i = 0; i < ninfos; i++) {
		fprintf(pcinfo, "0x%llx,%s%u", (unsigned long long)infos[i].addr, infos[i].type,
			infos[i].size);
		if (infos[i].type[1] == 'D')
			fprintf(pcinfo, ",0x%llx", (unsigned long long)infos[i].dest);
		fprintf(pcinfo, "\n");
	}
	if (fclose(pcseq) || fclose(pcinfo) || fclose(addr) || fclose(words))
		die("cannot write the output");
	fclose(in);
	printf("%llu instructions, %zu addresses, %llu traps, %llu co-routine swaps, "
	       "%llu executions of an address whose code had changed\n",
	       (unsigned long long)executed, ninfos, (unsigned long long)traps,
	       (unsigned long long)swaps, (unsigned long long)conflicts);
	return conflicts ? 3 : 0;
}
