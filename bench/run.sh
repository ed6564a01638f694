#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Tally's benchmarks: the cost of each SBI call in instructions, the image
# size, instructions from reset to S-mode, and Linux's boot to init, for
# Tally, Debian's OpenSBI 1.1 and any other firmware named; one table.
#
# Usage: bench/run.sh <builddir> [--smoke] [FIRMWARE=<fw.bin>[,<fw.bin>...]]
#   --smoke       run the payload once on Tally and print PASS/FAIL lines only
#   FIRMWARE=...  more firmware images to compare (also read from the
#                 environment, so "make bench FIRMWARE=..." works)
# Environment: OPENSBI19 (the reference image, default upstream OpenSBI 1.9
#   at ../shared/anchors/opensbi-1.9/fw_dynamic.bin beside the repository,
#   when it is there), OPENSBI (Debian's OpenSBI 1.1, always a column),
#   BENCH_LINUX=0 to skip the Linux boots, BENCH_LINUX_BOOTS (default 5).
# Ratios and targets are against OpenSBI 1.9 when it was found, else
# against OpenSBI 1.1 (and the table says so).
#
# Everything is written under <builddir>/bench; the table also goes to
# <builddir>/bench/results.md. See docs/benchmarks.md.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
here=$root/bench
out=$(realpath -m "${1:-$root/build}")
shift || true

smoke=0
extra_fw=()
add_fw() {
	local f
	for f in ${1//,/ }; do
		[[ -n $f ]] && extra_fw+=("$(realpath -m "$f")")
	done
}
add_fw "${FIRMWARE:-}"
for arg in "$@"; do
	case $arg in
	--smoke) smoke=1 ;;
	FIRMWARE=*) extra_fw=(); add_fw "${arg#FIRMWARE=}" ;;
	*) echo "usage: $0 <builddir> [--smoke] [FIRMWARE=<fw.bin>[,...]]" >&2; exit 2 ;;
	esac
done

bdir=$out/bench
tally=$out/platform/generic/firmware/fw_dynamic.bin
opensbi=${OPENSBI:-/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin}
# Upstream OpenSBI 1.9: ../shared/anchors beside the repository (or beside
# the directory of worktrees that holds it).
opensbi19=${OPENSBI19:-}
if [[ -z $opensbi19 ]]; then
	for d in "$root/.." "$root/../.."; do
		f=$d/shared/anchors/opensbi-1.9/fw_dynamic.bin
		if [[ -f $f ]]; then
			opensbi19=$(realpath "$f")
			break
		fi
	done
fi
linux_image=$out/linux/Image
linux_init=$out/linux/initramfs/init
boots=${BENCH_LINUX_BOOTS:-5}
elf=$bdir/bench.elf
qemu=(qemu-system-riscv64 -M virt -cpu rv64,sscofpmf=true -smp 1
      -icount shift=0,sleep=off -display none -monitor none -no-reboot)
raw_rows=$(sed -nE 's/^#define RAW_MAP_ROWS[[:space:]]+([0-9]+).*/\1/p' "$here/bench.h")
raw_first=$(sed -nE 's/^#define RAW_MAP_FIRST[[:space:]]+(0x[0-9a-fA-F]+).*/\1/p' "$here/bench.h")

if [[ -n ${CROSS_COMPILE:-} ]]; then
	cross=$CROSS_COMPILE
elif command -v riscv64-unknown-elf-size > /dev/null; then
	cross=riscv64-unknown-elf-
else
	cross=riscv64-linux-gnu-
fi

mkdir -p "$bdir"
if ! make -s -C "$here" O="$bdir" > "$bdir/build.log" 2>&1; then
	echo "FAIL: the bench payload does not build (log: $bdir/build.log)"
	tail -20 "$bdir/build.log" | sed 's/^/    /'
	exit 1
fi

# run_payload <firmware> <log> [dtb]: one run of the payload, output in <log>.
# A run takes well under a second; $limit only stops a firmware that hangs.
limit=60
run_payload() {
	local fw=$1 log=$2 dtb=${3:-}
	timeout -k 2 "$limit" "${qemu[@]}" -serial stdio -bios "$fw" -kernel "$elf" \
		${dtb:+-dtb "$dtb"} < /dev/null > "$log" 2>&1
}

# payload_ok <log>: the run reached its end without a failed check.
payload_ok() {
	grep -aq '^BENCH-DONE' "$1" && ! grep -aq '^BENCH-CHECK FAIL' "$1"
}

