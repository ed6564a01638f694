#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Boot the test kernel from tests/linux/build.sh under QEMU virt, once per
# firmware flavour, and check that Linux comes up through the SBI firmware,
# that Linux's perf works end to end on the SBI PMU extension, and that
# Linux powers off through SBI SRST.
#
# Usage: tests/linux/boot-test.sh <builddir> FW_DYNAMIC_BIN FW_JUMP_BIN [FW_PAYLOAD_BIN]
#        (FW_JUMP_BIN "-": no fw_jump run)
#
# The runs (init.c picks its checks from tally.perf= on the command line):
#   fw_dynamic         -smp 4, sscofpmf, sstc=false  tally.perf=full: every
#                      perf check (SBI set_timer needs sstc off)
#   fw_dynamic-icount  -smp 1, -icount shift=0,sleep=off  tally.perf=icount:
#                      exact instruction counts. One hart: with several,
#                      QEMU's instret under -icount is the machine-wide
#                      virtual clock (all harts, idle time included)
#   fw_jump            -smp 4, sscofpmf, pmu-num=29  tally.perf=count
#   fw_payload         -smp 4, sscofpmf, the kernel's built-in command line
#                      (no tally.perf: count)
#   fw_dynamic-aia-aplic   Linux 6.12 and later: -M virt,aia=aplic (APLIC in
#   fw_dynamic-aia-imsic   direct mode, SBI IPIs) and -M virt,aia=aplic-imsic
#                      (APLIC in MSI mode, IPIs through the IMSIC), -smp 4,
#                      sscofpmf; tally.perf=aia: boot and hotplug, cycles and
#                      instructions, TLB sampling, IPI and remote-fence paths,
#                      perf after hotplug, the interrupt controllers. QEMU 7.2
#                      gives the harts Smaia/Ssaia itself with an IMSIC.
# fw_dynamic and fw_jump get the kernel with -kernel (and the same initramfs
# again with -initrd, to exercise that path too); fw_payload carries it.
#
# The kernel version (6.1, 6.12) comes from the linux-source-<kver> tree in
# <builddir> and names every check: "linux-6.12/fw_dynamic: ..."
# (TALLY_LINUX_TAG replaces "linux-6.12", e.g. for another build of it).
#
# Then the fw_dynamic runs again on reference firmware for comparison:
# Debian's OpenSBI 1.1 and, where present, the OpenSBI 1.9 anchor
# (../shared/anchors/opensbi-1.9 beside the repository). Neither has the
# PMU snapshot, so Linux 6.12 falls back to plain SBI calls on them. Their
# results are printed as "INFO: opensbi-X.Y linux-<kver>/...: ok|broken|
# skipped" and never count as PASS or FAIL; tests/linux/perf-report.sh
# prints Tally and each reference side by side.
#
# Prints exactly one `PASS: <name>`, `FAIL: <name> (<reason>)` or
# `SKIP: <name> (<why>)` line per check of a Tally run and no summary.
# Exits 1 if any Tally check failed.
# Environment: TALLY_LINUX_TIMEOUT (seconds per boot, default 300),
# QEMU (default qemu-system-riscv64), OPENSBI_DIR (default Debian's
# /usr/lib/riscv64-linux-gnu/opensbi/generic; empty: no comparison),
# OPENSBI_ANCHOR (default <repo>/../shared/anchors/opensbi-1.9; empty:
# none; ../../shared is tried too), TALLY_LINUX_LOGDIR (boot logs, default <builddir>),
# TALLY_LINUX_AIA_COMPARE=1 (the AIA runs on the references too: 2 more
# boots each).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
timeout_s=${TALLY_LINUX_TIMEOUT:-300}
qemu=${QEMU:-qemu-system-riscv64}
opensbi_dir=${OPENSBI_DIR-/usr/lib/riscv64-linux-gnu/opensbi/generic}
# ../shared beside the repository (also from a worktree one level deeper)
anchor_default=$repo/../shared/anchors/opensbi-1.9
[[ -d $anchor_default || ! -d $repo/../../shared/anchors/opensbi-1.9 ]] ||
	anchor_default=$repo/../../shared/anchors/opensbi-1.9
opensbi_anchor=${OPENSBI_ANCHOR-$anchor_default}
append="console=ttyS0 earlycon"
failures=0

usage() {
	echo "usage: $0 <builddir> FW_DYNAMIC_BIN FW_JUMP_BIN [FW_PAYLOAD_BIN]" >&2
	exit 2
}

