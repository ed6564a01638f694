#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The test runner's own test: tests/run-all.sh with TALLY_RUNNER_TEST=1
# runs stub jobs (its "runner-test" table) through its real scheduler.
# Checks: a failed job fails the jobs that need it, down the chain, without
# running them, and the run; a job beside it still runs; the close counts
# it all.  Part of the unit suite (tests/run-all.sh host_checks).
#
# Usage: tests/runner-test.sh <scratch dir>   (works in <dir>/runner-test)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(realpath -m "${1:?usage: $0 <scratch dir>}")/runner-test
rm -rf "$dir"
mkdir -p "$dir"
failures=0
pass() { echo "PASS: runner: $*"; }
fail() { echo "FAIL: runner: $*"; failures=$((failures + 1)); }

# expect <log> <what> <ERE>: a line of the run's output matches
expect() {
	if grep -qE "$3" "$1"; then
		pass "$2"
	else
		fail "$2 (no line /$3/ in $1)"
	fi
}

# A run with a failing job, to its end
log=$dir/run.log
TALLY_RUNNER_TEST=1 TALLY_JOBS=2 "$root/tests/run-all.sh" "$dir" runner-test >"$log" 2>&1
status=$?
if [[ $status -ne 0 ]]; then
	pass "a run with a failed job exits with status $status"
else
	fail "a run with a failed job exits with status 0"
fi
expect "$log" "the job that needs the failed one is not run, and fails naming it" \
	"^FAIL: job stub-after-broken not run: the job it needs, stub-broken, failed$"
expect "$log" "nor the job that needs that one" \
	"^FAIL: job stub-after-that not run: the job it needs, stub-after-broken, failed$"
if grep -qE "^PASS: stub: after-(broken|that)$" "$log"; then
	fail "a job whose prerequisite failed ran anyway (see $log)"
else
	pass "neither of them ran"
fi
expect "$log" "a job beside the failure runs" "^PASS: stub: after-build$"
expect "$log" "a verdict behind a prefix with =, / and : counts" \
	"^qemu=11.1/rva23s64:aia: PASS: stub: prefixed$"
expect "$log" "the close counts every job and that verdict, not the INFO line: 3 passed, 3 failed" \
	"^3 passed, 3 failed, 0 skipped$"

[[ $failures -eq 0 ]]
