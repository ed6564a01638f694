#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Boot the 32-bit Linux 6.1 test kernel of tests/linux/build-rv32.sh on
# qemu-system-riscv32 virt (-smp 4, Sscofpmf, Sstc off so that the kernel
# uses SBI set_timer) once per firmware flavour, with Tally built with
# XLEN=32. The kernel's /init (tests/linux/init-rv32.c) prints its own
# checks; each is renamed "linux-rv32/<flavour>: <check>". This script adds
# that init ran and that Linux powered off through SBI SRST.
#
# fw_dynamic and fw_jump get the kernel with -kernel; fw_payload carries it
# (built by tests/run-all.sh with FW_PAYLOAD_PATH=<builddir>/Image).
# There is no perf tool on RV32 (Debian has no rv32 C library): the PMU
# checks are init-rv32.c's perf_event_open counts and the driver's probe.
#
# Usage: tests/linux/boot-test-rv32.sh <builddir> FW_DYNAMIC_BIN FW_JUMP_BIN [FW_PAYLOAD_BIN]
# Prints one PASS/FAIL/SKIP line per check, no summary; exits 1 on a FAIL.
# Environment: TALLY_LINUX_TIMEOUT (seconds per boot, default 300).
set -uo pipefail

build=${1:?usage: $0 <builddir> FW_DYNAMIC_BIN FW_JUMP_BIN [FW_PAYLOAD_BIN]}
fw_dynamic=${2:?}
fw_jump=${3:?}
fw_payload=${4:-}
timeout_s=${TALLY_LINUX_TIMEOUT:-300}
smp=4
failures=0

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# boot <flavour> <firmware> [qemu args...]
boot() {
	local flavour=$1 fw=$2 log=$build/boot-$1.log status=0
	shift 2
	timeout -k 5 "$timeout_s" qemu-system-riscv32 -M virt -smp "$smp" -m 256M \
		-cpu rv32,sscofpmf=true,sstc=false -nographic -no-reboot \
		-monitor none -serial stdio -bios "$fw" "$@" < /dev/null > "$log" 2>&1 ||
		status=$?
	# init-rv32.c's checks, under this flavour's name
	sed -nE "s#^(PASS|FAIL|SKIP): linux-rv32/#\1: linux-rv32/$flavour: #p" "$log" | tr -d '\r'
	grep -qE '^FAIL: linux-rv32/' "$log" && failures=$((failures + 1))
	if grep -qE '^(PASS|FAIL): linux-rv32/init' "$log"; then
		pass "linux-rv32/$flavour: the kernel boots to init"
	else
		fail "linux-rv32/$flavour: the kernel boots to init (no init line; log $log)"
		tail -n 15 "$log" | sed 's/^/    /'
	fi
	if ((status == 0)) && grep -q 'system reset: shutdown' "$log"; then
		pass "linux-rv32/$flavour: powers off through SBI SRST"
	else
		fail "linux-rv32/$flavour: powers off through SBI SRST (QEMU status $status; log $log)"
	fi
}

append="console=ttyS0 earlycon tally.cpus=$smp"
boot fw_dynamic "$fw_dynamic" -kernel "$build/Image" -append "$append"
boot fw_jump "$fw_jump" -kernel "$build/Image" -append "$append"
if [[ -n $fw_payload ]]; then
	# QEMU takes no -append without -kernel: the built-in command line
	boot fw_payload "$fw_payload"
else
	echo "SKIP: linux-rv32/fw_payload: no fw_payload image given"
fi
((failures == 0))
