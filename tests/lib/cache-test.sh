#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# tests/lib/cache.sh's own test: build_kept builds when it must (no stamp, a
# new key, a missing product, after a failure) and keeps otherwise.  Part of
# the unit suite (tests/run-all.sh host_checks).
#
# Usage: tests/lib/cache-test.sh <scratch dir>   (works in <dir>/cache-test)
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(realpath -m "${1:?usage: $0 <scratch dir>}")/cache-test
rm -rf "$dir"
mkdir -p "$dir"
# shellcheck source=cache.sh
source "$root/tests/lib/cache.sh"
stamps=$dir
failures=0
pass() { echo "PASS: cache: $*"; }
fail() { echo "FAIL: cache: $*"; failures=$((failures + 1)); }

builds=0
make_it() { builds=$((builds + 1)); echo built >"$dir/product"; }
# expect <what> <builds wanted> <kept wanted: 0|1> <key>: one build_kept call
expect() {
	local before=$builds was_kept=0
	build_kept step "$4" "$dir/product" -- make_it || { fail "$1: build_kept failed"; return; }
	[[ -n $kept ]] && was_kept=1
	if ((builds - before == $2 && was_kept == $3)) && [[ -f $dir/product ]]; then
		pass "$1"
	else
		fail "$1: $((builds - before)) builds, kept '$kept'"
	fi
}

expect "no stamp: built" 1 0 k1
expect "same key, product there: kept, not built" 0 1 k1
expect "a new key: built" 1 0 k2
rm -f "$dir/product"
expect "same key, product missing: built" 1 0 k2
if build_kept step k3 "$dir/product" -- false; then
	fail "a failing build returns success"
elif [[ -e $dir/.stamp-step ]]; then
	fail "a failing build leaves a stamp"
else
	pass "a failing build fails and leaves no stamp"
fi
expect "after a failure: built" 1 0 k2

[[ $failures -eq 0 ]]
