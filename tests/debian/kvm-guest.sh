#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# perf in a KVM guest on the firmware, all of it Debian's (issue 33):
#
#   Debian's QEMU (amd64, TCG; 10.0 or 11.1 of tests/debian/fetch.sh)
#    -> the firmware (-bios; Tally's fw_dynamic.bin)
#     -> Debian's 6.12 riscv64 kernel, the KVM host (insmod kvm.ko of its
#        modules tree: CONFIG_KVM=m, no dependencies)
#      -> Debian's riscv64 qemu-system-riscv64 (10.0, tests/debian/fetch-vmm.sh)
#         -accel kvm -M virt -cpu host -smp 1 -m 256M
#       -> the same kernel as the guest, console ttyS0
#        -> Debian's perf (6.12) in the guest: perf stat (cycles,
#           instructions, dTLB-load-misses) of `work load-pages N`
#           (tests/linux/workload.c), perf record -e cycles of `work loop`
#   and on the host, around the VMM: perf stat -e cycles:G,instructions:G,
#   cycles:H and KVM's tracepoints kvm:kvm_entry,kvm:kvm_exit; and first the
#   host's own perf stat of the same workload, the reference for the TLB count.
#
# Usage: tests/debian/kvm-guest.sh <build-dir> [FW]
#   build-dir  the test build directory (build-dir/debian: fetch.sh's)
#   FW         the firmware (default build-dir/platform/generic/firmware/fw_dynamic.bin)
# Environment:
#   TALLY_KVMG_RUNS   the runs, "<qemu>/<machine>" words (default short:
#                     "qemu-11.1/aia"; make check-kvm-guest: "full", every one:
#                     qemu-11.1/aia qemu-11.1/virt qemu-10.0/aia qemu-10.0/virt)
#                     aia:  -M virt,aia=aplic-imsic, harts
#                           rv64,h=true,sscofpmf=true,smaia=true,ssaia=true
#                     virt: -M virt, harts rv64,h=true,sscofpmf=true
#   TALLY_KVMG_PAGES  pages of the TLB workload (default 4000)
#   TALLY_KVMG_TIMEOUT seconds per boot (default 900)
#   OPENSBI_ANCHOR    OpenSBI 1.9's directory (default ../shared/anchors/opensbi-1.9
#                     beside the repository; empty: no comparison): the same
#                     runs on it, printed as INFO lines, never counted
# Prints "PASS|FAIL|SKIP: debian/kvm-guest/<qemu>/<machine>: <check> (...)";
# exits 1 if a Tally check failed.  The boot logs: build-dir/debian/kvm-guest/.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$(realpath -m "${1:?usage: kvm-guest.sh <build-dir> [FW]}")
fw=$(realpath -m "${2:-$out/platform/generic/firmware/fw_dynamic.bin}")
dir=$out/debian
work=$dir/kvm-guest
cross=riscv64-linux-gnu-
pages=${TALLY_KVMG_PAGES:-4000}
loops=20000000
period=1000000
timeout_s=${TALLY_KVMG_TIMEOUT:-900}
runs=${TALLY_KVMG_RUNS:-qemu-11.1/aia}
[[ $runs != full ]] || runs="qemu-11.1/aia qemu-11.1/virt qemu-10.0/aia qemu-10.0/virt"
anchor_default=$repo/../shared/anchors/opensbi-1.9
[[ -d $anchor_default || ! -d $repo/../../shared/anchors/opensbi-1.9 ]] ||
	anchor_default=$repo/../../shared/anchors/opensbi-1.9
opensbi_anchor=${OPENSBI_ANCHOR-$anchor_default}
failures=0 reference=""

log() { printf '[kvm-guest] %s\n' "$*"; }
verdict() {	# verdict PASS|FAIL|SKIP <name> [note]
	if [[ -n $reference ]]; then
		printf 'INFO: %s %s: %s%s\n' "$reference" "$2" "$1" "${3:+ ($3)}"
	else
		printf '%s: %s%s\n' "$1" "$2" "${3:+ ($3)}"
		[[ $1 != FAIL ]] || failures=$((failures + 1))
	fi
}

# shellcheck source=../lib/cache.sh
source "$repo/tests/lib/cache.sh"	# hash_inputs, build_kept ($stamps)
stamps=$work

# --- the initramfs images ----------------------------------------------------

