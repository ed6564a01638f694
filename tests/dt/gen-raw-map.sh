#!/usr/bin/env bash
# Writes to stdout a devicetree source whose riscv,pmu node has a
# riscv,raw-event-to-mhpmcounters map of ROWS rows, spread over MASKS
# distinct variant masks and listed in a scrambled (but fixed) order, so
# that loading it exercises the map's sorting and merging.
#
# Usage: tests/dt/gen-raw-map.sh ROWS [MASKS]     (MASKS 1..14, default 4)
#
# Row k (0 <= k < ROWS) belongs to mask group g = k % MASKS:
#   mask      = 0x00ffffffffffffff with the low 4*g bits cleared
#   invariant = ((k * 2654435761) mod 2^32) << 16   (unique per k, inside
#               every mask, below bit 56)
#   counters  = 1 << (3 + k % 8)                    (counters 3..10)
# Cells are written in decimal (%.0f: mawk's %d stops at 2^31 - 1).
set -euo pipefail
rows=${1:?usage: gen-raw-map.sh ROWS [MASKS]}
masks=${2:-4}

awk -v rows="$rows" -v masks="$masks" '
function gcd(a, b) { while (b) { t = b; b = a % b; a = t } return a }
BEGIN {
	# a step coprime with rows visits every row once, out of order
	step = 7919
	while (gcd(step, rows) != 1)
		step += 2
	print "/dts-v1/;"
	print ""
	print "/ {"
	print "\t#address-cells = <2>;"
	print "\t#size-cells = <2>;"
	print "\tcompatible = \"tally,test\";"
	printf "\tmodel = \"raw map, %d rows, %d masks\";\n", rows, masks
	print ""
	print "\tpmu {"
	print "\t\tcompatible = \"riscv,pmu\";"
	print "\t\triscv,event-to-mhpmcounters = <0x1 0x1 0x1>, <0x2 0x2 0x4>;"
	printf "\t\triscv,raw-event-to-mhpmcounters ="
	for (p = 0; p < rows; p++) {
		k = (p * step) % rows
		g = k % masks
		h = (k * 2654435761) % 4294967296
		inv_hi = int(h / 65536)
		inv_lo = (h % 65536) * 65536
		mask_hi = 16777215			# 0x00ffffff
		mask_lo = 4294967296 - 2 ^ (4 * g)	# low 4*g bits clear
		ctr = 2 ^ (3 + k % 8)
		printf "%s\n\t\t\t<%.0f %.0f %.0f %.0f %.0f>", (p ? "," : ""), inv_hi, inv_lo, mask_hi, mask_lo, ctr
	}
	print ";"
	print "\t};"
	print "};"
}'
