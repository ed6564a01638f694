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
# In one boot each command runs BENCH_PERF_REPS times (default 3): other
# M-mode work (an IPI storm of a kernel worker) can land in any window, so
# the quietest window without perf is the baseline, and the median of the
# runs under perf the figure. The cost per sample is per sample delivered:
# a firmware that loses samples (OpenSBI 1.9 here: 740 to 1,341 of 2,000)
# still does the same work for each one it delivers (the figure stays
# within 1% from run to run), and the table shows the samples it got.
#
# Usage: bench/linux_perf.sh <build-dir>   (after make check's Linux 6.12 build)
# Environment: BENCH_PERF_REPS, BENCH_PERF_PAGES (20000), BENCH_PERF_SWITCHES
# (2000), OPENSBI_ANCHOR (the OpenSBI 1.9 image).
# Prints a Markdown table; the raw logs stay in <build-dir>/bench/linux-perf.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$(realpath -m "${1:-$root/build}")
dir=$out/bench/linux-perf
kdir=$out/linux-6.12
reps=${BENCH_PERF_REPS:-3}
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

# The four commands, each $reps times in a row: 4 * $reps marked windows.
for cmd in "work load-pages $pages" \
	"perf record -N -o /tmp/perf.data -e dTLB-load-misses:u -c 10 -- work load-pages $pages" \
	"work switch $switch_n" "perf stat --no-inherit -e cycles,context-switches -- work switch $switch_n"; do
	for ((r = 0; r < reps; r++)); do
		echo "WORK_MARK=1 $cmd"
	done
done > "$dir/script"
printf 'file /tally-script %s 0644 0 0\n' "$dir/script" > "$dir/cpio.list"
"$kdir/initramfs/gen_init_cpio" -t 0 "$dir/cpio.list" > "$dir/script.cpio" || exit 1

# Linux lowers the sample rate when its overflow handler takes too long in
# host time, which under TCG says more about the host than the firmware:
# off, so that every firmware gets every sample.
throttle_off=sysctl.kernel.perf_cpu_time_max_percent=0

# boot <firmware> <log stem>: one boot running the script under the plugin.
boot() {
	timeout -k 5 900 qemu-system-riscv64 -M virt -cpu rv64,sscofpmf=true -smp 4 -m 512M \
		-accel tcg,thread=single -nographic -no-reboot -bios "$1" \
		-plugin "$dir/mmode-plugin.so,lo=0x80000000,hi=0x80200000,out=$2.marks" \
		-kernel "$kdir/Image" -initrd "$dir/script.cpio" \
		-append "console=ttyS0 tally.script $throttle_off" < /dev/null > "$2.log" 2>&1
}

# costs <log stem>: "<per sample> <per switch> <fewest samples of a run>"
# of one boot, or nothing.
costs() {
	local m samples
	mapfile -t m < <(awk '$1 == "MARK" { print $3 }' "$1.marks")
	mapfile -t samples < <(grep -aoE 'wrote [0-9.]+ MB /tmp/perf.data \(([0-9]+) samples\)' \
		"$1.log" | grep -oE '\(([0-9]+)' | tr -d '(')
	((${#m[@]} == 8 * reps && ${#samples[@]} == reps)) || return
	printf '%s\n' "${m[@]}" | awk -v reps="$reps" -v n="$switch_n" \
		-v samples="${samples[*]}" '
	{ v[NR - 1] = $1 }
	function win(k) { return v[2 * k + 1] - v[2 * k] }
	function median(a, k,   i, j, t) {	# sorts a[0..k-1]
		for (i = 1; i < k; i++)
			for (j = i; j > 0 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return k ? a[int((k - 1) / 2)] : -1
	}
	END {
		split(samples, s, " ")
		b0 = win(0); b2 = win(2 * reps)
		for (i = 1; i < reps; i++) {
			if (win(i) < b0) b0 = win(i)
			if (win(2 * reps + i) < b2) b2 = win(2 * reps + i)
		}
		k = 0; fewest = -1
		for (i = 0; i < reps; i++) {
			if (s[i + 1] > 0)
				ps[k++] = (win(reps + i) - b0) / s[i + 1]
			if (fewest < 0 || s[i + 1] < fewest)
				fewest = s[i + 1]
		}
		for (i = 0; i < reps; i++)
			pw[i] = (win(3 * reps + i) - b2) / n
		printf "%.0f %.0f %d\n", k ? median(ps, k) : -1,
			median(pw, reps), fewest
	}'
}

declare -A per_sample per_switch nsamples
names=(tally tally-nosnap opensbi-1.9)
fws=("$out/platform/generic/firmware/fw_dynamic.bin"
     "$out/fw-nosnap/platform/generic/firmware/fw_dynamic.bin" "$anchor")
for i in 0 1 2; do
	name=${names[$i]} fw=${fws[$i]}
	if [[ ! -f $fw ]]; then
		echo "linux-perf: $name: no $fw" >&2
		continue
	fi
	boot "$fw" "$dir/$name"
	if ! read -r cs cw ns < <(costs "$dir/$name"); then
		echo "linux-perf: $name: no result (see $dir/$name.log)" >&2
		continue
	fi
	((cs >= 0)) && per_sample[$name]=$cs
	per_switch[$name]=$cw nsamples[$name]=$ns
done

ratio() { awk -v a="${1:-}" -v b="${2:-}" 'BEGIN { if (a != "" && b > 0) printf "%.2fx", a / b; else printf "n/a" }'; }
echo "| Linux 6.12 perf session, M-mode instructions | Tally (snapshot) | Tally, PMU_SNAPSHOT=0 | OpenSBI 1.9 | Tally / OpenSBI 1.9 |"
echo "|---|---|---|---|---|"
echo "| per sample (\`perf record -e dTLB-load-misses:u -c 10\` of $pages page loads: $((pages / 10)) samples; median of $reps runs; fewest samples a run got: ${nsamples[tally]:-?}, ${nsamples[tally-nosnap]:-?}, ${nsamples[opensbi-1.9]:-?}) | ${per_sample[tally]:-n/a} | ${per_sample[tally-nosnap]:-n/a} | ${per_sample[opensbi-1.9]:-n/a} | $(ratio "${per_sample[tally]:-}" "${per_sample[opensbi-1.9]:-}") |"
echo "| per context switch of a counted task (\`perf stat --no-inherit -e cycles\` of $switch_n turns out and in, median of $reps runs) | ${per_switch[tally]:-n/a} | ${per_switch[tally-nosnap]:-n/a} | ${per_switch[opensbi-1.9]:-n/a} | $(ratio "${per_switch[tally]:-}" "${per_switch[opensbi-1.9]:-}") |"
