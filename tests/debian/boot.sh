#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# One boot on the Debian stack of tests/debian/fetch.sh: a firmware image,
# Debian's QEMU, Debian's riscv64 kernel and the initramfs of
# tests/debian/initramfs.sh (the test init of tests/linux/init.c with
# Debian's perf), 4 harts; then one PASS/FAIL/SKIP line per check, named
# "debian/qemu-11.1/linux-7.2/rva23s64: ..." (a machine option adds
# "-aia-imsic" or "-aia-aplic", a firmware other than Tally's puts its name
# first: "debian/opensbi-1.9/qemu-11.1/...").
#
# Usage: tests/debian/boot.sh [options]
#   --dir D        fetch.sh's directory (default <repo>/build/debian)
#   --qemu Q       10.0, 11.1, stable, backports (roots in D) or a QEMU binary
#                  (default backports)
#   --linux L      6.12, 7.2, stable, backports (roots in D) or an Image
#                  (default backports)
#   --perf P       6.12, stable, backports: whose perf the initramfs has
#                  (default: the kernel's suite when --linux names one, else stable)
#   --cpu C        QEMU -cpu (default rv64)
#   --machine M    QEMU -M (default virt; e.g. virt,aia=aplic-imsic)
#   --fw F         firmware (-bios; default Tally's
#                  <repo>/build/platform/generic/firmware/fw_dynamic.bin)
#   --fw-name N    its name in the check names (default: "" for Tally's,
#                  else the file's directory name, as opensbi-1.9)
#   --checks S     init.c's tally.perf= set (default count; aia with an AIA
#                  machine: then tally.aia= follows the machine)
#   --sscofpmf S   expected (default): a hart without Sscofpmf fails the
#                  probe check; optional: init.c then skips what needs it
#                  (tally.sscofpmf=optional: plain rv64, vendor models, and
#                  QEMU 10.0, whose overflow interrupt never arrives)
#   --append A     more kernel command line
#   --smp N        harts (default 4)
#   --icount S     QEMU -icount S (shift=0,sleep=off: exact instruction counts,
#                  with --smp 1: docs/perf.md "Exact instruction counts")
#   --log F        the console log (default D/logs/<name>.log)
# Environment: TALLY_DEBIAN_TIMEOUT (seconds, default 300).
# Prints "  <name>: ... N s" with the boot's wall time last; exits 1 if a
# check failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=$repo/build/debian
qemu=backports linux=backports perf="" cpu=rv64 machine=virt checks="" append="" logf="" sscofpmf=expected
smp=4 icount=()
fw=$repo/build/platform/generic/firmware/fw_dynamic.bin fw_name=-
timeout_s=${TALLY_DEBIAN_TIMEOUT:-300}
failures=0

usage() { sed -n '/^# Usage/,/^# Environment/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
	case $1 in
	--dir) dir=$2 ;;
	--qemu) qemu=$2 ;;
	--linux) linux=$2 ;;
	--perf) perf=$2 ;;
	--cpu) cpu=$2 ;;
	--machine) machine=$2 ;;
	--fw) fw=$2 ;;
	--fw-name) fw_name=$2 ;;
	--checks) checks=$2 ;;
	--append) append=$2 ;;
	--sscofpmf) sscofpmf=$2 ;;
	--log) logf=$2 ;;
	--smp) smp=$2 ;;
	--icount) icount=(-icount "$2") ;;
	*) usage ;;
	esac
	shift 2 || usage
done
dir=$(realpath -m "$dir")

# shellcheck source=../lib/init-checks.sh
source "$repo/tests/lib/init-checks.sh"	# init_checks, filter_banner_checks
pass() { printf 'PASS: %s%s\n' "$1" "${2:+ ($2)}"; }
fail() { printf 'FAIL: %s (%s)\n' "$1" "$2"; failures=$((failures + 1)); }
skip() { printf 'SKIP: %s (%s)\n' "$1" "$2"; }

# root <kind> <value>: the root directory for 10.0/stable/... ("" if a file)
root() {
	local r=$dir/$1-$2
	[[ -e $r ]] && realpath "$r" || true
}

