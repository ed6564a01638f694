#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The CPU hotplug loop: one boot of a test kernel, then N rounds of
# {CPUs 1..n-1 offline, online; perf stat -a; a munmap storm (remote
# sfence.vma to the restarted harts); a plain exec of a static binary},
# stopping at the first failed command, fault or bad kernel-log line and
# printing the round and the kernel log's tail (tests/linux/init.c,
# check_hotplug_loop, tally.hotplug_loop=N).
#
# Usage: tests/linux/hotplug-loop.sh <board> <builddir> FW_DYNAMIC_BIN [rounds]
#   board     virt      -M virt -cpu rv64,sscofpmf=true -smp 4
#             sifive_u  -M sifive_u -smp 5 (the E51 parked, 4 U54s run Linux)
#   builddir  a tests/linux/build.sh build: its Image
#   rounds    default 15 (the test command); 200 or more by hand
#
# The init comes from this tree's tests/linux/init.c (compiled here and
# given as an extra -initrd that replaces the kernel's built-in /init), so
# the loop runs on any test kernel, whichever init it was built with.
# Any firmware can be given, to compare (OpenSBI 1.9:
# ../shared/anchors/opensbi-1.9/fw_dynamic.bin; Debian's 1.1:
# /usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin).
#
# Prints PASS/FAIL lines named "<tag>/<board>: ..." (tag: TALLY_LINUX_TAG,
# default linux-<kver> from the builddir's source tree; a firmware label in
# HOTPLUG_FW_LABEL is added to the names). Environment: QEMU
# (qemu-system-riscv64), CPU (virt's -cpu), TALLY_LINUX_TIMEOUT (seconds,
# default 120 + 30 per round), TALLY_LINUX_LOGDIR (default <builddir>).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
board=${1:?usage: $0 <board> <builddir> FW_DYNAMIC_BIN [rounds]}
build=${2:?usage: $0 <board> <builddir> FW_DYNAMIC_BIN [rounds]}
fw=${3:?usage: $0 <board> <builddir> FW_DYNAMIC_BIN [rounds]}
rounds=${4:-15}
qemu=${QEMU:-qemu-system-riscv64}
timeout_s=${TALLY_LINUX_TIMEOUT:-$((120 + 30 * rounds))}
logdir=${TALLY_LINUX_LOGDIR:-$build}

kver=$(cd "$build" 2>/dev/null && ls -d linux-source-* 2>/dev/null | head -n 1)
kver=${kver#linux-source-}
tag=${TALLY_LINUX_TAG:-linux-${kver:-unknown}}
name="$tag/$board${HOTPLUG_FW_LABEL:+/$HOTPLUG_FW_LABEL}"

pass() { echo "PASS: $name: $*"; }
fail() { echo "FAIL: $name: $*"; }

case $board in
virt)
	machine=(-M virt -cpu "${CPU:-rv64,sscofpmf=true}" -smp 4)
	console=ttyS0
	pmu_num=16
	;;
sifive_u)
	machine=(-M sifive_u -smp 5)
	console=ttySIF0
	pmu_num=0	# no programmable counter: each round checks cycles alone
	;;
*)
	fail "hotplug loop: no board '$board' (virt or sifive_u)"
	exit 1
	;;
esac
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { fail "hotplug loop: rounds '$rounds' is not a number > 0"; exit 1; }
if [[ ! -f $build/Image || ! -f $fw ]]; then
	fail "hotplug loop: boots to init (no $build/Image or $fw)"
	exit 1
fi

# /init from this tree, in a cpio of its own (the kernel unpacks it over
# its built-in initramfs)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/root"
if ! riscv64-linux-gnu-gcc -static -O2 -s -Wall -Wextra -o "$work/root/init" \
	"$here/init.c" ||
	! (cd "$work/root" && echo init | cpio -o -H newc --quiet > "$work/init.cpio"); then
	fail "hotplug loop: init built"
	exit 1
fi

# The vDSO runs at an address of the kernel's choosing and nothing applies
# its dynamic relocations: code that loads such a slot reads 0 (Linux 6.1
# without CONFIG_JUMP_LABEL: cpu_relax() reads a static key through one and
# faults; docs/perf.md, "The vDSO fault"). Checked on the build's vDSO.
vdso=$build/obj/arch/riscv/kernel/vdso/vdso.so.dbg
if [[ -f $vdso ]]; then
	slots=$(riscv64-linux-gnu-readelf -rW "$vdso" | awk '$1 ~ /^[0-9a-f]+$/ { sub(/^0+/, "", $1); print $1 }')
	loads=$(riscv64-linux-gnu-objdump -d "$vdso" | awk -v slots="$slots" '
		BEGIN { n = split(slots, s, "\n"); for (i = 1; i <= n; i++) if (s[i] != "") bad[s[i]] = 1 }
		/^ +[0-9a-f]+:/ && match($0, /# [0-9a-f]+ </) {
			a = substr($0, RSTART + 2, RLENGTH - 4)
			if (a in bad) { sub(/^ +/, ""); gsub(/\t/, " "); print }
		}')
	if [[ -z $loads ]]; then
		pass "vDSO: no code reads a slot that nothing relocates ($(grep -c . <<< "$slots") dynamic relocations)"
	else
		fail "vDSO: code reads a slot that nothing relocates (it reads 0): $(head -n 1 <<< "$loads")"
	fi
fi

mkdir -p "$logdir"
log=$logdir/hotplug-loop-$board${HOTPLUG_FW_LABEL:+-$HOTPLUG_FW_LABEL}.log
: > "$log"	# before QEMU's own redirection: the wait below reads it at once
"$qemu" "${machine[@]}" -m 512M -nographic -bios "$fw" -kernel "$build/Image" \
	-initrd "$work/init.cpio" \
	-append "console=$console earlycon tally.perf=none tally.pmu_num=$pmu_num tally.hotplug_loop=$rounds" \
	< /dev/null > "$log" 2>&1 &
qpid=$!
end=$((SECONDS + timeout_s))
# sifive_u cannot power off (Linux halts): stop at the marker or a panic
while kill -0 "$qpid" 2> /dev/null && ((SECONDS < end)); do
	grep -aqE 'TALLY-LINUX-INIT: (ok|FAIL)|Kernel panic' "$log" && break
	sleep 2
done
timed_out=$((SECONDS >= end))
sleep 1
kill "$qpid" 2> /dev/null
wait "$qpid" 2> /dev/null

if grep -aqE 'TALLY-LINUX-INIT: started' "$log"; then
	pass "hotplug loop: boots to init"
else
	fail "hotplug loop: boots to init (log $log)"
	exit 1
fi
result=$(grep -aoE 'TALLY-LINUX-CHECK: cpu-hotplug-loop: .*' "$log" | tail -n 1 | tr -d '\r')
result=${result#TALLY-LINUX-CHECK: cpu-hotplug-loop: }
case $result in
ok*)
	pass "hotplug loop (${result#ok: })"
	;;
"skip: "*)
	echo "SKIP: $name: hotplug loop (${result#skip: })"
	;;
"")
	how="no result"
	((timed_out)) && how="still running after $timeout_s s"
	grep -aq 'Kernel panic' "$log" && how="kernel panic"
	fail "hotplug loop: $rounds rounds ($how, last: $(grep -aoE 'hotplug-loop: [0-9]+ of [0-9]+ rounds ok.*' "$log" | tail -n 1 | tr -d '\r'); log $log)"
	exit 1
	;;
*)
	fail "hotplug loop: $rounds rounds (${result#FAIL: }; log $log)"
	exit 1
	;;
esac