# Verdicts: Tally's count (PASS/FAIL/SKIP), the reference's are only shown.
# $reference is empty for Tally, else the label ("opensbi-1.1").
pass() {
	if [[ -n $reference ]]; then
		printf 'INFO: %s %s: ok%s\n' "$reference" "$1" "${2:+ ($2)}"
	else
		printf 'PASS: %s%s\n' "$1" "${2:+ ($2)}"
	fi
}
fail() {
	if [[ -n $reference ]]; then
		printf 'INFO: %s %s: broken (%s)\n' "$reference" "$1" "$2"
	else
		printf 'FAIL: %s (%s)\n' "$1" "$2"
		failures=$((failures + 1))
	fi
}
skip() {
	if [[ -n $reference ]]; then
		printf 'INFO: %s %s: skipped (%s)\n' "$reference" "$1" "$2"
	else
		printf 'SKIP: %s (%s)\n' "$1" "$2"
	fi
}

# shellcheck source=../lib/init-checks.sh
source "$repo/tests/lib/init-checks.sh"	# init_checks, filter_banner_checks
# init_verdict PASS|SKIP|FAIL <check> <note>: one init check of the run
# $name (its console log $log), for init_checks
init_verdict() {
	case $1 in
	PASS) pass "$name: init check $2" "$3" ;;
	SKIP) skip "$name: init check $2" "$3" ;;
	FAIL) fail "$name: init check $2" "$3; log $log" ;;
	esac
}

# The console log ends with QEMU's own messages, if any. Runs QEMU under a
# hard timeout; sets qemu_status (124 = timed out) and boot_seconds.
run_qemu() {
	local flavour=$1 fw=$2 log=$3 smp=$4 cpu=$5 extra_append=$6 start=$SECONDS
	shift 6
	local args=(-M "${machine:-virt}" -cpu "$cpu" -smp "$smp" -m 512M -nographic -bios "$fw" "$@")
	if [[ $flavour != fw_payload ]]; then
		args+=(-kernel "$build/Image" -initrd "$build/initramfs.cpio"
			-append "$append $extra_append")
	fi
	qemu_status=0
	timeout -k 5 "$timeout_s" "$qemu" "${args[@]}" < /dev/null > "$log" 2>&1 ||
		qemu_status=$?
	boot_seconds=$((SECONDS - start))
}

# One verdict line per check of one boot log.
check_log() {
	local name=$1 log=$2 smp=$3 marker cpus line check result

	marker=$(grep -aoE 'TALLY-LINUX-INIT: (ok|FAIL).*' "$log" | tail -n 1 | tr -d '\r') || true
	if [[ -n $marker ]]; then
		pass "$name: boots to init"
	else
		fail "$name: boots to init" "no TALLY-LINUX-INIT marker in $log"
	fi

	if grep -aqE 'SBI specification v[0-9]+\.[0-9]+ detected' "$log"; then
		pass "$name: SBI version detected"
	else
		fail "$name: SBI version detected" "no 'SBI specification vX.Y detected' in $log"
	fi

	cpus=$(sed -nE 's/.* ([0-9]+) cpus online.*/\1/p' <<< "$marker")
	if [[ $cpus == "$smp" ]] &&
		grep -aqE "smp: Brought up 1 node, $smp CPUs?$" <(tr -d '\r' < "$log"); then
		pass "$name: $smp CPUs online"
	else
		fail "$name: $smp CPUs online" \
			"init saw ${cpus:-no} cpus, kernel: '$(grep -aoE 'smp: Brought up .*' "$log" | tr -d '\r' || echo 'no smp line')'; log $log"
	fi

	# The init's own checks, one line each (none if init never ran).
	init_checks "$log" init_verdict

	[[ -n $reference ]] || filter_banner_checks "$log" "$name"

	if ((qemu_status == 0)); then
		pass "$name: powers off cleanly"
	elif ((qemu_status == 124 || qemu_status == 137)); then
		fail "$name: powers off cleanly" "still running after ${timeout_s} s, killed; log $log"
	else
		fail "$name: powers off cleanly" "QEMU exited with status $qemu_status; log $log"
	fi
}