qroot=$(root qemu "$qemu")
qemu_bin=${qroot:+$qroot/qemu-system-riscv64}
qemu_bin=${qemu_bin:-$qemu}
lroot=$(root linux "$linux")
image=${lroot:+$lroot/Image}
image=${image:-$linux}
if [[ -z $perf ]]; then
	perf=stable
	[[ $linux != backports && ${lroot##*/} != "$(readlink "$dir/linux-backports" 2> /dev/null)" ]] ||
		perf=backports
fi
proot=$(root perf "$perf")
initrd=$dir/initramfs/${proot##*/}.cpio.gz
qname=${qroot##*/}
qname=${qname:-$(basename "$qemu_bin")}
lname=${lroot##*/}
lname=${lname:-linux-$(basename "$image")}
if [[ $fw_name == - ]]; then
	fw_name=""
	[[ $(realpath -m "$fw") == */platform/generic/firmware/fw_dynamic.bin ]] ||
		fw_name=$(basename "$(dirname "$(realpath -m "$fw")")")
fi
aia=""
case $machine in
*aia=aplic-imsic*) aia=imsic ;;
*aia=aplic*) aia=aplic ;;
esac
checks=${checks:-$([[ -n $aia ]] && echo aia || echo count)}
name="debian/${fw_name:+$fw_name/}$qname/$lname/$cpu${aia:+-aia-$aia}${icount:+-icount}"
logf=${logf:-$dir/logs/${name//\//_}.log}
mkdir -p "$(dirname "$logf")"

for f in "$qemu_bin" "$image" "$initrd" "$fw"; do
	if [[ ! -e $f ]]; then
		fail "$name: boots to init" "no $f (tests/debian/fetch.sh, initramfs.sh; the firmware)"
		exit 1
	fi
done

# The boot. -display none with the console on stdio, not -nographic: that
# makes Debian's QEMU look for its display modules (the root has none).
# panic=-1 with -no-reboot: a kernel panic ends the run at once.
# transparent_hugepage=never: Debian's kernels have THP, and whether the
# workload's 40 MB get huge pages changes from run to run: its kernel-side
# TLB misses were then 25,000 or 42,000 for the same 10,000 pages, so
# perf-record-dtlb's perf stat and perf record (separate runs) disagreed,
# on OpenSBI 1.9 as on Tally; without THP, 360,000 in every run.
start=$SECONDS
status=0
timeout -k 5 "$timeout_s" "$qemu_bin" -M "$machine" -cpu "$cpu" -smp "$smp" "${icount[@]}" -m 1G \
	-display none -serial stdio -monitor none -no-reboot -bios "$fw" \
	-kernel "$image" -initrd "$initrd" \
	-append "console=ttyS0 earlycon panic=-1 transparent_hugepage=never tally.perf=$checks tally.pmu_num=16${aia:+ tally.aia=$aia}$([[ $sscofpmf != optional ]] || echo " tally.sscofpmf=optional")${append:+ $append}" \
	< /dev/null > "$logf" 2>&1 || status=$?
took=$((SECONDS - start))
tr -d '\r' < "$logf" > "$logf.txt" && mv "$logf.txt" "$logf"

# The verdicts, as tests/linux/boot-test.sh's check_log.
marker=$(grep -aoE 'TALLY-LINUX-INIT: (ok|FAIL).*' "$logf" | tail -n 1) || true
if [[ -n $marker ]]; then
	pass "$name: boots to init"
else
	why=$(grep -am1 -E 'Kernel panic|Oops|Unable to handle|illegal instruction|sbi_trap_error|BUG:' "$logf") ||
		why="no TALLY-LINUX-INIT marker"
	fail "$name: boots to init" "$why; log $logf"
fi
if grep -aqE 'SBI specification v[0-9]+\.[0-9]+ detected' "$logf"; then
	pass "$name: SBI version detected"
else
	fail "$name: SBI version detected" "no 'SBI specification vX.Y detected' in $logf"
fi
cpus=$(sed -nE 's/.* ([0-9]+) cpus online.*/\1/p' <<< "$marker")
if [[ $cpus == "$smp" ]] && grep -aqE "smp: Brought up 1 node, $smp CPUs?\$" "$logf"; then
	pass "$name: $smp CPUs online"
elif [[ -n $marker ]]; then
	fail "$name: $smp CPUs online" "init saw ${cpus:-no} cpus, kernel: '$(grep -aoE 'smp: Brought up .*' "$logf" || echo 'no smp line')'"
fi
init_verdict() {	# for init_checks: one init check
	case $1 in
	PASS) pass "$name: init check $2" "$3" ;;
	SKIP) skip "$name: init check $2" "$3" ;;
	FAIL) fail "$name: init check $2" "$3; log $logf" ;;
	esac
}
init_checks "$logf" init_verdict
# The banner against what perf measured: the TLB events always (QEMU counts
# them exactly), cycles/instructions under -icount only (init-checks.sh).
[[ -n $fw_name ]] || filter_banner_checks "$logf" "$name" perf-mode-tlb \
	${icount[0]:+perf-mode-cycles-instructions}
if ((status == 0)) && grep -aq 'reboot: Power down' "$logf"; then
	pass "$name: powers off cleanly"
elif ((status == 124 || status == 137)); then
	fail "$name: powers off cleanly" "still running after $timeout_s s, killed; log $logf"
else
	fail "$name: powers off cleanly" "QEMU status $status, $(grep -am1 -E 'Kernel panic.*|reboot: .*' "$logf" || echo 'no power-off line'); log $logf"
fi
printf '  %s: %s, %s, %s, %s, -M %s -cpu %s -smp %s%s: %d s, QEMU status %d, log %s\n' \
	"$name" "$fw" "$qemu_bin" "$image" "${initrd##*/}" "$machine" "$cpu" "$smp" \
	"${icount:+ ${icount[*]}}" "$took" "$status" "$logf"
if ((failures)); then
	echo "  last lines of $logf:"
	grep -av '^$' "$logf" | tail -n 25 | sed 's/^/  | /'
fi
((failures == 0))
