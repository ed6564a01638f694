#!/usr/bin/env bash
# Runs Tally's test suites and closes with one line "N passed, N failed, N skipped".
# Every check prints one line: "PASS: ...", "FAIL: ..." or "SKIP: ..."
# (optionally behind a "name: " prefix).  A job that exits non-zero without
# saying FAIL is itself counted as a failure, so nothing fails silently.
#
# Usage: tests/run-all.sh <build-dir> [unit|sbi|linux|trace|kvm|debian|quick|debian-full|soak-long|kvm-guest-full|record-soak-full]...
#   (default: all but quick, which is make check-quick's subset of unit and
#   sbi, debian-full, make check-debian's matrix, soak-long, make soak,
#   kvm-guest-full, make check-kvm-guest, and record-soak-full, make
#   soak-record)
#
# Each suite is a few jobs, and the artefacts they need (firmware images,
# kernels, perf, the KVM selftests) are build jobs of their own, each keyed
# by its inputs so that a second run rebuilds nothing.  The jobs run side by
# side, TALLY_JOBS at a time (default: the number of cores), each as soon as
# the jobs it needs have passed; the longest chains start first.  Each job's
# output is printed whole when it ends, so lines of two jobs never mix; the
# log of a suite is <build-dir>/test-logs/<suite>.log.  TALLY_JOBS=1 runs
# them one after another.  Every job but the KVM selftests runs at nice 10
# (kvm_selftests says why).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/build}")
shift || true
suites=("$@")
[[ ${#suites[@]} -gt 0 ]] || suites=(unit sbi linux trace kvm debian)
fw="$out/platform/generic/firmware"
# The side-by-side runs on OpenSBI 1.1 and 1.9 (Linux boots, KVM selftests)
# print INFO lines only, never counted: they cost a third of the Linux and
# KVM suites' time, so they run with TALLY_COMPARE=1 (and in make bench).
if [[ ${TALLY_COMPARE:-0} != 1 ]]; then
	export OPENSBI_DIR= OPENSBI_ANCHOR=
fi
logdir="$out/test-logs"
mkdir -p "$logdir"
kvers=" ${TALLY_KVERS:-6.1 6.12} "
boards=" ${TALLY_LINUX_BOARDS-sifive_u} "

# --- build jobs ---------------------------------------------------------------
# Every make on a shared output directory runs here, before the jobs that
# read it, so no two jobs ever write the same file.

# built <what> <command...>: one PASS or FAIL line for a build step.
built() {
	local what=$1 log
	shift
	log=$(mktemp)
	if "$@" > "$log" 2>&1; then
		echo "PASS: build: $what"
		rm -f "$log"
		return 0
	fi
	echo "FAIL: build: $what"
	tail -n 40 "$log" | sed 's/^/    /'
	rm -f "$log"
	return 1
}

tally_make() { make -s -C "$root" "$@"; }

# The RV64 images, the SBI payload and the host tools: what every suite needs.
build_fw() {
	built "firmware images (fw_dynamic, fw_jump, fw_payload)" tally_make O="$out" firmware &&
	built "the S-mode SBI test payload" make -s -C "$root/tests/sbi" O="$out/tests/sbi" &&
	built "host tools (tally-trace, its plugin, tally-pmu-dtcheck)" \
		make -s -C "$root/tools" O="$out/host/tools"
}

# The other images the SBI suite boots.
build_fw_variants() {
	local status=0 board
	# the hostile runs' second firmware: 4 harts at most, hart 1's PMU fails;
	# 5 PMP entries counted (the setipnum quirk's page gets none on AIA)
	built "fw-max4 (TALLY_MAX_HARTS=4, hart 1's PMU fails, 5 PMP entries)" \
		tally_make O="$out/fw-max4" TALLY_MAX_HARTS=4 TALLY_TEST_PMU_FAIL_HART=1 \
		TALLY_TEST_PMP_ENTRIES=5 \
		"$out/fw-max4/platform/generic/firmware/fw_dynamic.bin" || status=1
	# the strict mode-filter image (make PMU_STRICT_FILTERS=1): its PMU runs
	built "fw-strict-filters (PMU_STRICT_FILTERS=1)" \
		tally_make O="$out/fw-strict-filters" PMU_STRICT_FILTERS=1 \
		"$out/fw-strict-filters/platform/generic/firmware/fw_dynamic.bin" || status=1
	# the board's own SSE events (make TALLY_TEST_SSE_EVENTS=1: virt adds two)
	built "fw-sse-board (TALLY_TEST_SSE_EVENTS=1)" \
		tally_make O="$out/fw-sse-board" TALLY_TEST_SSE_EVENTS=1 \
		"$out/fw-sse-board/platform/generic/firmware/fw_dynamic.bin" || status=1
	# the strict build: no Linux driver bug absorbed (LINUX_COMPAT=0)
	built "fw-strict (LINUX_COMPAT=0)" \
		tally_make O="$out/fw-strict" LINUX_COMPAT=0 \
		"$out/fw-strict/platform/generic/firmware/fw_dynamic.bin" || status=1
	# the other boards' own images (make PLATFORM=<board>, their board.mk)
	for board in sifive_u spike; do
		built "PLATFORM=$board fw_jump" tally_make O="$out" PLATFORM=$board \
			"$out/platform/$board/firmware/fw_jump.bin" || status=1
	done
	# RV32: the same sources and payload built with XLEN=32
	built "XLEN=32 firmware images and SBI payload" eval \
		'tally_make O="$out" XLEN=32 firmware &&
		 make -s -C "$root/tests/sbi" XLEN=32 O="$out/tests/sbi-rv32"' || status=1
	return $status
}

# build_linux <kver> <dir>: a test kernel, its perf and initramfs
# (tests/linux/build.sh, cached in <dir>).  It needs nothing of the
# firmware's build, so the kernels start first, beside it; the fw_payload
# that carries a kernel is built by the job that boots it (linux_boot).
build_linux() {
	if "$root/tests/linux/build.sh" --kver "$1" "$2"; then
		echo "PASS: build: linux-$1: kernel, perf and initramfs"
	else
		echo "FAIL: build: linux-$1: kernel, perf and initramfs"
		return 1
	fi
}

build_linux_61() { build_linux 6.1 "$out/linux"; }

# 6.12, then the same tree with the fixes of contrib/linux/6.12 (build.sh
# --fixed, built incrementally in the 6.12 tree) for Tally's strict build
build_linux_612() {
	build_linux 6.12 "$out/linux-6.12" || return 1
	if "$root/tests/linux/build.sh" --kver 6.12 --fixed "$out/linux-6.12-fixed"; then
		echo "PASS: build: linux-6.12-fixed: the 6.12 kernel with contrib/linux/6.12"
	else
		echo "FAIL: build: linux-6.12-fixed: the 6.12 kernel with contrib/linux/6.12"
		return 1
	fi
}

# RV32: Linux 6.1 for rv32 (tests/linux/build-rv32.sh, the 6.1 source tree
# of build/linux); its fw_payload is linux_rv32's
build_linux_rv32() {
	if "$root/tests/linux/build-rv32.sh" "$out/linux-rv32"; then
		echo "PASS: build: linux-rv32: kernel and init"
	else
		echo "FAIL: build: linux-rv32: kernel and init"
		return 1
	fi
}

# The 2026 stack: Debian 13's and trixie-backports' own QEMU 10.0 and 11.1,
# kernels and perf (tests/debian/fetch.sh, a private apt configuration;
# build/debian, kept while the versions are the same)
build_debian() {
	built "Debian's 2026 stack: QEMU 10.0 and 11.1, kernels, perf (tests/debian/fetch.sh)" \
		"$root/tests/debian/fetch.sh" "$out/debian" &&
	built "the Debian-stack initramfs: init.c with Debian's perf (tests/debian/initramfs.sh)" \
		"$root/tests/debian/initramfs.sh" "$out/debian"
}

# The KVM selftests and their initramfs (tests/kvm/build.sh, build/kvm)
build_kvm() {
	if "$root/tests/kvm/build.sh" "$out/linux-6.12" "$out/kvm"; then
		echo "PASS: build: kvm-6.12: the KVM selftests and kvm.cpio"
	else
		echo "FAIL: build: kvm-6.12: the KVM selftests and kvm.cpio"
		return 1
	fi
}

# --- the suites' jobs -----------------------------------------------------------

# The structure check, the host unit tests, the devicetree suite and the
# runner's own test: the unit suite and make check-quick both start here.
host_checks() {
	local status=0 t
	# no circular calls between the firmware's files (its objects, read by nm)
	"$root/scripts/check-calls.py" "$out/platform/generic/obj" || status=1
	# each directory's variants (plain, sanitizers, build options) are
	# compiled side by side: from a clean clone this job is mostly compiling
	for t in sbi pmu board ntrace; do
		make -s -j"$(nproc)" -C "$root/tests/unit/$t" O="$out/host/$t" || status=1
	done
	"$root/tests/dt/run.sh" "$out" || status=1
	# this runner's own failure path, on stub jobs; the build caches' keep-or-build
	"$root/tests/runner-test.sh" "$out" || status=1
	"$root/tests/lib/cache-test.sh" "$out" || status=1
	return $status
}

# libFuzzer targets, deterministic: fixed seed and runs (make fuzz: a campaign)
unit_fuzz() { "$root/tests/fuzz/run.sh" "$out"; }

# make check-quick, the inner loop: the SBI payload's full run on QEMU virt
# (fw_dynamic); no fuzzing, no other board, no hostile run.
quick_sbi() {
	SBI_QUICK=1 "$root/tests/sbi/run.sh" "$out/tests/sbi/sbi-test.elf" "$fw/fw_dynamic.bin"
}

sbi_rv64() {
	STRICT_FILTERS_FW="$out/fw-strict-filters/platform/generic/firmware/fw_dynamic.bin" \
	BOARD_SSE_FW="$out/fw-sse-board/platform/generic/firmware/fw_dynamic.bin" \
	BOARD_IMAGES="$out" HOSTILE_FW_MAX4="$out/fw-max4/platform/generic/firmware/fw_dynamic.bin" \
	STRICT_FW="$out/fw-strict/platform/generic/firmware/fw_dynamic.bin" \
	"$root/tests/sbi/run.sh" "$out/tests/sbi/sbi-test.elf" \
		"$fw/fw_dynamic.bin" "$fw/fw_jump.bin"
}

# RV32: the same payload on qemu-system-riscv32; then the benchmark payload
# still runs (its timings are make bench's business)
sbi_rv32() {
	local status=0
	XLEN=32 "$root/tests/sbi/run.sh" "$out/tests/sbi-rv32/sbi-test.elf" \
		"$out/platform/generic-rv32/firmware/fw_dynamic.bin" \
		"$out/platform/generic-rv32/firmware/fw_jump.bin" || status=1
	"$root/bench/run.sh" "$out" --smoke || status=1
	return $status
}

# the payload's isa run on the CPU models of Debian's QEMU 10.0 and 11.1
sbi_2026() {
	SBI_ISA_ONLY=1 TALLY_DEBIAN="$out/debian" "$root/tests/sbi/run.sh" \
		"$out/tests/sbi/sbi-test.elf" "$fw/fw_dynamic.bin"
}

# Linux perf on the kernels as Debian ships them: fw_dynamic, fw_jump and
# the kernel's own fw_payload (tests/linux/boot-test.sh), built here: its
# output directory is this job's alone
linux_boot() {	# <kver> <dir> <payload dir>
	built "linux-$1: fw_payload with the kernel" tally_make O="$3" FW_PAYLOAD_PATH="$2/Image" \
		"$3/platform/generic/firmware/fw_payload.bin" || return 1
	"$root/tests/linux/boot-test.sh" "$2" "$fw/fw_dynamic.bin" "$fw/fw_jump.bin" \
		"$3/platform/generic/firmware/fw_payload.bin"
}
linux_61() { linux_boot 6.1 "$out/linux" "$out/linux-payload"; }
linux_612() { linux_boot 6.12 "$out/linux-6.12" "$out/linux-payload-6.12"; }
# Tally's strict build (LINUX_COMPAT=0, no Linux bug absorbed) against the
# 6.12 with the fixes of contrib/linux/6.12: fw_dynamic only
linux_612_fixed() {
	TALLY_LINUX_TAG=linux-6.12-fixed/strict OPENSBI_DIR= OPENSBI_ANCHOR= \
		"$root/tests/linux/boot-test.sh" "$out/linux-6.12-fixed" \
		"$out/fw-strict/platform/generic/firmware/fw_dynamic.bin" -
}

# Linux 6.1 on the other boards (TALLY_LINUX_BOARDS, default sifive_u): the
# 6.1 kernel of build/linux, whose config has the boards' drivers
# (tests/linux/kernel-6.1.config), as one Debian kernel serves every board
linux_boards() {
	local board status=0
	for board in $boards; do
		"$root/tests/linux/boot-board.sh" "$board" "$out/linux" "$fw/fw_dynamic.bin" ||
			status=1
	done
	return $status
}

# CPU hotplug then perf, in a loop inside one boot (tests/linux/hotplug-loop.sh,
# TALLY_HOTPLUG_ROUNDS rounds, default 15; 200 and more by hand), on virt and
# (if in TALLY_LINUX_BOARDS) on sifive_u: hotplug_loop <kver> <board>
hotplug_loop() {
	local dir=$out/linux
	[[ $1 == 6.1 ]] || dir=$out/linux-$1
	"$root/tests/linux/hotplug-loop.sh" "$2" "$dir" "$fw/fw_dynamic.bin" \
		"${TALLY_HOTPLUG_ROUNDS:-15}"
}
hotplug_61() {
	local status=0
	hotplug_loop 6.1 virt || status=1
	[[ $boards != *" sifive_u "* ]] || hotplug_loop 6.1 sifive_u || status=1
	return $status
}
hotplug_612() {
	local status=0
	hotplug_loop 6.12 virt || status=1
	[[ $boards != *" sifive_u "* ]] || hotplug_loop 6.12 sifive_u || status=1
	return $status
}

# RV32: the 32-bit 6.1 kernel on Tally built with XLEN=32
linux_rv32() {
	local payload=$out/linux-payload-rv32
	built "linux-rv32: fw_payload (XLEN=32) with the kernel" \
		tally_make O="$payload" XLEN=32 FW_PAYLOAD_PATH="$out/linux-rv32/Image" \
		"$payload/platform/generic-rv32/firmware/fw_payload.bin" || return 1
	"$root/tests/linux/boot-test-rv32.sh" "$out/linux-rv32" \
		"$out/platform/generic-rv32/firmware/fw_dynamic.bin" \
		"$out/platform/generic-rv32/firmware/fw_jump.bin" \
		"$payload/platform/generic-rv32/firmware/fw_payload.bin"
}

# N-Trace: Tally's boot recorded under QEMU, decoded, compared; the tool;
# its fuzz targets (tests/trace/run.sh boot); the Linux boot's round trips
# (run.sh linux); against the N-Trace reference code, NexRv (nexrv-xcheck.sh)
trace_boot() { "$root/tests/trace/run.sh" "$out" boot; }
trace_linux() { "$root/tests/trace/run.sh" "$out" linux; }
trace_nexrv() { "$root/tests/trace/nexrv-xcheck.sh" "$out"; }

# The kernel's KVM selftests on a Linux 6.12 KVM host booted on Tally with
# the H extension (tests/kvm, docs/kvm.md), without and with AIA.  One job,
# the two runs one after the other, and the only job at normal priority
# (the others run at nice 10): its selftests spin on each other's threads,
# on the two vCPU threads of one QEMU, and whenever another process holds
# one of the cores they spin in vain (set_memory_region_test took 87 s to
# 190 s beside other jobs instead of 23 s, kvm_page_table_test twice its time)
kvm_selftests() { "$root/tests/kvm/run.sh" "$out/linux-6.12" "$out/kvm" "$fw/fw_dynamic.bin"; }

# Tally on the 2026 stack (tests/debian/run.sh): Debian's QEMU 10.0 with
# trixie's kernel and QEMU 11.1 with the backports kernel on every CPU
# model each has, AIA, exact counts; both kernels on both QEMUs is make
# check-debian's
debian_short() { "$root/tests/debian/run.sh" "$out" short "$fw/fw_dynamic.bin"; }
debian_full() { "$root/tests/debian/run.sh" "$out" full "$fw/fw_dynamic.bin"; }

# The soak (tests/debian/soak.sh): stress-ng's CPU hotplug, perf, timers,
# IPIs and remote fences at once on Debian's 6.12 under QEMU 11.1, 4 harts;
# 60 s in the test command; make soak: TALLY_SOAK_SECONDS (600), then
# OpenSBI 1.9 the same way (INFO lines; TALLY_COMPARE=1, OPENSBI_ANCHOR)
debian_soak() { "$root/tests/debian/soak.sh" "$out" 60; }
debian_soak_long() {
	local status=0 anchor=${OPENSBI_ANCHOR-$root/../shared/anchors/opensbi-1.9}
	"$root/tests/debian/soak.sh" "$out" "${TALLY_SOAK_SECONDS:-600}" || status=1
	if [[ -n $anchor && -f $anchor/fw_dynamic.bin ]]; then
		"$root/tests/debian/soak.sh" "$out" "${TALLY_SOAK_SECONDS:-600}" \
			"$anchor/fw_dynamic.bin" opensbi-1.9
	fi
	return $status
}

# The sampling soak (tests/debian/record-soak.sh): perf record of cycles and
# of dTLB-load-misses:u, run after run with no retry and no warm-up; in the
# test command 10 rounds on QEMU 11.1 -smp 4 with Debian's newest 7.x; make
# soak-record: QEMU 7.2 and 11.1 x 6.12 and 7.x x 1 and 4 harts x Tally
# (snapshot on and off) and OpenSBI 1.9, TALLY_RECORD_RUNS (50) rounds each,
# then the -icount leg (TALLY_RECORD_MODE=exact: that leg alone)
debian_record_soak() { "$root/tests/debian/record-soak.sh" "$out" 10 short; }
debian_record_soak_full() {
	"$root/tests/debian/record-soak.sh" "$out" "${TALLY_RECORD_RUNS:-50}" \
		"${TALLY_RECORD_MODE:-full}"
}

# The README's `run` (tests/linux/demo.sh) on Debian's stack, with Debian 13's
# kernel and with the newest: it ends, and both recordings sample
# (tests/debian/run-demo.sh)
debian_demo() { "$root/tests/debian/run-demo.sh" "$out"; }

# Debian's U-Boot (u-boot-qemu, qemu-riscv64_smode) as the next stage of
# fw_dynamic and fw_jump on QEMU 10.0 and 11.1 (tests/debian/uboot.sh):
# its prompt, its sbi command's list, booti of Debian's kernel to init
debian_uboot() { "$root/tests/debian/uboot.sh" "$out"; }

# perf in a KVM guest on Debian's stack (tests/debian/kvm-guest.sh, docs/kvm.md):
# QEMU 11.1 (TCG, AIA) -> Tally -> Debian's 6.12 as KVM host -> Debian's
# riscv64 QEMU -accel kvm -> the same kernel as guest, perf stat and perf
# record in it; one boot, 48 s alone, 92 to 199 s beside other jobs.  make check-kvm-guest: QEMU 10.0 and
# 11.1, with and without AIA, then OpenSBI 1.9 (INFO lines; TALLY_COMPARE=1)
debian_kvm_guest() { "$root/tests/debian/kvm-guest.sh" "$out" "$fw/fw_dynamic.bin"; }
debian_kvm_guest_full() { TALLY_KVMG_RUNS=full "$root/tests/debian/kvm-guest.sh" "$out" "$fw/fw_dynamic.bin"; }

# --- the job table ----------------------------------------------------------------
# job <name> <suite> <seconds> <function> [jobs it needs...]
# <seconds>: about what it took from a clean clone on 2 cores, beside
# another job; the job with the longest chain of itself and what waits for
# it starts first.
declare -A job_suite=() job_est=() job_fn=() job_deps=()
job_order=()
job() {
	job_suite[$1]=$2 job_est[$1]=$3 job_fn[$1]=$4 job_deps[$1]="${*:5}"
	job_order+=("$1")
}
job build-fw build 40 build_fw
job build-fw-variants build 50 build_fw_variants build-fw
[[ $kvers != *" 6.1 "* ]] || job build-linux-6.1 build 400 build_linux_61
[[ $kvers != *" 6.12 "* ]] || job build-linux-6.12 build 490 build_linux_612
# (it reads the 6.1 source tree of build/linux, extracted by build-linux-6.1)
job build-linux-rv32 build 280 build_linux_rv32 ${job_suite[build-linux-6.1]:+build-linux-6.1}
job build-kvm build 40 build_kvm build-linux-6.12
job unit-host unit 75 host_checks build-fw
job unit-fuzz unit 50 unit_fuzz build-fw
job quick-host quick 45 host_checks build-fw
job quick-sbi quick 30 quick_sbi build-fw
job sbi sbi 30 sbi_rv64 build-fw-variants
job sbi-rv32 sbi 10 sbi_rv32 build-fw-variants
job build-debian build 120 build_debian
job debian debian 300 debian_short build-fw build-debian
job debian-full debian-full 900 debian_full build-fw build-debian
job soak debian 130 debian_soak build-fw build-debian
job debian-uboot debian 60 debian_uboot build-fw build-debian
job debian-demo debian 80 debian_demo build-fw build-debian
job soak-long soak-long 1500 debian_soak_long build-fw build-debian
job record-soak debian 95 debian_record_soak build-fw build-debian
job record-soak-full record-soak-full 4800 debian_record_soak_full build-fw build-debian
job kvm-guest debian 200 debian_kvm_guest build-fw build-debian
job kvm-guest-full kvm-guest-full 900 debian_kvm_guest_full build-fw build-debian
job sbi-2026 sbi 20 sbi_2026 build-fw build-debian
if [[ $kvers == *" 6.1 "* ]]; then
	job linux-6.1 linux 65 linux_61 build-linux-6.1 build-fw
	job linux-boards linux 15 linux_boards build-linux-6.1 build-fw
	job hotplug-6.1 linux 35 hotplug_61 build-linux-6.1 build-fw
	job trace-linux trace 90 trace_linux build-linux-6.1 build-fw
fi
if [[ $kvers == *" 6.12 "* ]]; then
	job linux-6.12 linux 100 linux_612 build-linux-6.12 build-fw
	job linux-6.12-fixed linux 50 linux_612_fixed build-linux-6.12 build-fw-variants
	job hotplug-6.12 linux 40 hotplug_612 build-linux-6.12 build-fw
	job kvm kvm 135 kvm_selftests build-kvm build-fw
fi
job linux-rv32 linux 12 linux_rv32 build-linux-rv32 build-fw-variants
job trace-boot trace 100 trace_boot build-fw
# with a built 6.1 kernel the cross-check also traces its boot
job trace-nexrv trace 160 trace_nexrv build-fw ${job_suite[build-linux-6.1]:+build-linux-6.1}

# The runner's own test (tests/runner-test.sh, in the unit suite) runs
# stub jobs through the scheduler below: TALLY_RUNNER_TEST=1 and the suite
# "runner-test" replace the table with them.
if [[ ${TALLY_RUNNER_TEST:-0} == 1 ]]; then
	stub_pass() { echo "PASS: stub: $1"; }
	# verdicts behind a prefix with =, / and : in it, and an INFO line
	# that must not count
	stub_prefixed() {
		echo "qemu=11.1/rva23s64:aia: PASS: stub: prefixed"
		echo "INFO: PASS stub: a comparison's line, not counted"
	}
	stub_fail() { echo "FAIL: stub: $1"; return 1; }
	job_suite=() job_est=() job_fn=() job_deps=() job_order=()
	job stub-build runner-test 1 "stub_pass build"
	job stub-broken runner-test 1 "stub_fail broken"
	job stub-after-broken runner-test 1 "stub_pass after-broken" stub-broken
	job stub-after-that runner-test 1 "stub_pass after-that" stub-after-broken
	job stub-after-build runner-test 1 "stub_pass after-build" stub-build
	job stub-prefixed runner-test 1 stub_prefixed
fi

# --- the scheduler ----------------------------------------------------------------
declare -A want=() state=() rank=() started=() took=() cpu=() job_of=()
need() {	# need <job>: it and the jobs it needs run
	local d
	[[ -z ${want[$1]-} ]] || return 0
	want[$1]=1
	for d in ${job_deps[$1]}; do need "$d"; done
}
for j in "${job_order[@]}"; do
	for s in "${suites[@]}"; do
		[[ ${job_suite[$j]} != "$s" ]] || need "$j"
	done
done
# rank: a job's time plus the longest rank of the jobs that need it
rank_of() {
	local j=$1 best=0 k
	[[ -z ${rank[$j]-} ]] || return 0
	for k in "${!want[@]}"; do
		[[ " ${job_deps[$k]} " == *" $j "* ]] || continue
		rank_of "$k"
		((rank[$k] > best)) && best=${rank[$k]}
	done
	rank[$j]=$((job_est[$j] + best))
}
queue=()
for j in "${!want[@]}"; do
	rank_of "$j"
	queue+=("${rank[$j]} $j")
	state[$j]=waiting
done
mapfile -t queue < <(printf '%s\n' "${queue[@]}" | sort -k1,1nr -k2 | cut -d' ' -f2)

# "12 min 5 s": the time a job or suite took
minutes() { echo "$(($1 / 60)) min $(($1 % 60)) s"; }
# any prefix ending in ": " (a job's "name: ", a check's "qemu=11.1/cpu:x: ")
# with no other ": " in it, so "PASS: a (FAIL: b)" counts once, as a pass
pattern='^(([^:]|:[^ ])*: )?(PASS|FAIL|SKIP):'
count() { grep -cE "${pattern/(PASS|FAIL|SKIP)/$1}" "$2"; }

slots=${TALLY_JOBS:-$(nproc)}
((slots >= 1)) || slots=1
all_start=$SECONDS
running=0
echo "=== $(( ${#queue[@]} )) jobs, $slots at a time (logs: $logdir)"

start_job() {
	local j=$1
	state[$j]=running
	started[$j]=$SECONDS
	echo "... $(minutes $((SECONDS - all_start))): $j started"
	# the job (at a lower priority unless it is the KVM suite's), then
	# the CPU time it and its processes used (bash's times)
	(
		[[ $j == kvm ]] || renice -n 10 -p $BASHPID > /dev/null
		${job_fn[$j]}	# a function, and for the stub jobs its argument
		s=$?
		times > "$logdir/job-$j.times"
		exit $s
	) > "$logdir/job-$j.log" 2>&1 < /dev/null &
	job_of[$!]=$j
	running=$((running + 1))
}

# cpu_of <times file>: the seconds of CPU its job's processes used
cpu_of() {
	[[ -f $1 ]] || { echo 0; return; }
	awk 'NR <= 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } }
	     END { printf "%d", n }' "$1"
}

# end_job <job> <status>: its verdict, its output, its counts
end_job() {
	local j=$1 status=$2 log=$logdir/job-$1.log p f k
	took[$j]=$((SECONDS - ${started[$j]:-$SECONDS}))
	cpu[$j]=$(cpu_of "$logdir/job-$j.times")
	f=$(count FAIL "$log")
	if [[ $status -ne 0 && $f -eq 0 ]]; then
		echo "FAIL: job $j exited with status $status" >> "$log"
	fi
	p=$(count PASS "$log") f=$(count FAIL "$log") k=$(count SKIP "$log")
	state[$j]=passed
	((f == 0)) || state[$j]=failed
	echo "=== job $j (suite ${job_suite[$j]})"
	cat "$log"
	echo "--- job $j: $p passed, $f failed, $k skipped ($(minutes ${took[$j]}), CPU $(minutes ${cpu[$j]}))"
}

while :; do
	for j in "${queue[@]}"; do
		((running < slots)) || break
		[[ ${state[$j]} == waiting ]] || continue
		ready=1 blocked=""
		for d in ${job_deps[$j]}; do
			case ${state[$d]} in
			passed) ;;
			failed) blocked=$d ;;
			*) ready=0 ;;
			esac
		done
		if [[ -n $blocked ]]; then
			echo "FAIL: job $j not run: the job it needs, $blocked, failed" > "$logdir/job-$j.log"
			rm -f "$logdir/job-$j.times"	# an earlier run's
			end_job "$j" 1	# failed, so the jobs that need it are not run either
			continue 2	# its dependents may be blocked now too
		fi
		((ready)) && start_job "$j"
	done
	((running > 0)) || break
	wait -n -p done_pid
	status=$?
	running=$((running - 1))
	end_job "${job_of[$done_pid]}" $status
done

# the suites: their jobs' logs joined, their counts, the time of their jobs
passed=0 failed=0 skipped=0 time_line="" cpu_all=0
for s in build "${suites[@]}"; do
	log="$logdir/$s.log" p=0 f=0 k=0 t=0 n=0 c=0
	: > "$log"
	for j in "${job_order[@]}"; do
		[[ -n ${want[$j]-} && ${job_suite[$j]} == "$s" ]] || continue
		cat "$logdir/job-$j.log" >> "$log"
		t=$((t + ${took[$j]:-0})) c=$((c + ${cpu[$j]:-0})) n=$((n + 1))
	done
	((n > 0)) || continue
	p=$(count PASS "$log") f=$(count FAIL "$log") k=$(count SKIP "$log")
	echo "--- suite $s: $p passed, $f failed, $k skipped ($(minutes $t) in $n jobs, CPU $(minutes $c))"
	time_line+="${time_line:+, }$s $(minutes $t)"
	cpu_all=$((cpu_all + c))
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + k))
done
echo "time: $time_line; total $(minutes $((SECONDS - all_start))) ($slots jobs at a time, CPU $(minutes $cpu_all) on $(nproc) cores)"
echo "$passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]
