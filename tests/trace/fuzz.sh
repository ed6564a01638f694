#!/usr/bin/env bash
# tally-trace's libFuzzer targets (part of the trace suite, tests/trace/run.sh),
# built with clang -fsanitize=fuzzer,address,undefined and run
# deterministically: a fixed seed, a fixed number of inputs, address-space
# randomisation off where allowed (setarch -R), so the same build runs the
# same inputs every time.
#
#   fuzz_decoder   the stream parser and decoder (tests/trace/fuzz_decoder.c)
#   fuzz_elf       the ELF loader and the code map (tests/trace/fuzz_elf.c)
#   fuzz_sidefile  the side-file parser (tests/trace/fuzz_sidefile.c)
#   fuzz_input     the logs encode reads, into ingress records (fuzz_input.c)
#
# Seeds: tests/trace/fuzz-seeds (streams), tests/trace/fuzz-seeds-sidefile,
# tests/trace/fuzz-seeds-input (a line of each log format, and two crashes
# fuzz_input found: a Spike word with no digits, an in_asm odd address),
# and for ELF files two small programs (RV64, RV32) built from
# tests/trace/progs/loop.S with every malformed case of bad-elf.py.
#
# Usage: tests/trace/fuzz.sh <build-dir> [--runs-scale N] [--time S]  (FUZZ_SEED)
#   --runs-scale N  N times the inputs per target (deterministic, seed 1)
#   --time S        a campaign (make fuzz): at most S seconds per target,
#                   unbounded inputs, a seed from the clock unless FUZZ_SEED
#                   (printed), and the corpus kept between campaigns in
#                   <out>/trace/fuzz/campaign-<target>
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$root/build}")
shift || true
scale=1 time_s=""
while [[ $# -gt 0 ]]; do
	case $1 in
	--runs-scale) scale=$2; shift 2 ;;
	--time) time_s=$2; shift 2 ;;
	*) echo "usage: $0 <build-dir> [--runs-scale N] [--time S]" >&2; exit 2 ;;
	esac
done
work="$out/trace/fuzz"
if [[ -n $time_s ]]; then
	seed=${FUZZ_SEED:-$(( $(date +%s%N) % 2147483647 ))}
	echo "trace fuzz campaign: ${time_s} s per target, seed $seed (FUZZ_SEED=$seed to repeat)"
else
	seed=${FUZZ_SEED:-1}
fi
failures=0
pass() { echo "PASS: trace: fuzz: $*"; }
fail() { echo "FAIL: trace: fuzz: $*"; failures=$((failures + 1)); }

fuzzcc=$(command -v clang-14 || command -v clang)
if [[ -z $fuzzcc ]]; then
	echo "SKIP: trace: fuzz: clang not installed (Debian: clang, libclang-rt-14-dev)"
	exit 0
fi
mkdir -p "$work"
norandom=(env)
setarch -R true 2>/dev/null && norandom=(setarch -R)

flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I"$root/include")
lib=("$root"/lib/ntrace/*.c)
t="$root/tools"
declare -A srcs=(
	[fuzz_decoder]="$root/tests/trace/fuzz_decoder.c"
	[fuzz_elf]="$root/tests/trace/fuzz_elf.c $t/tally-trace-elf.c $t/tally-trace-image.c $t/tally-trace-util.c"
	[fuzz_sidefile]="$root/tests/trace/fuzz_sidefile.c $t/tally-trace-cfg.c $t/tally-trace-util.c"
	[fuzz_input]="$root/tests/trace/fuzz_input.c $t/tally-trace-input.c $t/tally-trace-encode.c $t/tally-trace-image.c $t/tally-trace-elf.c $t/tally-trace-output.c $t/tally-trace-cfg.c $t/tally-trace-util.c"
)
# inputs per target: a few seconds each on the 2-core test machine
declare -A runs=([fuzz_decoder]=20000 [fuzz_elf]=12000 [fuzz_sidefile]=20000 [fuzz_input]=12000)

# ELF seeds: "\x01" (--elf) or "\x00" (--syms), then the file
elf_seeds="$work/seeds-elf"
rm -rf "$elf_seeds" && mkdir -p "$elf_seeds/bad"
cc=riscv64-unknown-elf-gcc
if "$cc" -nostdlib -march=rv64gc -mabi=lp64 -Wl,-Ttext=0x80000000 -DTURNS=3 \
	-o "$work/loop64.elf" "$root/tests/trace/progs/loop.S" 2>/dev/null &&
   "$cc" -nostdlib -march=rv32gc -mabi=ilp32 -Wl,-Ttext=0x80000000 -DTURNS=3 \
	-o "$work/loop32.elf" "$root/tests/trace/progs/loop.S" 2>/dev/null &&
   python3 "$root/tests/trace/bad-elf.py" "$work/loop64.elf" "$elf_seeds/bad" >/dev/null; then
	for f in "$work/loop64.elf" "$work/loop32.elf" "$elf_seeds"/bad/*.elf; do
		{ printf '\001'; cat "$f"; } >"$elf_seeds/code-$(basename "$f")"
	done
	{ printf '\000'; cat "$work/loop64.elf"; } >"$elf_seeds/syms-loop64.elf"
	rm -rf "$elf_seeds/bad"
else
	fail "ELF seeds: assemble tests/trace/progs/loop.S for RV64 and RV32, bad-elf.py"
fi
declare -A seeds=(
	[fuzz_decoder]="$root/tests/trace/fuzz-seeds"
	[fuzz_elf]="$elf_seeds"
	[fuzz_sidefile]="$root/tests/trace/fuzz-seeds-sidefile"
	[fuzz_input]="$root/tests/trace/fuzz-seeds-input"
)

# a target is built again only when its compiler, flags, sources or any
# header changed (tests/lib/cache.sh): 16 s of clang a run otherwise
# shellcheck source=../lib/cache.sh
source "$root/tests/lib/cache.sh"	# hash_inputs, build_kept ($stamps)
stamps=$work
headers=$(find "$root/include" "$root/lib/ntrace" "$root/tools" -name '*.h' | sort)
targets=(fuzz_decoder fuzz_elf fuzz_sidefile fuzz_input)
# shellcheck disable=SC2086
sources=$(printf '%s\n' ${srcs[*]} "${lib[@]}" | sort -u)
# Each source is compiled once and each target linked from the objects: the
# decoder library is in all four targets, tally-trace's files in two or
# three, and compiling every target from its sources took 16 s of CPU, 6 s so.
obj_of() { echo "$work/obj/$(basename "$1" .c).o"; }
build_targets() {
	local s t objs
	mkdir -p "$work/obj"
	for s in $sources; do
		"$fuzzcc" "${flags[@]}" -c "$s" -o "$(obj_of "$s")" || return 1
	done
	for t in "${targets[@]}"; do
		objs=()
		for s in ${srcs[$t]} "${lib[@]}"; do
			objs+=("$(obj_of "$s")")
		done
		"$fuzzcc" "${flags[@]}" "${objs[@]}" -o "$work/$t" || return 1
	done
}
# shellcheck disable=SC2086
key=$(hash_inputs "$("$fuzzcc" --version | head -n 1)" "${flags[*]}" $sources $headers)
if ! build_kept targets "$key" "${targets[@]/#/$work/}" -- build_targets 2>"$work/build.log"; then
	fail "build: $(head -3 "$work/build.log")"
	exit 1
fi
for target in "${targets[@]}"; do
	bin="$work/$target"
	# deterministic: a fixed number of inputs from the seeds alone; a
	# campaign: a time bound, the corpus of the earlier campaigns kept
	if [[ -n $time_s ]]; then
		bound=(-max_total_time="$time_s")
		corpus="$work/campaign-$target"
		mkdir -p "$corpus"
	else
		bound=(-runs=$((runs[$target] * scale)) -reload=0)
		corpus="$work/corpus-$target"
		rm -rf "$corpus" && mkdir -p "$corpus"
	fi
	rm -f "$work/crash-$target-"*
	start=$SECONDS
	"${norandom[@]}" "$bin" -seed="$seed" "${bound[@]}" -timeout=10 -max_len=8192 \
		-print_final_stats=1 -artifact_prefix="$work/crash-$target-" \
		"$corpus" "${seeds[$target]}" >"$work/$target.log" 2>&1
	status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$target.log")
	nseeds=$(find "${seeds[$target]}" -type f | wc -l)
	crash=$(ls "$work/crash-$target-"* 2>/dev/null | head -1)
	if [[ $status -eq 0 && -z $crash ]]; then
		pass "$target: ${execs:-?} inputs ($nseeds seeds, seed $seed) in $((SECONDS - start)) s, no crash, no out-of-bounds access, invariants hold$kept"
	else
		fail "$target: status $status after ${execs:-?} inputs, seed $seed, crash file ${crash:-none} (log $work/$target.log): $(grep -m2 -E 'ERROR: |runtime error|SUMMARY|deadly' "$work/$target.log" | tr '\n' ' ')"
	fi
done
[[ $failures -eq 0 ]]
