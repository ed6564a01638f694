#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Decode speed of tally-trace against the reference decoder of the N-Trace
# task group (NexRv, built from ../shared/anchors/nexrv beside the
# repository; an oracle, never linked), on the same streams: the reference's
# own BTM (-nobhm) and HTM (-norbm) streams of a few programs of the NexRv
# cross-check's corpus, Tally's boot and the Linux slice, as
# tests/trace/nexrv-xcheck.sh recorded and encoded them (its cache,
# <out>/trace/nexrv-cache: run it first; make bench does).
#
# Each decoder writes every executed address to a file in the same format
# (NexRv's -pcout, tally-trace's --format pconly: "0x80000000" a line), so
# the output formatting counts for both.  The figure is the CPU time of the
# whole process (user + system, getrusage of the child; not wall time), the
# least of 3 runs each; both outputs are checked against the executed
# addresses.  Target (issue 20): tally-trace at least 1.5x NexRv's
# instructions per CPU second on every stream.
#
# Usage: bench/ntrace_speed.sh <build-dir> [PROGRAM...]
#   PROGRAM  names in the cache (default: isort interp huffman tally-boot and
#            linux-full, else linux, when cached)
# The table also goes to <out>/bench/ntrace-speed.md.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$(realpath -m "${1:-$root/build}")
shift || true
tool="$out/host/tools/tally-trace"
cache="$out/trace/nexrv-cache"
work="$out/bench/ntrace-speed"
mkdir -p "$work"
failures=0

src=${NEXRV_SRC:-}
for d in "$root/.." "$root/../.."; do
	[[ -z $src && -f $d/shared/anchors/nexrv/NexRvEnco.c ]] && src=$(realpath "$d/shared/anchors/nexrv")
done
if [[ -z $src ]]; then
	echo "SKIP: ntrace speed: no NexRv sources (../shared/anchors/nexrv or NEXRV_SRC)"
	exit 0
fi
nexrv="$work/nexrv"
util="$work/nexrv-util"
if ! gcc -O2 -w -o "$nexrv" "$src"/*.c 2>"$work/build.log" ||
   ! gcc -O2 -Wall -Wextra -Werror "$root/tests/trace/nexrv-util.c" -o "$util" \
	2>>"$work/build.log" ||
   ! make -s -C "$root/tools" O="$out/host/tools" >>"$work/build.log" 2>&1; then
	echo "FAIL: ntrace speed: build (NexRv, nexrv-util, tally-trace): $(tail -3 "$work/build.log")"
	exit 1
fi

# the recording of a program: its newest complete cache directory
cached() {
	local d
	d=$(ls -td "$cache/$1"-???????????????? 2>/dev/null | head -1)
	[[ -n $d && -f $d/done ]] && echo "$d"
}

programs=("$@")
if [[ ${#programs[@]} == 0 ]]; then
	programs=(isort interp huffman tally-boot)
	if cached linux-full >/dev/null; then
		programs+=(linux-full)
	elif cached linux >/dev/null; then
		programs+=(linux)
	fi
fi

# best CPU seconds of 3 runs of a command (its stdout to OUT)
best_of_3() {
	local best="" t stdout=$1
	shift
	for _ in 1 2 3; do
		t=$("$util" cputime "$stdout" "$@") || return 1
		best=$(awk -v a="$t" -v b="${best:-1e9}" 'BEGIN { print (a < b) ? a : b }')
	done
	echo "$best"
}

# the modes: name | NexRv's stream (nexrv-xcheck.sh's variant number) | tally-trace's options
modes=("btm|v0|--mode btm" "htm|v1|--mode htm")
table="$out/bench/ntrace-speed.md"
{
	echo "| program | mode | instructions | NexRv CPU s | NexRv M instr/s | tally-trace CPU s | tally-trace M instr/s | speed-up |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
} >"$table"
worst=""
for p in "${programs[@]}"; do
	dir=$(cached "$p") || { echo "FAIL: ntrace speed: $p: not in $cache (run tests/trace/nexrv-xcheck.sh first)"; failures=$((failures + 1)); continue; }
	n=$(wc -l <"$dir/addr")
	for m in "${modes[@]}"; do
		IFS='|' read -r mname v topt <<<"$m"
		stream="$dir/$v.nex"
		if [[ ! -f $stream ]]; then
			echo "SKIP: ntrace speed: $p $mname: NexRv's own decoder did not decode its stream (not cached)"
			continue
		fi
		r=$(best_of_3 /dev/null "$nexrv" -deco "$stream" -pcinfo "$dir/pcinfo" -pcout "$work/out.txt") &&
			"$util" same "$work/out.txt" "$dir/addr" >"$work/same.log" ||
			{ echo "FAIL: ntrace speed: $p $mname: NexRv's decoder: $(cat "$work/same.log")"; failures=$((failures + 1)); continue; }
		# shellcheck disable=SC2086
		t=$(best_of_3 "$work/out.txt" "$tool" decode -q $topt --format pconly --code "$dir/code" -o - "$stream") &&
			"$util" same "$work/out.txt" "$dir/addr" >"$work/same.log" ||
			{ echo "FAIL: ntrace speed: $p $mname: tally-trace decode: $(cat "$work/same.log")"; failures=$((failures + 1)); continue; }
		x=$(awk -v r="$r" -v t="$t" 'BEGIN { printf "%.2f", r / t }')
		awk -v p="$p" -v m="$mname" -v n="$n" -v r="$r" -v t="$t" 'BEGIN {
			printf "| %s | %s | %d | %.3f | %.1f | %.3f | %.1f | %.2f |\n", p, m, n, r, n / r / 1e6, t, n / t / 1e6, r / t }' \
			>>"$table"
		if [[ -z $worst ]] || awk -v x="$x" -v w="$worst" 'BEGIN { exit !(x < w) }'; then
			worst=$x
		fi
	done
done
rm -f "$work/out.txt"
cat "$table"
if [[ -z $worst ]]; then
	echo "FAIL: ntrace speed: nothing measured"
	failures=$((failures + 1))
elif awk -v x="$worst" 'BEGIN { exit !(x >= 1.5) }'; then
	echo "PASS: ntrace speed: tally-trace decodes every stream at least 1.5x as fast as NexRv (CPU time, output included; the least ${worst}x)"
else
	echo "FAIL: ntrace speed: tally-trace decodes a stream only ${worst}x as fast as NexRv (CPU time, output included; < 1.5)"
	failures=$((failures + 1))
fi
echo "(table: $table)"
[[ $failures -eq 0 ]]
