#!/usr/bin/env bash
# Devicetree PMU tests: the riscv,pmu parser (lib/fdt/fdt_pmu.c) and event
# map (lib/pmu/pmu_map.c) on real blobs, through the host tool
# tally-pmu-dtcheck and a host test program.
#
#   tests/dt/run.sh <build-dir>
#
# Checks: QEMU 7.2's own devicetrees (dumped now, pmu-num 0/4/16/29 with
# Sscofpmf on and off), the binding's two examples, a corpus of malformed
# nodes (tests/dt/corpus/*.dts, expectations inside each file), generated
# limits (full tables, too many masks), a generated 10,000-row raw map
# (loaded fully, lookups bounded), invalid blobs, and the same under
# ASan/UBSan; then the AIA parser (aia.sh) and the board selection of the
# vendor PMUs on Linux 6.12's devicetrees (vendor-boards.sh).  One line per check, "PASS: dt: ..." or "FAIL: dt: ...";
# exit status 1 on any failure.
#
# Expectations inside a .dts, as comments:
#   // args: -n 4          options for tally-pmu-dtcheck (the hart's counters)
#   // warn: pmu: ...      each expected message, in order (none: a clean node)
#   // row: events ...     each row of the resulting map, in dtcheck's order
#   // node: none          the start of dtcheck's "node: " line
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$root/build}")
work="$out/tests/dt"
tools="$out/host/tools"
here="$root/tests/dt"
cc=${HOSTCC:-gcc}
failures=0

pass() { echo "PASS: dt: $*"; }
fail() { echo "FAIL: dt: $*"; failures=$((failures + 1)); }

rm -rf "$work"
mkdir -p "$work/dtb" "$work/out"
# The host programs below are kept in $bin and built again only when what
# they are built from changed (their sources, every header, the compiler,
# this script's flags): about 9 s of compiling a run otherwise.
bin="$out/tests/dt-bin"
# shellcheck source=../lib/cache.sh
source "$root/tests/lib/cache.sh"	# hash_inputs, stamp_ok, stamp_set ($stamps)
stamps=$bin
mkdir -p "$bin"

# ---- build ---------------------------------------------------------------------
if make -s -C "$root/tools" O="$tools" >"$work/build.log" 2>&1; then
	pass "build tally-pmu-dtcheck (tools/Makefile)"
else
	fail "build tally-pmu-dtcheck (tools/Makefile)"
	sed 's/^/    /' "$work/build.log"
	exit 1
fi
dtcheck="$tools/tally-pmu-dtcheck"

cflags=(-std=gnu11 -g -Wall -Wextra -Werror -I"$root/include")
# shellcheck disable=SC2054
san=(-O1 -fsanitize=address,undefined -fno-sanitize-recover=all)
lib=("$root/lib/fdt/fdt_pmu.c" "$root/lib/fdt/fdt_validate.c" "$root/lib/fdt/fdt_helpers.c" "$root/lib/pmu/pmu_map.c")
# the hart set-up's pure part: ISA extensions of a cpu node, the rules they call for
isa_lib=("$root/lib/fdt/fdt_isa.c" "$root/lib/sbi/hart_ext.c")

