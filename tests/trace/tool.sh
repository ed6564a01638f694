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
	   grep -q 'accepted (the first: I-CNT=45[0-9]\{5\} at byte 0x[0-9a-f]* (message [0-9]*, [A-Za-z]*), where chapter 6 allows 22 bits' "$work/rpt.log" &&
	   grep -q 'trTeInstMode=6 (HTM) from the stream' "$work/rpt.log"; then
		pass "reference stream, one I-CNT of 23 bits, no side file: HTM detected, decoded == executed ($loop_n instructions), $(grep -o '[0-9]* count.*accepted (the first: I-CNT=[0-9]*' "$work/rpt.log")"
	else
		fail "reference stream with a 23-bit I-CNT: $(head -3 "$work/rpt.log")"
	fi
	# --strict: refused, with where and what
	if ! "$tool" decode --strict --elf "$work/loop.elf" -o /dev/null "$work/loop-rpt.nex" \
		2>"$work/strict.log" &&
	   grep -q 'byte 0x[0-9a-f]* (message [0-9]*, [A-Za-z]*): count wider than the spec.s limit: I-CNT=45[0-9]\{5\} (chapter 6: 22 bits; --strict)' "$work/strict.log"; then
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

# ---- 4. the reference's formats in and out -----------------------------------------
# PCSEQ in: the stream is the same with the ELF or from the PCSEQ types alone
if "$tool" encode -q --mode htm -o "$work/seq.ntr" "$work/loop.pcseq" &&
   "$tool" encode -q --mode htm --elf "$work/loop.elf" -o "$work/seq-elf.ntr" "$work/loop.pcseq" &&
   cmp -s "$work/seq.ntr" "$work/seq-elf.ntr" &&
   "$tool" decode -q --elf "$work/loop.elf" -o "$work/seq.dec" "$work/seq.ntr" &&
   cmp -s "$work/seq.dec" "$work/loop.addr"; then
	pass "encode PCSEQ ($loop_n lines): the same stream without the ELF as with it, decoded == executed"
else
	fail "encode PCSEQ: streams differ or the decode does"
fi
# --and: two encoders in one run write what two runs write (stream, side
# file, code), and an encoder without -o is refused
if "$tool" encode -q --mode btm --repeat-branch -o "$work/one-a.ntr" "$work/loop.pcseq" &&
   "$tool" encode -q --mode htm --implicit-return 3 -o "$work/one-b.ntr" "$work/loop.pcseq" &&
   "$tool" encode -q --mode btm --repeat-branch -o "$work/two-a.ntr" \
	--and --mode htm --implicit-return 3 -o "$work/two-b.ntr" "$work/loop.pcseq" &&
   (for s in a b; do for f in ntr ntr.cfg ntr.code; do
	cmp -s "$work/one-$s.$f" "$work/two-$s.$f" || exit 1; done; done) &&
   ! "$tool" encode -q -o "$work/two-a.ntr" --and --mode htm "$work/loop.pcseq" 2>"$work/and.log" &&
   grep -q 'encoder 2 has no -o' "$work/and.log" &&
   ! "$tool" decode -q --and -o "$work/two-b.dec" "$work/two-b.ntr" 2>"$work/and.log" &&
   grep -q 'is for encode and record' "$work/and.log"; then
	pass "encode --and: BTM and HTM encoders in one run write the streams, side files and code of two runs; one without -o is refused, and decode --and says it is for encode and record"
else
	fail "encode --and: $(cat "$work/and.log" 2>/dev/null)"
fi
# out: PCSEQ as the input was; PCONLY and hex
"$tool" decode -q --elf "$work/loop.elf" --format pcseq -o "$work/seq.pcseq" "$work/seq.ntr"
"$tool" decode -q --elf "$work/loop.elf" --format pconly -o "$work/seq.pconly" "$work/seq.ntr"
if cmp -s "$work/seq.pcseq" "$work/loop.pcseq" &&
   cmp -s <(sed 's/^0x//' "$work/seq.pconly" | tr 'A-F' 'a-f') "$work/loop.addr"; then
	pass "decode --format pcseq gives the PCSEQ back, --format pconly the addresses"
