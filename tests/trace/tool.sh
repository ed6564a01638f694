#!/usr/bin/env bash
# tally-trace as a user meets it (part of the trace suite, tests/trace/run.sh):
# streams from the reference encoder (NexRv, built from its sources as an
# oracle, never linked), decoding without a side file, and the error
# messages: each names the byte offset, the message number, the field and
# its value.
#
# Usage: tests/trace/tool.sh <build-dir>
#   NEXRV_SRC: the reference's sources (default ../shared/anchors/nexrv
#   beside the main checkout, or /work/shared/anchors/nexrv)
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$root/build}")
tool="$out/host/tools/tally-trace"
work="$out/trace/tool"
mkdir -p "$work"
failures=0
pass() { echo "PASS: trace: tool: $*"; }
fail() { echo "FAIL: trace: tool: $*"; failures=$((failures + 1)); }
skip() { echo "SKIP: trace: tool: $*"; }

[[ -x $tool ]] || { fail "no $tool (make tools)"; exit 1; }
cc=riscv64-unknown-elf-gcc
ccflags=(-nostdlib -march=rv64gc -mabi=lp64 -Wl,-Ttext=0x80000000)

# The reference implementation, built once into the build directory.
nexrv_src=${NEXRV_SRC:-}
for d in "$root/../shared/anchors/nexrv" "$root/../../shared/anchors/nexrv" /work/shared/anchors/nexrv; do
	[[ -z $nexrv_src && -f $d/NexRv.c ]] && nexrv_src=$(cd "$d" && pwd)