# shellcheck source=elf.sh
source "$here/elf.sh"	# multiarch, find_lib, elf_closure

# install_elf <root> <path in root> <stage>: the program and its closure,
# at their Debian paths (/lib is a link to usr/lib in the stage)
install_elf() {
	local lib interp
	mkdir -p "$3/$(dirname "$2")"
	cp -L "$1/$2" "$3/$2" || return 1
	elf_closure "$1" "$1/$2" > "$work/closure.txt" || return 1
	while read -r lib; do
		[[ -e $3/$lib ]] && continue
		mkdir -p "$3/$(dirname "$lib")"
		cp -L "$1/$lib" "$3/$lib" || return 1
	done < "$work/closure.txt"
	# the loader at the path the program names (/lib/ld-linux-...: /lib is usr/lib)
	interp=$(readelf -l "$1/$2" | sed -nE 's/.*interpreter: (.*)\]/\1/p')
	interp=usr/lib/${interp#/lib/}
	[[ -e $3/$interp ]] || ln -s "$multiarch/${interp##*/}" "$3/$interp"
}

# A stage with busybox, /dev/console and the usual directories.
new_stage() {	# <dir>
	local a
	rm -rf "$1"
	mkdir -p "$1"/{bin,dev,proc,sys,tmp,usr/bin,usr/lib/$multiarch,etc}
	ln -s usr/lib "$1/lib"
	chmod 1777 "$1/tmp"
	cp "$dir/busybox/usr/bin/busybox" "$1/bin/busybox" || return 1
	for a in sh cat ls dmesg mount mkdir grep sed head tail wc sleep poweroff insmod \
		cut tr echo uname awk timeout; do
		ln -s busybox "$1/bin/$a"
	done
	mknod -m 600 "$1/dev/console" c 5 1
	mknod -m 666 "$1/dev/null" c 1 3
}

pack() {	# <stage> <cpio>: uncompressed (nothing to inflate under TCG)
	find "$1" -exec touch -h -d @0 {} +
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --reproducible --quiet) > "$2.new" && mv "$2.new" "$2"
	rm -rf "$1"
}

# The guest's /init: perf stat and perf record, their output between markers.
guest_init() {
	cat <<-'EOF'
	#!/bin/sh
	# tests/debian/kvm-guest.sh: the KVM guest's init
	export PATH=/bin:/usr/bin HOME=/tmp
	mount -t proc proc /proc; mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev 2>/dev/null; mount -t tmpfs tmpfs /tmp
	exec < /dev/console > /dev/console 2>&1
	for w in $(cat /proc/cmdline); do
		case $w in kvmg.*=*) k=${w#kvmg.}; eval "${k%%=*}=${w#*=}" ;; esac
	done
	say() { echo "KVMG-GUEST: $*"; }
	say "up at $(cut -d' ' -f1 /proc/uptime) s"
	say "isa: $(grep -m1 '^isa' /proc/cpuinfo | sed 's/.*: //')"
	dmesg | grep -E 'riscv-pmu|SBI (specification|implementation|PMU)' | sed 's/^/KVMG-GUEST-DMESG: /'
	work load-pages "$pages"	# warm-up: the guest's memory gets its G-stage mappings
	t=$(cut -d' ' -f1 /proc/uptime)
	perf stat -x, -o /tmp/stat -e cycles,instructions,dTLB-load-misses:u -- work load-pages "$pages"
	say "stat status $? after $(cut -d' ' -f1 /proc/uptime) s (began $t)"
	grep -v '^#' /tmp/stat | grep . | sed 's/^/KVMG-GUEST-STAT: /;s/,dTLB-load-misses,/,dTLB-load-misses:u,/'
	perf stat -x, -o /tmp/stat -e dTLB-load-misses -- work load-pages "$pages"
	grep -v '^#' /tmp/stat | grep . | sed 's/^/KVMG-GUEST-STAT: /'
	t=$(cut -d' ' -f1 /proc/uptime)
	# without Sscofpmf, perf record -e cycles falls back to cpu-clock, which
	# hung in this guest until killed (150 s): not run there
	if grep -q '^isa.*sscofpmf' /proc/cpuinfo; then
		timeout -s KILL 150 perf record -o /tmp/perf.data -e cycles -c "$period" -- work loop "$loops" > /tmp/rec 2>&1
		say "record status $? after $(cut -d' ' -f1 /proc/uptime) s (began $t)"
		sed 's/^/KVMG-GUEST-REC: /' /tmp/rec
	else
		say "no Sscofpmf: perf record -e cycles not run"
	fi
	if [ -s /tmp/perf.data ]; then
		say "samples $(perf script -i /tmp/perf.data -F comm 2>/dev/null | wc -l) work $(perf script -i /tmp/perf.data -F comm 2>/dev/null | grep -c '^ *work')"
		perf report -i /tmp/perf.data --stdio --sort comm,dso -q 2>/dev/null | grep . | head -n 5 |
			sed 's/^/KVMG-GUEST-REPORT: /'
	fi
	rm -f /tmp/perf.data
	timeout -s KILL 150 perf record -o /tmp/perf.data -e dTLB-load-misses:u -c 100 -- work load-pages "$pages" > /tmp/rec 2>&1
	say "tlb record status $?"
	sed 's/^/KVMG-GUEST-REC: /' /tmp/rec
	[ -s /tmp/perf.data ] &&
		say "tlb samples $(perf script -i /tmp/perf.data -F comm 2>/dev/null | wc -l) work $(perf script -i /tmp/perf.data -F comm 2>/dev/null | grep -c '^ *work')"
	perf stat -x, -o /tmp/stat -e cycles -- work loop "$loops"
	grep -v '^#' /tmp/stat | grep . | sed 's/^/KVMG-GUEST-LOOP: /'
	grep -iE 'pmu|lcofi|sscofpmf' /proc/interrupts | sed 's/^/KVMG-GUEST-IRQ: /'
	dmesg | grep -E 'perf: ' | sed 's/^/KVMG-GUEST-DMESG: /'
	dmesg | grep -iE 'unhandled signal|illegal|fatal' | head -n 6 | sed 's/^/KVMG-GUEST-DMESG: /'
	say "done at $(cut -d' ' -f1 /proc/uptime) s"
	poweroff -f
	EOF
}

