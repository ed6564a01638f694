#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Boot the test kernel from tests/linux/build.sh under QEMU virt with 4 harts,
# once per firmware flavour, and check that Linux comes up through the SBI
# firmware and powers off through SBI SRST.
#
# Usage: tests/linux/boot-test.sh <builddir> FW_DYNAMIC_BIN FW_JUMP_BIN [FW_PAYLOAD_BIN]
#
# The flavour is given by the argument position: fw_dynamic and fw_jump get
# the kernel with -kernel (and the same initramfs again with -initrd, to
# exercise that path too); fw_payload already carries the kernel, so QEMU gets
# only -bios and the kernel uses its built-in initramfs and command line.
#
# Prints exactly one `PASS: <name>` or `FAIL: <name> (<reason>)` line per
# check and no summary. Exits 1 if any check failed.
# Environment: TALLY_LINUX_TIMEOUT (seconds per boot, default 120),
# QEMU (default qemu-system-riscv64).
set -euo pipefail

smp=4
timeout_s=${TALLY_LINUX_TIMEOUT:-120}
qemu=${QEMU:-qemu-system-riscv64}
append="console=ttyS0 earlycon"
failures=0

usage() {
	echo "usage: $0 <builddir> FW_DYNAMIC_BIN FW_JUMP_BIN [FW_PAYLOAD_BIN]" >&2
	exit 2
}

pass() { printf 'PASS: %s\n' "$1"; }
fail() {
	printf 'FAIL: %s (%s)\n' "$1" "$2"
	failures=$((failures + 1))
}

# The console log ends with QEMU's own messages, if any. Runs QEMU under a
# hard timeout; sets qemu_status (124 = timed out) and boot_seconds.
run_qemu() {
	local flavour=$1 fw=$2 log=$3 start=$SECONDS
	local args=(-M virt -cpu rv64 -smp "$smp" -m 512M -nographic -bios "$fw")
	if [[ $flavour != fw_payload ]]; then
		args+=(-kernel "$build/Image" -initrd "$build/initramfs.cpio"
			-append "$append")
	fi
	qemu_status=0
	timeout -k 5 "$timeout_s" "$qemu" "${args[@]}" < /dev/null > "$log" 2>&1 ||
		qemu_status=$?
	boot_seconds=$((SECONDS - start))
}

# One PASS/FAIL line per check of one boot log.
check_log() {
	local name=$1 log=$2 marker cpus line check result

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
		grep -aqF "smp: Brought up 1 node, $smp CPUs" "$log"; then
		pass "$name: $smp CPUs online"
	else
		fail "$name: $smp CPUs online" \
			"init saw ${cpus:-no} cpus, kernel: '$(grep -aoE 'smp: Brought up .*' "$log" | tr -d '\r' || echo 'no smp line')'; log $log"
	fi

	# The init's own checks, one line each (none if init never ran).
	while IFS= read -r line; do
		line=${line%$'\r'}
		check=${line#TALLY-LINUX-CHECK: }
		result=${check#*: }
		check=${check%%: *}
		if [[ $result == ok ]]; then
			pass "$name: init check $check"
		else
			fail "$name: init check $check" "${result#FAIL: }; log $log"
		fi
	done < <(grep -aoE 'TALLY-LINUX-CHECK: [^:]+: .*' "$log" || true)

	if ((qemu_status == 0)); then
		pass "$name: powers off cleanly"
	elif ((qemu_status == 124 || qemu_status == 137)); then
		fail "$name: powers off cleanly" "still running after ${timeout_s} s, killed; log $log"
	else
		fail "$name: powers off cleanly" "QEMU exited with status $qemu_status; log $log"
	fi
}

boot_one() {
	local flavour=$1 fw=$2 name="linux/$1" log=$build/boot-$1.log before=$failures

	if [[ ! -f $fw ]]; then
		fail "$name: boots to init" "firmware not found: $fw"
		return
	fi
	run_qemu "$flavour" "$fw" "$log"
	check_log "$name" "$log"
	printf '  %s: %s, %d s, QEMU status %d, log %s\n' \
		"$name" "$fw" "$boot_seconds" "$qemu_status" "$log"
	if ((failures > before)); then
		printf '  last lines of %s:\n' "$log"
		tail -n 30 "$log" | tr -d '\r' | sed 's/^/  | /'
	fi
}

main() {
	(($# >= 3 && $# <= 4)) || usage
	build=$(cd "$1" && pwd) || usage
	if [[ ! -f $build/Image || ! -f $build/initramfs.cpio ]]; then
		fail "linux: kernel built" "no Image/initramfs.cpio in $build: run tests/linux/build.sh $1"
		exit 1
	fi
	command -v "$qemu" > /dev/null || { fail "linux: qemu present" "$qemu not found"; exit 1; }

	boot_one fw_dynamic "$2"
	boot_one fw_jump "$3"
	if (($# == 4)); then
		boot_one fw_payload "$4"
	fi
	((failures == 0))
}

main "$@"
