#!/usr/bin/env bash
# libFuzzer runs: builds the targets of tests/fuzz/Makefile and runs each
# from its checked-in seed corpus (tests/fuzz/corpus/<target>, crash
# reproducers included, so every old crash is replayed first).
#
#   tests/fuzz/run.sh <build-dir> [--seed N] [--runs N] [--time SECONDS] [--only TARGET]
#
# Two modes:
# - default (the test command, tests/run-all.sh's unit suite): deterministic,
#   so it can never flake: a fixed seed ($FUZZ_SEED or 1) and a fixed number
#   of inputs per target ($FUZZ_RUNS or the target's default below, about
#   15 s each on the 2-core test machine: the seed corpus, crash
#   reproducers included, and some ten thousand new inputs beyond it; the
#   long searches are make fuzz's), no time bound.  The same build
#   runs the same inputs every time (no timed corpus reloads; address-space
#   randomisation off with setarch -R, where allowed).
# - --time S (make fuzz, long campaigns): at most S seconds per target, a
#   seed taken from the clock unless --seed/$FUZZ_SEED gives one (printed),
#   unbounded runs unless --runs.  A campaign is reproduced exactly with the
#   same --seed and --runs (the count it printed).
# One line per target: "PASS: fuzz: ..." with executions and executions/s,
# or "FAIL: fuzz: ..." naming the crash file (copy it into the target's
# corpus once fixed).  Exit status 1 on failure.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$root/build}")
shift || true
time_s="" seed=${FUZZ_SEED:-} runs=${FUZZ_RUNS:-} only=""
while [[ $# -gt 0 ]]; do
	case $1 in
	--time) time_s=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	*) echo "usage: $0 <build-dir> [--seed N] [--runs N] [--time S] [--only TARGET]" >&2; exit 2 ;;
	esac
done
# the deterministic mode's inputs per target (about 15 s each here)
declare -A default_runs=([fuzz_dt]=25000 [fuzz_dt_gen]=45000 [fuzz_pmu]=45000)
if [[ -n $time_s ]]; then
	seed=${seed:-$(( $(date +%s%N) % 2147483647 ))}
else
	seed=${seed:-1}
fi
# With address-space randomisation, libFuzzer's comparison tracing sees
# different pointer values and the same seed grows a different corpus:
# turned off where the system lets us, so a run is the same inputs each time.
norandom=(env)
setarch -R true 2>/dev/null && norandom=(setarch -R)
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

if [[ -n $time_s ]]; then
	echo "fuzz: campaign: seed $seed, ${time_s} s per target${runs:+, at most $runs runs}"
else
	echo "fuzz: deterministic: seed $seed, a fixed number of runs per target"
fi
for t in fuzz_dt fuzz_dt_gen fuzz_pmu; do
	[[ -z $only || $only == "$t" ]] || continue
	seeds="$root/tests/fuzz/corpus/$t"
	work="$fuzz/corpus-$t"
	log="$fuzz/$t.log"
	rm -rf "$work" "$fuzz/crash-$t-"*
	mkdir -p "$work"
	n=${runs:-${default_runs[$t]}}
	bound=(-runs="$n" -reload=0)	# no timed corpus reloads
	if [[ -n $time_s ]]; then
		bound=(-max_total_time="$time_s" ${runs:+-runs="$runs"})
		n=""
	fi
	"${norandom[@]}" "$fuzz/$t" -seed="$seed" "${bound[@]}" -timeout=10 \
		-print_final_stats=1 -artifact_prefix="$fuzz/crash-$t-" "$work" "$seeds" >"$log" 2>&1
	status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	nseeds=$(find "$seeds" -type f | wc -l)
	crash=$(ls "$fuzz/crash-$t-"* 2>/dev/null | head -1)
	if [[ $status -eq 0 && -z $crash ]]; then
		echo "PASS: fuzz: $t: ${execs:-?} executions (${rate:-?}/s)${time_s:+ in $time_s s}, seed $seed, $nseeds seed inputs, no crash"
		echo "fuzz: $t: reproduce: tests/fuzz/run.sh $out --only $t --seed $seed --runs ${n:-${execs:-N}}"
	else
		failures=$((failures + 1))
		echo "FAIL: fuzz: $t: status $status after ${execs:-?} executions, seed $seed, crash file ${crash:-none} (log $log)"
		grep -m3 -E 'invariant broken|ERROR: |runtime error|SUMMARY' "$log" | sed 's/^/    /'
	fi
done
[[ $failures -eq 0 ]]
