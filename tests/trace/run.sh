#!/usr/bin/env bash
# N-Trace round trips on a real run: Tally boots to its S-mode test payload
# under QEMU (one hart, -icount for a deterministic run); tally-trace records
# it; the decoded address sequence must equal the one QEMU executed,
# instruction for instruction, in branch-trace (BTM) and history (HTM) modes,
# with and without the optimisations; the count must agree with a separate
# -icount run.  Then the profile, and a bounded libFuzzer run of the decoder.
#
# Usage: tests/trace/run.sh <build-dir>
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$root/build}")
fw="$out/platform/generic/firmware"
tool="$out/host/tools/tally-trace"
work="$out/trace"
mkdir -p "$work"
failures=0
pass() { echo "PASS: trace: $*"; }
fail() { echo "FAIL: trace: $*"; failures=$((failures + 1)); }

make -s -C "$root/tools" O="$out/host/tools" || { fail "tools build"; exit 1; }
elf="$fw/fw_payload.elf"
payload="$fw/test_payload.elf"	# the S-mode payload's own symbols
[[ -f $elf ]] || { fail "no $elf (run make first)"; exit 1; }
qemu=(qemu-system-riscv64 -M virt -smp 1 -m 256M -nographic -no-reboot -monitor none
      -serial null -bios "$fw/fw_payload.bin" -icount shift=0,sleep=off)

# 1. record (BTM, Ownership messages on: privilege from QEMU's TB flags)
if timeout 300 "$tool" record --context -o "$work/boot.ntr" --addresses "$work/boot.addr" \
	-- "${qemu[@]}" 2>"$work/record.log"; then
	n=$(wc -l <"$work/boot.addr")
	pass "record: Tally boot to the S-mode payload, $n instructions ($(tail -1 "$work/record.log" | sed 's/.*instructions, //'))"
else
	fail "record: $(tail -3 "$work/record.log")"
	exit 1
fi

# 2. decode the recorded stream with the ELF (+ the captured reset ROM words)
if "$tool" decode -q --cfg "$work/boot.ntr.cfg" --elf "$elf" --code "$work/boot.ntr.code" \
	-o "$work/boot.dec" "$work/boot.ntr" && cmp -s "$work/boot.dec" "$work/boot.addr"; then
	pass "decode of the recorded BTM stream == QEMU's executed sequence ($n instructions)"
else
	fail "decode of the recorded BTM stream differs from QEMU's executed sequence"
fi

