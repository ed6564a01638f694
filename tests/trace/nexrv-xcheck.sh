#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Tally's N-Trace against the reference encoder/decoder of the N-Trace task
# group (NexRv, built from ../shared/anchors/nexrv beside the repository; an
# oracle, never linked): on a corpus of real programs (tests/trace/nexrv-corpus,
# Tally's boot, a Linux boot when its kernel is built), each executed
# sequence recorded once under QEMU (tally-trace's plugin) and converted to
# NexRv's PCSEQ (tests/trace/nexrv-convert.c), in four modes:
#
#   btm        branch trace              NexRv -nobhm         Tally BTM + RepeatBranch
#   htm        history trace             NexRv -norbm, -rpt 1 Tally HTM + RepeatBranch
#   htm+rh     + repeated history        and -rpt 2, -rpt 3   + trTeInstEnRepeatedHistory
#   htm+cs+rh  + implicit return         and -cs 8|32 with    + implicit return (mode 3)
#
# each encoder at its best: NexRv's smallest stream among the settings the
# mode allows that its own decoder decodes exactly (its -rpt 3 streams often
# do not), Tally with every option of the mode.  Checks, one line each:
# NexRv's stream decodes with tally-trace and Tally's with NexRv's decoder
# and with tally-trace, all to the exact executed addresses; Tally's stream
# is at most NexRv's bytes; in the repeated-history modes the geometric mean
# of Tally/NexRv is at most 0.95.  The table goes to <out>/trace/nexrv/sizes.md.
#
# NexRv is built from its sources as they are, with one addition: its
# sscanf and fprintf calls go to tests/trace/nexrv-io.c, which reads a
# PCSEQ line's address and writes a decoded one itself (glibc's sscanf was
# two thirds of NexRv's encoding time, fprintf half of its decoding) and
# gives every call what glibc's would; a check compares that build with
# NexRv as it is on one program ("fast I/O").
#
# Recordings, their conversion and NexRv's streams are cached in
# <out>/trace/nexrv-cache, keyed by their inputs (the program's ELF or the
# firmware/kernel images, QEMU's version and command, the recorder, the
# converter and NexRv's sources): a second run records nothing.
#
# Usage: tests/trace/nexrv-xcheck.sh <build-dir> [--full] [--table]
#   --full   the long variant (make bench): the Linux boot to 60 M instructions
#            (or to the first it cannot follow: 41 M) instead of 6 M
#   --table  print the size table (sizes.md) at the end
# The decode speed of both decoders on these recordings: bench/ntrace_speed.sh.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$root/build}")
full=0 table=0
for arg in "${@:2}"; do
	case $arg in
	--full) full=1 ;;
	--table) table=1 ;;
	*) echo "nexrv-xcheck.sh: unknown option $arg (--full, --table)" >&2; exit 2 ;;
	esac
done
fw="$out/platform/generic/firmware"
tool="$out/host/tools/tally-trace"
plugin="$out/host/tools/tally-trace-plugin.so"
work="$out/trace/nexrv"
cache="$out/trace/nexrv-cache"
mkdir -p "$work" "$cache"
failures=0
pass() { echo "PASS: nexrv: $*"; }
fail() { echo "FAIL: nexrv: $*"; failures=$((failures + 1)); }
skip() { echo "SKIP: nexrv: $*"; }
t0=$SECONDS

# NexRv's sources: ../shared/anchors/nexrv beside the repository (or beside
# the directory of worktrees holding it), or $NEXRV_SRC
src=${NEXRV_SRC:-}
for d in "$root/.." "$root/../.."; do
	[[ -z $src && -f $d/shared/anchors/nexrv/NexRvEnco.c ]] && src=$(realpath "$d/shared/anchors/nexrv")
done
if [[ -z $src ]]; then
	skip "no NexRv sources (../shared/anchors/nexrv or NEXRV_SRC): no cross-check"
	exit 0
