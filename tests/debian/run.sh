#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Tally on the 2026 stack: Debian's own QEMU, kernels and perf
# (tests/debian/fetch.sh and initramfs.sh must have run), one boot after
# another (tests/debian/boot.sh), never two QEMUs at once.
#
# Usage: tests/debian/run.sh <build-dir> short|full [FW [FW-NAME]]
#   short  (the test command's debian job, about 4 minutes on 2 cores):
#          every CPU model below that the QEMU has, QEMU 10.0 with trixie's
#          6.12 and QEMU 11.1 with Debian's newest 7.x, init.c's count checks
#          (Sscofpmf optional but on 11.1's rva23s64 and max: plain rv64
#          has none, QEMU 10.0 cannot deliver its interrupt, and
#          thead-c906's kernel offers filters its hart cannot apply);
#          QEMU 11.1 + 7.x on rva23s64 with -M virt,aia=aplic-imsic (the
#          AIA checks); and on rva23s64, rv64,sscofpmf=true and max with
#          -icount, one hart: exact counts, the mode filters
#          (instructions:u within 1% of the loop, cycles:u + :k within 5%)
#   full   (make check-debian): QEMU 10.0 and 11.1 x every CPU model below
#          that the QEMU has x both kernels, init.c's count checks; Sscofpmf
#          is expected on QEMU 11.1's rva23s64 and max, optional elsewhere
#   FW     the firmware (default <build-dir>/platform/generic/firmware/fw_dynamic.bin);
#          FW-NAME its name in the check names (boot.sh --fw-name)
# Prints boot.sh's lines, then a table of the boots (wall time, counts).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(realpath -m "${1:?usage: run.sh <build-dir> short|full [FW [FW-NAME]]}")
mode=${2:-short}
fw=${3:-$out/platform/generic/firmware/fw_dynamic.bin}
fw_name=${4--}
dir=$out/debian
models="rv64 rva22s64 rva23s64 max thead-c906 thead-c908 veyron-v1 xiangshan-nanhu
	xiangshan-kunminghu tt-ascalon mips-p8700"
status=0 table=() compat=()

# boot <label> <boot.sh options...>: one boot, its lines, a row of the table
boot() {
	local label=$1 start=$SECONDS log p f k
	shift
	log=$(mktemp)
	"$here/boot.sh" --dir "$dir" --fw "$fw" --fw-name "$fw_name" "$@" > "$log" 2>&1 || status=1
	cat "$log"
	p=$(grep -c '^PASS:' "$log") f=$(grep -c '^FAIL:' "$log") k=$(grep -c '^SKIP:' "$log")
	table+=("$(printf '%-44s %4d s  %3d passed %3d failed %3d skipped' "$label" \
		$((SECONDS - start)) "$p" "$f" "$k")")
	compat+=("$(compat_row "$label" "$log" "$f")")
	rm -f "$log"
}

# compat_row <label> <boot.sh output> <failures>: a row of the
# compatibility table (docs/perf.md, "The 2026 stack"), from the console
# log boot.sh names on its last line: boots, counting, mode filters,
# sampling, and why not
compat_row() {
	local label=$1 out=$2 failed=$3 log boots count filt samp
	log=$(sed -nE 's/.* log ([^ ]+)$/\1/p' "$out" | tail -n 1)
	boots=no count=- filt=- samp=-
	if grep -q '^PASS: .*: boots to init' "$out"; then
		boots=yes
		count=no
		! grep -q '^PASS: .*: init check perf-cycles-instructions' "$out" || count=yes
		if grep -aq 'TALLY-LINUX-CHECK: perf-mode-tlb: ok: .*filter applied' "$log"; then
			filt="applied"
		elif grep -aq 'TALLY-LINUX-CHECK: perf-mode-tlb: ok: .*filter not applied' "$log"; then
			filt="every mode counted (the kernel offers :u/:k, the hart cannot filter)"
		elif grep -aq 'sampling/filtering is not supported' "$log"; then
			filt="refused by the kernel (no Sscofpmf)"
		fi
		if grep -aq '^PMU  *: .*Sscofpmf yes' "$log"; then
			samp=yes
		elif grep -aq 'not usable *: .*sscofpmf' "$log"; then
			samp="no: the firmware withdrew Sscofpmf (its interrupt cannot be enabled)"
		elif grep -aq 'sampling/filtering is not supported' "$log"; then
			samp="no: no Sscofpmf (the kernel says so)"
		else
			samp="no: no Sscofpmf, though the kernel offers it (a vendor erratum's interrupt that never comes): perf record gets no sample"
		fi
	fi
	printf '| %s | %s | %s | %s | %s | %s |' "${label// /, }" "$boots" "$count" \
		"$filt" "$samp" "$([[ $failed == 0 ]] && echo "all pass" || echo "$failed failed")"
}

