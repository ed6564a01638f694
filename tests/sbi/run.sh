#!/usr/bin/env bash
# Runs the S-mode SBI test payload under QEMU virt (-smp 4) on each firmware
# image given, then the reset runs that end QEMU through SRST, then the PMU
# runs (bootargs "pmu": the PMU checks only) on the first image, with and
# without Sscofpmf, the DBTR run (bootargs "dbtr") with Sscofpmf, the
# hypervisor runs (bootargs "hyp"), with and without the H extension, and a
# static check of the images' hfences and HSM start fences; the SSE run (bootargs "sse", Sscofpmf: test_sse.c)
# and the board-events run (BOARD_SSE_FW: an image built with TALLY_TEST_SSE_EVENTS=1);
# the probe runs (bootargs "probe": test_probe.c, banner = probe_extension);
# the AIA runs, and the setipnum quirk without a PMP entry (bootargs "aia");
# then the hostile runs (bootargs "hostile", below); the strict build's PMU
# run (STRICT_FW, bootargs "strict") and the strict mode-filter image's PMU
# runs (STRICT_FILTERS_FW, bootargs "strict-filters"); last, the full run of
# every image on the other boards (QEMU sifive_u and spike), and on
# rewritten devicetrees: the hart-index runs and the device-table runs
# (bootargs "devices").
#
# Usage: tests/sbi/run.sh <sbi-test.elf> <fw_dynamic.bin> <fw_jump.bin>
#
# SBI_QUICK=1 in the environment: the full run of each image only (make
# check-quick's inner loop).
#
# XLEN=32 in the environment: the RV32 run, on qemu-system-riscv32 with
# the payload and images built with XLEN=32. Every check is then named
# "rv32-<run>: ..."; the CPU models are the rv32 ones; the PMU runs keep
# num_counters within 32 (pmu-num=12 with Sscofpmf: the payload's counter
# masks are one register with base 0); the runs of the parts the RV32
# payload does not have (SSE, H, hostile) print one SKIP.
#
# Each payload check prints "PASS:"/"FAIL:"; this script prefixes them with
# the image name and adds its own checks on how QEMU ended.  Output is read by
# tests/run-all.sh, which counts the lines.
set -uo pipefail

elf=$1
shift
images=("$@")
xlen=${XLEN:-64}
qemu=(qemu-system-riscv$xlen -M virt -smp 4 -m 256M -nographic
      -no-reboot -monitor none -serial stdio)
# RV32: run names get a prefix, CPU models are rv32 ones
tag=""
[[ $xlen == 32 ]] && tag=rv32-
cpu_model() { [[ $xlen == 32 ]] && echo "${1//rv64/rv32}" || echo "$1"; }
# rv64_only <name>: true (after a SKIP line) when the run is not for RV32
rv64_only() {
	[[ $xlen == 32 ]] || return 1
	echo "SKIP: $tag$1: not ported to RV32"
}
limit=120          # seconds; a hang is a failure, never a wait forever
logdir=$(dirname "$elf")/runs
mkdir -p "$logdir"
failures=0

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run <log> <firmware> [bootargs] [cpu]: boots the payload, output to <log>;
# sets $rc.  cpu "-": the machine's own harts (no -cpu).
run() {
	local log=$1 fw=$2 args=${3:-} cpu=${4:-rv64} cpuopt=()
	[[ $cpu == - ]] || cpuopt=(-cpu "$(cpu_model "$cpu")")
	timeout "$limit" "${qemu[@]}" "${cpuopt[@]}" -bios "$fw" -kernel "$elf" \
		${args:+-append "$args"} </dev/null >"$log" 2>&1
	rc=$?
}

# ends <name> <log> [reset]: the checks on how a run that ends in finish()
# ended: with SRST <reset> (default shutdown), and QEMU's exit code 0.
ends() {
	local name=$tag$1 log=$2 reset=${3:-shutdown} summary
	summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	if [[ -n $summary ]]; then
		pass "$name: payload ran to its end ($summary)"
	else
		fail "$name: payload did not reach its summary line (see $log)"
		tail -20 "$log" | sed 's/^/    /'
	fi
	if [[ $rc -eq 0 ]] && grep -q "system reset: $reset" "$log"; then
		pass "$name: SRST $reset ends QEMU with exit code 0"
	else
		fail "$name: QEMU exit code $rc after the run (expected 0 from SRST $reset)"
	fi
}

