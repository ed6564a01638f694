#!/usr/bin/env bash
# libFuzzer campaign: builds the targets of tests/fuzz/Makefile and runs each
# from its checked-in seed corpus (tests/fuzz/corpus/<target>, crash
# reproducers included, so every old crash is replayed first).
#
#   tests/fuzz/run.sh <build-dir> [--time SECONDS] [--seed N] [--runs N] [--only TARGET]
#
# --time: the bound per target (default $FUZZ_TIME or 30); --seed: libFuzzer's
# -seed (default $FUZZ_SEED or one taken from the clock, printed); --runs:
# stop after N inputs.  A run is reproduced exactly with the same --seed and
# --runs (the count it printed).  One line per target: "PASS: fuzz: ..." with
# executions and executions/s, or "FAIL: fuzz: ..." naming the crash file
# (copy it into the target's corpus once fixed).  Exit status 1 on failure.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$root/build}")
shift || true
time_s=${FUZZ_TIME:-30} seed=${FUZZ_SEED:-$(( $(date +%s%N) % 2147483647 ))} runs="" only=""
while [[ $# -gt 0 ]]; do
	case $1 in
	--time) time_s=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	*) echo "usage: $0 <build-dir> [--time S] [--seed N] [--runs N] [--only TARGET]" >&2; exit 2 ;;
	esac
done
fuzz="$out/host/fuzz"
failures=0
mkdir -p "$fuzz"

if ! command -v clang >/dev/null; then
	echo "SKIP: fuzz: clang not installed (Debian: clang)"
	exit 0
fi
if make -s -C "$root" O="$out" "$out/libfdt/.extracted" >"$fuzz/build.log" 2>&1 &&
   make -s -C "$root/tests/fuzz" O="$fuzz" LIBFDT="$out/libfdt" >>"$fuzz/build.log" 2>&1; then
	echo "PASS: fuzz: build fuzz_dt, fuzz_dt_gen, fuzz_pmu (clang, libFuzzer + ASan + UBSan)"
else
	echo "FAIL: fuzz: build the fuzz targets"
	sed 's/^/    /' "$fuzz/build.log"
	exit 1
fi

echo "fuzz: seed $seed, ${time_s} s per target${runs:+, at most $runs runs}"
for t in fuzz_dt fuzz_dt_gen fuzz_pmu; do
	[[ -z $only || $only == "$t" ]] || continue
	seeds="$root/tests/fuzz/corpus/$t"
	work="$fuzz/corpus-$t"
	log="$fuzz/$t.log"
	rm -rf "$work" "$fuzz/crash-$t-"*
	mkdir -p "$work"
	"$fuzz/$t" -seed="$seed" -max_total_time="$time_s" ${runs:+-runs="$runs"} -timeout=10 \
		-print_final_stats=1 -artifact_prefix="$fuzz/crash-$t-" "$work" "$seeds" >"$log" 2>&1
	status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	nseeds=$(find "$seeds" -type f | wc -l)
	crash=$(ls "$fuzz/crash-$t-"* 2>/dev/null | head -1)
	if [[ $status -eq 0 && -z $crash ]]; then
		echo "PASS: fuzz: $t: ${execs:-?} executions (${rate:-?}/s) in ${time_s} s, seed $seed, $nseeds seed inputs, no crash"
		echo "fuzz: $t: reproduce: tests/fuzz/run.sh $out --only $t --seed $seed --runs ${execs:-N} --time 3600"
	else
		failures=$((failures + 1))
		echo "FAIL: fuzz: $t: status $status after ${execs:-?} executions, seed $seed, crash file ${crash:-none} (log $log)"
		grep -m3 -E 'invariant broken|ERROR: |runtime error|SUMMARY' "$log" | sed 's/^/    /'
	fi
done
[[ $failures -eq 0 ]]