done
nexrv="$out/host/nexrv/nexrv"
if [[ -n $nexrv_src ]] && { [[ -x $nexrv ]] || {
	mkdir -p "$(dirname "$nexrv")" && gcc -O2 -w -o "$nexrv" "$nexrv_src"/*.c; }; }; then
	have_nexrv=1
else
	have_nexrv=0
fi

# ---- the loop program and its executed sequence -----------------------------------
# loop_program NAME TURNS: $work/NAME.elf, its sequence as PCSEQ (the
# reference's format: address, type and size a line) and as addresses
loop_program() {
	local name=$1 turns=$2 body="" a
	"$cc" "${ccflags[@]}" -DTURNS="$turns" -o "$work/$name.elf" "$root/tests/trace/progs/loop.S" ||
		return 1
	for ((a = 0; a < 48; a++)); do
		body+=$(printf '0x%X,L4\\n' $((0x80000008 + 4 * a)))
	done
	body+='0x800000C8,L2\n0x800000CA,L2\n'
	awk -v n="$turns" -v body="$body" 'BEGIN {
		printf "0x80000000,L4\n0x80000004,L4\n"
		for (t = 1; t < n; t++)
			printf "%s0x800000CC,B4\n", body
		printf "%s0x800000CC,BN4\n", body
		printf "0x800000D0,C4\n0x800000DC,R4\n0x800000D4,L4\n0x800000D8,J4\n"
	}' >"$work/$name.pcseq"
	cut -d, -f1 "$work/$name.pcseq" | sed 's/^0x//' | tr 'A-F' 'a-f' >"$work/$name.addr"
}
loop_program loop 45000 && loop_program short 20 || { fail "assemble tests/trace/progs/loop.S"; exit 1; }
loop_n=$(wc -l <"$work/loop.addr")

# ---- 1. the reference's streams: counts wider than 22 bits, no side file -----------
if [[ $have_nexrv == 0 ]]; then
	skip "reference encoder streams: no NexRv sources (NEXRV_SRC)"
else
	"$nexrv" -enco "$work/loop.pcseq" -nex "$work/loop-rpt.nex" -rpt 2 >"$work/nexrv.log" 2>&1
	"$nexrv" -enco "$work/loop.pcseq" -nex "$work/loop-btm.nex" -nobhm >>"$work/nexrv.log" 2>&1
	# HTM with repeated history: the whole loop in one I-CNT of 4,500,004
	# halfwords (23 bits); the mode comes from the stream (ResourceFull HIST)
	if "$tool" decode --elf "$work/loop.elf" -o "$work/rpt.dec" "$work/loop-rpt.nex" \
		2>"$work/rpt.log" && cmp -s "$work/rpt.dec" "$work/loop.addr" &&
	   grep -q 'accepted (the first: I-CNT=45[0-9]\{5\}, 22 bits at most' "$work/rpt.log" &&
	   grep -q 'trTeInstMode=6 (HTM) from the stream' "$work/rpt.log"; then
		pass "reference stream, one I-CNT of 23 bits, no side file: HTM detected, decoded == executed ($loop_n instructions), $(grep -o '[0-9]* field.*accepted (the first: I-CNT=[0-9]*' "$work/rpt.log")"
	else
		fail "reference stream with a 23-bit I-CNT: $(head -3 "$work/rpt.log")"
	fi
	# --strict: refused, with where and what
	if ! "$tool" decode --strict --elf "$work/loop.elf" -o /dev/null "$work/loop-rpt.nex" \
		2>"$work/strict.log" &&
	   grep -q 'byte 0x[0-9a-f]* (message [0-9]*, [A-Za-z]*): message or field too long: I-CNT=45[0-9]\{5\} (wider than chapter 6.s 22 bits' "$work/strict.log"; then
		pass "--strict refuses it: $(grep -m1 'I-CNT=' "$work/strict.log" | sed 's/^tally-trace: //')"
	else
		fail "--strict: $(cat "$work/strict.log")"
	fi
	# BTM: DirectBranch per turn; the mode from the stream
	if "$tool" decode --elf "$work/loop.elf" -o "$work/btm.dec" "$work/loop-btm.nex" \
		2>"$work/btm.log" && cmp -s "$work/btm.dec" "$work/loop.addr" &&
	   grep -q 'trTeInstMode=3 (BTM) from the stream.s DirectBranch' "$work/btm.log"; then
		pass "reference BTM stream, no side file: BTM detected, decoded == executed"
	else
		fail "reference BTM stream: $(head -3 "$work/btm.log")"
	fi
fi

# ---- 2. Tally's own HTM stream without its side file -------------------------------
if "$tool" encode -q --mode htm --elf "$work/short.elf" -o "$work/htm.ntr" "$work/short.addr" &&
   "$tool" decode --elf "$work/short.elf" -o "$work/htm.dec" "$work/htm.ntr" 2>"$work/htm.log" &&
   cmp -s "$work/htm.dec" "$work/short.addr"; then
	pass "an HTM stream decoded without its side file: $(grep -o 'trTeInstMode=6 (HTM) from[^,]*' "$work/htm.log")"
else
	fail "HTM stream without side file: $(head -3 "$work/htm.log")"
fi
# a side file that says BTM for an HTM stream: a warning saying which message
"$tool" decode --mode btm --elf "$work/short.elf" -o /dev/null "$work/htm.ntr" 2>"$work/htm-btm.log"
if grep -q 'warning: trTeInstMode=3 (BTM) but the stream has IndirectBranchHist messages (first at byte 0x' \
	"$work/htm-btm.log"; then
	pass "--mode btm on an HTM stream: a warning naming the first IndirectBranchHist"
else
	fail "--mode btm on an HTM stream: $(head -2 "$work/htm-btm.log")"
fi
# implicit return, no side file: errors, and a hint that names the control
"$tool" encode -q --mode btm --implicit-return 3 --elf "$work/short.elf" -o "$work/ir.ntr" \
	"$work/short.addr" 2>/dev/null
if ! "$tool" decode --elf "$work/short.elf" -o /dev/null "$work/ir.ntr" 2>"$work/ir.log" &&
   grep -q 'hint: .*implicit return (--implicit-return 3)' "$work/ir.log"; then
	pass "implicit return without a side file: $(grep -m1 'byte 0x' "$work/ir.log" | sed 's/^tally-trace: [^:]*: //'); a hint names --implicit-return"
else
	fail "implicit return without a side file: $(cat "$work/ir.log")"
fi

# ---- 3. decode errors name offset, message, field, value -----------------------------
# a reserved MSEO value in the 5th byte of the stream
cp "$work/htm.ntr" "$work/bad.ntr"
printf '\x02' | dd of="$work/bad.ntr" bs=1 seek=4 conv=notrunc status=none
"$tool" decode --mode htm --elf "$work/short.elf" -o /dev/null "$work/bad.ntr" 2>"$work/bad.log"
if grep -q 'bad.ntr: byte 0x4 (message [0-9]*): reserved MSEO value or sequence: MSEO=2' "$work/bad.log"; then
	pass "a corrupt byte: $(grep -m1 'MSEO=' "$work/bad.log" | sed 's/^tally-trace: //')"
else
	fail "a corrupt byte: $(head -2 "$work/bad.log")"
fi

[[ $failures -eq 0 ]]
