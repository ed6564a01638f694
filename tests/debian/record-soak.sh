#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The sampling soak (issue 32): many `perf record` runs in a row, no retry,
# on each configuration, Tally beside OpenSBI 1.9 in the same run. One boot
# per configuration and firmware (tests/debian/boot.sh with init.c's
# tally.perf=record): no warm-up, <runs> rounds
# of
#   perf record -e cycles -c 1000000 -- work loop 50000000
#   perf record -e dTLB-load-misses:u -c 100 -- work load-pages 10000
# each run's sample count on a TALLY-RECORD line of the console.
#
# Usage: tests/debian/record-soak.sh <build-dir> <runs> short|full|exact
#   short  (the test command): QEMU 11.1 -cpu rva23s64, Debian's newest 7.x
#          kernel, 4 harts, Tally only; then 3 rounds of the exact leg there
#   full   (make soak-record): QEMU 7.2 (the host's, -cpu rv64,sscofpmf=true)
#          and 11.1 (-cpu rva23s64) x trixie's 6.12 and Debian's newest 7.x x 1
#          and 4 harts x Tally (snapshot on), Tally built with PMU_SNAPSHOT=0
#          (snapshot off) and OpenSBI 1.9 (which has no snapshot); each
#          firmware's <runs> rounds in two boots of half as many, in the
#          order Tally, OpenSBI, Tally without snapshot, then back (A B C C
#          B A): the cycle samples QEMU's host timer gives follow the
#          host's load, and this way a drift in it meets every firmware
#          alike; then the exact leg
#   exact  the exact leg alone: QEMU -icount shift=0,sleep=off, where the
#          overflow timer of cycles and instructions runs on the
#          instructions executed, so a run's samples no longer depend on
#          the host; the same firmwares, one boot each of <runs> rounds of
#            perf record -e cycles -c 1000000 -- work loop 50000000
#            perf record -e instructions -c 1000000 -- work loop 50000000
#          on QEMU 11.1 x both kernels x 1 and 4 harts and QEMU 7.2 x both
#          kernels x 1 hart (its 4-hart boots hang under -icount before
#          init, whatever the firmware: docs/benchmarks.md)
# Environment: TALLY_OPENSBI_1_9 (default /work/shared/anchors/opensbi-1.9/
# fw_dynamic.bin, else ../shared/anchors/... from the repository);
# TALLY_RECORD_EXACT_RUNS, full's rounds of the exact leg (default 25: its
# runs repeat to within a sample or two).
#
# Verdicts (Tally's; OpenSBI's lines are INFO): init.c's perf-record-soak
# (no empty cycles run, none under 5 samples, every dTLB run within 10% of
# the misses perf stat counts / 100; in the exact leg every run at least
# exact_floor interrupts and one sample fewer) and, in the exact leg, the
# median cycles and instructions samples at or above OpenSBI 1.9's of the
# same configuration (compare_exact says why there). Then tables (Markdown, also in
# <build-dir>/debian/record-soak-<mode>.md): per configuration and
# firmware the runs, empty runs, fewest / median / mean cycles samples,
# the median loop and CPU times, the fewest and the median samples per
# CPU millisecond, and the dTLB runs within 10%, with the worst; for the
# exact leg the fewest / median / mean cycles and instructions samples.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
usage="usage: record-soak.sh <build-dir> <runs> short|full|exact"
out=$(realpath -m "${1:?$usage}")
runs=${2:?$usage}
mode=${3:?$usage}
[[ $runs =~ ^[1-9][0-9]*$ && $mode =~ ^(short|full|exact)$ ]] || { echo "$usage" >&2; exit 2; }
exact_runs=$runs
[[ $mode != full ]] || exact_runs=${TALLY_RECORD_EXACT_RUNS:-25}
dir=$out/debian
tally=$out/platform/generic/firmware/fw_dynamic.bin
nosnap=$out/fw-nosnap/platform/generic/firmware/fw_dynamic.bin
opensbi=${TALLY_OPENSBI_1_9:-/work/shared/anchors/opensbi-1.9/fw_dynamic.bin}
[[ -e $opensbi ]] || opensbi=$repo/../shared/anchors/opensbi-1.9/fw_dynamic.bin
table=$dir/record-soak-$mode.md
failures=0 passes=0
declare -A median rate logs exact

pass() { printf 'PASS: %s%s\n' "$1" "${2:+ ($2)}"; passes=$((passes + 1)); }
fail() { printf 'FAIL: %s (%s)\n' "$1" "$2"; failures=$((failures + 1)); }
info() { printf 'INFO: %s\n' "$*"; }

# QEMU 7.2 is the host's (Debian 12): a root beside fetch.sh's, so boot.sh
# names it qemu-7.2.
qemu72() {
	local bin
	bin=$(command -v qemu-system-riscv64) || return 1
	"$bin" --version | grep -q 'version 7\.2\.' || return 1
	mkdir -p "$dir/qemu-7.2" && ln -sfn "$bin" "$dir/qemu-7.2/qemu-system-riscv64"
}

