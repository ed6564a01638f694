# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
#
# Sourced by the scripts that boot tests/linux/init.c and judge its lines
# (tests/linux/boot-test.sh, boot-board.sh, tests/debian/boot.sh, soak.sh).

# init_checks <log> <fn>: for each "TALLY-LINUX-CHECK: <check>: ok[: note]",
# ": skip: why" or ": FAIL: why" line of the console log, in order, calls
# <fn> PASS|SKIP|FAIL <check> <note, why or ""> (carriage returns dropped).
init_checks() {
	local line check result
	while IFS= read -r line; do
		line=${line%$'\r'}
		check=${line#TALLY-LINUX-CHECK: }
		result=${check#*: }
		check=${check%%: *}
		case $result in
		ok) "$2" PASS "$check" "" ;;
		"ok: "*) "$2" PASS "$check" "${result#ok: }" ;;
		"skip: "*) "$2" SKIP "$check" "${result#skip: }" ;;
		*) "$2" FAIL "$check" "${result#FAIL: }" ;;
		esac
	done < <(grep -aoE 'TALLY-LINUX-CHECK: [^:]+: .*' "$1" || true)
}

# filter_banner_checks <log> <name> [check...]: Tally's banner says where mode filters
# are not applied (docs/pmu.md, Mode filtering: cycles/instret on QEMU 7.2,
# everything on a hart without Sscofpmf or Smcntrpmf); what init.c's
# perf-mode-cycles-instructions and perf-mode-tlb measured ("filter applied"
# / "filter not applied" in their notes) must agree; the checks named, by
# default both. Only where they passed. The cycles/instructions note is
# exact only where QEMU counts them exactly (QEMU 7.2 ignores their filter;
# QEMU 10 and 11 without -icount charge host time to whichever mode the
# vCPU was in, so :k of a user loop reads 7 to 137 M on a filtering hart).
# Calls the sourcing script's pass and fail.
filter_banner_checks() {
	local log=$1 name=$2 banner check result want checks
	checks=("${@:3}")
	((${#checks[@]})) || checks=(perf-mode-cycles-instructions perf-mode-tlb)
	banner=$(grep -a -m1 '^PMU mode filters' "$log" | tr -d '\r') || true
	for check in "${checks[@]}"; do
		result=$(grep -aoE "TALLY-LINUX-CHECK: $check: ok: .*" "$log" |
			tail -n 1 | tr -d '\r') || true
		[[ -n $result ]] || continue
		want="filter applied"
		if [[ $banner == *": none ("* ||
			($check == perf-mode-cycles-instructions && $banner == *"not for cycles/instret"*) ]]; then
			want="filter not applied"
		fi
		if [[ $result == *"$want"* ]]; then
			pass "$name: banner's mode-filter line agrees with $check ($want)"
		else
			fail "$name: banner's mode-filter line agrees with $check" \
				"banner '${banner#PMU mode filters : }', perf: ${result##*: ok: }"
		fi
	done
}