# boot_one RUN FLAVOUR FIRMWARE SMP CPU APPEND [QEMU ARGS...]
boot_one() {
	local run=$1 flavour=$2 fw=$3 smp=$4 cpu=$5 extra=$6 before=$failures
	local name="$tag/$run" log=$logdir/boot-${reference:+$reference-}$run.log
	shift 6

	if [[ ! -f $fw ]]; then
		fail "$name: boots to init" "firmware not found: $fw"
		return
	fi
	run_qemu "$flavour" "$fw" "$log" "$smp" "$cpu" "$extra" "$@"
	check_log "$name" "$log" "$smp"
	printf '  %s%s: %s, -M %s -smp %s -cpu %s%s, %d s, QEMU status %d, log %s\n' \
		"${reference:+INFO: $reference }" "$name" "$fw" "${machine:-virt}" "$smp" "$cpu" \
		"${*:+ $*}" "$boot_seconds" "$qemu_status" "$log"
	if [[ -z $reference ]] && ((failures > before)); then
		printf '  last lines of %s:\n' "$log"
		tail -n 30 "$log" | tr -d '\r' | sed 's/^/  | /'
	fi
}

# The perf runs of fw_dynamic (Tally and the reference).
boot_dynamic() {
	boot_one fw_dynamic fw_dynamic "$1" 4 rv64,sscofpmf=true,sstc=false \
		"tally.perf=full tally.pmu_num=16"
	boot_one fw_dynamic-icount fw_dynamic "$1" 1 rv64,sscofpmf=true \
		"tally.perf=icount tally.pmu_num=16" -icount shift=0,sleep=off
}

# The AIA runs (kernels with the APLIC/IMSIC drivers: 6.10 and later).
boot_aia() {
	[[ $kver != 6.1 ]] || return 0
	machine=virt,aia=aplic boot_one fw_dynamic-aia-aplic fw_dynamic "$1" 4 \
		rv64,sscofpmf=true "tally.perf=aia tally.aia=aplic tally.pmu_num=16"
	machine=virt,aia=aplic-imsic boot_one fw_dynamic-aia-imsic fw_dynamic "$1" 4 \
		rv64,sscofpmf=true "tally.perf=aia tally.aia=imsic tally.pmu_num=16"
}

# The fw_dynamic runs on one reference firmware, then the side-by-side table.
compare_with() {
	reference=$1
	if [[ ! -f $2 ]]; then
		echo "  INFO: $reference: no $2, not compared"
		return
	fi
	echo "  INFO: comparison: the same fw_dynamic runs on $2" \
		"(not counted as PASS/FAIL)"
	boot_dynamic "$2"
	[[ -z ${TALLY_LINUX_AIA_COMPARE:-} ]] || boot_aia "$2"
	"$here/perf-report.sh" "$logdir" "$reference" "$kver" | sed 's/^/INFO: /' || true
}

main() {
	local src
	(($# >= 3 && $# <= 4)) || usage
	build=$(cd "$1" && pwd) || usage
	logdir=${TALLY_LINUX_LOGDIR:-$build}
	mkdir -p "$logdir"
	reference=
	src=$(compgen -G "$build/linux-source-*" | head -n 1) || true
	kver=${src##*/linux-source-}
	[[ -n $kver ]] || kver=unknown
	tag=${TALLY_LINUX_TAG:-linux-$kver}
	if [[ ! -f $build/Image || ! -f $build/initramfs.cpio ]]; then
		fail "linux-$kver: kernel built" "no Image/initramfs.cpio in $build: run tests/linux/build.sh --kver $kver $1"
		exit 1
	fi
	command -v "$qemu" > /dev/null || { fail "linux: qemu present" "$qemu not found"; exit 1; }

	boot_dynamic "$2"
	if [[ $3 != - ]]; then
		boot_one fw_jump fw_jump "$3" 4 rv64,sscofpmf=true,pmu-num=29 \
			"tally.perf=count tally.pmu_num=29"
	fi
	if (($# == 4)); then
		boot_one fw_payload fw_payload "$4" 4 rv64,sscofpmf=true ""
	fi
	boot_aia "$2"

	if [[ -n $opensbi_dir && -f $opensbi_dir/fw_dynamic.bin ]]; then
		local version
		version=$(dpkg-query -W -f='${Version}' opensbi 2> /dev/null |
			sed 's/-[^-]*$//' || true)
		compare_with "opensbi${version:+-$version}" "$opensbi_dir/fw_dynamic.bin"
	fi
	if [[ -n $opensbi_anchor ]]; then
		compare_with opensbi-1.9 "$opensbi_anchor/fw_dynamic.bin"
	fi
	((failures == 0))	# Tally's only: fail() does not count references
}

main "$@"
