#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The README's first command as a test: `make run`'s demonstration
# (tests/linux/demo.sh) on Debian's stack, as a user gets it, once with
# Debian 13's own kernel and perf (the default) and once with
# DEBIAN_LINUX=newest, each on trixie-backports' QEMU 11.1 -cpu rva23s64,
# 4 harts. One line per check, named "debian/demo/<trixie|newest>: ...":
#   QEMU exits 0 (Linux powered off); the demo ran to its end;
#   perf record -e cycles -c 1000000 of `work loop 250000000` got at least
#   CYCLES_FLOOR samples; perf record -e dTLB-load-misses -c 100 of
#   `work load-pages 10000` at least DTLB_FLOOR.
# The sample counts come from perf report's "# Event count (approx.)" over
# the period (perf 6.x and 7.x print it alike; "# Samples: 2K" rounds).
# Floors, not "at least one": the cycles samples follow the time the loop
# of 5 * 10^8 instructions takes (QEMU's overflow timer runs on the host's
# time; measured 168 with 6.12 and 360 with 7.2.13), and a firmware that
# loses an overflow stops the recording there; each of the 10,000 pages is
# a user-mode miss, so 100 samples at least.
#
# Usage: tests/debian/run-demo.sh <build-dir>
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$(realpath -m "${1:?usage: run-demo.sh <build-dir>}")
CYCLES_FLOOR=50
DTLB_FLOOR=100
failures=0

pass() { printf 'PASS: %s%s\n' "$1" "${2:+ ($2)}"; }
fail() { printf 'FAIL: %s (%s)\n' "$1" "$2"; failures=$((failures + 1)); }

# samples <log> <event> <period>: the samples of the report of <event>
samples() {
	awk -v ev="$2" -v period="$3" '
		index($0, "# Samples:") == 1 && index($0, "of event '\''" ev "'\''") { want = 1; next }
		want && index($0, "# Event count (approx.):") == 1 {
			print int($NF / period); found = 1; exit
		}
		END { if (!found) print -1 }' "$1"
}

# floor <name> <what> <n> <floor>
floor() {
	if (($3 >= $4)); then
		pass "$1: $2" "$3 samples, floor $4"
	else
		fail "$1: $2" "$3 samples, floor $4"
	fi
}

for linux in trixie newest; do
	name=debian/demo/$linux
	log=$out/debian/logs/demo_$linux.log
	mkdir -p "$(dirname "$log")"
	status=0
	DEBIAN_LINUX=$linux TIMEOUT=300 "$repo/tests/linux/demo.sh" "$out" > "$log" 2>&1 ||
		status=$?
	if ((status == 0)); then
		pass "$name: QEMU exits 0 (Linux powered off)"
	else
		fail "$name: QEMU exits 0 (Linux powered off)" "status $status; log $log"
	fi
	if grep -aq '^=== end of demo ===' "$log"; then
		pass "$name: the demo runs to its end"
	else
		fail "$name: the demo runs to its end" "no '=== end of demo ==='; log $log"
	fi
	floor "$name" "perf record -e cycles -c 1000000 (work loop 250000000)" \
		"$(samples "$log" cycles 1000000)" "$CYCLES_FLOOR"
	floor "$name" "perf record -e dTLB-load-misses -c 100 (work load-pages 10000)" \
		"$(samples "$log" dTLB-load-misses 100)" "$DTLB_FLOOR"
	grep -aE '^\[demo\] Debian' "$log" | sed 's/^/  /'
done
((failures == 0))
