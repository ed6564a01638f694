#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The cost of a Linux perf session in M-mode: Linux 6.12 (Debian's, as
# shipped: tests/linux/build.sh --kver 6.12) on QEMU virt, 4 harts,
# Sscofpmf, under three firmwares in the same run: Tally (the PMU snapshot
# in use), Tally built with PMU_SNAPSHOT=0 (the driver falls back to one
# SBI call per counter and CSR reads, as on OpenSBI), and OpenSBI 1.9.
#
# How it counts: bench/mmode-plugin.c counts every instruction executed in
# [0x80000000, 0x80200000), the firmware's region (PMP closes it to S/U-mode,
# the kernel starts at 0x80200000), with QEMU on one host thread
# (-accel tcg,thread=single) so that the count is exact. The workload
# (tests/linux/workload.c, WORK_MARK=1) executes a marker HINT before and
# after its work, which the plugin notes with the count at that moment.
# Each workload runs twice in the same boot, without perf and under perf;
# the difference of the two windows is what perf cost in M-mode:
#   per sample:         perf record -e dTLB-load-misses:u -c 10 --
#                       work load-pages N (one user dTLB miss per page, so
#                       N / 10 samples: QEMU counts TLB refills exactly,
#                       where its cycles overflow comes from a host timer),
#                       divided by the samples perf record reports
#   per context switch: perf stat --no-inherit -e cycles -- work switch N:
#                       the counted process and its (uncounted) partner
#                       share a CPU, so the counted one is scheduled out
#                       and in N times (each time the driver stops its
#                       counter and adds it back); divided by N
# Every boot is made BENCH_PERF_BOOTS times (default 3); the median.
#
# Usage: bench/linux_perf.sh <build-dir>   (after make check's Linux 6.12 build)
# Prints a Markdown table; the raw logs stay in <build-dir>/bench/linux-perf.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$(realpath -m "${1:-$root/build}")
dir=$out/bench/linux-perf
kdir=$out/linux-6.12
boots=${BENCH_PERF_BOOTS:-3}
pages=${BENCH_PERF_PAGES:-20000}
switch_n=${BENCH_PERF_SWITCHES:-2000}
anchor=${OPENSBI_ANCHOR:-$root/../shared/anchors/opensbi-1.9/fw_dynamic.bin}
[[ -f $anchor ]] || anchor=$root/../../shared/anchors/opensbi-1.9/fw_dynamic.bin
mkdir -p "$dir"

if [[ ! -f $kdir/Image || ! -x $kdir/initramfs/gen_init_cpio ]]; then
	echo "linux-perf: no Linux 6.12 in $kdir (tests/linux/build.sh --kver 6.12 $kdir)"
	exit 1
fi
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
	-o "$dir/mmode-plugin.so" "$here/mmode-plugin.c" || exit 1
make -s -C "$root" O="$out/fw-nosnap" PMU_SNAPSHOT=0 \
	"$out/fw-nosnap/platform/generic/firmware/fw_dynamic.bin" || exit 1

cat > "$dir/script" <<EOF
WORK_MARK=1 work load-pages $pages
WORK_MARK=1 perf record -N -o /tmp/perf.data -e dTLB-load-misses:u -c 10 -- work load-pages $pages
WORK_MARK=1 work switch $switch_n
WORK_MARK=1 perf stat --no-inherit -e cycles -- work switch $switch_n
EOF
printf 'file /tally-script %s 0644 0 0\n' "$dir/script" > "$dir/cpio.list"
"$kdir/initramfs/gen_init_cpio" -t 0 "$dir/cpio.list" > "$dir/script.cpio" || exit 1

# boot <firmware> <log stem>: one boot running the script under the plugin.
boot() {
	timeout -k 5 900 qemu-system-riscv64 -M virt -cpu rv64,sscofpmf=true -smp 4 -m 512M \
		-accel tcg,thread=single -nographic -no-reboot -bios "$1" \
		-plugin "$dir/mmode-plugin.so,lo=0x80000000,hi=0x80200000,out=$2.marks" \
		-kernel "$kdir/Image" -initrd "$dir/script.cpio" \
		-append "console=ttyS0 tally.script" < /dev/null > "$2.log" 2>&1
}

