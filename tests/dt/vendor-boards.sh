#!/usr/bin/env bash
# The boards known by their harts (platform/generic/boards.c,
# board_cpu_table): Linux 6.12's own devicetrees of the shipping SoCs whose
# vendor PMU Tally serves without Sscofpmf, compiled with cpp and dtc, must
# select the right board and vendor overflow back end (docs/pmu.md, Vendor
# overflow back ends); boards with other harts must not.
#
#   tests/dt/vendor-boards.sh <build-dir>
#
# The trees come from Debian's linux-source-6.12 (LINUX_SOURCE_612, default
# /usr/src/linux-source-6.12.tar.xz), extracted once into the build
# directory (about a minute: the archive is read whole); without it every
# check is a SKIP.  The matcher is tests/unit/board's test program in its
# --match mode (the real boards.c and board files).
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$root/build}")
src=${LINUX_SOURCE_612:-/usr/src/linux-source-6.12.tar.xz}
cache="$out/tests/dt-linux612"
work="$out/tests/dt/vendor"
failures=0

pass() { echo "PASS: dt: $*"; }
fail() { echo "FAIL: dt: $*"; failures=$((failures + 1)); }

# tree (relative to arch/riscv/boot/dts), expected "board overflow":
# overflow 1 = T-Head (IRQ 17), 2 = Andes (IRQ 18), 0 = none.  test_board
# is built for PLATFORM=test: a tree no board matches selects "test".
cases=(
	"allwinner/sun20i-d1-nezha.dts|thead-c9xx 1|Allwinner D1 (C906)"
	"allwinner/sun20i-d1s-mangopi-mq.dts|thead-c9xx 1|Allwinner D1s (C906)"
	"sophgo/cv1800b-milkv-duo.dts|thead-c9xx 1|Sophgo CV1800B (C906)"
	"sophgo/cv1812h-huashan-pi.dts|thead-c9xx 1|Sophgo CV1812H (C906)"
	"thead/th1520-lichee-pi-4a.dts|thead-c9xx 1|T-Head TH1520 (C910)"
	"sophgo/sg2042-milkv-pioneer.dts|thead-c9xx 1|Sophgo SG2042 (C920)"
	"renesas/r9a07g043f01-smarc.dts|andes-ax45 2|Renesas RZ/Five (AX45MP)"
	"sifive/hifive-unmatched-a00.dts|test 0|SiFive HiFive Unmatched (U74)"
	"starfive/jh7110-starfive-visionfive-2-v1.3b.dts|test 0|StarFive JH7110 (U74)"
	"canaan/sipeed_maix_bit.dts|test 0|Canaan K210 (no T-Head/Andes cpu)"
)

if [[ ! -r $src ]]; then
	for c in "${cases[@]}"; do
		IFS='|' read -r _ _ what <<<"$c"
		echo "SKIP: dt: vendor boards: $what: $src not installed (linux-source-6.12)"
	done
	exit 0
fi
for t in cpp dtc; do
	if ! command -v $t >/dev/null; then
		echo "SKIP: dt: vendor boards: $t not installed"
		exit 0
	fi
done

# ---- the Linux trees, extracted once per archive --------------------------------
key=$(stat -c '%s %Y' "$src")
if [[ ! -f $cache/.stamp || $(cat "$cache/.stamp") != "$key" ]]; then
	rm -rf "$cache"
	mkdir -p "$cache"
	top=$(basename "$src" .tar.xz)
	if ! tar -C "$cache" -xJf "$src" --wildcards \
		"$top/arch/riscv/boot/dts/*" "$top/arch/arm64/boot/dts/renesas/*" \
		"$top/include/dt-bindings/*" "$top/include/uapi/linux/input-event-codes.h" \
		>"$cache/tar.log" 2>&1; then
		fail "vendor boards: extracting the devicetrees of $src"
		sed 's/^/    /' "$cache/tar.log" | tail -5
		exit 1
	fi
	mv "$cache/$top" "$cache/linux"
	mkdir -p "$cache/prefix"
	ln -sfn ../linux/arch/arm64/boot/dts "$cache/prefix/arm64"
	echo "$key" >"$cache/.stamp"
fi
lx="$cache/linux"

# ---- the matcher -----------------------------------------------------------------
rm -rf "$work"
mkdir -p "$work"
if ! make -s -C "$root/tests/unit/board" O="$work/bin" "$work/bin/test_board" \
	>"$work/build.log" 2>&1; then
	fail "vendor boards: building tests/unit/board's test_board"
	sed 's/^/    /' "$work/build.log"
	exit 1
fi

# ---- each tree -------------------------------------------------------------------
for c in "${cases[@]}"; do
	IFS='|' read -r dts want what <<<"$c"
	dtb="$work/$(basename "$dts" .dts).dtb"
	if ! cpp -nostdinc -undef -x assembler-with-cpp -D__DTS__ \
		-I "$lx/include" -I "$cache/prefix" -I "$lx/arch/riscv/boot/dts/$(dirname "$dts")" \
		"$lx/arch/riscv/boot/dts/$dts" 2>"$work/cpp.log" |
		dtc -q -I dts -O dtb -o "$dtb" - 2>"$work/dtc.log"; then
		fail "vendor boards: $what: $dts does not compile"
		cat "$work/cpp.log" "$work/dtc.log" | sed 's/^/    /' | tail -5
		continue
	fi
	got=$("$work/bin/test_board" --match "$dtb" | sed 's/.*: board //; s/ overflow / /')
	if [[ $got == "$want" ]]; then
		pass "vendor boards: $what: $dts -> board ${want% *}, overflow back end ${want#* }"
	else
		fail "vendor boards: $what: $dts -> '$got', expected '$want'"
	fi
done
[[ $failures -eq 0 ]]