else
	fail "decode --format pcseq/pconly"
fi
if [[ $have_nexrv == 1 ]]; then
	riscv64-unknown-elf-objdump -d "$work/loop.elf" >"$work/loop.objd"
	"$nexrv" -conv -objd "$work/loop.objd" -pcinfo "$work/loop.pcinfo" >/dev/null
	ok=1
	for m in btm htm; do
		"$tool" encode -q --mode $m -o "$work/seq-$m.ntr" "$work/loop.pcseq" &&
		"$nexrv" -deco "$work/seq-$m.ntr" -pcinfo "$work/loop.pcinfo" \
			-pcout "$work/seq-$m.pco" -none >/dev/null &&
		cmp -s "$work/seq-$m.pco" "$work/seq.pconly" || ok=0
	done
	# the reference's own PCONLY-to-PCSEQ conversion (objdump types) == ours
	"$nexrv" -conv -pcinfo "$work/loop.pcinfo" -pconly "$work/seq.pconly" \
		-pcseq "$work/conv.pcseq" >/dev/null
	if [[ $ok == 1 ]] && cmp -s "$work/conv.pcseq" "$work/seq.pcseq"; then
		pass "the reference decodes the streams encoded from PCSEQ (BTM, HTM) to our PCONLY byte for byte; its PCSEQ conversion == ours"
	else
		fail "PCSEQ/PCONLY against the reference (see $work/seq-*.pco, $work/conv.pcseq)"
	fi
	rm -f "$work/loop.objd"
fi
# record/encode --addresses in PCSEQ: the types from the code
if "$tool" encode -q --elf "$work/short.elf" --addresses "$work/short-out.pcseq" --format pcseq \
	-o /dev/null "$work/short.addr" && cmp -s "$work/short-out.pcseq" "$work/short.pcseq"; then
	pass "encode --addresses --format pcseq: typed from the code, == the program's PCSEQ"
else
	fail "encode --addresses --format pcseq"
fi

# a Spike log (--log-commits): the words come from the log, no ELF needed
riscv64-unknown-elf-objdump -d "$work/short.elf" |
	awk -F'[:\t ]+' '/^ +[0-9a-f]+:/ { print $2, $3 }' >"$work/short.words"
awk 'NR == FNR { w[$1] = $2; next }
     { printf "core   0: 3 0x00000000%s (0x%s) insn\n", $1, w[$1] }' \
	"$work/short.words" "$work/short.addr" >"$work/short.spike"
if "$tool" encode -q --mode htm -o "$work/spike.ntr" "$work/short.spike" &&
   "$tool" decode -q --elf "$work/short.elf" -o "$work/spike.dec" "$work/spike.ntr" &&
   cmp -s "$work/spike.dec" "$work/short.addr"; then
	pass "encode a Spike log ($(wc -l <"$work/short.spike") lines, words from the log): decoded == executed"
else
	fail "encode a Spike log ($work/short.spike)"
fi

# ---- 5. inputs that are not traces: errors, not "0 instructions" ---------------------
check_input() {	# file name, content (printf format), expected message
	local name=$1 content=$2 want=$3
	printf "$content" >"$work/$name"
	if ! "$tool" encode -o "$work/in.ntr" "$work/$name" 2>"$work/in.log" &&
	   grep -q -- "$want" "$work/in.log"; then
		pass "encode $name: $(sed "s|^tally-trace: $work/||" "$work/in.log" | head -1)"
	else
		fail "encode $name: $(cat "$work/in.log")"
	fi
}
check_input text.txt 'hello\nworld\n' "no line is a trace this tool reads.*the first line is 'hello'"
check_input empty.txt '' "no line is a trace this tool reads.*it is empty"
check_input bad-type.pcseq '0x80000000,L4\n0x80000004,X4\n' \
	"bad-type.pcseq:2: not a PCSEQ line (the type is not L, B, BN"
check_input stray.pcseq '. comment\n0x80000000,L4\nhello\n' ":3: not a PCSEQ line"
check_input odd.pconly '0x80000000\n0x80000003\n' ":2: not a PCONLY line (an odd address)"
if ! "$tool" decode --format bogus "$work/seq.ntr" 2>"$work/in.log" &&
   grep -q -- '--format bogus: hex, pconly or pcseq' "$work/in.log"; then
	pass "--format bogus: names the formats"