# costs <log stem>: "<per sample> <per switch> <samples>" of one boot, or "".
costs() {
	local m samples
	mapfile -t m < <(sed -nE 's/^MARK ([BE]) ([0-9]+)$/\2/p' "$1.marks")
	samples=$(grep -aoE 'wrote [0-9.]+ MB /tmp/perf.data \(([0-9]+) samples\)' "$1.log" |
		grep -oE '\(([0-9]+)' | tr -d '(')
	((${#m[@]} == 8)) && [[ -n $samples && $samples -gt 0 ]] || return
	awk -v s="$samples" -v n="$switch_n" -v b0="${m[0]}" -v e0="${m[1]}" \
		-v b1="${m[2]}" -v e1="${m[3]}" -v b2="${m[4]}" -v e2="${m[5]}" \
		-v b3="${m[6]}" -v e3="${m[7]}" 'BEGIN {
		printf "%.0f %.0f %d\n", ((e1 - b1) - (e0 - b0)) / s,
			((e3 - b3) - (e2 - b2)) / n, s }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

declare -A per_sample per_switch nsamples
names=(tally tally-nosnap opensbi-1.9)
fws=("$out/platform/generic/firmware/fw_dynamic.bin"
     "$out/fw-nosnap/platform/generic/firmware/fw_dynamic.bin" "$anchor")
for i in 0 1 2; do
	name=${names[$i]} fw=${fws[$i]} s=() w=() k=()
	if [[ ! -f $fw ]]; then
		echo "linux-perf: $name: no $fw" >&2
		continue
	fi
	for ((b = 1; b <= boots; b++)); do
		boot "$fw" "$dir/$name-$b"
		read -r cs cw ns < <(costs "$dir/$name-$b") || true
		if [[ -z ${cs:-} ]]; then
			echo "linux-perf: $name boot $b: no result (see $dir/$name-$b.log)" >&2
			continue
		fi
		s+=("$cs") w+=("$cw") k+=("$ns")
		unset cs cw ns
	done
	per_sample[$name]=$(printf '%s\n' ${s[@]+"${s[@]}"} | median)
	per_switch[$name]=$(printf '%s\n' ${w[@]+"${w[@]}"} | median)
	nsamples[$name]=$(printf '%s\n' ${k[@]+"${k[@]}"} | median)
done

ratio() { awk -v a="${1:-}" -v b="${2:-}" 'BEGIN { if (a != "" && b > 0) printf "%.2fx", a / b; else printf "n/a" }'; }
echo "| Linux 6.12 perf session, M-mode instructions | Tally (snapshot) | Tally, PMU_SNAPSHOT=0 | OpenSBI 1.9 | Tally / OpenSBI 1.9 |"
echo "|---|---|---|---|---|"
echo "| per sample (\`perf record -e dTLB-load-misses:u -c 10\` of $pages page loads, median of $boots boots; samples: ${nsamples[tally]:-?}, ${nsamples[tally-nosnap]:-?}, ${nsamples[opensbi-1.9]:-?}) | ${per_sample[tally]:-n/a} | ${per_sample[tally-nosnap]:-n/a} | ${per_sample[opensbi-1.9]:-n/a} | $(ratio "${per_sample[tally]:-}" "${per_sample[opensbi-1.9]:-}") |"
echo "| per context switch of a counted task (\`perf stat --no-inherit -e cycles\`, $switch_n out and in) | ${per_switch[tally]:-n/a} | ${per_switch[tally-nosnap]:-n/a} | ${per_switch[opensbi-1.9]:-n/a} | $(ratio "${per_switch[tally]:-}" "${per_switch[opensbi-1.9]:-}") |"