# stats <log> dtlb: "runs within worst ms": within, the runs within 10% of
# expected; worst, the largest distance from it in percent; ms, the mean
# run's wall time
# stats <log> cycles|instructions: "runs empty fewest median mean ms loop
# cpu rfewest rmedian": the samples (fewest, median, mean), the mean run's
# wall time,
# the median loop's wall time and the median CPU time of work's process
# (WORK_TIME's, ms), and the samples per millisecond of that CPU time
# (fewest, median)
stats() {
	if [[ $2 == dtlb ]]; then
		grep -aoE "TALLY-RECORD: dtlb [0-9]+ [0-9]+ [0-9]+ [0-9]+ ms" "$1" |
			awk '{ n++; ms += $6; d = ($5 > 0 ? 100 * ($4 - $5) / $5 : 100)
			       if (d < 0) d = -d; if (d <= 10) ok++; if (d > worst) worst = d }
			END { if (!n) { print "0 0 0 0"; exit }
			      printf "%d %d %.1f %d\n", n, ok + 0, worst, ms / n }'
		return
	fi
	grep -aoE "TALLY-RECORD: $2 [0-9]+ [0-9]+ [0-9]+ [0-9]+ ms [0-9]+ irqs [0-9]+ us [0-9]+ us cpu" "$1" |
		awk '
		function sort(a, n,  i, j, v) {
			for (i = 2; i <= n; i++) {
				v = a[i]
				for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]
				a[j + 1] = v
			}
		}
		function median(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		{ n++; s[n] = $4; sum += $4; ms += $6; l[n] = $10 / 1000; c[n] = $12 / 1000
		  r[n] = $12 > 0 ? 1000 * $4 / $12 : 0; if ($4 == 0) empty++ }
		END {
			if (!n) { print "0 0 0 0 0 0 0 0 0 0"; exit }
			sort(s, n); sort(l, n); sort(c, n); sort(r, n)
			printf "%d %d %d %g %.1f %d %.1f %.1f %.3f %.3f\n", n, empty + 0, s[1],
				median(s, n), sum / n, ms / n, median(l, n), median(c, n),
				r[1], median(r, n)
		}'
}

# exact_floor: the exact leg's floor per run (init.c's
# tally.record_exact=): under -icount the counters count instructions, so
# the loop's own 100 periods (RECORD_EXACT_PERIODS) are 100 overflows,
# each an interrupt, on QEMU 7.2 and 11.1 alike; Linux makes a sample of
# all but, now and then, one (init.c says when).
exact_floor=100

# soak <qemu> <linux> <smp> <fw-label> <fw> <rounds> [<part>]: one boot and
# its verdicts (OpenSBI's as INFO lines, never counted); its console log
# is added to the firmware's in that configuration (logs[], keyed by
# $leg too: host, or exact for the -icount leg)
soak() {
	local q=$1 l=$2 smp=$3 label=$4 fw=$5 n=$6 part=${7:-} cpu=rva23s64 name log lines
	local extra=() append="tally.record_runs=$n"
	[[ $q != 7.2 ]] || cpu=rv64,sscofpmf=true
	if [[ $leg == exact ]]; then
		extra=(--icount "shift=0,sleep=off")
		append+=" tally.record_exact=$exact_floor"
	fi
	name="qemu-$q $(readlink "$dir/linux-$l") -smp $smp"
	log=$dir/logs/record-soak_${leg}_${label}_qemu-${q}_${l}_smp${smp}${part:+_$part}.log
	lines=$(TALLY_DEBIAN_TIMEOUT=$((120 + n * 20)) "$here/boot.sh" --dir "$dir" \
		--fw "$fw" --fw-name "$([[ $label == tally ]] && echo - || echo "$label")" \
		--qemu "$q" --linux "$l" --cpu "$cpu" --smp "$smp" --checks record \
		"${extra[@]}" --append "$append" --log "$log" 2>&1)
	if [[ $label == opensbi-1.9 ]]; then
		sed -nE 's/^(PASS|FAIL|SKIP): /INFO: opensbi-1.9 \1 /p' <<< "$lines"
	else
		grep -E '^(PASS|FAIL|SKIP):' <<< "$lines"
		passes=$((passes + $(grep -c '^PASS:' <<< "$lines")))
		failures=$((failures + $(grep -c '^FAIL:' <<< "$lines")))
		grep -q '^FAIL:' <<< "$lines" && grep -E '^  (\||last lines)' <<< "$lines"
	fi
	logs[$leg:$name/$label]+=" $log"
}