else
	fail "--format bogus: $(cat "$work/in.log")"
fi

# ---- 6. trace controls: side-file values are refused, not cut to their width -------
check_cfg() {	# side-file text, expected message
	local text=$1 want=$2
	printf '%s\n' "$text" >"$work/c.cfg"
	if ! "$tool" decode --cfg "$work/c.cfg" --elf "$work/short.elf" -o /dev/null \
		"$work/htm.ntr" 2>"$work/c.log" && grep -q -- "$want" "$work/c.log"; then
		pass "side file '$(echo "$text" | tr '\n' ' ' | sed 's/ $//')': $(sed "s|^tally-trace: $work/||" "$work/c.log" | head -1)"
	else
		fail "side file '$text': $(cat "$work/c.log")"
	fi
}
check_cfg "xlen=320" "c.cfg: line 1: xlen=320 (valid: 32 or 64)"
check_cfg "hist_bits=258" "line 1: hist_bits=258 (valid: 2..32)"
check_cfg "icnt_limit=4294967298" "line 1: icnt_limit=4294967298 (valid: 2..4194296)"
check_cfg "trTeInstMode=259" "line 1: trTeInstMode=259 (valid: 3 (BTM) or 6 (HTM))"
check_cfg "trTeInstMode=6
icnt_full_sync=1" "icnt_full_sync=1: only in BTM"
check_cfg "trTeFormat=2" "trTeFormat=2: not an N-Trace stream"
check_cfg "xlen=64x" "line 1: xlen: the value is not a whole number"
check_cfg "trTeInstEnBranchPrediction=1" "trTeInstEnBranchPrediction=1: must be 0"
check_option() {	# options, expected message
	local opts=$1 want=$2
	# shellcheck disable=SC2086
	if ! "$tool" encode $opts -o /dev/null "$work/short.addr" 2>"$work/c.log" &&
	   grep -q -- "$want" "$work/c.log"; then
		pass "options '$opts': $(sed 's/^tally-trace: //' "$work/c.log" | head -1)"
	else
		fail "options '$opts': $(cat "$work/c.log")"
	fi
}
check_option "--hist-bits 258" "hist-bits 258: hist_bits=258 (valid: 2..32)"
check_option "--mode htm --icnt-full-sync" "invalid trace controls: icnt_full_sync=1: only in BTM"
check_option "--implicit-return x" "implicit-return x: not a whole number"
check_option "--mode tm" "mode tm: btm or htm"

# ---- 7. dump: every byte of every message ---------------------------------------------
# an IndirectBranchHistSync with every field at its widest (SRC 12 bits,
# I-CNT 30, F-ADDR 63, HIST 32, TSTAMP 64): the spec's longest message
printf 'trTeSrcBits=12\ntrTsEnable=1\n' >"$work/long.cfg"
python3 - "$work/long.ntr" <<'PY'
import sys
out, cur, nb = [], 0, 0
def put(v, bits, var=False):
    global cur, nb
    for i in range(bits):
        cur |= ((v >> i) & 1) << nb
        nb += 1
        if nb == 6:
            out.append(cur << 2); cur = nb = 0
    if var:
        if nb:
            out.append(cur << 2); cur = nb = 0
        out[-1] |= 1
put(29, 6); put(0xfff, 12); put(2, 4); put(0, 2)
for bits in (30, 63, 32, 64):
    put((1 << bits) - 1, bits, True)
out[-1] |= 3
open(sys.argv[1], "wb").write(bytes(out))
PY
"$tool" dump --cfg "$work/long.cfg" "$work/long.ntr" >"$work/long.dump" 2>&1
if [[ $(wc -l <"$work/long.dump") -eq 1 ]] && grep -q 'IndirectBranchHistSync.*HIST=0xffffffff' "$work/long.dump" &&
   [[ $(cut -d: -f2 "$work/long.dump" | grep -o '^\( [0-9a-f][0-9a-f]\)*' | tr -d ' ') == $(od -An -tx1 -v "$work/long.ntr" | tr -d ' \n') ]]; then
	pass "dump shows all $(stat -c %s "$work/long.ntr") bytes of an IndirectBranchHistSync with every field at its widest (the spec's longest message)"