# The host's /init: KVM, the reference count, then the VMM under perf stat.
host_init() {
	cat <<-'EOF'
	#!/bin/sh
	# tests/debian/kvm-guest.sh: the KVM host's init
	export PATH=/bin:/usr/bin HOME=/tmp
	mount -t proc proc /proc; mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev 2>/dev/null; mount -t tmpfs tmpfs /tmp
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
	exec < /dev/console > /dev/console 2>&1
	for w in $(cat /proc/cmdline); do
		case $w in kvmg.*=*) k=${w#kvmg.}; eval "${k%%=*}=${w#*=}" ;; esac
	done
	say() { echo "KVMG-HOST: $*"; }
	say "up at $(cut -d' ' -f1 /proc/uptime) s"
	say "isa: $(grep -m1 '^isa' /proc/cpuinfo | sed 's/.*: //')"
	if insmod /lib/modules/kvm.ko; then say "insmod kvm.ko: ok"; else say "insmod kvm.ko: FAIL $?"; fi
	dmesg | grep -iE 'kvm|riscv-pmu' | sed 's/^/KVMG-HOST-DMESG: /'
	[ -c /dev/kvm ] && say "/dev/kvm: ok" || say "/dev/kvm: missing"
	work load-pages "$pages"	# as in the guest
	perf stat -x, -o /tmp/stat -e cycles,instructions,dTLB-load-misses:u -- work load-pages "$pages"
	say "stat status $?"
	grep -v '^#' /tmp/stat | grep . | sed 's/^/KVMG-HOST-STAT: /;s/,dTLB-load-misses,/,dTLB-load-misses:u,/'
	perf stat -x, -o /tmp/stat -e dTLB-load-misses -- work load-pages "$pages"
	grep -v '^#' /tmp/stat | grep . | sed 's/^/KVMG-HOST-STAT: /'
	ev=cycles:G,instructions:G,cycles:H
	[ -d /sys/kernel/tracing/events/kvm ] && ev=$ev,kvm:kvm_entry,kvm:kvm_exit
	t=$(cut -d' ' -f1 /proc/uptime)
	say "vmm start at $t s"
	perf stat -x, -o /tmp/vmm -e "$ev" -- timeout "$vmm_timeout" qemu-system-riscv64 -accel kvm -M virt -cpu host \
		-smp 1 -m 256M -display none -nodefaults -serial stdio -monitor none -no-reboot \
		-kernel /guest/Image -initrd /guest/initrd.cpio \
		-append "console=ttyS0 panic=-1 loglevel=4 print-fatal-signals=1 kvmg.pages=$pages kvmg.loops=$loops kvmg.period=$period" \
		< /dev/null
	say "vmm status $? after $(cut -d' ' -f1 /proc/uptime) s (began $t)"
	grep -v '^#' /tmp/vmm | grep . | sed 's/^/KVMG-HOST-VMM: /'
	say "done at $(cut -d' ' -f1 /proc/uptime) s"
	poweroff -f
	EOF
}