if ((smoke)); then
	log=$bdir/smoke.log
	if [[ ! -f $tally ]]; then
		echo "FAIL: bench payload: no Tally image at $tally (run make first)"
		exit 1
	fi
	limit=20
	run_payload "$tally" "$log"
	if payload_ok "$log"; then
		n=$(sed -nE 's/^BENCH-DONE ([0-9]+).*/\1/p' "$log" | tr -d '\r')
		echo "PASS: bench payload runs on Tally ($n calls measured)"
		exit 0
	fi
	grep -a '^BENCH-CHECK FAIL' "$log" | tr -d '\r' |
		sed 's/^BENCH-CHECK FAIL /FAIL: bench payload on Tally: /'
	if ! grep -aq '^BENCH-DONE' "$log"; then
		echo "FAIL: bench payload on Tally did not run to its end (log: $log)"
		tail -5 "$log" | sed 's/^/    /'
	fi
	exit 1
fi

if [[ ! -f $tally ]]; then
	echo "[bench] error: no Tally image at $tally (run make first)" >&2
	exit 1
fi

# fixed_seed <file.dts>: QEMU puts a new random /chosen/rng-seed in every
# tree it makes; a fixed one makes runs (and Linux's boots) repeatable.
fixed_seed() {
	sed -i -E 's/(rng-seed = <)[^>]*>/\10x54414c59 0x4c592d42 0x454e4348 0x2d534545 0x44000000 0x1 0x2 0x3>/' "$1"
}

# --- the devicetrees ---------------------------------------------------------
# QEMU's own tree for the payload's machine, then the same with a raw-event
# map of $raw_rows rows in its PMU node (row i matches raw event first + i).
echo "[bench] devicetrees (stock; raw-event maps of $raw_rows rows and of 1 row)"
dtbdir=$bdir/dtb
mkdir -p "$dtbdir"
"${qemu[@]}" -M virt,dumpdtb="$dtbdir/stock.dtb" -bios "$tally" -kernel "$elf" \
	> /dev/null 2>&1
if ! dtc -q -I dtb -O dts -o "$dtbdir/stock.dts" "$dtbdir/stock.dtb" 2> /dev/null ||
	! fixed_seed "$dtbdir/stock.dts"; then
	echo "[bench] error: could not dump QEMU's devicetree" >&2
	exit 1
fi
# the counters of the raw rows: those QEMU's map gives the DTLB read-miss event
counters=$(sed -nE 's/.*riscv,event-to-mhpmcounters = <([^>]*)>.*/\1/p' "$dtbdir/stock.dts" |
	awk '{ for (i = 1; i + 2 <= NF; i += 3) if ($i == "0x10019") { print $(i + 2); exit } }')
counters=${counters:-0x7fff8}
# raw_map <rows> <file.dts>: the stock tree with the raw map's last <rows> rows
raw_map() {
	awk -v rows="$1" -v first="$((raw_first + raw_rows - $1))" -v ctrs="$counters" '
		/compatible = "riscv,pmu";/ {
			print
			printf "\t\triscv,raw-event-to-mhpmcounters = "
			for (i = 0; i < rows; i++)
				printf "%s<0x0 0x%x 0xffffffff 0xffffffff %s>",
					(i ? ",\n\t\t\t" : ""), first + i, ctrs
			print ";"
			next
		}
		{ print }' "$dtbdir/stock.dts" > "$2"
	grep -q 'riscv,raw-event-to-mhpmcounters' "$2" &&
		dtc -q -I dts -O dtb -o "${2%.dts}.dtb" "$2"
}
# the big map, and a one-row map with the same event (for the scaling alone)
if ! raw_map "$raw_rows" "$dtbdir/raw-map.dts" || ! raw_map 1 "$dtbdir/raw-1.dts"; then
	echo "[bench] error: could not build the raw-event-map devicetrees" >&2
	exit 1
fi

# Linux: QEMU's tree for that machine, dumped once so that every boot gets
# the same rng-seed (Linux's randomness then is the same in every boot).
linux_why=""
if [[ ${BENCH_LINUX:-1} == 0 ]]; then
	linux_why="not measured (BENCH_LINUX=0)"
elif [[ ! -f $linux_image || ! -f $linux_init ]]; then
	linux_why="not measured (run make check first)"
elif ! command -v python3 > /dev/null; then
	linux_why="not measured (no python3)"
else
	for smp in 1 4; do
		f=$dtbdir/linux-smp$smp
		python3 "$here/linux_boot.py" --smp $smp --dump-dtb "$f.dtb" "$tally" "$linux_image" &&
			dtc -q -I dtb -O dts -o "$f.dts" "$f.dtb" &&
			fixed_seed "$f.dts" &&
			dtc -q -I dts -O dtb -o "$f.dtb" "$f.dts" ||
			linux_why="not measured (could not dump the devicetree)"
	done
fi