else
	fail "dump of a $(stat -c %s "$work/long.ntr")-byte message: $(cat "$work/long.dump")"
fi

# ---- 8. hostile files, under ASan + UBSan: a clear error, nothing read out of bounds -
asan="$out/host/tools/tally-trace-asan"
export ASAN_OPTIONS=detect_leaks=0	# a command-line tool frees nothing at exit
if ! make -s -C "$root/tools" O="$out/host/tools" asan >"$work/asan-build.log" 2>&1; then
	fail "build tally-trace under ASan+UBSan: $(head -3 "$work/asan-build.log")"
else
	rm -rf "$work/bad-elf"
	python3 "$root/tests/trace/bad-elf.py" "$work/short.elf" "$work/bad-elf" >"$work/bad-elf.txt"
	while IFS=: read -r name why; do
		why=${why# }
		"$asan" decode --elf "$work/bad-elf/$name.elf" -o /dev/null "$work/htm.ntr" \
			>"$work/elf.log" 2>&1
		rc=$?
		if [[ $rc -eq 2 ]] && ! grep -q 'Sanitizer\|runtime error' "$work/elf.log" &&
		   grep -q "^tally-trace: $work/bad-elf/$name.elf: " "$work/elf.log"; then
			pass "malformed ELF $name ($why): $(sed "s|^tally-trace: $work/bad-elf/||" "$work/elf.log")"
		else
			fail "malformed ELF $name ($why): status $rc: $(grep -m2 'ERROR\|runtime error\|tally-trace' "$work/elf.log")"
		fi
	done <"$work/bad-elf.txt"
	# log lines fuzz_input found: a Spike word with no hex digits (read as a
	# word of 2^31 halfwords: a hang), an in_asm line at an odd address
	# (an index before its page's: out of bounds)
	printf 'core   0: 3 0x0000000080000000 (0xzz) insn\n' >"$work/word.spike"
	printf '0x0000000080000001:  00000297  auipc t0,0\nTrace 0: 0x1 [0/80000000/3/0]\n' \
		>"$work/odd.log"
	for log in word.spike odd.log; do
		if timeout 20 "$asan" encode -q -o "$work/in.ntr" "$work/$log" >"$work/in.log" 2>&1 &&
		   ! grep -q 'Sanitizer\|runtime error' "$work/in.log"; then
			pass "hostile log line ($(head -1 "$work/$log")): encoded, nothing read out of bounds"
		else
			fail "hostile log line $(head -1 "$work/$log"): $(grep -m2 'ERROR\|runtime error' "$work/in.log")"
		fi
	done
	# the other inputs: a side file, a code log, a raw image, a directory
	printf '0 80000000 0297\n5 80000003 0013\n' >"$work/bad.code"
	for args in "--code $work/bad.code|bad.code:2: an odd address" \
		    "--raw $work/short.elf@0xfffffffffffff000|runs past the end of the address space" \
		    "--elf $work|a directory" \
		    "--cfg $work/short.addr|line 1: not name=value"; do
		want=${args#*|}
		# shellcheck disable=SC2086
		"$asan" decode ${args%%|*} -o /dev/null "$work/htm.ntr" >"$work/in.log" 2>&1
		rc=$?
		if [[ $rc -eq 2 ]] && ! grep -q 'Sanitizer\|runtime error' "$work/in.log" &&
		   grep -q -- "$want" "$work/in.log"; then
			pass "hostile ${args%% *}: $(sed "s|$work/||g; s|^tally-trace: ||" "$work/in.log" | head -1)"
		else
			fail "hostile ${args%%|*}: status $rc: $(head -2 "$work/in.log")"
		fi
	done
fi

rm -f "$work/loop.pcseq" "$work/loop.addr" "$work"/*.dec "$work"/*.pco "$work"/*.pconly \
      "$work"/*.pcseq
[[ $failures -eq 0 ]]
