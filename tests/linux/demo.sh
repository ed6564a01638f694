#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The demonstration behind `make run`: boot Linux on Tally's fw_dynamic under
# QEMU virt and show the console until Linux powers the machine off. With
# `tally.demo` on the command line (the default) the test init runs Linux's
# perf on the SBI PMU extension: perf stat with hardware, TLB and firmware
# events, perf record and perf report (docs/perf.md).
#
# By default it runs on the stack users have in 2026, Debian's own binaries
# (tests/debian/fetch.sh, a private apt configuration in <builddir>/debian):
# Debian 13's newest QEMU, trixie-backports' 11.1 (10.0's overflow
# interrupt cannot be enabled: docs/perf.md), with -cpu rva23s64, and Debian
# 13's own kernel (trixie's 6.12) with its own perf in the initramfs of
# tests/debian/initramfs.sh.  DEBIAN_LINUX=newest boots the newest riscv64
# kernel Debian serves instead (trixie-backports' or sid's: today sid's
# 7.2.13) with its own perf.  KVER= boots a kernel tests/linux builds from
# Debian's linux-source instead, on the host's QEMU 7.2, as before.
#
# Usage: tests/linux/demo.sh [builddir]          (default: <repo>/build)
# Environment (all optional):
#   DEBIAN_LINUX=trixie|newest  Debian's kernel and perf (default trixie)
#   KVER=6.12|6.1      boot Linux <KVER> built from linux-source on QEMU 7.2
#                      (`scripts/tally run KVER=6.1` passes it through make)
#   KERNEL=<Image>     boot this kernel instead of the one tests/linux builds
#   INITRD=<cpio>      with this initramfs (default: the kernel's built-in one)
#   SMP=<n>            number of harts (default 4)
#   CPU=<model,flags>  QEMU -cpu (default rv64,sscofpmf=true)
#   APPEND=<cmdline>   kernel command line (default: console=ttyS0 tally.demo)
#   FW=<firmware.bin>  the firmware (default: Tally's fw_dynamic.bin)
#   TIMEOUT=<seconds>  stop QEMU after this long (default 600)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$(realpath -m "${1:-$repo/build}")
fw=${FW:-$out/platform/generic/firmware/fw_dynamic.bin}
smp=${SMP:-4}
cpu=${CPU:-rv64,sscofpmf=true}
append=${APPEND:-console=ttyS0 tally.demo}

qemu=(qemu-system-riscv64)
display=(-nographic)
if [[ -z ${KVER:-} && -z ${KERNEL:-} ]]; then
	# Debian's stack: its QEMU 11.1, kernel and perf (fetched once, cached)
	echo "[demo] fetching Debian's QEMU, kernel and perf (tests/debian/fetch.sh;"
	echo "[demo] cached in $out/debian: the first fetch takes a minute or two)"
	"$repo/tests/debian/fetch.sh" "$out/debian"
	"$repo/tests/debian/initramfs.sh" "$out/debian"
	case ${DEBIAN_LINUX:-trixie} in
	trixie) line=stable ;;
	newest) line=backports ;;
	*) echo "[demo] DEBIAN_LINUX=${DEBIAN_LINUX}: trixie or newest" >&2; exit 2 ;;
	esac
	KERNEL=$out/debian/linux-$line/Image
	INITRD=${INITRD:-$out/debian/initramfs/perf-$line.cpio.gz}
	echo "[demo] Debian's $(readlink "$out/debian/linux-$line") with its own perf on" \
		"$(readlink "$out/debian/qemu-backports") -cpu ${CPU:-rva23s64}"
	qemu=("$out/debian/qemu-backports/qemu-system-riscv64")
	display=(-display none -serial stdio -monitor none)
	cpu=${CPU:-rva23s64}
	append=${APPEND:-console=ttyS0 transparent_hugepage=never tally.demo}
fi
kver=${KVER:-6.12}
if [[ -z ${KERNEL:-} ]]; then
	case $kver in
	6.1) kdir=$out/linux ;;
	6.12) kdir=$out/linux-$kver ;;
	*) echo "[demo] KVER=$kver: Linux 6.1 or 6.12" >&2; exit 2 ;;
	esac
	echo "[demo] building Linux $kver and its perf (cached in $kdir;"
	echo "[demo] the first build takes a few minutes, later runs seconds)"
	"$here/build.sh" --kver "$kver" "$kdir"
	KERNEL=$kdir/Image
fi
[[ -f $fw ]] || { echo "[demo] no firmware at $fw: run make first" >&2; exit 1; }
[[ -f $KERNEL ]] || { echo "[demo] no kernel at $KERNEL" >&2; exit 1; }

args=(-M virt -cpu "$cpu" -smp "$smp" -m 1G "${display[@]}" -no-reboot
      -bios "$fw" -kernel "$KERNEL" -append "$append")
[[ -n ${INITRD:-} ]] && args+=(-initrd "$INITRD")
echo "[demo] ${qemu[*]} ${args[*]}"
status=0
timeout -k 5 "${TIMEOUT:-600}" "${qemu[@]}" "${args[@]}" </dev/null || status=$?
echo "[demo] QEMU exited with status $status"
exit "$status"