# row <name> <fw-label>: the host leg's table row of a firmware in a
# configuration, over all its boots' runs; its cycles medians for
# compare_host
row() {
	local name=$1 label=$2 all c d
	[[ -n ${logs[host:$name/$label]:-} ]] || return 0
	all=$(mktemp)
	# shellcheck disable=SC2086
	cat ${logs[host:$name/$label]} > "$all"
	read -r -a c <<< "$(stats "$all" cycles)"
	read -r -a d <<< "$(stats "$all" dtlb)"
	rm -f "$all"
	median[$name/$label]=${c[3]}
	rate[$name/$label]=${c[9]}
	rows+=("$(printf '| %s | %s | %s | %s | %s | %s | %s | %s / %s | %s / %s | %s of %s (worst %s%%) | %s + %s |' \
		"$name" "$label" "${c[0]}" "${c[1]}" "${c[2]}" "${c[3]}" "${c[4]}" \
		"${c[6]}" "${c[7]}" "${c[8]}" "${c[9]}" "${d[1]}" "${d[0]}" "${d[2]}" "${c[5]}" "${d[3]}")")
}

# compare_host <name>: Tally's cycles samples without -icount, raw and
# per millisecond of work's CPU time, medians over the runs, beside
# OpenSBI 1.9's of the same configuration, as INFO lines. Not a verdict:
# QEMU's overflow timer then runs on the host's time, so the samples count
# how long the host took (a boot the host runs slower samples more), and
# per CPU millisecond what is left still includes the process's time
# outside the loop, which is longer when the firmware's calls are slower
# (docs/benchmarks.md, "Sampling soak": on Linux 7.2.13 OpenSBI 1.9's
# slower calls gave it about 1% more). The exact leg compares instead.
compare_host() {
	local name=$1 o=${rate[$1/opensbi-1.9]:-} fw
	[[ -n $o ]] || return 0
	for fw in tally tally-nosnap; do
		[[ -n ${rate[$name/$fw]:-} ]] || continue
		info "debian/record-soak/$name/$fw: cycles samples median ${median[$name/$fw]} (OpenSBI 1.9's ${median[$name/opensbi-1.9]}), per CPU ms ${rate[$name/$fw]} (OpenSBI 1.9's $o)"
	done
}

# row_exact <name> <fw-label>: the exact leg's table row; its medians
# (exact[<name>/<label>/<event>]) for compare_exact. Besides the samples:
# the fewest interrupts in a run, and the runs where Linux took more
# interrupts than it made samples (QEMU 7.2's early timer, or init.c's
# switched-out case) or fewer (none expected)
row_exact() {
	local name=$1 label=$2 all c i irq
	[[ -n ${logs[exact:$name/$label]:-} ]] || return 0
	all=$(mktemp)
	# shellcheck disable=SC2086
	cat ${logs[exact:$name/$label]} > "$all"
	read -r -a c <<< "$(stats "$all" cycles)"
	read -r -a i <<< "$(stats "$all" instructions)"
	read -r -a irq <<< "$(grep -aoE "TALLY-RECORD: (cycles|instructions) [0-9]+ [0-9]+ [0-9]+ [0-9]+ ms [0-9]+ irqs" "$all" |
		awk '{ if (!n++ || $8 < m) m = $8; more += $8 > $4; fewer += $8 < $4 }
		     END { printf "%d %d %d\n", m, more, fewer }')"
	rm -f "$all"
	exact[$name/$label/cycles]=${c[3]}
	exact[$name/$label/instructions]=${i[3]}
	exact_rows+=("$(printf '| %s | %s | %s | %s / %s / %s | %s / %s / %s | %s | %s / %s | %s / %s |' \
		"$name" "$label" "${c[0]}" "${c[2]}" "${c[3]}" "${c[4]}" \
		"${i[2]}" "${i[3]}" "${i[4]}" "${irq[0]}" "${irq[1]}" "${irq[2]}" "${c[7]}" "${c[5]}")")
}

# compare_exact <name>: under -icount shift=0 a run's samples depend only on
# the instructions run and on the overflows the firmware delivers (QEMU's
# cycles and instret timers count instructions, the host's speed drops
# out), so Tally's median cycles and instructions samples (snapshot on
# and off) must be at or above OpenSBI 1.9's in the same configuration.
compare_exact() {
	local name=$1 fw ev t o
	for ev in cycles instructions; do
		o=${exact[$name/opensbi-1.9/$ev]:-}
		[[ -n $o ]] || continue
		for fw in tally tally-nosnap; do
			t=${exact[$name/$fw/$ev]:-}
			[[ -n $t ]] || continue
			if awk -v t="$t" -v o="$o" 'BEGIN { exit !(t >= o) }'; then
				pass "debian/record-soak/exact/$name/$fw: $ev samples, median, at or above OpenSBI 1.9's" "$t >= $o"
			else
				fail "debian/record-soak/exact/$name/$fw: $ev samples, median, at or above OpenSBI 1.9's" "$t < $o"
			fi
		done
	done
}

