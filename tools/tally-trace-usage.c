// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace's help text: what main (tally-trace.c) and every subcommand
 * print on a command line they cannot use.  A file of its own so that the
 * subcommands, which main calls, never call back into main's file.
 */
#include <stdio.h>
#include <stdlib.h>
#include "tally-trace.h"

void usage(void)
{
	fprintf(stderr,
		"usage: tally-trace record|encode|dump|decode|stats|profile [options] [file]\n"
		"trace controls (spec chapter 4 names in T.ntr.cfg):\n"
		"  --mode btm|htm            trTeInstMode 3 or 6\n"
		"  --implicit-return N       trTeInstImplicitReturnMode 0..3 (--stack-depth N)\n"
		"  --repeat-history          trTeInstEnRepeatedHistory (ResourceFull RCODE=2)\n"
		"  --repeat-branch           RepeatBranch messages (B-CNT)\n"
		"  --sync-mode N --sync-max N  trTeInstSyncMode/trTeInstSyncMax\n"
		"  --icnt-limit N --hist-bits N  I-CNT and HIST limits\n"
		"  --tstamp                  trTsEnable (TSTAMP = instruction index)\n"
		"  --src-bits N --src-id N   trTeSrcBits, trTeSrcID\n"
		"  --ext-addr                trTeInstExtendAddrMSB\n"
		"  --sequential-jump         trTeInstEnSequentialJump (LUI/AUIPC + JALR inferable)\n"
		"  --all-jumps               trTeInstEnAllJumps (direct jumps as taken branches)\n"
		"  --icnt-full-sync          a full I-CNT as ProgTraceSync SYNC=4 (BTM only)\n"
		"  --context                 trTeContext (Ownership messages)\n"
		"  --xlen 32|64\n"
		"code: --elf FILE (repeat), --raw FILE@ADDR, --code T.ntr.code, --cfg T.ntr.cfg,\n"
		"      --syms FILE (symbols only: code that changes at run time comes from --code)\n"
		"output: -o FILE, --addresses FILE, --symbols, --svg FILE\n"
		"       --format hex|pconly|pcseq: addresses as 80000000, 0x80000000 or the\n"
		"       reference's PCSEQ 0x80000000,L4 (decode output, --addresses)\n"
		"input (encode LOG): QEMU -d exec,in_asm logs, Spike logs, PCSEQ, one address a line\n"
		"encode --bench: time the encoder alone (records kept in memory first)\n"
		"encode, record --and: one more encoder of the same instructions (up to 32), its\n"
		"       controls (from the defaults) and -o after --and; the other options are\n"
		"       the run's: tally-trace record --mode btm -o b.ntr --and --mode htm -o h.ntr\n"
		"record --max-instructions N: stop QEMU after N instructions\n"
		"record --plugin [--plugin-path SO]: the TCG plugin trace source (fast, no --context);\n"
		"       --stop-at ADDR: end before ADDR's first execution; with --src-bits N one\n"
		"       encoder per hart (SRC = hart), A.<hart> and T.ntr.code.<hart> per hart\n"
		"decode --src K: only hart K's messages\n"
		"decode, stats, profile: without --cfg or --mode, trTeInstMode comes from the\n"
		"       stream (HIST messages: HTM; DirectBranch: BTM); counts wider than the\n"
		"       spec's limits (real encoders send them) are accepted up to 32 bits with a\n"
		"       warning (--lenient, the default), --strict refuses them\n");
	exit(2);
}