# 3. the count against a separate plain -icount run (QEMU's own log)
timeout 300 "${qemu[@]}" -singlestep -d nochain,exec -D "$work/icount.log" </dev/null >/dev/null 2>&1
# executed = "Trace" lines, less TBs "Stopped ... before" they ran, less the
# first of two runs in a row of one instruction (an MMIO access under -icount
# restarts its TB; docs/trace.md); none of these runs jumps to itself.
executed=$(awk '/^Trace/ { split($0, f, "/"); pc = f[2]; n++; if (pc == last) n--; last = pc; next }
		/^Stopped execution/ { n--; last = "" } END { print n }' "$work/icount.log")
if [[ $executed -eq $n ]]; then
	pass "instruction count $n agrees with a separate -icount run"
else
	fail "instruction count $n, separate -icount run executed $executed"
fi
rm -f "$work/icount.log"

# 4. every mode and option set: encode the executed addresses, decode, compare
configs=(
	"btm|--mode btm"
	"btm+implicit-return|--mode btm --implicit-return 3"
	"btm+repeat-branch|--mode btm --repeat-branch"
	"btm+all|--mode btm --implicit-return 3 --repeat-branch --ext-addr"
	"btm+sync+tstamp+src|--mode btm --sync-mode 3 --sync-max 8 --tstamp --src-bits 4 --src-id 3"
	"htm|--mode htm"
	"htm+implicit-return|--mode htm --implicit-return 3"
	"htm+repeat-history|--mode htm --repeat-history"
	"htm+repeat-branch|--mode htm --repeat-branch"
	"htm+all|--mode htm --implicit-return 3 --repeat-history --repeat-branch --ext-addr"
	"htm+small-limits|--mode htm --icnt-limit 100 --hist-bits 8 --sync-mode 1 --sync-max 2 --implicit-return 2 --stack-depth 4"
	"htm+counting-return|--mode htm --implicit-return 1 --repeat-history"
)
echo "config bytes bits_per_instruction" >"$work/bits.txt"
for c in "${configs[@]}"; do
	name=${c%%|*}
	opts=${c#*|}
	# shellcheck disable=SC2086
	if "$tool" encode -q $opts --elf "$elf" --code "$work/boot.ntr.code" -o "$work/$name.ntr" \
		"$work/boot.addr" &&
	   "$tool" decode -q --cfg "$work/$name.ntr.cfg" --elf "$elf" --code "$work/boot.ntr.code" \
		-o "$work/$name.dec" "$work/$name.ntr" &&
	   cmp -s "$work/$name.dec" "$work/boot.addr"; then
		bytes=$(stat -c %s "$work/$name.ntr")
		bits=$(awk -v b="$bytes" -v n="$n" 'BEGIN { printf "%.4f", 8 * b / n }')
		echo "$name $bytes $bits" >>"$work/bits.txt"
		pass "round trip $name: decoded == executed ($n instructions, $bytes bytes, $bits bits/instruction)"
	else
		fail "round trip $name: decoded sequence differs"
	fi
	rm -f "$work/$name.dec"
done

# 5. the S-mode SBI test payload (tests/sbi) on fw_dynamic, PMU checks only
#    (bootargs "pmu"), HTM with every optimisation.  Not under -icount: QEMU
#    7.2 aborts ("Raised interrupt while not in I/O function") on its timer
#    tests there, so this run is checked against its own executed sequence.
sbi_elf="$out/tests/sbi/sbi-test.elf"
if make -s -C "$root/tests/sbi" O="$out/tests/sbi" >/dev/null &&
   timeout 600 "$tool" record --mode htm --implicit-return 3 --repeat-history --repeat-branch \
	--context -o "$work/sbi.ntr" --addresses "$work/sbi.addr" -- \
	qemu-system-riscv64 -M virt -smp 1 -m 256M -nographic -no-reboot -monitor none \
	-serial file:"$work/sbi.serial" -bios "$fw/fw_dynamic.bin" -kernel "$sbi_elf" \
	-append pmu 2>"$work/sbi-record.log" &&
   "$tool" decode -q --cfg "$work/sbi.ntr.cfg" --elf "$fw/fw_dynamic.elf" --elf "$sbi_elf" \
	--code "$work/sbi.ntr.code" -o "$work/sbi.dec" "$work/sbi.ntr" &&
   cmp -s "$work/sbi.dec" "$work/sbi.addr"; then
	pass "SBI payload (HTM, all optimisations): decoded == executed ($(tail -1 "$work/sbi-record.log" | sed 's/tally-trace: //'))"
else
	fail "SBI payload trace round trip (see $work/sbi-record.log)"
fi
rm -f "$work/sbi.dec"

# 6. Linux (one hart, -icount): boot, init and its perf check, the first 110 M
#    instructions, BTM with implicit return, RepeatBranch, address extension:
#    minutes of recording and about 2 GB of addresses, so only on request
#    (TRACE_LINUX=1) and with the Linux test artefacts built (suite linux).
linux="$out/linux"
if [[ ${TRACE_LINUX:-0} != 1 ]]; then
	echo "SKIP: trace: Linux boot round trip (set TRACE_LINUX=1; several minutes)"
elif [[ ! -f $linux/Image || ! -f $linux/obj/vmlinux || ! -f $linux/initramfs.cpio ]]; then
	echo "SKIP: trace: Linux boot round trip: no $linux/Image, obj/vmlinux, initramfs.cpio (suite linux builds them)"
elif timeout 3600 "$tool" record --context --implicit-return 3 --repeat-branch --ext-addr \
	--max-instructions 110000000 \
	-o "$work/linux.ntr" --addresses "$work/linux.addr" -- \
	qemu-system-riscv64 -M virt -smp 1 -m 512M -nographic -no-reboot -monitor none \
	-serial file:"$work/linux.serial" -bios "$fw/fw_dynamic.bin" -kernel "$linux/Image" \
	-initrd "$linux/initramfs.cpio" -append "console=ttyS0 earlycon" \
	-icount shift=0,sleep=off 2>"$work/linux-record.log" &&
   "$tool" decode -q --cfg "$work/linux.ntr.cfg" --syms "$linux/obj/vmlinux" \
	--code "$work/linux.ntr.code" -o "$work/linux.dec" "$work/linux.ntr" &&
   cmp -s "$work/linux.dec" "$work/linux.addr"; then
	pass "Linux boot: decoded == executed ($(tail -1 "$work/linux-record.log" | sed 's/tally-trace: //'))"
else
	fail "Linux boot trace round trip (see $work/linux-record.log)"
fi
rm -f "$work/linux.dec" "$work/linux.addr"

# 7. profile: per function and per SBI call, and a flame graph
if "$tool" profile --cfg "$work/boot.ntr.cfg" --elf "$elf" --elf "$payload" --code "$work/boot.ntr.code" \
	--svg "$work/boot.svg" "$work/boot.ntr" >"$work/profile.txt" 2>/dev/null &&
   grep -q '^sbi_ecall_handle ' "$work/profile.txt" && grep -q '^dbcn_handle' "$work/profile.txt" &&
   grep -q '<rect' "$work/boot.svg"; then
	pass "profile: per-function and per-SBI-call tables, flame graph $work/boot.svg"
else
	fail "profile output incomplete ($work/profile.txt)"
fi

# 8. fuzz the decoder for a bounded number of runs
if command -v clang-14 >/dev/null &&
   clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I"$root/include" "$root/tests/trace/fuzz_decoder.c" "$root"/lib/ntrace/*.c \
	-o "$work/fuzz_decoder" 2>"$work/fuzz-build.log"; then
	rm -rf "$work/fuzz-corpus"
	mkdir -p "$work/fuzz-corpus"
	cp "$root"/tests/trace/fuzz-seeds/* "$work/fuzz-corpus/"
	if "$work/fuzz_decoder" -runs=30000 -max_len=512 -seed=1 \
		-artifact_prefix="$work/fuzz-" "$work/fuzz-corpus" \
		>"$work/fuzz.log" 2>&1; then
		pass "libFuzzer: 30000 decoder runs, no crash, no out-of-bounds access"
	else
		fail "libFuzzer found a crash: $(grep -m1 ERROR "$work/fuzz.log")"
	fi
else
	echo "SKIP: trace: clang-14 with -fsanitize=fuzzer not available"
fi
[[ $failures -eq 0 ]]