fi
nexrv="$work/nexrv"		# NexRv with the fast line I/O (nexrv-io.c)
nexrv_stock="$work/nexrv-stock"	# NexRv as it is, to check nexrv-io.c against
convert="$work/nexrv-convert"
util="$work/nexrv-util"
# NexRv, the converter and nexrv-util are built again only when their
# sources, a header or the compiler changed (tests/lib/cache.sh)
build_helpers() {
	gcc -O2 -w -include "$root/tests/trace/nexrv-io.h" -o "$nexrv" "$src"/*.c \
		"$root/tests/trace/nexrv-io.c" &&
	gcc -O2 -w -o "$nexrv_stock" "$src"/*.c &&
	gcc -O2 -Wall -Wextra -Werror -I"$root/include" "$root/tests/trace/nexrv-convert.c" \
		"$root"/lib/ntrace/*.c -o "$convert" &&
	gcc -O2 -Wall -Wextra -Werror "$root/tests/trace/nexrv-util.c" -o "$util"
}
# shellcheck source=../lib/cache.sh
source "$root/tests/lib/cache.sh"	# hash_inputs, build_kept ($stamps)
stamps=$work
# shellcheck disable=SC2046
helpers_key=$(hash_inputs "$(gcc --version | head -n 1)" "$0" "$src"/*.c "$src"/*.h \
	"$root/tests/trace/nexrv-convert.c" "$root/tests/trace/nexrv-util.c" "$root"/lib/ntrace/*.c \
	"$root"/tests/trace/nexrv-io.[ch] $(find "$root/include" -name '*.h' | sort))
if ! build_kept helpers "$helpers_key" "$nexrv" "$nexrv_stock" "$convert" "$util" -- build_helpers 2>"$work/build.log" ||
   ! make -s -C "$root/tools" O="$out/host/tools" >>"$work/build.log" 2>&1 ||
   ! make -s -C "$root/tests/trace/nexrv-corpus" O="$out/trace/corpus" >>"$work/build.log" 2>&1; then
	fail "build (NexRv, the converter, tally-trace, the corpus): $(tail -3 "$work/build.log")"
	exit 1
fi

# the modes: name | NexRv settings allowed | Tally's encoder options
modes=(
	"btm|-nobhm|--mode btm --repeat-branch"
	"htm|-norbm;-rpt 1|--mode htm --repeat-branch"
	"htm+rh|-norbm;-rpt 1;-rpt 2;-rpt 3|--mode htm --repeat-history --repeat-branch"
	"htm+cs+rh|-norbm;-rpt 1;-rpt 2;-rpt 3;-cs 8 -norbm;-cs 8 -rpt 1;-cs 8 -rpt 2;-cs 8 -rpt 3;-cs 32 -norbm;-cs 32 -rpt 1;-cs 32 -rpt 2;-cs 32 -rpt 3|--mode htm --implicit-return 3 --repeat-history --repeat-branch"
)
# NexRv's settings, each encoded once per program (cached)
variants=("-nobhm" "-norbm" "-rpt 1" "-rpt 2" "-rpt 3" "-cs 8 -norbm" "-cs 8 -rpt 1" "-cs 8 -rpt 2"
	  "-cs 8 -rpt 3" "-cs 32 -norbm" "-cs 32 -rpt 1" "-cs 32 -rpt 2" "-cs 32 -rpt 3")
tally_limit=4194296	# the largest I-CNT limit (22-bit I-CNT fields)

qemu_version=$(qemu-system-riscv64 --version | head -1)
tool_key=$(cat "$root/tools/tally-trace-plugin.c" "$root/tests/trace/nexrv-convert.c" \
	   "$root/lib/ntrace/ntrace_isa.c" "$src"/*.c "$root"/tests/trace/nexrv-io.[ch] |
	   sha256sum | cut -c1-16)

# record NAME FROM MAX FILES... -- QEMU...: records (or finds in the cache)
# the run, converts the slice from FROM's first execution (MAX instructions,
# 0 = all) and encodes it with every NexRv setting; sets $dir.
record() {
	local name=$1 from=$2 max=$3 files=() key rc
	shift 3
	while [[ $1 != -- ]]; do
		files+=("$1")
		shift
	done
	shift
	key=$( (sha256sum "${files[@]}" | cut -d' ' -f1; echo "$qemu_version $tool_key $from $max $*") |
	      sha256sum | cut -c1-16)
	dir="$cache/$name-$key"
	[[ -f $dir/done ]] && return 0
	rm -rf "$cache/$name"-????????????????
	mkdir -p "$dir"
	local maxopt=()
	# the recording runs past the slice's end by what ran before FROM (at
	# most 10 M instructions: the firmware's boot)
	[[ $max != 0 ]] && maxopt=(--max-instructions $((max + 10000000)))
	if ! timeout 1200 "$tool" record --plugin "${maxopt[@]}" -o "$dir/rec.ntr" \
		--addresses "$dir/rec.addr" -- "$@" </dev/null >"$dir/record.log" 2>&1; then
		echo "record failed: $(tail -2 "$dir/record.log")" >"$dir/error"
		return 1
	fi
	# the slice ends where NexRv's code description (one classification an
	# address) or its decoder (48-bit addresses) could not follow
	"$convert" --from "$from" --max "$max" --until-change "$dir/rec.addr" "$dir/rec.ntr.code" \
		"$dir" >"$dir/convert.log" 2>&1
	rc=$?
	if [[ $rc != 0 && $rc != 3 ]] || [[ ! -s $dir/pcseq ]]; then
		echo "convert failed: $(tail -2 "$dir/convert.log")" >"$dir/error"
		return 1
	fi
	rm -f "$dir/rec.addr" "$dir/rec.ntr"
	local v i=0
	: >"$dir/nexrv.txt"
	for v in "${variants[@]}"; do
		# shellcheck disable=SC2086
		if "$nexrv" -enco "$dir/pcseq" -nex "$dir/v$i.nex" $v >/dev/null 2>&1; then
			echo "$i|$v|$(stat -c %s "$dir/v$i.nex")|?" >>"$dir/nexrv.txt"
		else
			rm -f "$dir/v$i.nex"
		fi
		i=$((i + 1))
	done
	touch "$dir/done"
}

# nexrv_decodes I: whether NexRv's own decoder decodes its stream vI (of
# the slice in $dir) to the executed addresses.  Asked lazily, of a mode's
# streams from the smallest up until one does, and the answer kept in
# nexrv.txt ("?" until asked): most streams are never the smallest that
# decodes, and decoding each of them was most of a recording's time.
nexrv_decodes() {
	local i=$1 ok
	ok=$(awk -F'|' -v i="$i" '$1 == i { print $4 }' "$dir/nexrv.txt")
	if [[ $ok == "?" ]]; then
		ok=0
		"$nexrv" -deco "$dir/v$i.nex" -pcinfo "$dir/pcinfo" -pcout "$dir/v.out" \
			</dev/null >/dev/null 2>&1 &&
		"$util" same "$dir/v.out" "$dir/addr" </dev/null >/dev/null && ok=1
		rm -f "$dir/v.out"
		[[ $ok == 1 ]] || rm -f "$dir/v$i.nex"
		awk -F'|' -v OFS='|' -v i="$i" -v ok="$ok" '$1 == i { $4 = ok } 1' \
			"$dir/nexrv.txt" >"$dir/nexrv.tmp" && mv "$dir/nexrv.tmp" "$dir/nexrv.txt"
	fi
	[[ $ok == 1 ]]
}

# decodes_to_executed CMD...: whether the addresses CMD writes are the ones
# the slice in $dir executed.  tally-trace spells them as $dir/addr does, so
# cmp compares them (0.1 s for the Linux slice's 100 MB); only when it finds
# a difference does nexrv-util same compare them as numbers and say where
# (same.log).  CMD's errors go to tdec.log.
decodes_to_executed() {
	"$@" 2>"$work/tdec.log" | cmp -s - "$dir/addr" && return 0
	"$@" 2>"$work/tdec.log" | "$util" same - "$dir/addr" >"$work/same.log"
}

declare -A ratio_sum ratio_n
# the table: a row per program, NexRv / Tally bytes and their ratio per mode
{
	echo -n "| program | instructions |"
	for m in "${modes[@]}"; do echo -n " ${m%%|*}: NexRv | Tally | ratio |"; done
	echo
	echo -n "| --- | ---: |"
	for m in "${modes[@]}"; do echo -n " ---: | ---: | ---: |"; done
	echo
} >"$work/sizes.md"

# check NAME: the four modes on the slice in $dir
check() {
	local name=$1 n m allowed topt best bestv bestf v t tb ir r why row k=0 encoders=()
	n=$(wc -l <"$dir/addr")
	row="| $name | $n |"
	# Tally's encoder on the PCSEQ file, types as given (NexRv models no
	# trap, so an instruction a trap follows is an indirect jump there: both
	# encoders must see that same ingress), in the four modes at once
	# (tally-trace encode --and: the file is read once): $work/t<mode>.ntr
	for m in "${modes[@]}"; do
		IFS='|' read -r mname allowed topt <<<"$m"
		((k == 0)) || encoders+=(--and)
		# shellcheck disable=SC2206
		encoders+=($topt --icnt-limit $tally_limit -o "$work/t$k.ntr")
		rm -f "$work/t$k.ntr"
		k=$((k + 1))
	done
	"$tool" encode -q "${encoders[@]}" "$dir/pcseq" >"$work/enc.log" 2>&1
	k=0
	for m in "${modes[@]}"; do
		IFS='|' read -r mname allowed topt <<<"$m"
		t="$work/t$k.ntr"
		k=$((k + 1))
		# NexRv's smallest stream of the mode that its decoder decodes
		# (the first by setting among streams of one size)
		best=0
		while IFS='|' read -r i v b ok; do
			[[ ";$allowed;" == *";$v;"* ]] && nexrv_decodes "$i" || continue
			best=$b bestv=$v bestf="$dir/v$i.nex"
			break
		done < <(sort -t'|' -k3,3n -k1,1n "$dir/nexrv.txt")
		if [[ $best == 0 ]]; then
			fail "$name $mname: no NexRv setting of the mode decodes with NexRv's own decoder"
			row="$row | | |"
			continue
		fi
		if [[ ! -f $t ]]; then
			fail "$name $mname: Tally's encoder: $(cat "$work/enc.log")"
			row="$row | | |"
			continue
		fi
		tb=$(stat -c %s "$t")
		ir=0
		[[ $bestv == *-cs* ]] && ir=3
		why="" nexrv_note=""
		"$nexrv" -deco "$t" -pcinfo "$dir/pcinfo" -pcout "$work/t.out" >"$work/deco.log" 2>&1
		if ! "$util" same "$work/t.out" "$dir/addr" >"$work/same.log"; then
			# NexRv's decoder overflows its return stack in long traces
			# (nexrv-util.c, stackcheck): past that it decodes no
			# implicit-return stream, its own included
			local at over
			at=$(sed -n 's/^line \([0-9]*\):.*/\1/p' "$work/same.log")
			over=$("$util" stackcheck "$dir/pcseq")
			if [[ $ir == 3 || $topt == *implicit-return* ]] && [[ $over != 0 && ${at:-0} -gt $over ]]; then
				nexrv_note="NexRv's decoder overflows its return stack at instruction $over (a 33rd slot in callStack[32]), decoding Tally's stream exactly to instruction $((at - 1))"
			else
				why="$why, NexRv decodes Tally's stream differently ($(cat "$work/same.log"; tail -1 "$work/deco.log"))"
			fi
		fi
		# shellcheck disable=SC2086
		decodes_to_executed "$tool" decode -q $topt --code "$dir/code" -o - "$t" ||
			why="$why, tally-trace decodes Tally's stream differently ($(cat "$work/same.log"; head -1 "$work/tdec.log"))"
		# shellcheck disable=SC2086
		decodes_to_executed "$tool" decode -q ${topt%% --*} --implicit-return $ir --code "$dir/code" \
			-o - "$bestf" ||
			why="$why, tally-trace decodes NexRv's ($bestv) differently ($(cat "$work/same.log"; head -1 "$work/tdec.log"))"
		if [[ -z $why && -n $nexrv_note ]]; then
			skip "$name $mname: $nexrv_note; NexRv ($bestv) -> tally-trace and Tally -> tally-trace decode to the $n executed addresses"
		elif [[ -z $why ]]; then
			pass "$name $mname: NexRv ($bestv) -> tally-trace, Tally -> NexRv and -> tally-trace decode to the $n executed addresses"
		else
			fail "$name $mname:${why#,}"
		fi
		r=$(awk -v a="$tb" -v b="$best" 'BEGIN { printf "%.3f", a / b }')
		if [[ $tb -le $best ]]; then
			pass "$name $mname: Tally $tb bytes <= NexRv $best ($bestv), ratio $r"
		else
			fail "$name $mname: Tally $tb bytes > NexRv $best ($bestv), ratio $r"
		fi
		ratio_sum[$mname]=$(awk -v s="${ratio_sum[$mname]:-0}" -v r="$r" 'BEGIN { print s + log(r) }')
		ratio_n[$mname]=$(( ${ratio_n[$mname]:-0} + 1 ))
		row="$row $best ($bestv) | $tb | $r |"
	done
	echo "$row" >>"$work/sizes.md"
	rm -f "$work"/t[0-9].ntr* "$work/t.out"
}

