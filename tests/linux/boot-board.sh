#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Boot the Linux 6.1 test kernel of tests/linux/build.sh (whose config has
# the boards' drivers: kernel-6.1.config) on a board's QEMU machine with
# Tally's fw_dynamic, and check that Linux comes up to init on the
# harts S-mode may use and that perf counts through Tally's SBI PMU.
#
# Usage: tests/linux/boot-board.sh <board> <builddir> FW_DYNAMIC_BIN
#
# sifive_u (-M sifive_u -smp 5): the E51 (hart 0) stays parked, the four
# U54s run Linux.  The U54s of QEMU have no mcountinhibit, no programmable
# counters and no Sscofpmf: perf counts cycles and instructions (mcycle,
# minstret) and Tally's firmware events; init.c expects no programmable
# counter there and skips the checks that need Sscofpmf where Linux says it
# has none (never a FAIL turned into a SKIP by name here).  The FU540 cannot
# power off: SRST shutdown answers NOT_SUPPORTED and Linux halts ("reboot:
# Power down"), where the run is ended.
#
# Prints one PASS/FAIL/SKIP line per check.  Environment:
# TALLY_LINUX_TIMEOUT (seconds, default 400), QEMU (qemu-system-riscv64).
set -uo pipefail

board=${1:?usage: $0 <board> <builddir> FW_DYNAMIC_BIN}
build=${2:?usage}
fw=${3:?usage}
timeout_s=${TALLY_LINUX_TIMEOUT:-400}
qemu=${QEMU:-qemu-system-riscv64}
failures=0
# shellcheck source=../lib/init-checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/init-checks.sh"	# init_checks

case $board in
sifive_u)
	machine=(-M sifive_u -smp 5)
	cpus=4
	# the U54 harts have no programmable counter and no Sscofpmf: init.c
	# expects no programmable counter (pmu_num=0: cycle, time, instret)
	# and skips the checks that need Sscofpmf where Linux itself says it
	# has none (tally.sscofpmf=optional: a capability init.c measures)
	append="console=ttySIF0 earlycon tally.perf=count tally.pmu_num=0 tally.sscofpmf=optional"
	;;
*)
	echo "FAIL: linux-$board: no such board in $0"
	exit 1
	;;
esac

pass() { echo "PASS: linux-6.1/$board: $*"; }
fail() { echo "FAIL: linux-6.1/$board: $*"; failures=$((failures + 1)); }
skip() { echo "SKIP: linux-6.1/$board: $*"; }

log=$build/boot-$board.log
if [[ ! -f $build/Image || ! -f $fw ]]; then
	fail "boots to init (no $build/Image or $fw)"
	exit 1
fi
"$qemu" "${machine[@]}" -m 512M -nographic -bios "$fw" -kernel "$build/Image" \
	-append "$append" </dev/null >"$log" 2>&1 &
qpid=$!
end=$((SECONDS + timeout_s))
while kill -0 "$qpid" 2>/dev/null && ((SECONDS < end)); do
	grep -aqE 'reboot: Power down|Kernel panic' "$log" && break
	sleep 2
done
sleep 1
kill "$qpid" 2>/dev/null
wait "$qpid" 2>/dev/null

marker=$(grep -aoE 'TALLY-LINUX-INIT: (ok|FAIL).*' "$log" | tail -n 1 | tr -d '\r')
if [[ -n $marker ]]; then pass "boots to init"; else fail "boots to init (log $log)"; fi
if grep -aq "Tally: boot hart 0 does not run S-mode\|Harts            : $cpus " "$log"; then
	pass "Tally offers $cpus harts to S-mode, hart 0 (E51) parked"
else
	fail "Tally offers $cpus harts to S-mode (log $log)"
fi
if grep -aqE "smp: Brought up 1 node, $cpus CPUs" "$log" && [[ $marker == *"$cpus cpus online"* ]]; then
	pass "$cpus CPUs online"
else
	fail "$cpus CPUs online (log $log)"
fi
if grep -aqE 'SBI specification v[0-9]+\.[0-9]+ detected' "$log"; then
	pass "SBI version detected"
else
	fail "SBI version detected (log $log)"
fi
init_verdict() {	# for init_checks: one init check
	case $1 in
	PASS) pass "init check $2${3:+: $3}" ;;
	SKIP) skip "init check $2 ($3)" ;;
	FAIL) fail "init check $2 ($3; log $log)" ;;
	esac
}
init_checks "$log" init_verdict
if grep -aq 'TALLY-LINUX-CHECK: perf-cycles-instructions: ok' "$log"; then
	pass "perf stat counts cycles and instructions through Tally's SBI PMU"
else
	fail "perf stat counts cycles and instructions through Tally's SBI PMU (log $log)"
fi
if grep -aq 'reboot: Power down' "$log"; then
	pass "power-off: Linux halts (the board has no power-off device)"
else
	fail "power-off: no 'reboot: Power down' (log $log)"
fi
((failures == 0))