# The tests below link the system's libfdt, which is not instrumented: a bad
# write inside libfdt goes unseen.  The firmware's own libfdt (Linux 6.1's,
# extracted by the top Makefile) built with ASan catches it: that build runs
# the malformed blobs below (nodes after the root's END_NODE).
libfdt61="$out/libfdt"
build_libfdt61() {
	mkdir -p "$bin/libfdt61"
	for f in fdt fdt_ro fdt_wip fdt_sw fdt_rw fdt_strerror fdt_addresses; do
		$cc -g -O1 "${san[@]}" -w -I"$libfdt61" -c "$libfdt61/$f.c" \
			-o "$bin/libfdt61/$f.o" || return 1
	done
}
build_programs() {
	$cc "${cflags[@]}" -O2 -DPMU_MAP_DEBUG_COUNTERS "$here/test_fdt_pmu.c" "${lib[@]}" \
		-lfdt -o "$bin/test_fdt_pmu" &&
	$cc "${cflags[@]}" "${san[@]}" -DPMU_MAP_DEBUG_COUNTERS "$here/test_fdt_pmu.c" "${lib[@]}" \
		-lfdt -o "$bin/test_fdt_pmu-san" &&
	$cc "${cflags[@]}" "${san[@]}" "$root/tools/tally-pmu-dtcheck.c" "${lib[@]}" \
		-lfdt -o "$bin/tally-pmu-dtcheck-san" &&
	build_libfdt61 &&
	$cc "${cflags[@]}" "${san[@]}" -I"$libfdt61" -DPMU_MAP_DEBUG_COUNTERS "$here/test_fdt_pmu.c" \
		"${lib[@]}" "$bin"/libfdt61/*.o -o "$bin/test_fdt_pmu-san61" &&
	$cc "${cflags[@]}" -O1 "$here/dtb-after-root.c" -lfdt -o "$bin/dtb-after-root" &&
	$cc "${cflags[@]}" "${san[@]}" "$here/test_fdt_isa.c" "${isa_lib[@]}" -lfdt \
		-o "$bin/test_fdt_isa-san"
}
# shellcheck disable=SC2046
if make -s -C "$root" O="$out" "$libfdt61/.extracted" >>"$work/build.log" 2>&1 &&
   key=$(hash_inputs "$($cc --version | head -n 1)" "$here/run.sh" "$here/test_fdt_pmu.c" \
	"$here/dtb-after-root.c" "$root/tools/tally-pmu-dtcheck.c" "${lib[@]}" \
	"$here/test_fdt_isa.c" "${isa_lib[@]}" \
	$(find "$root/include" "$root/lib" "$libfdt61" -name '*.h' | sort) "$libfdt61"/*.c) &&
   build_kept programs "$key" "$bin"/{test_fdt_pmu{,-san,-san61},tally-pmu-dtcheck-san,dtb-after-root,test_fdt_isa-san} \
		-- build_programs 2>>"$work/build.log"; then
	pass "build the host test program and ASan/UBSan builds$kept"
	pass "build test_fdt_pmu with Linux 6.1's libfdt under ASan/UBSan, and dtb-after-root$kept"
else
	fail "build the host test program, its ASan/UBSan builds (one with Linux 6.1's libfdt) and dtb-after-root"
	sed 's/^/    /' "$work/build.log"
	exit 1
fi

# ---- helpers -------------------------------------------------------------------
# count N WORD: "1 row", "2 rows"
count() { if [[ $1 -eq 1 ]]; then echo "1 $2"; else echo "$1 $2s"; fi; }

# counter_list MASK: "0,3-6", as tally-pmu-dtcheck prints it
counter_list() {
	local m=$(($1)) i=0 j s=""
	while ((i < 32)); do
		if (((m >> i) & 1)); then
			j=$i
			while ((j + 1 < 32 && (m >> (j + 1)) & 1)); do j=$((j + 1)); done
			s+="${s:+,}$i"
			((j > i)) && s+="-$j"
			i=$((j + 1))
		else
			i=$((i + 1))
		fi
	done
	echo "$s"
}

# compare NAME DTB ARGS: runs dtcheck on DTB and compares its messages with
# $work/out/NAME.warn.exp and, when $work/out/NAME.rows.exp exists, its rows;
# NODE_EXP (if set) must start the "node: " line; the exit status must be 0
# without messages and 1 with.  Extra "grep -Fx" lines in $work/out/NAME.lines.exp.
compare() {
	local name=$1 dtb=$2 args=$3 o="$work/out/$1" status want problems=()
	# shellcheck disable=SC2086
	"$dtcheck" $args "$dtb" >"$o.out" 2>"$o.err"
	status=$?
	sed -n 's/^warning: //p' "$o.out" >"$o.warn"
	sed -n 's/^  //p' "$o.out" >"$o.rows"
	want=$([[ -s $o.warn.exp ]] && echo 1 || echo 0)
	if ! cmp -s "$o.warn" "$o.warn.exp"; then
		problems+=("messages differ (< got, > expected):")
		problems+=("$(diff "$o.warn" "$o.warn.exp" | grep '^[<>]')")
	fi
	if [[ -f $o.rows.exp ]] && ! cmp -s "$o.rows" "$o.rows.exp"; then
		problems+=("rows differ (< got, > expected):")
		problems+=("$(diff "$o.rows" "$o.rows.exp" | grep '^[<>]')")
	fi
	if [[ -n ${NODE_EXP:-} ]] && ! grep -q "^node: $NODE_EXP" "$o.out"; then
		problems+=("node line is not \"node: $NODE_EXP...\": $(grep '^node:' "$o.out")")
	fi
	if [[ -f $o.lines.exp ]]; then
		while IFS= read -r line; do
			grep -Fxq -- "$line" "$o.out" || problems+=("missing line: $line")
		done <"$o.lines.exp"
	fi
	[[ $status -eq $want ]] || problems+=("exit status $status, expected $want")
	local nw nr
	nw=$(wc -l <"$o.warn.exp")
	nr=$(wc -l <"$o.rows")
	if [[ ${#problems[@]} -eq 0 ]]; then
		pass "$name: $(count "$nw" message), $(count "$nr" row), exit $status as expected"
	else
		fail "$name"
		printf '%s\n' "${problems[@]}" | sed 's/^/    /'
	fi
}

# check_after_root NAME SRC: a .dts with "// after-root: NODE" gets NODE
# appended after the root's END_NODE; dtcheck must refuse the blob with the
# error "// refuse:" names, and the parser, run by test_fdt_pmu against
# Linux 6.1's libfdt under ASan, must refuse it with one message and no row.
check_after_root() {
	local name=$1 src=$2 o="$work/out/$1" node want log status
	node=$(sed -n 's|^// after-root: ||p' "$src")
	want=$(sed -n 's|^// refuse: ||p' "$src")
	mkdir -p "$work/bad"
	if ! dtc -q -I dts -O dtb -o "$work/bad/$name.ok.dtb" "$src" 2>"$o.dtc" ||
	   ! "$bin/dtb-after-root" "$work/bad/$name.ok.dtb" "$work/bad/$name.dtb" "$node" riscv,pmu 2>>"$o.dtc"; then
		fail "$name: could not build the blob: $(head -3 "$o.dtc")"
		return
	fi
	"$dtcheck" "$work/bad/$name.dtb" >"$o.out" 2>"$o.err"
	status=$?
	if [[ $status -eq 2 ]] && grep -q "not a valid DTB ($want)" "$o.err"; then
		pass "$name: dtcheck refuses it, exit 2 ($(head -1 "$o.err"))"
	else
		fail "$name: dtcheck exit $status, stderr: $(head -1 "$o.err")"
	fi
	log="$o.san61"
	"$bin/test_fdt_pmu-san61" --refuse "$want" "$work/bad/$name.dtb" >"$log" 2>&1
	status=$?
	if [[ $status -eq 0 ]] && ! grep -q '^FAIL' "$log" && ! grep -q 'ERROR: AddressSanitizer' "$log"; then
		grep '^PASS: dt: .*refused by fdt_validate' "$log"
	else
		fail "$name: parser under ASan with Linux 6.1's libfdt (status $status):"
		grep -E '^FAIL|ERROR: AddressSanitizer|^    #[0-9] ' "$log" | head -8 | sed 's/^/    /'
	fi
}

# check_dts NAME SRC: compiles a .dts carrying its expectations and compares.
check_dts() {
	local name=$1 src=$2 dtb="$work/dtb/$1.dtb" o="$work/out/$1"
	if grep -q '^// after-root: ' "$src"; then
		check_after_root "$name" "$src"
		return
	fi
	if ! dtc -q -I dts -O dtb -o "$dtb" "$src" 2>"$o.dtc"; then
		fail "$name: dtc failed: $(head -3 "$o.dtc")"
		return
	fi
	sed -n 's|^// warn: ||p' "$src" >"$o.warn.exp"
	sed -n 's|^// row: ||p' "$src" >"$o.rows.exp"
	NODE_EXP=$(sed -n 's|^// node: ||p' "$src") \
		compare "$name" "$dtb" "$(sed -n 's|^// args: ||p' "$src" | head -1)"
}

# ---- QEMU 7.2's devicetrees ------------------------------------------------------
padding="pmu: riscv,event-to-mhpmcounters row 6: trailing zero padding (1 zero row + 2 stray cells), ignored"
for n in 0 4 16 29; do
	for ssc in false true; do
		name="qemu-pmu-num=$n,sscofpmf=$ssc"
		dtb="$work/dtb/qemu-$n-$ssc.dtb"
		o="$work/out/$name"
		if ! timeout 30 qemu-system-riscv64 -M "virt,dumpdtb=$dtb" -cpu "rv64,pmu-num=$n,sscofpmf=$ssc" \
			-smp 2 -nographic >"$o.qemu" 2>&1 </dev/null || [[ ! -s $dtb ]]; then
			fail "$name: QEMU did not dump its devicetree: $(head -2 "$o.qemu")"
			continue
		fi
		isa=$(fdtget "$dtb" /cpus/cpu@0 riscv,isa 2>/dev/null)
		if [[ $ssc == true && $isa != *_sscofpmf* ]] || [[ $ssc == false && $isa == *_sscofpmf* ]]; then
			fail "$name: riscv,isa \"$isa\" does not match sscofpmf=$ssc"
			continue
		fi
		: >"$o.rows.exp"
		if ((n == 0)); then
			# QEMU writes 0xfffffff8 (all of 3..31) although there is none
			cat >"$o.warn.exp" <<-EOF
			pmu: riscv,event-to-mhpmcounters row 1: counters 0xfffffff9 name counters this hart lacks (0xfffffff8), row kept with 0x00000001
			pmu: riscv,event-to-mhpmcounters row 2: counters 0xfffffffc name counters this hart lacks (0xfffffff8), row kept with 0x00000004
			pmu: riscv,event-to-mhpmcounters row 3: counters 0xfffffff8 name only counters this hart lacks (it has 0x00000005), row skipped
			pmu: riscv,event-to-mhpmcounters row 4: counters 0xfffffff8 name only counters this hart lacks (it has 0x00000005), row skipped
			pmu: riscv,event-to-mhpmcounters row 5: counters 0xfffffff8 name only counters this hart lacks (it has 0x00000005), row skipped
			$padding
			EOF
			echo "events 0x00001-0x00001 counters 0x00000001 (0)" >>"$o.rows.exp"
			echo "events 0x00002-0x00002 counters 0x00000004 (2)" >>"$o.rows.exp"
		else
			echo "$padding" >"$o.warn.exp"
			cmask=$(( ((1 << n) - 1) << 3 ))
			for row in "1 $((cmask | 1))" "2 $((cmask | 4))" "10019 $cmask" "1001b $cmask" "10021 $cmask"; do
				read -r ev bits <<<"$row"
				printf 'events 0x%05x-0x%05x counters 0x%08x (%s)\n' "0x$ev" "0x$ev" "$bits" \
					"$(counter_list "$bits")" >>"$o.rows.exp"
			done
		fi
		printf '%s\n' "quirk: QEMU virt: one counter per event" \
			"riscv,event-to-mhpmevent: absent: mhpmevent selector = event_idx" >"$o.lines.exp"
		NODE_EXP=/pmu compare "$name" "$dtb" "-n $n"
	done
done

# ---- the binding's examples and the malformed corpus ------------------------------
for src in "$here"/binding-example*.dts "$here"/corpus/*.dts; do
	check_dts "$(basename "$src" .dts)" "$src"
done

# ---- generated: full tables, too many masks ----------------------------------------
gen_dts() {	# gen_dts FILE PROPERTY-LINE...
	local f=$1
	shift
	{
		printf '/dts-v1/;\n/ {\n\tcompatible = "tally,test";\n\tpmu {\n\t\tcompatible = "riscv,pmu";\n'
		printf '\t\t%s\n' "$@"
		printf '\t};\n};\n'
	} >"$f"
}

o="$work/out/ranges-full"
gen_dts "$work/ranges-full.dts" \
	"riscv,event-to-mhpmcounters = $(awk 'BEGIN { for (i = 0; i < 300; i++) printf "%s<%d %d 8>", (i ? ", " : ""), 65536 + i, 65536 + i }');"
echo "pmu: riscv,event-to-mhpmcounters rows 257-300: table full (256 rows), 44 rows skipped" >"$o.warn.exp"
echo "riscv,event-to-mhpmcounters: 256 of 300 rows loaded" >"$o.lines.exp"
dtc -q -I dts -O dtb -o "$work/dtb/ranges-full.dtb" "$work/ranges-full.dts" &&
	compare ranges-full "$work/dtb/ranges-full.dtb" "-n 29 -q"

o="$work/out/raw-masks"
gen_dts "$work/raw-masks.dts" \
	"riscv,raw-event-to-mhpmcounters = $(awk 'BEGIN { for (i = 1; i <= 66; i++) printf "%s<0 0 0 %d 8>", (i > 1 ? ", " : ""), i }');"
printf '%s\n' "pmu: riscv,raw-event-to-mhpmcounters row 65: mask 0x41 would be distinct mask number 65 (the limit is 64), row skipped" \
	"pmu: riscv,raw-event-to-mhpmcounters row 66: mask 0x42 would be distinct mask number 65 (the limit is 64), row skipped" >"$o.warn.exp"
printf '%s\n' "riscv,raw-event-to-mhpmcounters: 64 of 66 rows loaded" "raw masks: 64 (lookup bisects each)" >"$o.lines.exp"
dtc -q -I dts -O dtb -o "$work/dtb/raw-masks.dtb" "$work/raw-masks.dts" &&
	compare raw-masks "$work/dtb/raw-masks.dtb" "-n 29 -q"

o="$work/out/raw-full"
"$here/gen-raw-map.sh" 10300 3 >"$work/raw-full.dts"
echo "pmu: riscv,raw-event-to-mhpmcounters rows 10241-10300: table full (10240 rows), 60 rows skipped" >"$o.warn.exp"
echo "riscv,raw-event-to-mhpmcounters: 10240 of 10300 rows loaded" >"$o.lines.exp"
dtc -q -I dts -O dtb -o "$work/dtb/raw-full.dtb" "$work/raw-full.dts" &&
	compare raw-full "$work/dtb/raw-full.dtb" "-n 29 -q"

# ---- the 10,000-row raw map ---------------------------------------------------------
o="$work/out/raw-10000"
"$here/gen-raw-map.sh" 10000 4 >"$work/raw-10000.dts"
big="$work/dtb/raw-10000.dtb"
if dtc -q -I dts -O dtb -o "$big" "$work/raw-10000.dts"; then
	: >"$o.warn.exp"
	printf '%s\n' "riscv,raw-event-to-mhpmcounters: 10000 of 10000 rows loaded" \
		"raw masks: 4 (lookup bisects each)" >"$o.lines.exp"
	compare raw-10000 "$big" "-n 29"
	rows=$(grep -c '^  raw invariant' "$o.out")
	if [[ $rows -eq 10000 ]]; then
		pass "raw-10000: dtcheck lists all $rows raw rows"
	else
		fail "raw-10000: dtcheck lists $rows raw rows, expected 10000"
	fi
else
	fail "raw-10000: dtc failed on the generated source"
fi

# ---- the firmware itself on QEMU's tree plus the 10,000-row raw map -----------------
# (needs the images of `make`; skipped when they are not built)
fw="$out/platform/generic/firmware/fw_dynamic.bin"
payload="$out/platform/generic/firmware/test_payload.elf"
if [[ ! -f $fw || ! -f $payload ]]; then
	echo "SKIP: dt: firmware boot with a 10,000-row raw map ($fw not built)"
elif ! grep -q "trailing zero padding" "$fw"; then
	echo "SKIP: dt: firmware boot with a 10,000-row raw map ($fw has no riscv,pmu parser: rebuild)"
else
	# shellcheck disable=SC2054
	machine=(-M virt -cpu rv64,pmu-num=16 -smp 2 -m 256M)
	o="$work/out/firmware-raw-10000"
	qemu-system-riscv64 "${machine[@]/#virt/virt,dumpdtb=$work/dtb/virt-raw-10000.dtb}" \
		-nographic >/dev/null 2>&1 </dev/null
	# shellcheck disable=SC2046
	if fdtput -t u "$work/dtb/virt-raw-10000.dtb" /pmu riscv,raw-event-to-mhpmcounters \
		$(awk 'BEGIN { for (k = 0; k < 10000; k++) { h = (k * 2654435761) % 4294967296
			printf "%.0f %.0f %.0f %.0f %.0f ", int(h / 65536), (h % 65536) * 65536,
				16777215, 4294967296 - 2 ^ (4 * (k % 4)), 2 ^ (3 + k % 8) } }') 2>"$o.err"; then
		start=$EPOCHREALTIME
		timeout 30 qemu-system-riscv64 "${machine[@]}" -nographic -no-reboot -monitor none \
			-bios "$fw" -dtb "$work/dtb/virt-raw-10000.dtb" -kernel "$payload" \
			</dev/null >"$o.log" 2>&1
		secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
		pmu_lines=$(grep -c 'pmu: ' "$o.log")
		if grep -q "pmu: riscv,event-to-mhpmcounters row 6: trailing zero padding" "$o.log" &&
		   [[ $pmu_lines -eq 1 ]] && grep -q "hello from S-mode" "$o.log"; then
			pass "firmware boots QEMU virt + 10,000 raw rows to its payload, one pmu message ($secs s)"
		else
			fail "firmware with QEMU virt + 10,000 raw rows: $pmu_lines pmu messages, log $o.log:"
			grep -E 'pmu|Tally|hello' "$o.log" | head -8 | sed 's/^/    /'
		fi
	else
		fail "fdtput could not add the raw map: $(head -1 "$o.err")"
	fi
fi

# ---- the firmware on a malformed tree (issue 10, defect 3) ---------------------------
# QEMU virt's tree with two more top-level riscv,pmu nodes and one after the
# root's END_NODE.  Before the fix: "pmu: /soc/clint@2000000/001000/e3/...:
# another riscv,pmu node", a path built from stack garbage.  Now: one clear
# message naming the failure, the event map from defaults, the payload runs.
if [[ -f $fw && -f $payload ]]; then
	o="$work/out/firmware-after-root"
	bad_dtb="$work/bad/virt-after-root.dtb"
	mkdir -p "$work/bad"
	qemu-system-riscv64 -M "virt,dumpdtb=$work/bad/virt.dtb" -cpu rv64,pmu-num=16 -smp 2 -m 256M \
		-nographic >/dev/null 2>&1 </dev/null
	if fdtput -c "$work/bad/virt.dtb" /pmu-extra1 /pmu-extra2 2>"$o.err" &&
	   fdtput -t s "$work/bad/virt.dtb" /pmu-extra1 compatible riscv,pmu 2>>"$o.err" &&
	   fdtput -t s "$work/bad/virt.dtb" /pmu-extra2 compatible riscv,pmu 2>>"$o.err" &&
	   "$bin/dtb-after-root" "$work/bad/virt.dtb" "$bad_dtb" pmu-after-root riscv,pmu 2>>"$o.err"; then
		timeout 30 qemu-system-riscv64 -M virt -cpu rv64,pmu-num=16 -smp 2 -m 256M -nographic \
			-no-reboot -monitor none -bios "$fw" -dtb "$bad_dtb" -kernel "$payload" \
			</dev/null >"$o.log" 2>&1
		problems=()
		grep -q "^Tally: devicetree structure invalid (FDT_ERR_BADSTRUCTURE)" "$o.log" ||
			problems+=("no boot message naming FDT_ERR_BADSTRUCTURE")
		grep -q "^Tally: pmu: devicetree structure invalid (FDT_ERR_BADSTRUCTURE)" "$o.log" ||
			problems+=("no pmu message naming FDT_ERR_BADSTRUCTURE")
		grep -q "another riscv,pmu node" "$o.log" &&
			problems+=("a riscv,pmu node was still looked up: $(grep -m1 'another riscv,pmu' "$o.log")")
		LC_ALL=C grep -q '[^[:print:][:space:]]' "$o.log" && problems+=("non-printable bytes in the log")
		grep -q "hello from S-mode" "$o.log" || problems+=("the payload did not run")
		if [[ ${#problems[@]} -eq 0 ]]; then
			pass "firmware on QEMU virt + 2 riscv,pmu nodes + 1 after the root: boots, message names FDT_ERR_BADSTRUCTURE"
		else
			fail "firmware on a tree with a node after the root (log $o.log):"
			printf '%s\n' "${problems[@]}" | sed 's/^/    /'
		fi
	else
		fail "could not build the malformed QEMU virt tree: $(head -1 "$o.err")"
	fi
fi

# ---- the host test program (builder, lookups, callback contract) --------------------
"$bin/test_fdt_pmu" --big "$big" "$work"/dtb/*.dtb >"$work/out/test_fdt_pmu.log" 2>&1
status=$?
cat "$work/out/test_fdt_pmu.log"
if [[ $status -ne 0 ]] && ! grep -q '^FAIL' "$work/out/test_fdt_pmu.log"; then
	fail "test_fdt_pmu exited with status $status"
fi
"$bin/test_fdt_pmu-san" --big "$big" "$work"/dtb/*.dtb >"$work/out/test_fdt_pmu-san.log" 2>&1
status=$?
n=$(grep -c '^PASS' "$work/out/test_fdt_pmu-san.log")
if [[ $status -eq 0 ]] && ! grep -q '^FAIL' "$work/out/test_fdt_pmu-san.log"; then
	pass "test_fdt_pmu under ASan/UBSan: $n checks pass"
else
	fail "test_fdt_pmu under ASan/UBSan (status $status):"
	grep -v '^PASS' "$work/out/test_fdt_pmu-san.log" | head -20 | sed 's/^/    /'
fi

# ---- the hart set-up's extensions (under ASan/UBSan) ----------------------------------
"$bin/test_fdt_isa-san" >"$work/out/test_fdt_isa.log" 2>&1
status=$?
cat "$work/out/test_fdt_isa.log"
if [[ $status -ne 0 ]] && ! grep -q '^FAIL' "$work/out/test_fdt_isa.log"; then
	fail "test_fdt_isa exited with status $status"
fi

# ---- invalid input ---------------------------------------------------------------------
bad() {	# bad NAME FILE: dtcheck must refuse it with exit status 2 and say why
	local name=$1 file=$2 status
	"$dtcheck" "$file" >"$work/out/$name.out" 2>"$work/out/$name.err" </dev/null
	status=$?
	if [[ $status -eq 2 ]] && grep -q "tally-pmu-dtcheck: " "$work/out/$name.err"; then
		pass "$name: exit 2 ($(head -1 "$work/out/$name.err"))"
	else
		fail "$name: exit $status, stderr: $(head -1 "$work/out/$name.err")"
	fi
}
printf 'this is not a devicetree blob\n' >"$work/not-a-dtb.txt"
: >"$work/empty.dtb"
head -c 4096 "$big" >"$work/truncated.dtb"
bad "not a DTB (text)" "$work/not-a-dtb.txt"
bad "not a DTB (empty file)" "$work/empty.dtb"
bad "not a DTB (truncated blob)" "$work/truncated.dtb"
bad "not a DTB (missing file)" "$work/does-not-exist.dtb"

v4="$work/dtb/qemu-4-true.dtb"
if [[ -f $v4 ]]; then
	"$dtcheck" -n 4 - <"$v4" | grep -v '^file:' >"$work/out/stdin.out"
	s1=${PIPESTATUS[0]}
	"$dtcheck" -n 4 "$v4" | grep -v '^file:' >"$work/out/path.out"
	s2=${PIPESTATUS[0]}
	if [[ $s1 -eq $s2 ]] && cmp -s "$work/out/stdin.out" "$work/out/path.out"; then
		pass "dtcheck reads '-' from stdin like a path (exit $s1)"
	else
		fail "dtcheck on stdin differs from the path (exit $s1 vs $s2)"
	fi
fi

# ---- sanitizers on every blob ------------------------------------------------------------
same=0 total=0 differ=()
for dtb in "$work"/dtb/*.dtb; do
	total=$((total + 1))
	"$dtcheck" -n 8 "$dtb" >"$work/out/plain.out" 2>&1
	s1=$?
	"$bin/tally-pmu-dtcheck-san" -n 8 "$dtb" >"$work/out/san.out" 2>&1
	s2=$?
	if [[ $s1 -eq $s2 ]] && cmp -s "$work/out/plain.out" "$work/out/san.out"; then
		same=$((same + 1))
	else
		differ+=("$(basename "$dtb")")
	fi
done
if [[ $same -eq $total ]]; then
	pass "ASan/UBSan build of dtcheck: same output on all $total blobs"
else
	fail "ASan/UBSan build of dtcheck differs on: ${differ[*]}"
fi

# ---- AIA: the APLIC/IMSIC parser and the next stage's fix-up (lib/fdt/fdt_aia.c) ----------
"$here/aia.sh" "$out" || failures=$((failures + 1))

# ---- vendor PMUs: Linux's trees of the T-Head and Andes SoCs pick their back end ------
"$here/vendor-boards.sh" "$out" || failures=$((failures + 1))

[[ $failures -eq 0 ]]
