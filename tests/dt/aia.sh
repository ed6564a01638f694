#!/usr/bin/env bash
# AIA devicetree tests: the APLIC/IMSIC parser and the next stage's fix-up
# (lib/fdt/fdt_aia.c), through the host program tests/dt/test_fdt_aia.c,
# plain (system libfdt) and under ASan/UBSan with the firmware's own libfdt
# (Linux 6.1's).  Run by tests/dt/run.sh.
#
#   tests/dt/aia.sh <build-dir>
#
# Checks: QEMU 7.2's trees (aia=aplic, aia=aplic-imsic, aia-guests=3, two
# NUMA sockets), the fix-up on them (M-level nodes disabled, nothing else
# changed, the parser then finds no M-level node), and the corpus
# tests/dt/aia/*.dts: "// warn: MSG" lines are every message, in order;
# "// line: TEXT" lines must each appear in the program's output.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$root/build}")
work="$out/tests/dt-aia"
here="$root/tests/dt/aia"
cc=${HOSTCC:-gcc}
failures=0

pass() { echo "PASS: dt: aia: $*"; }
fail() { echo "FAIL: dt: aia: $*"; failures=$((failures + 1)); }

rm -rf "$work"
mkdir -p "$work"
cflags=(-std=gnu11 -g -Wall -Wextra -Werror -I"$root/include" -DTALLY_MAX_HARTS=32)
san=(-O1 -fsanitize=address,undefined -fno-sanitize-recover=all)
src=("$root/tests/dt/test_fdt_aia.c" "$root/lib/fdt/fdt_aia.c" "$root/lib/fdt/fdt_helpers.c"
     "$root/lib/fdt/fdt_harts.c" "$root/lib/utils/hartmask.c")
