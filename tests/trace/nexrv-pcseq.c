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
 *           decoder's code description: one classification per address);
 *   (PCONLY, what its decoder prints, "0x<ADDR>" a line: compare with same.)
 *
 * The reference models no trap: an instruction the next address shows was
 * followed by a trap (or that never retires: ECALL, EBREAK), and a trap
 * return, are given as indirect jumps (JI; a direct call followed by a trap
 * stays a call, CI), so that both encoders see the same ingress sequence and
 * every executed instruction is in an I-CNT.
 *
 *   nexrv-pcseq convert [--from ADDR] [--max N] ADDRS CODE DIR
 *   nexrv-pcseq encode [controls] -o T.ntr PCSEQ
 *   nexrv-pcseq same A B     (two address lists, any hex spelling: equal?)
 *   nexrv-pcseq cputime OUT CMD...  (runs CMD, stdout to OUT; prints its
 *                                    user + system CPU seconds, getrusage)
 *
 * convert writes DIR/pcseq, DIR/pcinfo, and the same slice of the run for
 * Tally: DIR/addr (tally-trace decode's format) and DIR/code
 * (the word log, its indexes counted from the slice's first instruction).
 * --from: the slice starts at ADDR's first execution; --max: N instructions.
 *
 * encode feeds a PCSEQ file, type for type, to Tally's encoder (lib/ntrace),
 * the controls named as tally-trace names them; give the same controls to
 * tally-trace decode.  (Until tally-trace encode reads PCSEQ itself.)
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tally/ntrace.h>

static void die(const char *what)
{
	fprintf(stderr, "nexrv-pcseq: %s\n", what);
	exit(2);
}

/* ---- the code: halfwords by address, changed in execution order ---------- */

/* (the same map takes the PCINFO index of each address) */

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

static void add_info(uint64_t addr, const char *type, unsigned size, uint64_t dest)
{
	uint32_t idx;
	struct info *in;

	if (code_get(&info_at, addr, &idx)) {
		in = &infos[idx - 1];
		if (strcmp(in->type, type) || in->size != size || in->dest != dest)
			conflicts++;
		return;
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

static int cmd_convert(int argc, char **argv)
{
	uint64_t from = 0, max = 0, executed = 0, traps = 0, swaps = 0, first = 0;
	bool started;
	int a = 2;
	struct code_map code = { 0 };
	struct change *ch;
	size_t nch, next_ch = 0;
	FILE *in, *pcseq, *pcinfo, *addr, *words;
	char line[64];
	uint64_t cur = 0;
	bool have_cur = false;

	for (; a < argc && argv[a][0] == '-'; a += 2) {
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
		die("usage: convert [--from ADDR] [--max N] ADDRS CODE DIR");
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
			/* typed as an indirect jump only because a trap followed */
			traps += strchr(seq_type, 'I') && !strchr(info_type, 'I') && info_type[0] != 'R';
			swaps += insn.itype == NTRACE_ITYPE_COROUTINE_SWAP;
			fprintf(pcseq, "0x%llx,%s%u\n", (unsigned long long)cur, seq_type, insn.len);
			fprintf(addr, "%llx\n", (unsigned long long)cur);
			add_info(cur, info_type, insn.len, dest);
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
	       "%llu addresses whose code changed\n",
	       (unsigned long long)executed, ninfos, (unsigned long long)traps,
	       (unsigned long long)swaps, (unsigned long long)conflicts);
	return conflicts ? 3 : 0;
}

/* ---- encode: PCSEQ into Tally's encoder ------------------------------------ */

static void sink(void *ctx, const uint8_t *bytes, size_t n)
{
	if (fwrite(bytes, 1, n, ctx) != n)
		die("cannot write the stream");
}

static uint8_t itype_of(const char *t, unsigned *size)
{
	uint8_t itype;

	switch (t[0]) {
	case 'L': itype = NTRACE_ITYPE_NONE; break;
	case 'B': itype = t[1] == 'N' ? NTRACE_ITYPE_BRANCH_NOT_TAKEN : NTRACE_ITYPE_BRANCH_TAKEN; break;
	case 'J': itype = t[1] == 'I' ? NTRACE_ITYPE_INDIRECT_JUMP_NL : NTRACE_ITYPE_DIRECT_JUMP_NL; break;
	case 'C': itype = t[1] == 'I' ? NTRACE_ITYPE_INDIRECT_CALL : NTRACE_ITYPE_DIRECT_CALL; break;
	case 'R': itype = NTRACE_ITYPE_RETURN; break;
	default: die("unknown PCSEQ type");
	}
	while (*t && (*t < '0' || *t > '9'))
		t++;
	*size = (unsigned)atoi(t);
	if (*size != 2 && *size != 4)
		die("PCSEQ size is not 2 or 4");
	return itype;
}

static int cmd_encode(int argc, char **argv)
{
	struct ntrace_config cfg;
	struct ntrace_encoder *e = malloc(sizeof(*e));
	const char *out = NULL, *input = NULL;
	FILE *in, *f;
	char line[128];
	uint64_t n = 0;

	if (!e)
		die("out of memory");
	ntrace_config_default(&cfg);
	for (int a = 2; a < argc; a++) {
		const char *v = a + 1 < argc ? argv[a + 1] : "";

		if (!strcmp(argv[a], "--mode")) {
			cfg.trTeInstMode = !strcmp(v, "htm") ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM;
			a++;
		} else if (!strcmp(argv[a], "--implicit-return")) {
			cfg.trTeInstImplicitReturnMode = (uint8_t)atoi(v);
			a++;
		} else if (!strcmp(argv[a], "--stack-depth")) {
			cfg.ret_stack_depth = (uint8_t)atoi(v);
			a++;
		} else if (!strcmp(argv[a], "--icnt-limit")) {
			cfg.icnt_limit = (uint32_t)strtoul(v, NULL, 0);
			a++;
		} else if (!strcmp(argv[a], "--hist-bits")) {
			cfg.hist_bits = (uint8_t)atoi(v);
			a++;
		} else if (!strcmp(argv[a], "--repeat-history")) {
			cfg.trTeInstEnRepeatedHistory = true;
		} else if (!strcmp(argv[a], "--repeat-branch")) {
			cfg.repeat_branch = true;
		} else if (!strcmp(argv[a], "-o")) {
			out = v;
			a++;
		} else if (argv[a][0] == '-') {
			die("unknown option");
		} else {
			input = argv[a];
		}
	}
	if (!out || !input)
		die("usage: encode [controls] -o T.ntr PCSEQ");
	in = fopen(input, "r");
	f = fopen(out, "wb");
	if (!in || !f)
		die("cannot open a file");
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	if (ntrace_enc_init(e, &cfg, sink, f))
		die("invalid trace controls");
	while (fgets(line, sizeof(line), in)) {
		struct ntrace_ingress r = { .priv = 3 };
		char *comma = strchr(line, ',');
		unsigned size;

		if (line[0] == '.' || !comma)
			continue;
		r.addr = strtoull(line, NULL, 16);
		r.itype = itype_of(comma + 1, &size);
		r.ilen = (uint8_t)size;
		r.tstamp = n++;
		ntrace_enc_retire(e, &r);
	}
	ntrace_enc_stop(e, NTRACE_EVCODE_TRACE_DISABLED);
	if (e->error)
		die(ntrace_strerror(e->error));
	if (fclose(f))
		die("cannot write the stream");
	fclose(in);
	fprintf(stderr, "nexrv-pcseq: %llu instructions, %llu messages, %llu bytes\n",
		(unsigned long long)n, (unsigned long long)e->messages,
		(unsigned long long)e->bytes);
	free(e);
	return 0;
}

/* ---- same: two lists of addresses, one a line, compared as numbers ------- */

static int cmd_same(int argc, char **argv)
{
	FILE *a, *b;
	char la[64], lb[64];
	uint64_t line = 0;

	if (argc != 4)
		die("usage: same A B");
	a = strcmp(argv[2], "-") ? fopen(argv[2], "r") : stdin;
	b = strcmp(argv[3], "-") ? fopen(argv[3], "r") : stdin;
	if (!a || !b)
		die("cannot open a list");
	for (;;) {
		bool ga = fgets(la, sizeof(la), a) != NULL, gb = fgets(lb, sizeof(lb), b) != NULL;

		line++;
		if (!ga && !gb)
			return 0;
		if (ga != gb || strtoull(la, NULL, 16) != strtoull(lb, NULL, 16)) {
			printf("line %llu: %s <> %s\n", (unsigned long long)line,
			       ga ? strtok(la, "\n") : "(end)", gb ? strtok(lb, "\n") : "(end)");
			return 1;
		}
	}
}

/* ---- cputime: a command's CPU time, to the microsecond -------------------- */

static int cmd_cputime(int argc, char **argv)
{
	struct rusage ru;
	int status, fd;
	pid_t pid;

	if (argc < 4)
		die("usage: cputime OUT CMD...");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		die("wait4");
	printf("%.6f\n", (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
			   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "convert"))
		return cmd_convert(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "encode"))
		return cmd_encode(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "same"))
		return cmd_same(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "cputime"))
		return cmd_cputime(argc, argv);
	fprintf(stderr, "usage: nexrv-pcseq convert|encode ... (see the source)\n");
	return 2;
}
