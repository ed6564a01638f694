#!/usr/bin/env bash
# Runs Tally's test suites and closes with one line "N passed, N failed, N skipped".
# Every suite prints one line per check: "PASS: ...", "FAIL: ..." or "SKIP: ..."
# (optionally behind a "name: " prefix).  A suite that exits non-zero without
# saying FAIL is itself counted as a failure, so nothing fails silently.
#
# Usage: tests/run-all.sh <build-dir> [unit|sbi|trace|linux]...   (default: all)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/build}")
shift || true
suites=("$@")
[[ ${#suites[@]} -gt 0 ]] || suites=(unit sbi trace linux)
fw="$out/platform/generic/firmware"
logdir="$out/test-logs"
mkdir -p "$logdir"

suite_unit() {
	local status=0
	make -s -C "$root/tests/unit/sbi" O="$out/host/sbi" || status=1
	make -s -C "$root/tests/unit/pmu" O="$out/host/pmu" || status=1
	make -s -C "$root/tests/unit/ntrace" O="$out/host/ntrace" || status=1
	"$root/tests/dt/run.sh" "$out" || status=1
	return $status
}

suite_sbi() {
	local status=0
	make -s -C "$root/tests/sbi" O="$out/tests/sbi" &&
	"$root/tests/sbi/run.sh" "$out/tests/sbi/sbi-test.elf" \
		"$fw/fw_dynamic.bin" "$fw/fw_jump.bin" || status=1
	# the benchmark payload still runs (its timings are make bench's business)
	"$root/bench/run.sh" "$out" --smoke || status=1
	return $status
}

# N-Trace: record Tally's boot under QEMU, decode, compare (tests/trace/run.sh)
suite_trace() {
	"$root/tests/trace/run.sh" "$out"
}

suite_linux() {
	"$root/tests/linux/build.sh" "$out/linux" &&
	make -s -C "$root" O="$out/linux-payload" FW_PAYLOAD_PATH="$out/linux/Image" \
		"$out/linux-payload/platform/generic/firmware/fw_payload.bin" &&
	"$root/tests/linux/boot-test.sh" "$out/linux" "$fw/fw_dynamic.bin" "$fw/fw_jump.bin" \
		"$out/linux-payload/platform/generic/firmware/fw_payload.bin"
}

pattern='^([A-Za-z0-9_.,()+ -]+: )?(PASS|FAIL|SKIP):'
passed=0 failed=0 skipped=0
for s in "${suites[@]}"; do
	log="$logdir/$s.log"
	echo "=== suite: $s (log: $log)"
	"suite_$s" 2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
	p=$(grep -cE "${pattern/(PASS|FAIL|SKIP)/PASS}" "$log")
	f=$(grep -cE "${pattern/(PASS|FAIL|SKIP)/FAIL}" "$log")
	k=$(grep -cE "${pattern/(PASS|FAIL|SKIP)/SKIP}" "$log")
	if [[ $status -ne 0 && $f -eq 0 ]]; then
		echo "FAIL: suite $s exited with status $status"
		f=1
	fi
	echo "--- suite $s: $p passed, $f failed, $k skipped"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + k))
done
echo "$passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]