build_images() {
	local stage kimg kvm
	kimg=$dir/linux-6.12/Image
	kvm=$(ls "$dir"/linux-6.12/usr/lib/modules/*/kernel/arch/riscv/kvm/kvm.ko* | head -n 1)
	mkdir -p "$work/static"
	"${cross}gcc" -static -O2 -s -Wall -Wextra -pthread -o "$work/static/work" \
		"$repo/tests/linux/workload.c" || return 1
	# the guest: busybox, perf, work
	stage=$work/guest.stage
	new_stage "$stage" || return 1
	guest_init > "$stage/init"
	chmod 755 "$stage/init"
	cp "$work/static/work" "$stage/bin/work"
	install_elf "$dir/perf-6.12" usr/bin/perf "$stage" || return 1
	pack "$stage" "$work/guest.cpio" || return 1
	# the host: busybox, kvm.ko, perf, work, the VMM, the guest's kernel and initramfs
	stage=$work/host.stage
	new_stage "$stage" || return 1
	host_init > "$stage/init"
	chmod 755 "$stage/init"
	cp "$work/static/work" "$stage/bin/work"
	install_elf "$dir/perf-6.12" usr/bin/perf "$stage" || return 1
	install_elf "$dir/vmm-qemu" usr/bin/qemu-system-riscv64 "$stage" || return 1
	mkdir -p "$stage/usr/lib/modules" "$stage/guest"
	case $kvm in
	*.xz) xz -dc "$kvm" > "$stage/usr/lib/modules/kvm.ko" ;;
	*) cp "$kvm" "$stage/usr/lib/modules/kvm.ko" ;;
	esac
	cp -L "$kimg" "$stage/guest/Image"
	cp "$work/guest.cpio" "$stage/guest/initrd.cpio"
	pack "$stage" "$work/host.cpio"
	log "host initramfs $work/host.cpio: $(($(stat -c %s "$work/host.cpio") >> 20)) MB (guest's $(($(stat -c %s "$work/guest.cpio") >> 20)) MB)"
}

# --- one boot ----------------------------------------------------------------

num() {	# num <file> <prefix> <event>: perf stat -x, value of the event
	grep -a "^$2" "$1" | sed "s/^$2//" | awk -F, -v e="$3" '$3 == e { gsub(/ /, "", $1); print $1; exit }'
}

boot() {	# boot <qemu-x.y>/<aia|virt> <fw>
	local q=${1%/*} m=${1#*/} fwf=$2 qbin machine cpu name logf status=0 start took
	local h g ha ga gi gc d r s w ts tw ratio gcg nopmu
	qbin=$dir/$q/qemu-system-riscv64
	case $m in
	aia) machine=virt,aia=aplic-imsic cpu=rv64,h=true,sscofpmf=true,smaia=true,ssaia=true ;;
	virt) machine=virt cpu=rv64,h=true,sscofpmf=true ;;
	*) verdict FAIL "debian/kvm-guest/$1" "unknown machine $m"; return ;;
	esac
	name=debian/kvm-guest/$1
	logf=$work/${reference:+$reference-}${1//\//-}.log
	if [[ ! -x $qbin || ! -f $fwf ]]; then
		verdict FAIL "$name: boots" "no $qbin or $fwf"
		return
	fi
	start=$SECONDS
	timeout -k 5 "$timeout_s" "$qbin" -M "$machine" -cpu "$cpu" -smp 2 -m 2G \
		-display none -serial stdio -monitor none -no-reboot -bios "$fwf" \
		-kernel "$dir/linux-6.12/Image" -initrd "$work/host.cpio" \
		-append "console=ttyS0 earlycon panic=-1 loglevel=4 kvmg.pages=$pages kvmg.loops=$loops kvmg.period=$period kvmg.vmm_timeout=$((timeout_s - 120))" \
		< /dev/null > "$logf" 2>&1 || status=$?
	took=$((SECONDS - start))
	tr -d '\r' < "$logf" > "$logf.t" && mv "$logf.t" "$logf"
	# the host
	if grep -aq 'KVMG-HOST: insmod kvm.ko: ok' "$logf" && grep -aq 'KVMG-HOST: /dev/kvm: ok' "$logf"; then
		verdict PASS "$name: host loads kvm.ko, /dev/kvm" "$(grep -aoE 'kvm \[[0-9]+\]: (VMID|using|hypervisor).*' "$logf" | sed 's/^kvm \[[0-9]*\]: //' | tr '\n' ';' | sed 's/;$//;s/;/; /g')"
	else
		verdict FAIL "$name: host loads kvm.ko, /dev/kvm" "$(grep -aE 'KVMG-HOST: (insmod|/dev/kvm)|Kernel panic' "$logf" | head -n 3 | tr '\n' ' ')log $logf"
	fi
	# the guest boots and runs perf
	if grep -aq 'KVMG-GUEST: done' "$logf"; then
		verdict PASS "$name: guest boots under KVM and runs its init" "$(grep -aoE 'KVMG-GUEST: up at [0-9.]+ s' "$logf" | sed 's/KVMG-GUEST: //'), done at $(grep -aoE 'KVMG-GUEST: done at [0-9.]+' "$logf" | grep -oE '[0-9.]+$') s of guest time"
	else
		verdict FAIL "$name: guest boots under KVM and runs its init" "$(grep -aE 'KVMG-HOST: vmm status|qemu-system-riscv64:|Kernel panic' "$logf" | head -n 3 | tr '\n' ' ')log $logf"
	fi
	# perf stat in the guest
	h=$(num "$logf" KVMG-HOST-STAT: dTLB-load-misses:u) g=$(num "$logf" KVMG-GUEST-STAT: dTLB-load-misses:u)
	ha=$(num "$logf" KVMG-HOST-STAT: dTLB-load-misses) ga=$(num "$logf" KVMG-GUEST-STAT: dTLB-load-misses)
	gc=$(num "$logf" KVMG-GUEST-STAT: cycles) gi=$(num "$logf" KVMG-GUEST-STAT: instructions)
	nopmu=""
	if grep -aq 'KVMG-GUEST: up at' "$logf" && ! grep -aq 'KVMG-GUEST-DMESG: .*riscv-pmu-sbi: SBI PMU extension is available' "$logf" &&
		! grep -aq 'KVMG-HOST: isa:.*sscofpmf' "$logf"; then
		nopmu="KVM gave the guest no SBI PMU (its riscv-pmu-sbi did not probe): the host has no Sscofpmf ($(lcofi_why "$q" "$m")); the guest's perf died with SIGILL ($(grep -acE 'perf\[[0-9]+\]: unhandled signal 4' "$logf") times: a counter CSR read that KVM emulates only for a guest with its PMU)"
	fi
	if [[ -n $nopmu ]]; then
		verdict SKIP "$name: guest perf stat counts cycles and instructions" "$nopmu"
	elif [[ $gc =~ ^[0-9]+$ && $gi =~ ^[0-9]+$ && $gc -gt 0 && $gi -gt 0 ]]; then
		verdict PASS "$name: guest perf stat counts cycles and instructions" "$gc cycles, $gi instructions of work load-pages $pages"
	else
		verdict FAIL "$name: guest perf stat counts cycles and instructions" "cycles '${gc:-none}', instructions '${gi:-none}'; log $logf"
	fi
	if [[ -n $nopmu ]]; then
		verdict SKIP "$name: guest perf stat counts dTLB-load-misses within 10% of the host's" "no guest PMU (above); the host's own: every mode $ha, :u ${h:-none} (no mode filter without Sscofpmf)"
	elif [[ $g == "<notsupported>" ]] && ! grep -aq 'KVMG-GUEST: isa:.*sscofpmf' "$logf"; then
		# no Sscofpmf in the guest: no mode filter, and the every-mode count
		# holds QEMU's TLB refills after every VM exit and entry
		verdict SKIP "$name: guest perf stat counts dTLB-load-misses within 10% of the host's" "the guest has no Sscofpmf ($(lcofi_why "$q" "$m" short)), so no :u filter; every mode: $ga vs $ha, which counts QEMU's refills of its whole TLB, emptied on every VM exit and entry (target/riscv/cpu_helper.c, riscv_cpu_set_mode)"
	elif [[ $g =~ ^[0-9]+$ && $h =~ ^[0-9]+$ && $h -gt 0 ]]; then
		d=$(( (g > h ? g - h : h - g) * 1000 / h ))
		ratio=$(printf '%d.%d%%' $((d / 10)) $((d % 10)))
		if ((d <= 100)); then
			verdict PASS "$name: guest perf stat counts dTLB-load-misses within 10% of the host's" "$g vs $h (:u), $ratio apart; work load-pages $pages; every mode: $ga vs $ha"
		else
			verdict FAIL "$name: guest perf stat counts dTLB-load-misses within 10% of the host's" "$g vs $h (:u), $ratio apart; work load-pages $pages; every mode: $ga vs $ha; log $logf"
		fi
	else
		verdict FAIL "$name: guest perf stat counts dTLB-load-misses within 10% of the host's" "guest '${g:-none}', host '${h:-none}'; log $logf"
	fi
	# perf record in the guest
	r=$(grep -aoE 'KVMG-GUEST: samples [0-9]+ work [0-9]+' "$logf" | head -n 1)
	s=$(awk '{ print $3 }' <<< "$r") w=$(awk '{ print $5 }' <<< "$r")
	r=$(grep -aoE 'KVMG-GUEST: tlb samples [0-9]+ work [0-9]+' "$logf" | head -n 1)
	ts=$(awk '{ print $4 }' <<< "$r") tw=$(awk '{ print $6 }' <<< "$r")
	if [[ ${w:-0} -gt 0 || ${tw:-0} -gt 0 ]]; then
		r=$(num "$logf" KVMG-GUEST-LOOP: cycles)
		verdict PASS "$name: guest perf record samples" "cycles -c $period of work loop $loops: ${s:-0} samples, ${w:-0} in work, of $(( ${r:-0} / period )) periods ($r cycles by perf stat); dTLB-load-misses:u -c 100 of work load-pages $pages: ${ts:-0} samples, ${tw:-0} in work, of $(( ${g:-0} / 100 )) periods; the guest took $(grep -aoE 'KVMG-GUEST-IRQ: +[0-9]+: +[0-9]+' "$logf" | awk '{ print $3 }' | head -n 1) overflow interrupts"
	elif grep -aq 'KVMG-GUEST: isa:' "$logf" && ! grep -aq 'KVMG-GUEST: isa:.*sscofpmf' "$logf"; then
		verdict SKIP "$name: guest perf record samples" "$(lcofi_why "$q" "$m"); the guest's perf: $(grep -aE 'KVMG-GUEST-REC: ' "$logf" | head -n 2 | sed 's/KVMG-GUEST-REC: //' | tr '\n' ' ' | sed 's/ *$//')"
	elif [[ $q == qemu-10.0 ]]; then
		verdict SKIP "$name: guest perf record samples" "$(lcofi_why "$q" "$m"); record: $(grep -aE 'KVMG-GUEST(-REC)?: (record|samples)' "$logf" | head -n 2 | sed 's/KVMG-GUEST[^:]*: //' | tr '\n' ' ')"
	else
		verdict FAIL "$name: guest perf record samples" "${r:-no samples line}; $(grep -aE 'KVMG-GUEST(-REC)?: ' "$logf" | grep -aE 'record|REC' | head -n 3 | sed 's/KVMG-GUEST[^:]*: //' | tr '\n' ' ')log $logf"
	fi
	# the host sees the guest
	gcg=$(num "$logf" KVMG-HOST-VMM: cycles:G)
	w=$(num "$logf" KVMG-HOST-VMM: kvm:kvm_entry)
	if [[ $gcg == "<notsupported>" ]] && ! grep -aq 'KVMG-HOST: isa:.*sscofpmf' "$logf"; then
		verdict SKIP "$name: host perf stat -e cycles:G sees the guest" "the host has no Sscofpmf, so no mode filter: cycles:G <not supported>; $(num "$logf" KVMG-HOST-VMM: cycles:H) cycles:H (every mode counted), kvm:kvm_entry $w: the host's tracepoints see the guest's $w entries"
	elif [[ $gcg =~ ^[0-9]+$ && $gcg -gt 0 ]]; then
		verdict PASS "$name: host perf stat -e cycles:G sees the guest" "$gcg guest cycles, $(num "$logf" KVMG-HOST-VMM: instructions:G) guest instructions, $(num "$logf" KVMG-HOST-VMM: cycles:H) host cycles of the VMM; kvm:kvm_entry ${w:-not counted}"
	else
		verdict FAIL "$name: host perf stat -e cycles:G sees the guest" "cycles:G '${gcg:-none}'; $(grep -a 'KVMG-HOST-VMM:' "$logf" | head -n 3 | tr '\n' ' ')log $logf"
	fi
	if ((status == 0)) && grep -aq 'KVMG-HOST: done' "$logf"; then
		verdict PASS "$name: powers off cleanly" "$took s"
	else
		verdict FAIL "$name: powers off cleanly" "QEMU status $status after $took s; log $logf"
	fi
	printf '  %s%s: %s, %s -M %s -cpu %s -smp 2 -m 2G; inner: -accel kvm -M virt -cpu host -smp 1 -m 256M: %d s, log %s\n' \
		"${reference:+INFO: $reference }" "$name" "$fwf" "$q" "$machine" "$cpu" "$took" "$logf"
	times+=("$(printf '%-14s %-24s %4d s; guest up at %s, done at %s (guest seconds)' "${reference:-tally}" "$1" "$took" \
		"$(grep -aoE 'KVMG-GUEST: up at [0-9.]+' "$logf" | grep -oE '[0-9.]+$' || echo -)" \
		"$(grep -aoE 'KVMG-GUEST: done at [0-9.]+' "$logf" | grep -oE '[0-9.]+$' || echo -)")")
}

