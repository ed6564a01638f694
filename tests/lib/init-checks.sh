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