libfdt61="$out/libfdt"
# Both programs are kept in $bin, built again only when what they are built
# from changed (as tests/dt/run.sh keeps its own).
bin="$out/tests/dt-bin"
# shellcheck source=../lib/cache.sh
source "$root/tests/lib/cache.sh"	# hash_inputs, stamp_ok, stamp_set ($stamps)
stamps=$bin
mkdir -p "$bin"
build_aia() {
	$cc "${cflags[@]}" -O2 "${src[@]}" -lfdt -o "$bin/test_fdt_aia" &&
	$cc "${cflags[@]}" "${san[@]}" -I"$libfdt61" "${src[@]}" "$libfdt61"/fdt{,_ro,_wip,_sw,_rw,_strerror,_addresses}.c \
		-o "$bin/test_fdt_aia-san61"
}
# shellcheck disable=SC2046
if make -s -C "$root" O="$out" "$libfdt61/.extracted" >"$work/build.log" 2>&1 &&
   key=$(hash_inputs "$($cc --version | head -n 1)" "$root/tests/dt/aia.sh" "${src[@]}" \
	$(find "$root/include" "$root/lib" "$libfdt61" -name '*.h' | sort) "$libfdt61"/*.c) &&
   build_kept aia "$key" "$bin"/test_fdt_aia{,-san61} -- build_aia 2>>"$work/build.log"; then
	pass "build test_fdt_aia (system libfdt; Linux 6.1's under ASan/UBSan)$kept"
else
	fail "build test_fdt_aia"
	sed 's/^/    /' "$work/build.log"
	exit 1
fi

# run NAME [ARGS...] DTB: both builds; their outputs must agree and be clean
run() {
	local name=$1 o="$work/$1"
	shift
	"$bin/test_fdt_aia" "$@" >"$o.out" 2>&1 || echo "exit status $?" >>"$o.out"
	"$bin/test_fdt_aia-san61" "${@/%.fixed.dtb/.fixed-san.dtb}" >"$o.san" 2>&1 ||
		echo "exit status $?" >>"$o.san"
	if ! cmp -s "$o.out" "$o.san"; then
		fail "$name: the ASan/UBSan build (Linux 6.1's libfdt) prints otherwise:"
		diff "$o.out" "$o.san" | head -8 | sed 's/^/    /'
		return 1
	fi
	if grep -qE '^(bad-|exit status)' "$o.out"; then
		fail "$name: $(grep -m1 -E '^(bad-|exit status)' "$o.out")"
		return 1
	fi
}

# expect NAME LINE...: every LINE is in the output; no message unless a
# "warning: " LINE names it (then exactly those, in order)
expect() {
	local name=$1 o="$work/$1" problems=() line
	shift
	printf '%s\n' "$@" | sed -n 's/^warning: //p' >"$o.warn.exp"
	sed -n 's/^warning: //p' "$o.out" >"$o.warn"
	cmp -s "$o.warn" "$o.warn.exp" ||
		problems+=("messages differ (< got, > expected):" "$(diff "$o.warn" "$o.warn.exp" | grep '^[<>]')")
	for line in "$@"; do
		[[ $line == warning:* ]] && continue
		grep -Fxq -- "$line" "$o.out" || problems+=("missing: $line")
	done
	if [[ ${#problems[@]} -eq 0 ]]; then
		pass "$name: $(($# - $(wc -l <"$o.warn.exp"))) facts, $(wc -l <"$o.warn.exp") messages as expected"
	else
		fail "$name:"
		printf '%s\n' "${problems[@]}" | sed 's/^/    /'
	fi
}

# ---- QEMU 7.2's trees -----------------------------------------------------------------
dump() {	# dump NAME MACHINE [QEMU ARGS...]
	local name=$1 machine=$2
	shift 2
	timeout 30 qemu-system-riscv64 -M "$machine,dumpdtb=$work/$name.dtb" -smp 4 -m 512M "$@" \
		-nographic >"$work/$name.qemu" 2>&1 </dev/null && [[ -s $work/$name.dtb ]] ||
		{ fail "$name: QEMU did not dump its tree: $(head -2 "$work/$name.qemu")"; return 1; }
}
files() {	# files m|s BASE STRIDE: the four harts' file lines
	for h in 0 1 2 3; do printf 'file %s %d 0x%x\n' "$1" "$h" $(($2 + h * $3)); done
}
deleg="deleg 0xc000000 1-96 child 0"
imsic_m="imsic-m: ids 255 guest 0 hart 2 group 0@24 base 0x24000000 files 4 regs 1"
mmsi="mmsi 0xc000000: ppn 0x24000 lhxs 0 lhxw 2 hhxs 0 hhxw 0"

if dump qemu-aplic virt,aia=aplic && run qemu-aplic "$work/qemu-aplic.dtb"; then
	expect qemu-aplic "aplic 0xc000000+0x8000: sources 96 direct idcs 4 children 1" "$deleg" \
		"slevel-aplics 1" "slevel 0xd000000+0x8000: sources 96 direct" "messages 0"
	grep -q '^imsic' "$work/qemu-aplic.out" && fail "qemu-aplic: an IMSIC where QEMU has none"
fi
if dump qemu-imsic virt,aia=aplic-imsic && run qemu-imsic "$work/qemu-imsic.dtb"; then
	mapfile -t mfiles < <(files m 0x24000000 0x1000)
	expect qemu-imsic "$imsic_m" "${mfiles[@]}" \
		"imsic-s: ids 255 guest 0 hart 2 group 0@24 base 0x28000000 files 4 regs 1" \
		"aplic 0xc000000+0x8000: sources 96 msi idcs 0 children 1" "$deleg" "$mmsi" \
		"smsi 0xc000000: ppn 0x28000 lhxs 0 lhxw 2 hhxs 0 hhxw 0" "slevel-aplics 1" \
		"slevel 0xd000000+0x8000: sources 96 msi" "messages 0"
fi
if dump qemu-guests virt,aia=aplic-imsic,aia-guests=3 -cpu rv64,h=true &&
   run qemu-guests "$work/qemu-guests.dtb"; then
	expect qemu-guests "$imsic_m" \
		"imsic-s: ids 255 guest 2 hart 2 group 0@24 base 0x28000000 files 4 regs 1" \
		"file s 3 0x2800c000" "smsi 0xc000000: ppn 0x28000 lhxs 2 lhxw 2 hhxs 0 hhxw 0" "messages 0"
fi
numa=(-object memory-backend-ram,id=m0,size=256M -object memory-backend-ram,id=m1,size=256M
      -numa node,memdev=m0,cpus=0-1 -numa node,memdev=m1,cpus=2-3)
if dump qemu-numa virt,aia=aplic-imsic "${numa[@]}" && run qemu-numa "$work/qemu-numa.dtb"; then
	expect qemu-numa "imsic-m: ids 255 guest 0 hart 1 group 1@24 base 0x24000000 files 4 regs 2" \
		"file m 2 0x25000000" "file m 3 0x25001000" \
		"mmsi 0xc000000: ppn 0x24000 lhxs 0 lhxw 1 hhxs 0 hhxw 1" \
		"mmsi 0xc008000: ppn 0x24000 lhxs 0 lhxw 1 hhxs 0 hhxw 1" "slevel-aplics 2" \
		"slevel 0xd000000+0x8000: sources 96 msi" "slevel 0xd008000+0x8000: sources 96 msi" \
		"messages 0"
fi

# ---- the fix-up: M-level nodes disabled, nothing else ---------------------------------
for name in qemu-aplic qemu-imsic qemu-numa; do
	[[ -s $work/$name.dtb ]] || continue
	case $name in	# M-level nodes: APLIC; APLIC + IMSIC; two APLICs (sockets) + IMSIC
	qemu-aplic) want=1 ;;
	qemu-imsic) want=2 ;;
	*) want=3 ;;
	esac
	run "$name-fixup" --fixup "$work/$name.fixed.dtb" "$work/$name.dtb" || continue
	dtc -q -I dtb -O dts "$work/$name.dtb" >"$work/$name.dts"
	dtc -q -I dtb -O dts "$work/$name.fixed.dtb" >"$work/$name.fixed.dts"
	added=$(diff "$work/$name.dts" "$work/$name.fixed.dts" | grep -c '^>[[:space:]]*status = "disabled";')
	other=$(diff "$work/$name.dts" "$work/$name.fixed.dts" | grep '^[<>]' | grep -vc 'status = "disabled";')
	mlevel=$(grep -cE '^(imsic-m|aplic |mmsi|smsi|deleg)' "$work/$name-fixup.out")
	if grep -Fxq "fixup: $want nodes disabled" "$work/$name-fixup.out" && [[ $added -eq $want &&
	   $other -eq 0 && $mlevel -eq 0 ]] && grep -q '^slevel-aplics [12]$' "$work/$name-fixup.out" &&
	   { [[ $name == qemu-aplic ]] || grep -q '^imsic-s' "$work/$name-fixup.out"; }; then
		pass "$name: fix-up disables the $want M-level nodes, changes nothing else; S-level ones stay"
	else
		fail "$name: fix-up: $(head -1 "$work/$name-fixup.out"), $added status lines added, $other other changes, $mlevel M-level facts after it"
	fi
done

# ---- the corpus -------------------------------------------------------------------------
for f in "$here"/*.dts; do
	name=$(basename "$f" .dts)
	if ! dtc -q -i "$here" -I dts -O dtb -o "$work/$name.dtb" "$f" 2>"$work/$name.dtc"; then
		fail "$name: dtc: $(head -2 "$work/$name.dtc")"
		continue
	fi
	run "$name" "$work/$name.dtb" || continue
	mapfile -t lines < <(sed -n 's|^// warn: |warning: |p; s|^// line: ||p' "$f")
	expect "$name" "${lines[@]}"
done

[[ $failures -eq 0 ]]