# Why the guest cannot take its counter-overflow interrupt on this run
# (docs/kvm.md, "perf in a KVM guest").
lcofi_why() {	# <qemu> <machine> [short]
	local why=()
	[[ $2 != virt ]] ||
		why+=("no AIA: KVM offers a guest Sscofpmf only when the host has Ssaia (arch/riscv/kvm/vcpu_onereg.c)")
	[[ $1 != qemu-10.0 ]] ||
		why+=("QEMU 10.0.13's local interrupt mask is ~0xFFFF (target/riscv/csr.c LOCAL_INTERRUPTS): mie.LCOFIE and hvip/hvien bit 13, KVM's way into the guest, are read-only zero, so no overflow interrupt reaches a host or a guest (Tally withdraws Sscofpmf there)")
	printf '%s' "${why[0]}"
	((${#why[@]} < 2)) || printf '; %s' "${why[1]}"
	[[ -n ${3-} ]] || printf "; so the guest's perf cannot sample"
	echo
}

main() {
	local start=$SECONDS r key
	times=()
	[[ -f $dir/closure ]] || { verdict FAIL "debian/kvm-guest: built" "no $dir/closure (tests/debian/fetch.sh)"; exit 1; }
	"$here/fetch-vmm.sh" "$dir" || { verdict FAIL "debian/kvm-guest: built" "tests/debian/fetch-vmm.sh failed"; exit 1; }
	mkdir -p "$work"
	key=$(hash_inputs "$here/kvm-guest.sh" "$here/elf.sh" "$repo/tests/linux/workload.c" "$dir/vmm-qemu.closure" \
		"$(grep -E '^(perf-6.12|busybox|linux-6.12):' "$dir/closure")" "$(${cross}gcc --version | head -n 1)")
	if ! build_kept images "$key" "$work/host.cpio" -- build_images; then
		verdict FAIL "debian/kvm-guest: built" "the initramfs images"
		exit 1
	fi
	[[ -z $kept ]] || log "host initramfs kept: $work/host.cpio"
	for r in $runs; do
		boot "$r" "$fw"
	done
	if [[ -n $opensbi_anchor && -f $opensbi_anchor/fw_dynamic.bin ]]; then
		reference=opensbi-1.9
		echo "  INFO: comparison: the same runs on $opensbi_anchor/fw_dynamic.bin (not counted)"
		for r in $runs; do
			boot "$r" "$opensbi_anchor/fw_dynamic.bin"
		done
	fi
	echo "  the boots ($((SECONDS - start)) s in all):"
	printf '    %s\n' "${times[@]}"
	((failures == 0))
}

main "$@"
