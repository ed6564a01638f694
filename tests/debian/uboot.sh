#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Debian's U-Boot for QEMU (u-boot-qemu's qemu-riscv64_smode/u-boot.bin,
# fetched by tests/debian/fetch.sh) as the next stage of each firmware
# image, on Debian's QEMU 10.0 (-smp 2, trixie's kernel 6.12) and QEMU 11.1
# (-smp 4, Debian's newest 7.x kernel), -M virt -cpu rv64 -m 1G: U-Boot is the
# -kernel (0x80200000, where fw_jump jumps on virt: FW_JUMP_ADDR), the
# kernel's Image and an initramfs of init.c alone (tests/linux/init.c as
# tests/debian/initramfs.sh builds it, static/init) are put in
# memory by QEMU's loader device at U-Boot's kernel_addr_r (0x84000000) and
# ramdisk_addr_r (0x8c300000), and tests/debian/console.py plays this
# dialogue on the serial console, each step once:
#
#   "Hit any key to stop autoboot"  -> a space (no distro boot scan)
#   "=> "                           -> sbi          (its extension list)
#   "=> "                           -> fdt addr ${fdtcontroladdr}; fdt header
#   "=> "                           -> setenv bootargs console=ttyS0 ... tally.perf=none
#   "=> "                           -> booti 0x84000000 0x8c300000:<size> ${fdtcontroladdr}
#   "TALLY-LINUX-INIT: ok|FAIL"     (tests/linux/init.c, its boot checks only)
#   QEMU's exit                     (init powers off: SBI SRST)
#
# booti is given U-Boot's own devicetree (the firmware's, which U-Boot
# copied), as Debian's extlinux boot does when extlinux.conf names no fdt:
# U-Boot then edits that copy in place (bootargs, initrd, boot-hartid), in
# whatever free space the firmware left inside the blob (docs/porting.md,
# "U-Boot from Debian").
#
# One line per check, named "debian/uboot/<qemu>/<flavour>: ..." (a
# firmware other than <build-dir>'s puts its directory first:
# "debian/uboot/qemu-11.1/opensbi-1.9/fw_dynamic: ..."):
#   prompt reached; sbi lists <its extensions> (the firmware's banner list,
#   as far as U-Boot knows the extensions); booti reaches Linux user space;
#   init's checks pass (tally.perf=none: mounts, cpus-online, cpu-hotplug,
#   which stops and starts a hart through HSM); Linux brings up <N> harts;
#   powers off cleanly.
#
# Usage: tests/debian/uboot.sh <build-dir> [FW...]
#   FW   firmware images (default <build-dir>/platform/generic/firmware/
#        fw_dynamic.bin and fw_jump.bin; a fw_jump must jump to 0x80200000)
# Environment: TALLY_UBOOT_QEMUS (default "stable backports": the roots of
# <build-dir>/debian, or 10.0, 11.1).
# Logs: <build-dir>/debian/logs/uboot_<qemu>_<flavour>.log. Exits 1 if a
# check failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(realpath -m "${1:?usage: uboot.sh <build-dir> [FW...]}")
shift
fws=("$@")
[[ ${#fws[@]} -gt 0 ]] ||
	fws=("$out/platform/generic/firmware/fw_dynamic.bin" "$out/platform/generic/firmware/fw_jump.bin")
dir=$out/debian
uboot=$dir/u-boot/usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin
kernel_addr=0x84000000	# U-Boot's kernel_addr_r on qemu-riscv
ramdisk_addr=0x8c300000	# its ramdisk_addr_r
bootargs="console=ttyS0 earlycon panic=-1 tally.perf=none"
failures=0

pass() { printf 'PASS: %s%s\n' "$1" "${2:+ ($2)}"; }
fail() { printf 'FAIL: %s (%s)\n' "$1" "$2"; failures=$((failures + 1)); }

# U-Boot's names of the SBI extensions (cmd/riscv/sbi.c) -> the spec's
declare -A sbi_id=(
	["SBI Base Functionality"]=BASE ["Timer Extension"]=TIME ["IPI Extension"]=IPI
	["RFENCE Extension"]=RFNC ["Hart State Management Extension"]=HSM
	["System Reset Extension"]=SRST ["Performance Monitoring Unit Extension"]=PMU
	["Debug Console Extension"]=DBCN ["System Suspend Extension"]=SUSP
	["Collaborative Processor Performance Control Extension"]=CPPC
	["Nested Acceleration Extension"]=NACL ["Steal-time Accounting Extension"]=STA
	["Supervisor Software Events"]=SSE ["Firmware Features Extension"]=FWFT
	["Debug Triggers Extension"]=DBTR ["Message Proxy Extension"]=MPXY
)
legacy_names="Set Timer|Console Putchar|Console Getchar|Clear IPI|Send IPI|Remote FENCE.I|Remote SFENCE.VMA|Remote SFENCE.VMA with ASID|System Shutdown"

# pick <qemu>: its root (qemu-10.0, ...), its kernel's root, its -smp
pick() {
	local q=$1 r
	r=$(realpath -m "$dir/qemu-$q")
	qroot=$r
	case ${r##*/} in
	qemu-10.0 | "$(readlink "$dir/qemu-stable" 2> /dev/null)")
		lroot=$(realpath -m "$dir/linux-stable") smp=2 ;;
	*)
		lroot=$(realpath -m "$dir/linux-backports") smp=4 ;;
	esac
}

# one <qemu> <firmware>: the dialogue and its checks
one() {
	local q=$1 fw=$2 flavour name logf steps=() size ksize
	flavour=$(basename "$fw" .bin)
	pick "$q"
	if [[ $(realpath -m "$(dirname "$fw")") != "$out/platform/generic/firmware" ]]; then
		flavour=$(basename "$(dirname "$(realpath -m "$fw")")")/$flavour
	fi
	name="debian/uboot/${qroot##*/}/$flavour"
	logf=$dir/logs/uboot_${qroot##*/}_${flavour//\//_}.log
	mkdir -p "$dir/logs"
	for f in "$qroot/qemu-system-riscv64" "$lroot/Image" "$initrd" "$uboot" "$fw"; do
		if [[ ! -e $f ]]; then
			fail "$name: prompt reached" "no $f (tests/debian/fetch.sh, initramfs.sh; the firmware)"
			return
		fi
	done
	size=$(printf '0x%x' "$(stat -Lc %s "$initrd")")
	ksize=$(stat -Lc %s "$lroot/Image")
	if ((ksize > ramdisk_addr - kernel_addr)); then
		fail "$name: prompt reached" "$lroot/Image ($ksize bytes) would overlap the initramfs at $ramdisk_addr"
		return
	fi
	# shellcheck disable=SC2016 # ${fdtcontroladdr} is U-Boot's to expand
	steps=(
		# (the step numbers: 4 the prompt, 12 init's marker, 13 QEMU's exit)
		--step 'abort:Unhandled exception.*|Kernel panic.*|Oops.*'
		--step 'expect:60:Hit any key to stop autoboot' --step 'send: '
		--step 'expect:20:^=> '
		--step 'send:sbi\r' --step 'expect:20:^=> '
		--step 'send:fdt addr ${fdtcontroladdr}; fdt header\r' --step 'expect:20:^=> '
		--step "send:setenv bootargs $bootargs\\r" --step 'expect:20:^=> '
		--step "send:booti $kernel_addr $ramdisk_addr:$size \${fdtcontroladdr}\\r"
		--step 'expect:180:TALLY-LINUX-INIT: (ok|FAIL).*'
		--step 'eof:60'
	)
	local start=$SECONDS result
	result=$("$here/console.py" --log "$logf" "${steps[@]}" -- \
		timeout -k 5 400 "$qroot/qemu-system-riscv64" -M virt -cpu rv64 -smp "$smp" -m 1G \
		-display none -serial stdio -monitor none -no-reboot -bios "$fw" -kernel "$uboot" \
		-device "loader,file=$lroot/Image,addr=$kernel_addr,force-raw=on" \
		-device "loader,file=$initrd,addr=$ramdisk_addr,force-raw=on" 2>&1)
	local took=$((SECONDS - start))
	tr -d '\r' < "$logf" > "$logf.txt" && mv "$logf.txt" "$logf"
	# step_ok <n>: the step's seconds if it matched
	step() { sed -nE "s/^STEP $1 ok ([0-9.]+).*/\1/p" <<< "$result"; }
	local last why
	last=$(grep -E '^STEP [0-9]+ (timeout|eof|abort)' <<< "$result" | head -n 1)
	why=${last:-"$(grep -m1 -v '^STEP' <<< "$result")"}

	# 1. the prompt (step 4: the first "=> " after the key)
	if [[ -n $(step 4) ]]; then
		pass "$name: prompt reached" "$(step 4) s"
	else
		fail "$name: prompt reached" "console.py: $why; log $logf"
		return
	fi

	# 2. sbi: what U-Boot lists against the firmware's banner
	local sbi_out listed=() legacy=0 line id banner expect=() missing=() extra=() known v
	sbi_out=$(sed -n '/^=> sbi$/,/^=> /p' "$logf")
	while IFS= read -r line; do
		line=${line#"${line%%[![:space:]]*}"}
		if [[ -n ${sbi_id[$line]-} ]]; then
			listed+=("${sbi_id[$line]}")
		elif [[ $line =~ ^($legacy_names)$ ]]; then
			legacy=$((legacy + 1))
		fi
	done < <(sed -n '/^Extensions:/,$p' <<< "$sbi_out")
	v=$(sed -nE 's/^SBI ([0-9]+\.[0-9]+)$/\1/p' <<< "$sbi_out")
	banner=$(sed -nE 's/^SBI extensions *: *//p' "$logf" | head -n 1)
	known=" ${sbi_id[*]} "
	if [[ -n $banner ]]; then
		for id in $banner; do
			[[ $id == legacy || $known != *" $id "* ]] || expect+=("$id")
		done
		for id in "${expect[@]}"; do
			[[ " ${listed[*]} " == *" $id "* ]] || missing+=("$id")
		done
		for id in "${listed[@]}"; do
			[[ " ${expect[*]} " == *" $id "* ]] || extra+=("$id")
		done
		local bv
		bv=$(sed -nE 's/^SBI version *: *([0-9]+\.[0-9]+).*/\1/p' "$logf" | head -n 1)
		if [[ ${#listed[@]} -gt 0 && ${#missing[@]} -eq 0 && ${#extra[@]} -eq 0 && $v == "$bv" &&
			($banner != *legacy* || $legacy -eq 9) ]]; then
			local note="SBI $v, as the banner"
			((legacy == 0)) || note+=", and the $legacy legacy calls"
			pass "$name: sbi lists ${listed[*]}" "$note"
		else
			fail "$name: sbi lists the firmware's extensions" \
				"U-Boot: SBI ${v:-?}, ${listed[*]:-nothing}, $legacy legacy; banner: SBI ${bv:-?}, $banner; missing: ${missing[*]:--}; extra: ${extra[*]:--}; log $logf"
		fi
	elif [[ " ${listed[*]} " == *" BASE "* ]]; then
		pass "$name: sbi lists ${listed[*]}" "SBI $v; no Tally banner to compare with"
	else
		fail "$name: sbi lists the firmware's extensions" "U-Boot listed: ${listed[*]:-nothing}; log $logf"
	fi

	# 3. booti -> Linux user space (init's marker)
	local marker total used strs strsize
	marker=$(grep -aoE 'TALLY-LINUX-INIT: (ok|FAIL).*' "$logf" | tail -n 1) || true
	if [[ -n $marker ]]; then
		pass "$name: booti reaches Linux user space" "${lroot##*/}, '$marker', $(step 12) s"
	else
		# U-Boot grows the blob in place: how much room did it have?
		hdr() { sed -nE "s/^$1:[[:space:]]+0x([0-9a-f]+).*/\1/p" "$logf" | head -n 1; }
		total=$(hdr totalsize) strs=$(hdr off_dt_strings) strsize=$(hdr size_dt_strings)
		used=""
		[[ -z $total || -z $strs || -z $strsize ]] ||
			used=" (U-Boot's devicetree: totalsize $((16#$total)) bytes, $((16#$total - 16#$strs - 16#$strsize)) of them free)"
		fail "$name: booti reaches Linux user space" \
			"${lroot##*/}: console.py: $why$used; log $logf"
		echo "  last lines of $logf:"
		grep -av '^$' "$logf" | tail -n 12 | sed 's/^/  | /'
		return
	fi

	# 4. init's boot checks (tally.perf=none: mounts, cpus-online, cpu-hotplug)
	local checks bad
	checks=$(grep -aoE 'TALLY-LINUX-CHECK: [^:]+: ok' "$logf" | sed -E 's/TALLY-LINUX-CHECK: ([^:]+): ok/\1/' | tr '\n' ' ')
	bad=$(grep -aoE 'TALLY-LINUX-CHECK: [^:]+: (FAIL|skip).*' "$logf" | sed 's/TALLY-LINUX-CHECK: //' | tr '\n' ';')
	if [[ $marker == "TALLY-LINUX-INIT: ok"* && -z $bad ]]; then
		pass "$name: init's checks pass" "${checks% }"
	else
		fail "$name: init's checks pass" "${bad:-$marker}; log $logf"
	fi

	# 5. the harts Linux started (HSM hart_start, U-Boot having run on one)
	local cpus
	cpus=$(sed -nE 's/.* ([0-9]+) cpus online.*/\1/p' <<< "$marker")
	if [[ $cpus == "$smp" ]] && grep -aqE "smp: Brought up 1 node, $smp CPUs" "$logf"; then
		pass "$name: Linux brings up $smp harts"
	else
		fail "$name: Linux brings up $smp harts" "init saw ${cpus:-no} cpus, kernel: '$(grep -aoE 'smp: Brought up .*' "$logf" || echo 'no smp line')'"
	fi

	# 6. power-off (SRST), QEMU's exit
	if grep -qE '^STEP 13 ok' <<< "$result" && grep -qE '^EXIT 0$' <<< "$result" &&
		grep -aq 'reboot: Power down' "$logf"; then
		pass "$name: powers off cleanly"
	else
		fail "$name: powers off cleanly" "$(grep -E '^(STEP 13|EXIT)' <<< "$result" | tr '\n' ' ')$(grep -am1 -E 'reboot: .*' "$logf"); log $logf"
	fi
	printf '  %s: %s, U-Boot %s, %s, -smp %d: %d s, log %s\n' "$name" "$fw" \
		"$(sed -nE 's/^U-Boot ([^ ]+) .*/\1/p' "$logf" | head -n 1)" "${lroot##*/}" "$smp" "$took" "$logf"
}

# The initramfs: init.c alone (initramfs.sh's static build of it), which is
# all that tally.perf=none needs; the perf initramfs takes the kernel 7 s more
# to unpack on each boot.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
initrd=$tmp/init.cpio
if [[ -f $dir/initramfs/static/init ]]; then
	mkdir -p "$tmp/stage"/{dev,proc,sys,tmp}
	cp "$dir/initramfs/static/init" "$tmp/stage/init"
	# the device the kernel opens for init's output (init.c copes without it)
	(($(id -u) != 0)) || mknod -m 600 "$tmp/stage/dev/console" c 5 1
	(cd "$tmp/stage" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) > "$initrd" || rm -f "$initrd"
fi
[[ -f $initrd ]] || initrd=$dir/initramfs/static/init.cpio	# (reported missing below)

for q in ${TALLY_UBOOT_QEMUS:-stable backports}; do
	for fw in "${fws[@]}"; do
		one "$q" "$fw"
	done
done
((failures == 0))