# has_cpu <qemu root> <model>: whether that QEMU has the CPU model
has_cpu() {
	"$dir/qemu-$1/qemu-system-riscv64" -cpu help 2> /dev/null | grep -qw -- "$2"
}

# boot_models <qemu> <linux>: that kernel on every CPU model of that QEMU;
# Sscofpmf is expected on QEMU 11.1's rva23s64 and max, optional elsewhere
boot_models() {
	local q=$1 l=$2 cpu s
	for cpu in $models; do
		if ! has_cpu "$q" "$cpu"; then
			echo "SKIP: debian/$(readlink "$dir/qemu-$q")/$cpu (this QEMU has no such CPU model)"
			continue
		fi
		s=optional
		[[ $q != backports || ($cpu != rva23s64 && $cpu != max) ]] || s=expected
		boot "$(readlink "$dir/qemu-$q") $(readlink "$dir/linux-$l") $cpu" \
			--qemu "$q" --linux "$l" --cpu "$cpu" --sscofpmf "$s"
	done
}

start=$SECONDS
case $mode in
short)
	# every CPU model of each QEMU, with the kernel of its suite: Debian
	# 13's 6.12 on QEMU 10.0, Debian's newest 7.x on QEMU 11.1 (make
	# check-debian boots both kernels on both)
	for q in stable backports; do
		boot_models "$q" "$q"
	done
	boot "qemu-11.1 linux-7.x rva23s64 aia=aplic-imsic" --qemu backports --linux backports \
		--cpu rva23s64 --machine virt,aia=aplic-imsic
	# exact counts (-icount, one hart): the mode filters of QEMU 11.1 on a
	# programmable counter (rva23s64; plain rv64 has no Sscofpmf unless
	# asked) and on mcycle/minstret (max: Smcntrpmf)
	for cpu in rva23s64 rv64,sscofpmf=true max; do
		boot "qemu-11.1 linux-7.x $cpu icount" --qemu backports --linux backports \
			--cpu "$cpu" --smp 1 --icount shift=0,sleep=off --checks icount \
			--append "tally.filters=exact tally.loop_overhead=4000000"
	done
	;;
full)
	for q in stable backports; do
		for l in stable backports; do
			boot_models "$q" "$l"
		done
	done
	;;
*) echo "usage: run.sh <build-dir> short|full [FW [FW-NAME]]" >&2; exit 2 ;;
esac
echo "  the boots ($mode, firmware $fw), $((SECONDS - start)) s in all:"
printf '    %s\n' "${table[@]}"
# the compatibility table, Markdown (docs/perf.md copies make check-debian's)
{
	echo "| QEMU, kernel, CPU | boots | counts | mode filters (:u/:k) | sampling | checks |"
	echo "|---|---|---|---|---|---|"
	printf '%s\n' "${compat[@]}"
} > "$dir/compat-$mode.md"
echo "  compatibility table: $dir/compat-$mode.md"
exit $status
