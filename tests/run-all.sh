#!/usr/bin/env bash
# Runs Tally's test suites and closes with one line "N passed, N failed, N skipped".
# Every suite prints one line per check: "PASS: ...", "FAIL: ..." or "SKIP: ..."
# (optionally behind a "name: " prefix).  A suite that exits non-zero without
# saying FAIL is itself counted as a failure, so nothing fails silently.
#
# Usage: tests/run-all.sh <build-dir> [unit|sbi|linux|trace|kvm|quick]...
#   (default: all but quick, which is make check-quick's subset of unit and sbi)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/build}")
shift || true
suites=("$@")
[[ ${#suites[@]} -gt 0 ]] || suites=(unit sbi linux trace kvm)	# trace after linux: it traces the Linux boot
fw="$out/platform/generic/firmware"
# The side-by-side runs on OpenSBI 1.1 and 1.9 (Linux boots, KVM selftests)
# print INFO lines only, never counted: they cost a third of the Linux and
# KVM suites' time, so they run with TALLY_COMPARE=1 (and in make bench).
if [[ ${TALLY_COMPARE:-0} != 1 ]]; then
	export OPENSBI_DIR= OPENSBI_ANCHOR=
fi
logdir="$out/test-logs"
mkdir -p "$logdir"

# The firmware and the structure check, the host unit tests and the
# devicetree suite: the unit suite and make check-quick both start here.
host_checks() {
	local status=0 t
	# no circular calls between the firmware's files (its objects, read by nm)
	make -s -C "$root" O="$out" firmware &&
	"$root/scripts/check-calls.py" "$out/platform/generic/obj" || status=1
	for t in sbi pmu board ntrace; do
		make -s -C "$root/tests/unit/$t" O="$out/host/$t" || status=1
	done
	"$root/tests/dt/run.sh" "$out" || status=1
	return $status
}

suite_unit() {
	local status=0
	host_checks || status=1
	# libFuzzer targets, deterministic: fixed seed and runs (make fuzz: a campaign)
	"$root/tests/fuzz/run.sh" "$out" || status=1
	return $status
}

# make check-quick, the inner loop: host_checks and the SBI payload's full
# run on QEMU virt (fw_dynamic); no fuzzing, no other board, no hostile run.
suite_quick() {
	local status=0
	host_checks || status=1
	make -s -C "$root/tests/sbi" O="$out/tests/sbi" &&
	SBI_QUICK=1 "$root/tests/sbi/run.sh" "$out/tests/sbi/sbi-test.elf" \
		"$fw/fw_dynamic.bin" || status=1
	return $status
}

suite_sbi() {
	local status=0
	# the hostile runs' second firmware: 4 harts at most, hart 1's PMU fails;
	# 5 PMP entries counted (the setipnum quirk's page gets none on AIA)
	make -s -C "$root" O="$out/fw-max4" TALLY_MAX_HARTS=4 TALLY_TEST_PMU_FAIL_HART=1 \
		TALLY_TEST_PMP_ENTRIES=5 \
		"$out/fw-max4/platform/generic/firmware/fw_dynamic.bin" || status=1
	# the strict mode-filter image (make PMU_STRICT_FILTERS=1): its PMU runs
	make -s -C "$root" O="$out/fw-strict-filters" PMU_STRICT_FILTERS=1 \
		"$out/fw-strict-filters/platform/generic/firmware/fw_dynamic.bin" || status=1
	# the board's own SSE events (make TALLY_TEST_SSE_EVENTS=1: virt adds two)
	make -s -C "$root" O="$out/fw-sse-board" TALLY_TEST_SSE_EVENTS=1 \
		"$out/fw-sse-board/platform/generic/firmware/fw_dynamic.bin" || status=1
	# the other boards' own images (make PLATFORM=<board>, their board.mk)
	for board in sifive_u spike; do
		make -s -C "$root" O="$out" PLATFORM=$board \
			"$out/platform/$board/firmware/fw_jump.bin" || status=1
	done
	# the strict build: no Linux driver bug absorbed (LINUX_COMPAT=0)
	make -s -C "$root" O="$out/fw-strict" LINUX_COMPAT=0 \
		"$out/fw-strict/platform/generic/firmware/fw_dynamic.bin" || status=1
	make -s -C "$root/tests/sbi" O="$out/tests/sbi" &&
	STRICT_FILTERS_FW="$out/fw-strict-filters/platform/generic/firmware/fw_dynamic.bin" \
	BOARD_SSE_FW="$out/fw-sse-board/platform/generic/firmware/fw_dynamic.bin" \
	BOARD_IMAGES="$out" HOSTILE_FW_MAX4="$out/fw-max4/platform/generic/firmware/fw_dynamic.bin" \
	STRICT_FW="$out/fw-strict/platform/generic/firmware/fw_dynamic.bin" \
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

# Linux perf on both kernels as Debian ships them (TALLY_KVERS, default
# "6.1 6.12"): each is built by tests/linux/build.sh into its own cache
# (build/linux for 6.1, build/linux-<kver> otherwise) and gets its own
# fw_payload. Then Tally's strict build on a fixed 6.12, the other boards,
# and the 32-bit 6.1 kernel (build/linux-rv32) on the XLEN=32 images.
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
	# Tally's strict build (LINUX_COMPAT=0, no Linux bug absorbed) against
	# a 6.12 with the fixes of contrib/linux/6.12 (build.sh --fixed): the
	# fw_dynamic runs only, no reference firmware
	dir=$out/linux-6.12-fixed
	if [[ " ${TALLY_KVERS:-6.1 6.12} " == *" 6.12 "* ]]; then
		if "$root/tests/linux/build.sh" --kver 6.12 --fixed "$dir" &&
			make -s -C "$root" O="$out/fw-strict" LINUX_COMPAT=0 \
				"$out/fw-strict/platform/generic/firmware/fw_dynamic.bin"; then
			TALLY_LINUX_TAG=linux-6.12-fixed/strict OPENSBI_DIR= OPENSBI_ANCHOR= \
				"$root/tests/linux/boot-test.sh" "$dir" \
				"$out/fw-strict/platform/generic/firmware/fw_dynamic.bin" - ||
				status=1
		else
			echo "FAIL: linux-6.12-fixed: kernel and strict firmware built"
			status=1
		fi
	fi
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
	hotplug_loops || status=1
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

# CPU hotplug then perf, in a loop inside one boot (tests/linux/hotplug-loop.sh,
# TALLY_HOTPLUG_ROUNDS rounds, default 15; 200 and more by hand): each kernel
# of TALLY_KVERS on virt; on sifive_u (if in TALLY_LINUX_BOARDS) the 6.1
# board kernel and the 6.12 kernel, which boots on both machines. Runs
# after suite_linux has built the kernels.
hotplug_loops() {
	local kver dir status=0 rounds=${TALLY_HOTPLUG_ROUNDS:-15} sifive_u=()
	for kver in ${TALLY_KVERS:-6.1 6.12}; do
		dir=$out/linux
		[[ $kver == 6.1 ]] || dir=$out/linux-$kver
		"$root/tests/linux/hotplug-loop.sh" virt "$dir" "$fw/fw_dynamic.bin" "$rounds" || status=1
		[[ $kver != 6.12 ]] || sifive_u+=("$dir")
	done
	[[ " ${TALLY_LINUX_BOARDS-sifive_u} " == *" sifive_u "* ]] || return $status
	for dir in "$out/linux-sifive_u" ${sifive_u[@]+"${sifive_u[@]}"}; do
		"$root/tests/linux/hotplug-loop.sh" sifive_u "$dir" "$fw/fw_dynamic.bin" "$rounds" || status=1
	done
	return $status
}

# The kernel's KVM selftests on a Linux 6.12 KVM host booted on Tally with
# the H extension (tests/kvm, docs/kvm.md): the 6.12 kernel of the linux
# suite (built here if it is not yet), the selftests and their initramfs
# (cached in build/kvm), then the runs, compared with OpenSBI 1.9.
suite_kvm() {
	local dir=$out/linux-6.12
	if ! make -s -C "$root" O="$out" firmware ||
		! "$root/tests/linux/build.sh" --kver 6.12 "$dir" ||
		! "$root/tests/kvm/build.sh" "$dir" "$out/kvm"; then
		echo "FAIL: kvm-6.12: firmware, kernel and selftests built"
		return 1
	fi
	"$root/tests/kvm/run.sh" "$dir" "$out/kvm" "$fw/fw_dynamic.bin"
}

# "12 min 5 s": the time a suite took, for its summary line
minutes() { echo "$(($1 / 60)) min $(($1 % 60)) s"; }

pattern='^([A-Za-z0-9_.,()+ -]+: )?(PASS|FAIL|SKIP):'
passed=0 failed=0 skipped=0 times=() all_start=$SECONDS
for s in "${suites[@]}"; do
	log="$logdir/$s.log"
	echo "=== suite: $s (log: $log)"
	start=$SECONDS
	"suite_$s" 2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
	took=$((SECONDS - start))
	p=$(grep -cE "${pattern/(PASS|FAIL|SKIP)/PASS}" "$log")
	f=$(grep -cE "${pattern/(PASS|FAIL|SKIP)/FAIL}" "$log")
	k=$(grep -cE "${pattern/(PASS|FAIL|SKIP)/SKIP}" "$log")
	if [[ $status -ne 0 && $f -eq 0 ]]; then
		echo "FAIL: suite $s exited with status $status"
		f=1
	fi
	echo "--- suite $s: $p passed, $f failed, $k skipped ($(minutes $took))"
	times+=("$s $(minutes $took)")
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + k))
done
time_line=""
for t in "${times[@]}"; do
	time_line+="${time_line:+, }$t"
done
echo "time: $time_line; total $(minutes $((SECONDS - all_start)))"
echo "$passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]