# The CPU models of Debian's QEMU 10.0 and 11.1 (tests/debian/fetch.sh puts
# them in $TALLY_DEBIAN/qemu-<ver>/; the run-all.sh job passes it): the
# payload's "isa" run tries from S-mode every extension the tree handed
# over lists that needs M-mode's set-up (test_isa.c): the hart set-up of
# lib/sbi/hart_ext.c on the harts of 2026 (QEMU 7.2 has none of them).
# SBI_ISA_ONLY=1: these runs only (run-all.sh's sbi-2026 job, after the
# fetch), on the first image; the other runs never need them.
# <qemu version> <machine> <cpu>
isa_models=(
	"10.0 virt rv64,sscofpmf=true" "10.0 virt rva22s64" "10.0 virt,aia=aplic-imsic rva23s64"
	"10.0 virt max,smdbltrp=true,smrnmi=true" "10.0 virt thead-c906" "10.0 virt veyron-v1"
	"11.1 virt rv64,sscofpmf=true" "11.1 virt rva22s64" "11.1 virt,aia=aplic-imsic rva23s64"
	"11.1 virt,aia=aplic-imsic max,smdbltrp=true,smrnmi=true" "11.1 virt thead-c906"
	"11.1 virt thead-c908" "11.1 virt veyron-v1" "11.1 virt xiangshan-nanhu"
	"11.1 virt xiangshan-kunminghu" "11.1 virt tt-ascalon" "11.1 virt mips-p8700"
)
isa_runs() {
	for m in "${isa_models[@]}"; do
		read -r ver machine cpu <<<"$m"
		q=${TALLY_DEBIAN:-/nonexistent}/qemu-$ver/qemu-system-riscv64
		name="isa-qemu-$ver-${cpu%%,*}${machine#virt}"
		name=${name//,/-}
		if [[ ! -x $q ]]; then
			echo "SKIP: $name: no QEMU $ver at $q (tests/debian/fetch.sh)"
			continue
		fi
		log="$logdir/$name.log"
		timeout "$limit" "$q" -M "$machine" -cpu "$cpu" -smp 2 -m 256M -nographic \
			-display none -no-reboot -monitor none -serial stdio -bios "${images[0]}" \
			-kernel "$elf" -append isa </dev/null >"$log" 2>&1
		rc=$?
		if grep -q "unable to find CPU model\|can't apply global" "$log"; then
			echo "SKIP: $name: QEMU $ver has no CPU model $cpu on -M virt ($(grep -m1 -o "unable to find CPU model.*\|can't apply global.*" "$log"))"
			continue
		fi
		sed -nE "s/^(PASS|FAIL|SKIP): /$name: \1: /p" "$log"
		if grep -q "^Hart set-up      :" "$log"; then
			pass "$name: the banner says what the hart set-up enabled ($(grep -m1 "^Hart set-up" "$log" | cut -d: -f2- | xargs))"
		else
			fail "$name: no \"Hart set-up\" line in the banner (see $log)"
		fi
		ends "${name#$tag}" "$log"
	done
	isa_lcofie_qemu10
}

# QEMU 10.0.13's mie.LCOFIE is read-only zero (docs/perf.md): no firmware
# can deliver a counter overflow there.  The same hart under Debian 13's
# own OpenSBI 1.6: its tree lists Sscofpmf, and S-mode's sie.LCOFIE does
# not stick (the payload's own FAIL line, expected here); Tally's tree
# leaves Sscofpmf out (the run above).
isa_lcofie_qemu10() {
	local q=${TALLY_DEBIAN:-/nonexistent}/qemu-10.0/qemu-system-riscv64
	local osbi=${TALLY_DEBIAN:-/nonexistent}/opensbi-1.6/fw_dynamic.bin
	local name=isa-qemu-10.0-opensbi-1.6 log
	if [[ ! -x $q || ! -f $osbi ]]; then
		echo "SKIP: $name: no QEMU 10.0 or OpenSBI 1.6 in ${TALLY_DEBIAN:-TALLY_DEBIAN unset} (tests/debian/fetch.sh)"
		return
	fi
	log="$logdir/$name.log"
	timeout "$limit" "$q" -M virt -cpu rv64,sscofpmf=true -smp 2 -m 256M -nographic \
		-display none -no-reboot -monitor none -serial stdio -bios "$osbi" \
		-kernel "$elf" -append isa </dev/null >"$log" 2>&1
	if grep -q "^FAIL: isa: sscofpmf listed: .* (sie.LCOFIE does not stick)" "$log"; then
		pass "$name: the same hart under OpenSBI 1.6: Sscofpmf listed, sie.LCOFIE does not stick (QEMU 10.0's, for every firmware)"
	else
		fail "$name: expected OpenSBI 1.6's tree to list Sscofpmf with a read-only sie.LCOFIE on QEMU 10.0 (see $log)"
	fi
	if grep -q "^INFO: isa: sscofpmf not listed" "$logdir/isa-qemu-10.0-rv64.log"; then
		pass "isa-qemu-10.0-rv64: Tally's tree leaves out Sscofpmf, whose interrupt QEMU 10.0 cannot deliver"
	else
		fail "isa-qemu-10.0-rv64: Tally's tree lists Sscofpmf, whose interrupt QEMU 10.0 cannot deliver (see $logdir/isa-qemu-10.0-rv64.log)"
	fi
}

# The AIA checks (bootargs "aia", test_aia.c) on Debian's QEMU 10.0 and
# 11.1 with -M virt,aia=aplic-imsic: their APLIC does setipnum as the spec
# says, the firmware finds that out at boot and leaves the page to S-mode
# (no "Quirks" line, no trap per interrupt end), and the payload's
# setipnum checks run on the device itself.  QEMU 7.2's quirk, found and
# emulated, is the aia-aplic-imsic run of the full suite.
aia_2026() {
	local ver q name log
	for ver in 10.0 11.1; do
		q=${TALLY_DEBIAN:-/nonexistent}/qemu-$ver/qemu-system-riscv64
		name=aia-qemu-$ver-rva23s64-aplic-imsic
		if [[ ! -x $q ]]; then
			echo "SKIP: $name: no QEMU $ver at $q (tests/debian/fetch.sh)"
			continue
		fi
		log="$logdir/$name.log"
		timeout "$limit" "$q" -M virt,aia=aplic-imsic -cpu rva23s64 -smp 2 -m 256M \
			-nographic -display none -no-reboot -monitor none -serial stdio \
			-bios "${images[0]}" -kernel "$elf" -append aia </dev/null >"$log" 2>&1
		sed -nE "s/^(PASS|FAIL|SKIP): /$name: \1: /p" "$log"
		if ! grep -q "^Quirks " "$log" && grep -q "^Interrupts (AIA) :.*MSI" "$log"; then
			pass "$name: the firmware found the APLIC's setipnum spec-correct at boot: no quirk, no trap page"
		else
			fail "$name: expected an MSI-mode APLIC and no \"Quirks\" line in the banner (see $log)"
		fi
		ends "${name#$tag}" "$log"
	done
}

if [[ -n ${SBI_ISA_ONLY:-} && $xlen == 64 ]]; then
	isa_runs
	aia_2026
	[[ $failures -eq 0 ]]
	exit
fi

# The full run: every check of the payload, which ends with SRST shutdown.
for fw in "${images[@]}"; do
	name=$tag$(basename "$fw" .bin)
	log="$logdir/$name.log"
	run "$log" "$fw"
	sed -nE "s/^(PASS|FAIL|SKIP): /$name: \1: /p; s/^(INFO: .*)/$name: \1/p" "$log"
	ends "${name#$tag}" "$log"
	# the binary encoding: characters wider than a byte print their low byte
	for what in "dbcn: console_write_byte" "legacy: console_putchar"; do
		if grep -qE "^INFO: $what uses the low 8 bits: OK"$'\r?$' "$log"; then
			pass "$name: $what prints the low 8 bits of its argument"
		else
			fail "$name: $what: no line \"INFO: $what uses the low 8 bits: OK\" in $log"
		fi
	done
done

# SBI_QUICK=1 (make check-quick): the full runs above only.
if [[ -n ${SBI_QUICK:-} ]]; then
	[[ $failures -eq 0 ]]
	exit
fi

# Reset runs: bootargs "srst=<mode>" make the payload call it first thing.
# <mode> <expected QEMU exit code> <firmware's reset message>
fw=${images[0]}
while read -r mode want msg; do
	log="$logdir/srst-$mode.log"
	run "$log" "$fw" "srst=$mode"
	sed -nE "s/^(PASS|FAIL|SKIP): /${tag}srst=$mode: \1: /p" "$log"
	if [[ $rc -eq $want ]] && grep -q "system reset: $msg" "$log"; then
		pass "${tag}srst=$mode: QEMU ends with exit code $want after \"$msg\""
	else
		fail "${tag}srst=$mode: QEMU exit code $rc, expected $want with \"$msg\" (see $log)"
		tail -5 "$log" | sed 's/^/    /'
	fi
done <<'EOF'
fail 1 shutdown (system failure)
fail-upper 1 shutdown (system failure)
cold 0 cold reboot
warm 0 warm reboot
legacy 0 shutdown
EOF

# RV32: the full run once more on virt,aclint=on, whose MTIMER takes a TOR
# pair of PMP entries: the fifth entry is in pmpcfg1, which RV64 lacks.
if [[ $xlen == 32 ]]; then
	log="$logdir/rv32-aclint.log"
	qemu[2]=virt,aclint=on
	run "$log" "$fw"
	qemu[2]=virt
	sed -nE "s/^(PASS|FAIL|SKIP): /rv32-aclint: \1: /p" "$log"
	ends aclint "$log"
fi

# AIA: the full run of fw_dynamic on virt,aia=aplic (APLIC direct mode, IPIs
# through the CLINT) and virt,aia=aplic-imsic (APLIC MSI mode, IPIs through
# the IMSIC's M-files); test_aia.c checks the tree S-mode gets, that the
# UART's interrupt reaches S-mode through its own APLIC domain and, in MSI
# mode, the firmware's emulation of QEMU 7.2's setipnum page.  QEMU 7.2
# gives the harts Smaia/Ssaia by itself when it builds an IMSIC.
for machine in virt,aia=aplic virt,aia=aplic-imsic; do
	name=${tag}aia-${machine#virt,aia=}
	log="$logdir/$name.log"
	qemu[2]=$machine
	run "$log" "$fw"
	qemu[2]=virt
	sed -nE "s/^(PASS|FAIL|SKIP): /$name: \1: /p" "$log"
	ends "${name#$tag}" "$log"
done

# The setipnum quirk with no PMP entry for its page: the max4 firmware
# (below) counts 5 PMP entries on the harts (TALLY_TEST_PMP_ENTRIES=5),
# which the firmware region, the CLINT, the M-level APLIC domain, the
# IMSIC's M-files and the last, open entry take.  The firmware must say
# so at boot and leave the page to S-mode as it is (bootargs "aia
# setipnum=qemu": the AIA checks, expecting QEMU 7.2's own behaviour).
fw_max4=${HOSTILE_FW_MAX4:-}
if rv64_only aia-imsic-nopmp; then
	:
elif [[ -n $fw_max4 && -f $fw_max4 ]]; then
	name=${tag}aia-imsic-nopmp
	log="$logdir/$name.log"
	qemu[2]=virt,aia=aplic-imsic
	run "$log" "$fw_max4" "aia setipnum=qemu"
	qemu[2]=virt
	sed -nE "s/^(PASS|FAIL|SKIP): /$name: \1: /p" "$log"
	ends "${name#$tag}" "$log"
	if grep -q "WARNING: no PMP entry left for page 0xd002000 .*: APLIC setipnum (found at boot, as in QEMU < 9.0) not absorbed there" "$log" &&
	   ! grep -q "^Quirks " "$log"; then
		pass "$name: boot message for the page without a PMP entry, no quirk in the banner"
	else
		fail "$name: no boot message for the setipnum page without a PMP entry (see $log)"
	fi
else
	echo "SKIP: ${tag}aia-imsic-nopmp: no max4 firmware image for it"
fi

# PMU runs, then the DBTR run and the FWFT and SUSP run: <name> <cpu>
# <bootargs>. "pmu-num=N" tells the payload QEMU's event map when the
# firmware strips it from the DT. Then the SSE run.
while read -r name cpu args; do
	[[ $name == sse-* ]] && rv64_only "$name" && continue
	# RV32: 3 + 12 hardware and 16 firmware counters, 31 in all
	[[ $xlen == 32 && $name == pmu-sscofpmf ]] &&
		cpu+=",pmu-num=12" args="pmu pmu-num=12"
	log="$logdir/$tag$name.log"
	run "$log" "$fw" "$args" "$cpu"
	sed -nE "s/^(PASS|FAIL|SKIP): /$tag$name: \1: /p; s/^(INFO: .*)/$tag$name: \1/p" "$log"
	ends "$name" "$log"
done <<'EOF'
pmu-sscofpmf rv64,sscofpmf=true pmu pmu-num=16
pmu-nosscofpmf rv64,pmu-num=4 pmu pmu-num=4
dbtr-sscofpmf rv64,sscofpmf=true dbtr
fwft-susp rv64,sscofpmf=true fwft-susp
sse-sscofpmf rv64,sscofpmf=true sse pmu-num=16
EOF

# A board's own SSE events (struct board's sse_events): the image built with
# make TALLY_TEST_SSE_EVENTS=1, named by $BOARD_SSE_FW (bootargs "sse board-events").
if rv64_only sse-board-events; then
	:
elif [[ -z ${BOARD_SSE_FW:-} ]]; then
	echo "SKIP: sse-board-events: no image built with TALLY_TEST_SSE_EVENTS=1 (BOARD_SSE_FW unset)"
else
	log="$logdir/sse-board-events.log"
	run "$log" "$BOARD_SSE_FW" "sse board-events" rv64,sscofpmf=true
	sed -nE "s/^(PASS|FAIL|SKIP): /sse-board-events: \1: /p" "$log"
	ends sse-board-events "$log"
	# the three entries the table has to see refused, each named at boot
	if [[ $(grep -cE "^Tally: WARNING: board virt: SSE event 0x(4001|c001|4003) not added" "$log") -eq 3 ]]; then
		pass "sse-board-events: the 3 refused entries of the board's table are named at boot"
	else
		fail "sse-board-events: no boot message for each refused board SSE event (see $log)"
	fi
fi

# The mode-filter policy, as the banner tells it (docs/pmu.md, Mode
# filtering): the default image counts what no counter can filter in every
# mode; the strict one (make PMU_STRICT_FILTERS=1, named by
# $STRICT_FILTERS_FW: tests/run-all.sh builds it) refuses it, and its PMU
# runs (bootargs "strict-filters") check the refusals.  <name> <cpu> <bootargs>
filter_banner() {
	local name=$1 log=$2 want=$3 line
	line=$(grep -a -m1 '^PMU mode filters' "$log" | tr -d '\r')
	if [[ $line == *"$want" ]]; then
		pass "$name: banner: ${line#PMU mode filters : }"
	else
		fail "$name: banner's mode-filter line does not end \"$want\": '$line'"
	fi
}
for name in pmu-sscofpmf pmu-nosscofpmf; do
	filter_banner "$tag$name" "$logdir/$tag$name.log" "every mode counted"
done
if ! rv64_only pmu-strict; then
	strict_fw=${STRICT_FILTERS_FW:-}
	while read -r name cpu args; do
		if [[ -z $strict_fw || ! -f $strict_fw ]]; then
			echo "SKIP: $name: no PMU_STRICT_FILTERS=1 image (STRICT_FILTERS_FW)"
			continue
		fi
		log="$logdir/$name.log"
		run "$log" "$strict_fw" "$args" "$cpu"
		sed -nE "s/^(PASS|FAIL|SKIP): /$name: \1: /p; s/^(INFO: .*)/$name: \1/p" "$log"
		ends "$name" "$log"
		filter_banner "$name" "$log" "refused (strict build)"
	done <<'EOF2'
pmu-sscofpmf-strict rv64,sscofpmf=true pmu pmu-num=16 strict-filters
pmu-nosscofpmf-strict rv64,pmu-num=4 pmu pmu-num=4 strict-filters
EOF2
fi

# The strict build (STRICT_FW: make LINUX_COMPAT=0, no Linux driver bug
# absorbed): the PMU run with bootargs "strict", whose Linux-compatibility
# checks then expect the spec's errors; its banner says so.
if [[ -n ${STRICT_FW:-} ]]; then
	name=${tag}pmu-strict
	log="$logdir/$name.log"
	run "$log" "$STRICT_FW" "pmu strict pmu-num=16" rv64,sscofpmf=true
	sed -nE "s/^(PASS|FAIL|SKIP): /$name: \1: /p; s/^(INFO: .*)/$name: \1/p" "$log"
	ends pmu-strict "$log"
	if grep -q "^PMU Linux compat : none, strict SBI spec" "$log"; then
		pass "$name: the banner says the strict build absorbs no Linux bug"
	else
		fail "$name: no \"PMU Linux compat : none\" line in the banner (see $log)"
	fi
fi

# Probe runs (bootargs "probe"): <name> <cpu> <harts> <extensions the
# banner must not list>. Every extension the payload finds with
# probe_extension is in the firmware's banner and no other; the payload
# checks that each offered SBI 3.0 extension works on the hart.
while read -r name cpu harts absent; do
	[[ $name == probe-smp32 || $name == probe-noh ]] && rv64_only "$name" && continue
	log="$logdir/$tag$name.log"
	timeout "$limit" "${qemu[@]}" -smp "$harts" -cpu "$(cpu_model "$cpu")" -bios "$fw" \
		-kernel "$elf" -append probe </dev/null >"$log" 2>&1
	rc=$?
	sed -nE "s/^(PASS|FAIL|SKIP): /$tag$name: \1: /p; s/^(INFO: .*)/$tag$name: \1/p" "$log"
	ends "$name" "$log"
	banner=" $(grep -a -m1 '^SBI extensions' "$log" | cut -d: -f2 | tr -d '\r') "
	bad=""
	while read -r ext val; do
		in_banner=0
		[[ $banner == *" $ext "* ]] && in_banner=1
		[[ $in_banner == "$val" ]] || bad+=" $ext(probe $val)"
	done < <(sed -nE 's/^INFO: probe: ([A-Z]+) = ([01])\r?$/\1 \2/p' "$log")
	for ext in $banner; do
		[[ $ext == legacy ]] && continue
		grep -qE "^INFO: probe: $ext = 1"$'\r?$' "$log" || bad+=" $ext(banner only)"
	done
	for ext in ${absent//,/ }; do
		[[ $ext == - || $banner != *" $ext "* ]] || bad+=" $ext(should be absent)"
	done
	if [[ -z $bad && $banner == *" SSE "* ]]; then
		pass "$tag$name: banner ($banner) = probe_extension"
	else
		fail "$tag$name: banner ($banner) and probe_extension differ:$bad"
	fi
done <<'EOF'
probe-rv64 rv64 4 -
probe-sscofpmf rv64,sscofpmf=true 4 -
probe-noh rv64,h=false 4 -
probe-nodebug rv64,debug=false 4 DBTR
probe-pmu0 rv64,pmu-num=0 4 -
probe-sscofpmf-pmu0 rv64,sscofpmf=true,pmu-num=0 4 -
probe-smp32 rv64,sscofpmf=true 32 -
EOF

# Hypervisor runs (bootargs "hyp"): traps from VS/VU-mode reach HS-mode as
# the H extension says; without H the payload finds no hstatus and the
# hfence calls must answer NOT_SUPPORTED.  hyp-spike-h: QEMU spike's harts
# have no time CSR, so the guest's time (time + htimedelta, hcounteren) is
# the firmware's emulation there, and the payload must say it trapped.
while read -r name machine cpu; do
	rv64_only "$name" && continue
	log="$logdir/$name.log"
	qemu[2]=$machine
	run "$log" "$fw" hyp "$cpu"
	qemu[2]=virt
	sed -nE "s/^(PASS|FAIL|SKIP): /$name: \1: /p; s/^(INFO: .*)/$name: \1/p" "$log"
	ends "$name" "$log"
	[[ $machine == spike ]] || continue
	if grep -qa "time CSR emulated by the firmware: yes" "$log"; then
		pass "$name: the guest's time reads were emulated by the firmware"
	else
		fail "$name: no 'time CSR emulated by the firmware: yes' in $log"
	fi
done <<'EOF'
hyp-h virt rv64,h=true
hyp-noh virt rv64,h=false
hyp-spike-h spike rv64,h=true
EOF

# The hfence encodings of every image (no QEMU run can tell them apart).
for fw in "${images[@]}"; do
	rv64_only "hfence encodings of $(basename "$fw")" && continue
	"$(dirname "$0")/check-hfence.sh" "${fw%.bin}.elf" || failures=$((failures + 1))
done
# The fences of an HSM start, in every image (no QEMU run can see them either).
for fw in "${images[@]}"; do
	"$(dirname "$0")/check-start-fences.sh" "${fw%.bin}.elf" ${tag:+rv32} ||
		failures=$((failures + 1))
done
# Hostile runs (test_hostile.c, bootargs "hostile"): stack pairs, PMP
# isolation on every hart, the SBI storm.  <name> <smp> <machine> <firmware>
# <bootargs>; "aclint=on" splits the CLINT into ACLINT MSWI and MTIMER (whose
# mtimecmp range takes a TOR pair of PMP entries); the AIA runs add the
# M-level APLIC domain and (aia=aplic-imsic) the IMSIC's M-files to the
# isolation checks, and hostile-aia-imsic has no MSWI at all (aclint=on
# with an IMSIC): its IPIs and boot go through the IMSIC alone.
# The seed is printed; rerun one with the same bootargs to reproduce it.
# -smp 32 uses every stack block (hart ids 0-31) but is slow on a shared
# host, so the bulk of the 1,000,000+ calls runs on 4 harts.  "max4" is a
# firmware built with TALLY_MAX_HARTS=4, TALLY_TEST_PMU_FAIL_HART=1 and
# TALLY_TEST_PMP_ENTRIES=5 (named by $HOSTILE_FW_MAX4; tests/run-all.sh
# builds it) on 8 QEMU harts; plain virt needs 3 PMP entries.
# HOSTILE_SEED=<n> replays a run.
seed=${HOSTILE_SEED:-$(date +%s)}
while read -r name smp machine image args; do
	rv64_only "$name" && continue
	[[ $image == max4 ]] && image=$fw_max4
	if [[ -z $image || ! -f $image ]]; then
		echo "SKIP: $name: no firmware image for it"
		continue
	fi
	log="$logdir/$name.log"
	save=$limit
	limit=600
	qemu[2]=$machine qemu[4]=$smp
	run "$log" "$image" "hostile seed=$seed $args"
	limit=$save
	sed -nE "s/^(PASS|FAIL|SKIP): /$name: \1: /p; s/^(INFO: .*)/$name: \1/p" "$log"
	ends "$name" "$log"
	if [[ $name == hostile-max4 ]]; then
		if grep -q "hart 4 ignored (TALLY_MAX_HARTS is 4)" "$log"; then
			pass "$name: boot message for the harts beyond TALLY_MAX_HARTS"
		else
			fail "$name: no boot message for the harts beyond TALLY_MAX_HARTS"
		fi
	fi
done <<EOF2
hostile-smp4 4 virt $fw storm=200000
hostile-smp32 32 virt $fw storm=300
hostile-max4 8 virt max4 storm=50000 fwmaxharts=4 pmufail=1
hostile-aclint 4 virt,aclint=on $fw storm=5000
hostile-aia-aplic 4 virt,aia=aplic $fw storm=5000
hostile-aia-imsic 4 virt,aia=aplic-imsic,aclint=on $fw storm=5000
EOF2
qemu[2]=virt qemu[4]=4

# The other boards (platform/<board>/board.c), the full run of each image:
# <machine> <smp> <reset that ends the run> <bootargs>.  sifive_u: the
# machine's own harts (the E51 hart 0, parked by the firmware, and four
# U54s); it cannot power off, so the payload's shutdown is NOT_SUPPORTED
# and it reboots instead (QEMU -no-reboot exits).  spike: HTIF console and
# power-off, no UART; neither has a time CSR (the firmware emulates it).
# With $BOARD_IMAGES=<build dir>, the board's own fw_jump (make
# PLATFORM=<board>: its board.mk's FW_JUMP_ADDR) runs too.
if ! rv64_only boards; then
while read -r machine smp reset args; do
	qemu[2]=$machine qemu[4]=$smp
	[[ $args != - ]] || args=""
	board_images=("${images[@]}")
	own=${BOARD_IMAGES:+$BOARD_IMAGES/platform/$machine/firmware/fw_jump.bin}
	[[ -z $own || ! -f $own ]] || board_images+=("$own")
	for fw in "${board_images[@]}"; do
		name=$machine-$(basename "$fw" .bin)
		[[ $fw != "$own" ]] || name=$machine-own-fw_jump
		log="$logdir/$name.log"
		run "$log" "$fw" "$args" -
		sed -nE "s/^(PASS|FAIL|SKIP): /$name: \1: /p; s/^(INFO: .*)/$name: \1/p" "$log"
		ends "$name" "$log" "${reset//-/ }"
	done
done <<'EOF'
sifive_u 5 cold-reboot parked=0
spike 4 shutdown -
EOF
fi
qemu[2]=virt qemu[4]=4

# dt_run <name> <machine> <smp> <image> <rewrite> <bootargs> <pattern>...:
# the payload's run <bootargs> ("": the full run) on QEMU's own devicetree
# of <machine>, rewritten by "tests/sbi/<rewrite> <in.dts> <out.dts>"; the
# boot output must match each <pattern> (an ERE).
dt_run() {
	local name=$1 machine=$2 smp=$3 image=$4 how=$5 args=$6 dts="$logdir/$1.dts"
	local rewrite pattern saved=("${qemu[@]}")
	read -ra rewrite <<<"$how"
	shift 6
	if [[ -z $image || ! -f $image ]]; then
		echo "SKIP: $name: no firmware image for it"
		return
	fi
	if ! qemu-system-riscv64 -M "$machine,dumpdtb=$logdir/$name-qemu.dtb" -smp "$smp" -m 256M \
		-nographic >/dev/null 2>&1 ||
	   ! dtc -q -I dtb -O dts "$logdir/$name-qemu.dtb" -o "$dts.orig" ||
	   ! "$(dirname "$0")/${rewrite[0]}" "${rewrite[@]:1}" "$dts.orig" "$dts" ||
	   ! dtc -q -I dts -O dtb "$dts" -o "$logdir/$name.dtb"; then
		fail "$name: devicetree rewritten ($how)"
		return
	fi
	qemu[2]=$machine qemu[4]=$smp
	qemu+=(-dtb "$logdir/$name.dtb")
	run "$logdir/$name.log" "$image" "$args"
	qemu=("${saved[@]}")
	sed -nE "s/^(PASS|FAIL|SKIP): /$name: \1: /p" "$logdir/$name.log"
	ends "$name" "$logdir/$name.log"
	for pattern in "$@"; do
		if grep -qE "$pattern" "$logdir/$name.log"; then
			pass "$name: boot says: $(grep -m1 -oE "$pattern" "$logdir/$name.log")"
		else
			fail "$name: boot output does not match /$pattern/ (see $logdir/$name.log)"
		fi
	done
}

# Hart-index runs: the firmware keeps each hart's state at its hart index
# (devicetree order), not at its hart id.  QEMU's hart ids are 0..n-1, so
# the devicetree is rewritten (tests/sbi/dt-harts.py): "harts-reversed"
# lists the 4 cpus in reverse order (index i is hart id 3-i: no hart's
# index is its id); "harts-high" gives the max4 firmware 8 harts with cpus
# 0-3 disabled, so the 4 harts it serves have ids 4-7, all at or above
# TALLY_MAX_HARTS (QEMU names hart 0 to boot: the firmware says so and
# lets another boot).
if ! rv64_only harts-index; then
dt_run harts-reversed virt 4 "${images[0]}" "dt-harts.py reverse" "" \
	"Harts +: 4 \(boot hart 0, index 3,"
dt_run harts-high virt 8 "$fw_max4" "dt-harts.py disable-below 4" "" \
	"Harts +: 4 \(boot hart [4-7], index [0-3], max 4\)"
fi

# Vendor PMU boards (docs/pmu.md, Vendor overflow back ends): a tree whose
# cpus are T-Head C906 or Andes AX45MP selects the board with that vendor's
# overflow back end; QEMU's harts (no Sscofpmf) lack its CSRs, so the
# guarded probe finds none, the boot says so, and the PMU counts without
# overflow interrupts: the PMU run passes whole.
if ! rv64_only vendor-pmu; then
dt_run vendor-thead-no-csrs virt 4 "${images[0]}" "dt-vendor.sh thead" "pmu pmu-num=16" \
	"\(board thead-c9xx\)" "the board's T-Head overflow CSRs are missing: counting only"
dt_run vendor-andes-no-csrs virt 4 "${images[0]}" "dt-vendor.sh andes" "pmu pmu-num=16" \
	"\(board andes-ax45\)" "the board's Andes overflow CSRs are missing: counting only" \
	"xandespmu taken out of the devicetree \(4 cpu nodes\)"
fi

# Device-table runs (the IPI and timer tables of platform/generic/fdt_driver.c)
# on trees QEMU never builds (tests/sbi/dt-devices.py): an M-level IMSIC
# without the last hart's file leaves the IPIs to the CLINT, and the boot
# says so; a CLINT next to an ACLINT MSWI and MTIMER (over the same
# registers) serves neither class, the first found of each table winning;
# next to an ACLINT MSWI alone it is the timer.  The payload's "devices"
# run: time, IPIs, remote fences and HSM with every hart up (the full run
# on them took 15 s each).
if ! rv64_only devices; then
dt_run devices-imsic-partial virt,aia=aplic-imsic 4 "${images[0]}" "dt-devices.py imsic-partial" devices \
	"WARNING: IMSIC M-files do not cover every hart: IPIs through clint" \
	"ipi clint, timer clint" "IMSIC M-files 0x24000000, Smaia"
dt_run devices-clint-and-aclint virt,aclint=on 4 "${images[0]}" "dt-devices.py clint-and-aclint" devices \
	"ipi aclint-mswi, timer aclint-mtimer"
dt_run devices-mswi-and-clint virt,aclint=on 4 "${images[0]}" "dt-devices.py mswi-and-clint" devices \
	"ipi aclint-mswi, timer clint"
fi

[[ $failures -eq 0 ]]
