#!/usr/bin/env bash
# Static check of the firmware's hfence instructions.  The ranged
# REMOTE_HFENCE_GVMA and REMOTE_HFENCE_VVMA calls fence every VMID (ASID):
# their hfence must have rs2 = x0, since rs2 = a register holding 0 names
# VMID (ASID) 0 only.  QEMU flushes its whole TLB for any hfence, so no
# payload can see the difference: the encodings are checked instead.
#
# Usage: tests/sbi/check-hfence.sh <firmware.elf>
set -uo pipefail

elf=$1
objdump=riscv64-unknown-elf-objdump
command -v "$objdump" >/dev/null || objdump=riscv64-linux-gnu-objdump

# name funct7: is there an "hfence.<name> rs1, x0" with rs1 != x0?
found() {
	local funct7=$1 word w
	while read -r word; do
		w=$((16#$word))
		if (( (w & 0x7f) == 0x73 && ((w >> 7) & 0x1f) == 0 && ((w >> 12) & 7) == 0 &&
		      (w >> 25) == funct7 && ((w >> 15) & 0x1f) != 0 && ((w >> 20) & 0x1f) == 0 )); then
			return 0
		fi
	done < <("$objdump" -d "$elf" | awk -F'\t' 'NF >= 2 { gsub(/ /, "", $2); if ($2 ~ /^[0-9a-f]+$/ && length($2) == 8) print $2 }')
	return 1
}

name=$(basename "$elf" .elf)
status=0
for pair in "gvma 0x31 VMID" "vvma 0x11 ASID"; do
	read -r insn funct7 id <<<"$pair"
	if found $((funct7)); then
		echo "PASS: $name: ranged remote_hfence_$insn fences every $id (hfence.$insn rs1, x0)"
	else
		echo "FAIL: $name: no hfence.$insn rs1, x0: a ranged remote_hfence_$insn fences $id 0 only"
		status=1
	fi
done
exit $status
