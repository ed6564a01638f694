#!/usr/bin/env bash
# Runs Tally's test suites and closes with one line "N passed, N failed, N skipped".
# Every suite prints one line per check: "PASS: ...", "FAIL: ..." or "SKIP: ..."
# (optionally behind a "name: " prefix).  A suite that exits non-zero without
# saying FAIL is itself counted as a failure, so nothing fails silently.
#
# Usage: tests/run-all.sh <build-dir> [unit|sbi|linux|trace]...   (default: all)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/build}")
shift || true
suites=("$@")
[[ ${#suites[@]} -gt 0 ]] || suites=(unit sbi linux trace)	# trace after linux: it traces the Linux boot
fw="$out/platform/generic/firmware"
logdir="$out/test-logs"
mkdir -p "$logdir"

suite_unit() {
	local status=0
	# no circular calls between the firmware's files (its objects, read by nm)
	make -s -C "$root" O="$out" firmware &&
	"$root/scripts/check-calls.py" "$out/platform/generic/obj" || status=1
	make -s -C "$root/tests/unit/sbi" O="$out/host/sbi" || status=1
	make -s -C "$root/tests/unit/pmu" O="$out/host/pmu" || status=1
	make -s -C "$root/tests/unit/board" O="$out/host/board" || status=1
	make -s -C "$root/tests/unit/ntrace" O="$out/host/ntrace" || status=1
	"$root/tests/dt/run.sh" "$out" || status=1
	# libFuzzer targets, deterministic: fixed seed and runs (make fuzz: a campaign)
	"$root/tests/fuzz/run.sh" "$out" || status=1
	return $status
}

suite_sbi() {
	local status=0
	# the hostile runs' second firmware: 4 harts at most, hart 1's PMU fails
	make -s -C "$root" O="$out/fw-max4" TALLY_MAX_HARTS=4 TALLY_TEST_PMU_FAIL_HART=1 \
		"$out/fw-max4/platform/generic/firmware/fw_dynamic.bin" || status=1
	# the other boards' own images (make PLATFORM=<board>, their board.mk)
	for board in sifive_u spike; do
		make -s -C "$root" O="$out" PLATFORM=$board \
			"$out/platform/$board/firmware/fw_jump.bin" || status=1
	done
	make -s -C "$root/tests/sbi" O="$out/tests/sbi" &&
	BOARD_IMAGES="$out" HOSTILE_FW_MAX4="$out/fw-max4/platform/generic/firmware/fw_dynamic.bin" \
	"$root/tests/sbi/run.sh" "$out/tests/sbi/sbi-test.elf" \
		"$fw/fw_dynamic.bin" "$fw/fw_jump.bin" || status=1
	# RV32: the same sources and payload built with XLEN=32, on qemu-system-riscv32
	make -s -C "$root" O="$out" XLEN=32 firmware &&
	make -s -C "$root/tests/sbi" XLEN=32 O="$out/tests/sbi-rv32" &&
	XLEN=32 "$root/tests/sbi/run.sh" "$out/tests/sbi-rv32/sbi-test.elf" \
		"$out/platform/generic-rv32/firmware/fw_dynamic.bin" \
		"$out/platform/generic-rv32/firmware/fw_jump.bin" || status=1
	# the benchmark payload still runs (its timings are make bench's business)
	"$root/bench/run.sh" "$out" --smoke || status=1
	return $status
}

# N-Trace: record Tally's boot under QEMU, decode, compare (tests/trace/run.sh);
# then against the N-Trace reference code, NexRv (tests/trace/nexrv-xcheck.sh)
suite_trace() {
	local status=0
	"$root/tests/trace/run.sh" "$out" || status=1
	"$root/tests/trace/nexrv-xcheck.sh" "$out" || status=1
	return $status
}

# Linux perf on both kernels (TALLY_KVERS, default "6.1 6.12"): each is
# built by tests/linux/build.sh into its own cache (build/linux for 6.1,
# build/linux-<kver> otherwise) and gets its own fw_payload. Then the 32-bit
# 6.1 kernel (build/linux-rv32) on the XLEN=32 images.
suite_linux() {
	local kver dir payload board status=0
	for kver in ${TALLY_KVERS:-6.1 6.12}; do
		dir=$out/linux
		payload=$out/linux-payload
		if [[ $kver != 6.1 ]]; then
			dir=$out/linux-$kver
			payload=$out/linux-payload-$kver
		fi
		if "$root/tests/linux/build.sh" --kver "$kver" "$dir" &&
			make -s -C "$root" O="$payload" FW_PAYLOAD_PATH="$dir/Image" \
				"$payload/platform/generic/firmware/fw_payload.bin"; then
			"$root/tests/linux/boot-test.sh" "$dir" "$fw/fw_dynamic.bin" \
				"$fw/fw_jump.bin" \
				"$payload/platform/generic/firmware/fw_payload.bin" || status=1
		else
			echo "FAIL: linux-$kver: kernel and fw_payload built"
			status=1
		fi
	done
	# Linux 6.1 on the other boards (TALLY_LINUX_BOARDS, default sifive_u),
	# each with its own kernel build (tests/linux/build-board.sh)
	for board in ${TALLY_LINUX_BOARDS-sifive_u}; do
		if "$root/tests/linux/build-board.sh" "$board" "$out/linux-$board"; then
			"$root/tests/linux/boot-board.sh" "$board" "$out/linux-$board" \
				"$fw/fw_dynamic.bin" || status=1
		else
			echo "FAIL: linux-6.1/$board: kernel built"
			status=1
		fi
	done
	# RV32: Linux 6.1 for rv32 (tests/linux/build-rv32.sh) on Tally built with XLEN=32
	dir=$out/linux-rv32
	payload=$out/linux-payload-rv32
	if "$root/tests/linux/build-rv32.sh" "$dir" &&
		make -s -C "$root" O="$out" XLEN=32 firmware &&
		make -s -C "$root" O="$payload" XLEN=32 FW_PAYLOAD_PATH="$dir/Image" \
			"$payload/platform/generic-rv32/firmware/fw_payload.bin"; then
		"$root/tests/linux/boot-test-rv32.sh" "$dir" \
			"$out/platform/generic-rv32/firmware/fw_dynamic.bin" \
			"$out/platform/generic-rv32/firmware/fw_jump.bin" \
			"$payload/platform/generic-rv32/firmware/fw_payload.bin" || status=1
	else
		echo "FAIL: linux-rv32: kernel and fw_payload built"
		status=1
	fi
	return $status
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
