#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Side-by-side report of the Linux perf checks: Tally's fw_dynamic runs
# against the same runs on a reference firmware (Debian's OpenSBI 1.1),
# from the boot logs tests/linux/boot-test.sh left in <builddir>:
#   boot-fw_dynamic.log, boot-fw_dynamic-icount.log            (Tally)
#   boot-<ref>-fw_dynamic.log, boot-<ref>-fw_dynamic-icount.log (reference)
#
# Usage: tests/linux/perf-report.sh <logdir> [<ref> [<kver>]]   (default:
#        the first opensbi-* logs found there; kver only labels the table)
#
# Informational only: prints no PASS/FAIL/SKIP verdict lines (the table
# says ok / fail / skip in lower case) and exits 0 when the logs exist.
set -euo pipefail

build=${1:?usage: $0 <logdir> [<ref> [<kver>]]}
ref=${2:-}
kver=${3:-}
if [[ -z $ref ]]; then
	for log in "$build"/boot-opensbi*-fw_dynamic.log; do
		[[ -f $log ]] || continue
		ref=${log##*/boot-}
		ref=${ref%-fw_dynamic.log}
		break
	done
fi
[[ -n $ref ]] || { echo "perf report: no reference logs in $build" >&2; exit 1; }

# "run<TAB>check<TAB>verdict<TAB>note" for each init check of a log pair.
results() {
	local prefix=$1 run log
	for run in fw_dynamic fw_dynamic-icount; do
		log=$build/boot-$prefix$run.log
		[[ -f $log ]] || continue
		grep -aoE 'TALLY-LINUX-CHECK: [^:]+: .*' "$log" | tr -d '\r' |
			awk -v run="${run#fw_dynamic}" '{
				sub(/^TALLY-LINUX-CHECK: /, "")
				check = $0; sub(/: .*/, "", check)
				rest = substr($0, length(check) + 3)
				verdict = rest; note = ""
				if (rest ~ /^ok: /) { verdict = "ok"; note = substr(rest, 5) }
				else if (rest ~ /^skip: /) { verdict = "skip"; note = substr(rest, 7) }
				else if (rest ~ /^FAIL: /) { verdict = "fail"; note = substr(rest, 7) }
				printf "%s\t%s\t%s\t%s\n", (run == "" ? "full" : "icount"), check, verdict, note
			}'
	done
}

tally=$(results "")
other=$(results "$ref-")
[[ -n $tally || -n $other ]] || { echo "perf report: no results in $build" >&2; exit 1; }

echo
echo "=== Linux perf on the SBI PMU: Tally vs $ref (fw_dynamic, QEMU 7.2 virt, Linux ${kver:-?}) ==="
echo "    full run: -smp 4 -cpu rv64,sscofpmf=true,sstc=false; icount run: -smp 1 -icount shift=0,sleep=off"
awk -F'\t' -v ref="$ref" '
	FNR == 1 { file++ }
	{
		key = $1 "\t" $2
		if (!(key in seen)) { seen[key] = 1; order[++n] = key }
		if (file == 1) { tv[key] = $3; tn[key] = $4 } else { rv[key] = $3; rn[key] = $4 }
	}
	END {
		printf "%-32s %-7s %-6s %s\n", "check", "run", "Tally", ref
		for (i = 1; i <= n; i++) {
			split(order[i], k, "\t")
			if (k[2] !~ /^perf-/) continue
			printf "%-32s %-7s %-6s %s\n", k[2], k[1], \
				(order[i] in tv ? tv[order[i]] : "-"), \
				(order[i] in rv ? rv[order[i]] : "-")
		}
		print ""
		print "measured (Tally | " ref "):"
		for (i = 1; i <= n; i++) {
			split(order[i], k, "\t")
			if (k[2] !~ /^perf-/) continue
			printf "  %s (%s)\n", k[2], k[1]
			printf "    Tally       %s\n", (tn[order[i]] != "" ? tn[order[i]] : tv[order[i]])
			printf "    %-11s %s\n", ref, (rn[order[i]] != "" ? rn[order[i]] : rv[order[i]])
		}
	}' <(printf '%s\n' "$tally") <(printf '%s\n' "$other")