# fast_io NAME: NexRv built with the fast line I/O (nexrv-io.c) against
# NexRv as it is, on the slice in $dir: for every setting, the same stream,
# output and exit status of the encoder, and the same decode of the stream
# (NexRv's decoder reads the PCINFO lines and writes the addresses with it)
fast_io() {
	local name=$1 v b differ=()
	for v in "${variants[@]}"; do
		for b in nexrv nexrv_stock; do
			rm -f "$work/$b.nex"
			# shellcheck disable=SC2086
			"${!b}" -enco "$dir/pcseq" -nex "$work/$b.nex" $v >"$work/$b.log" 2>&1
			echo "exit $?" >>"$work/$b.log"
		done
		cmp -s "$work/nexrv.log" "$work/nexrv_stock.log" &&
			cmp -s "$work/nexrv.nex" "$work/nexrv_stock.nex" || differ+=("$v")
	done
	for b in nexrv nexrv_stock; do
		"${!b}" -deco "$work/nexrv_stock.nex" -pcinfo "$dir/pcinfo" -pcout "$work/$b.out" \
			</dev/null >/dev/null 2>&1
	done
	cmp -s "$work/nexrv.out" "$work/nexrv_stock.out" || differ+=("-deco")
	if ((${#differ[@]} == 0)) && [[ -s $work/nexrv.out ]]; then
		pass "fast I/O: NexRv with nexrv-io.c encodes $name as NexRv as it is (${#variants[@]} settings, output and stream) and decodes it the same"
	else
		fail "fast I/O: NexRv with nexrv-io.c differs from NexRv as it is on $name: ${differ[*]:-no decode}"
	fi
	rm -f "$work"/nexrv.{nex,log,out} "$work"/nexrv_stock.{nex,log,out}
}

# the corpus: bare-metal programs on QEMU virt without firmware (-bios
# none), traced from their entry (QEMU's reset ROM before it is left out)
for elf in "$out"/trace/corpus/*.elf; do
	name=$(basename "$elf" .elf)
	if ! record "$name" 80000000 0 "$elf" -- qemu-system-riscv64 -M virt -smp 1 -m 64M -nographic \
		-bios none -kernel "$elf" -monitor none -serial null -icount shift=0,sleep=off; then
		fail "$name: $(cat "$dir/error")"
		continue
	fi
	check "$name"
	[[ -n ${fast_io_done:-} ]] || { fast_io "$name"; fast_io_done=1; }
done

# Tally's boot to its S-mode test payload (the trace suite's run), from Tally's entry
if [[ -f $fw/fw_payload.bin ]] &&
   record tally-boot 80000000 0 "$fw/fw_payload.bin" -- qemu-system-riscv64 -M virt -smp 1 -m 256M \
	-nographic -no-reboot -monitor none -serial null -bios "$fw/fw_payload.bin" \
	-icount shift=0,sleep=off; then
	check tally-boot
else
	fail "tally-boot: ${dir:+$(cat "$dir/error" 2>/dev/null)}"
fi

# A Linux boot on Tally (fw_dynamic, one hart): the kernel from its entry
# (0x80200000), 6 M instructions (with --full 60 M, or up to where NexRv's
# code description or decoder cannot follow: user space); the kernel suite
# linux builds (build/linux/Image), or $NEXRV_LINUX_IMAGE
linux_image=${NEXRV_LINUX_IMAGE:-$out/linux/Image}
[[ -f $linux_image ]] || linux_image=""
if [[ -z $linux_image ]]; then
	skip "Linux boot: no Linux Image (suite linux builds build/linux/Image)"
else
	linux_name=linux linux_max=6000000
	[[ $full == 1 ]] && linux_name=linux-full linux_max=60000000
	if record $linux_name "80200000" "$linux_max" "$linux_image" "$fw/fw_dynamic.bin" -- \
		qemu-system-riscv64 -M virt -smp 1 -m 512M -nographic -no-reboot -monitor none \
		-serial null -bios "$fw/fw_dynamic.bin" -kernel "$linux_image" \
		-append "console=ttyS0 earlycon" -icount shift=0,sleep=off; then
		check $linux_name
	else
		fail "$linux_name: $(cat "$dir/error")"
	fi
fi

geo_row="| geometric mean | |"
for m in "${modes[@]}"; do
	mname=${m%%|*}
	if [[ -z ${ratio_n[$mname]:-} ]]; then
		geo_row="$geo_row | | |"
		continue
	fi
	g=$(awk -v s="${ratio_sum[$mname]}" -v n="${ratio_n[$mname]}" 'BEGIN { printf "%.3f", exp(s / n) }')
	limit=1
	[[ $mname == *rh* ]] && limit=0.95
	if awk -v g="$g" -v l="$limit" 'BEGIN { exit !(g <= l) }'; then
		pass "$mname: geometric mean of Tally/NexRv over ${ratio_n[$mname]} programs $g (<= $limit)"
	else
		fail "$mname: geometric mean of Tally/NexRv over ${ratio_n[$mname]} programs $g (> $limit)"
	fi
	geo_row="$geo_row | | **$g** |"
done
echo "$geo_row" >>"$work/sizes.md"
[[ $table == 1 ]] && cat "$work/sizes.md"
echo "(NexRv cross-check: $((SECONDS - t0)) s; table: $work/sizes.md)"
[[ $failures -eq 0 ]]