# exact_leg: each configuration QEMU -icount can boot, one boot per
# firmware of exact_runs rounds (a run repeats itself, so no A B C C B A)
exact_leg() {
	local q l smp name fw
	leg=exact
	for q in $qemus; do
		for l in stable backports; do
			for smp in 1 4; do
				[[ $q != 7.2 || $smp == 1 ]] || continue
				name="qemu-$q $(readlink "$dir/linux-$l") -smp $smp"
				soak "$q" "$l" "$smp" tally "$tally" "$exact_runs"
				[[ ! -e $opensbi ]] || soak "$q" "$l" "$smp" opensbi-1.9 "$opensbi" "$exact_runs"
				soak "$q" "$l" "$smp" tally-nosnap "$nosnap" "$exact_runs"
				for fw in tally tally-nosnap opensbi-1.9; do row_exact "$name" "$fw"; done
				compare_exact "$name"
			done
		done
	done
}

start=$SECONDS
rows=() exact_rows=() leg=host
if [[ $mode == short ]]; then
	name="qemu-11.1 $(readlink "$dir/linux-backports") -smp 4"
	soak 11.1 backports 4 tally "$tally" "$runs"
	row "$name" tally
	# and 3 rounds of the exact leg: every overflow of the loop delivered
	leg=exact exact_runs=3
	soak 11.1 backports 4 tally "$tally" "$exact_runs"
	row_exact "$name" tally
else
	qemus="7.2 11.1"
	if ! qemu72; then
		fail "debian/record-soak: QEMU 7.2" "no qemu-system-riscv64 7.2 on this host"
		qemus=11.1
	fi
	make -s -C "$repo" O="$out/fw-nosnap" PMU_SNAPSHOT=0 firmware > "$dir/logs/fw-nosnap.log" 2>&1 ||
		fail "debian/record-soak: the PMU_SNAPSHOT=0 image" "make failed: $dir/logs/fw-nosnap.log"
	[[ -e $opensbi ]] || info "no OpenSBI 1.9 image ($opensbi): no comparison"
	first=$(((runs + 1) / 2)) second=$((runs / 2))
	for q in $qemus; do
		[[ $mode == full ]] || break
		for l in stable backports; do
			for smp in 1 4; do
				name="qemu-$q $(readlink "$dir/linux-$l") -smp $smp"
				# A B C, then C B A
				soak "$q" "$l" "$smp" tally "$tally" "$first" 1
				[[ ! -e $opensbi ]] || soak "$q" "$l" "$smp" opensbi-1.9 "$opensbi" "$first" 1
				soak "$q" "$l" "$smp" tally-nosnap "$nosnap" "$first" 1
				if ((second)); then
					soak "$q" "$l" "$smp" tally-nosnap "$nosnap" "$second" 2
					[[ ! -e $opensbi ]] || soak "$q" "$l" "$smp" opensbi-1.9 "$opensbi" "$second" 2
					soak "$q" "$l" "$smp" tally "$tally" "$second" 2
				fi
				for fw in tally tally-nosnap opensbi-1.9; do row "$name" "$fw"; done
				compare_host "$name"
			done
		done
	done
	exact_leg
fi

{
	if ((${#rows[@]})); then
		echo "Sampling soak ($mode): $runs rounds per firmware and configuration of perf record -e cycles -c 1000000 (work loop 50000000) and -e dTLB-load-misses:u -c 100 (work load-pages 10000)$([[ $mode == short ]] || echo ", in two boots each (A B C C B A)")"
		echo
		echo "| configuration | firmware | runs | cycles: empty | fewest | median | mean | loop / CPU ms (median) | samples per CPU ms: fewest / median | dTLB within 10% | ms per run (cycles + dTLB) |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|"
		printf '%s\n' "${rows[@]}"
	fi
	if ((${#exact_rows[@]})); then
		((${#rows[@]} == 0)) || echo
		echo "Exact leg (-icount shift=0,sleep=off): $exact_runs rounds per firmware and configuration, one boot each, of perf record -e cycles and -e instructions, -c 1000000 (work loop 50000000: 100 periods of user instructions); floor per run: $exact_floor overflow interrupts and $((exact_floor - 1)) samples"
		echo
		echo "| configuration | firmware | rounds | cycles samples: fewest / median / mean | instructions samples: fewest / median / mean | interrupts: fewest in a run | runs with interrupts more / fewer than samples | CPU ms / ms per run (median, mean) |"
		echo "|---|---|---|---|---|---|---|---|"
		printf '%s\n' "${exact_rows[@]}"
	fi
} | tee "$table"
echo "record-soak $mode: $((SECONDS - start)) s; table in $table"
echo "$passes passed, $failures failed"
((failures == 0))