# linux_boots <firmware> <dir>: the "to init" counts, into <dir>/linux.txt as
# "LINUX<smp> <count>..." (sorted) or "LINUX<smp> na <reason>".
linux_boots() {
	local fw=$1 dir=$2 smp n i try line ok counts hung
	: > "$dir/linux.txt"
	for smp in 1 4; do
		n=$boots
		((smp == 1)) && n=1
		counts=()
		hung=0
		for ((i = 0; i < n; i++)); do
			ok=0
			# Some boots never reach init under -icount (docs/benchmarks.md,
			# "Hangs"); a boot takes 1-2 s, so a hang is retried.
			for try in 1 2 3 4 5; do
				line=$(timeout -k 5 60 python3 "$here/linux_boot.py" --smp $smp \
					--timeout 20 --dtb "$dtbdir/linux-smp$smp.dtb" "$fw" \
					"$linux_image" "$linux_init" "$dir/linux-smp$smp-$i-$try")
				echo "smp $smp boot $i try $try: $line" >> "$dir/linux-runs.log"
				if [[ $line =~ ^LINUX-BOOT\ ([0-9]+) ]]; then
					counts+=("${BASH_REMATCH[1]}")
					ok=1
					break
				fi
				hung=$((hung + 1))
			done
			((ok)) || break
		done
		echo "HUNG$smp $hung" >> "$dir/linux.txt"
		if ((${#counts[@]} == n)); then
			echo "LINUX$smp $(printf '%s\n' "${counts[@]}" | sort -n | tr '\n' ' ')" >> "$dir/linux.txt"
		else
			echo "LINUX$smp na did not reach init (see $dir/linux-runs.log)" >> "$dir/linux.txt"
		fi
	done
}

# --- each firmware -------------------------------------------------------------
# Column 2 is the reference of the ratios and targets: OpenSBI 1.9 when
# found, else Debian's 1.1 (table.py names it and says which).
if [[ -n $opensbi19 && -f $opensbi19 ]]; then
	fws=("$tally" "$opensbi19" "$opensbi")
else
	echo "[bench] OpenSBI 1.9 not found (../shared/anchors/opensbi-1.9/fw_dynamic.bin, or set OPENSBI19=):" \
		"ratios and targets against OpenSBI 1.1" >&2
	fws=("$tally" "$opensbi")
fi
for f in "${extra_fw[@]}"; do
	# an image named twice would only repeat a column
	[[ $f == "${fws[1]}" || $f == "${fws[2]:-}" ]] || fws+=("$f")
done
cols=()
failed=0
for i in "${!fws[@]}"; do
	fw=${fws[$i]}
	dir=$bdir/runs/$i
	rm -rf "$dir"
	mkdir -p "$dir"
	echo "$fw" > "$dir/path"
	cols+=("$dir")
	if [[ ! -f $fw ]]; then
		echo "missing $fw" > "$dir/missing"
		echo "[bench] $fw: not found" >&2
		continue
	fi
	echo "[bench] $fw"
	stat -c %s "$fw" > "$dir/bin-size"
	elf_img=${fw%.bin}.elf
	if [[ -f $elf_img ]]; then
		"${cross}size" "$elf_img" 2> /dev/null | awk 'NR == 2 { print $1, $2, $3 }' > "$dir/elf-size"
	fi
	run_payload "$fw" "$dir/stock.log"
	run_payload "$fw" "$dir/raw-map.log" "$dtbdir/raw-map.dtb"
	run_payload "$fw" "$dir/raw-1.log" "$dtbdir/raw-1.dtb"
	for log in "$dir/stock.log" "$dir/raw-map.log" "$dir/raw-1.log"; do
		if ! payload_ok "$log"; then
			echo "[bench] warning: the payload run $log did not end cleanly" >&2
			((i == 0)) && failed=1
		fi
	done
	if [[ -n $linux_why ]]; then
		echo "LINUX na $linux_why" > "$dir/linux.txt"
	else
		echo "[bench]   Linux boots (1 hart once, 4 harts $boots times)"
		linux_boots "$fw" "$dir"
	fi
done

python3 "$here/table.py" "${cols[@]}" | tee "$bdir/results.md"

# The cost of a Linux 6.12 perf session in M-mode: Tally with and without
# the PMU snapshot and OpenSBI 1.9 (bench/linux_perf.sh; BENCH_LINUX=0 skips)
if [[ ${BENCH_LINUX:-1} != 0 ]]; then
	echo "[bench] Linux 6.12 perf session (bench/linux_perf.sh)" >&2
	echo
	"$here/linux_perf.sh" "$out" | tee -a "$bdir/results.md" || failed=1
fi
exit $failed
