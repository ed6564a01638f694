#!/usr/bin/env bash
# Static check of what a hart does when HSM starts it (hsm_wait_for_start):
#  - after hart_init_local, which clears msip, it serves the requests still
#    pending behind it (sbi_ipi_process): a caller that saw it STARTED
#    before its stop waits for an answer that no other IPI may bring;
#  - then it stores STARTED (a release store: a fence ordering the writes
#    after it, or an .rl AMO) and calls hsm_start_fences: a stopped
#    (stopping, starting) hart is no target of remote fences, so it does
#    every kind it may have missed, sfence.vma x0, x0, fence.i and (RV64:
#    the H extension) hfence.gvma x0, x0 and hfence.vvma x0, x0;
#  - then it enters S-mode.
# QEMU re-translates written code by itself and flushes its TLB at every
# satp write, so no payload can see a missing fence.i or hfence, and the
# lost request needs a window of a few instructions that a payload cannot
# aim at (test_hsm_fences_across_restart stresses it): the instructions
# and their order are checked.
#
# Usage: tests/sbi/check-start-fences.sh <firmware.elf> [rv32]
set -uo pipefail

elf=$1
rv32=${2:-}
objdump=riscv64-unknown-elf-objdump
command -v "$objdump" >/dev/null || objdump=riscv64-linux-gnu-objdump
name=${rv32:+rv32-}$(basename "$elf" .elf)
status=0

# the instruction words and mnemonics of one function, one per line
body() {
	"$objdump" -d "$elf" | awk -v f="<$1>:" '
		index($0, f) { on = 1; next }
		on && /^$/ { exit }
		on { split($0, part, "\t"); w = part[2]; gsub(/ /, "", w); print w, part[3], part[4] }'
}

start=$(body hsm_start_fences)
wait=$(body hsm_wait_for_start)
check() {
	if [[ $2 == ok ]]; then
		echo "PASS: $name: HSM start: $1"
	else
		echo "FAIL: $name: HSM start: $1"
		status=1
	fi
}

has_word() { grep -q "^$1 " <<< "$start" && echo ok; }
check "sfence.vma x0, x0 (the TLB)" "$(has_word 12000073)"
check "fence.i (instruction fetch)" "$(has_word 0000100f)"
if [[ $rv32 != rv32 ]]; then
	check "hfence.gvma x0, x0 (G-stage, every VMID)" "$(has_word 62000073)"
	check "hfence.vvma x0, x0 (VS-stage)" "$(has_word 22000073)"
fi

# hart_init_local (which clears msip), the requests pending behind it
# served, the release store of STARTED, the fences, then S-mode
order=$(awk '
	/<hart_init_local>/ { print "init" }
	/<sbi_ipi_process>/ { print "serve" }
	$2 == "fence" && $3 ~ /,(o|i|r)*w$/ { print "release" }	# fence rw,w or iorw,ow
	$2 ~ /\.rl$/ { print "release" }
	/<hsm_start_fences>/ { print "fences" }
	/<hart_enter_smode>/ { print "enter" }' <<< "$wait" | tr '\n' ' ')
order=${order% }
if [[ $order == *"init serve release fences enter"* ]]; then
	check "requests pending at the start served, then STARTED stored, then the fences, then S-mode ($order)" ok
else
	check "requests pending at the start served, then STARTED stored, then the fences, then S-mode (found: ${order:-nothing})" no
fi
exit $status
