#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The guest side of the soak (tests/debian/soak.sh puts it in an extra
# initramfs as /soak/run.sh; tests/linux/init.c's check "soak",
# tally.perf=soak tally.soak=SECONDS, runs it). Busybox sh.
#
# 1. The soak: Debian's stress-ng with every stressor at once for SECONDS
#    (CPU offline/online, timers, TLB shootdowns, signals and futexes
#    between CPUs; --perf: perf events on every stressor), inside
#    `perf stat -a -A` of the firmware events (IPIs, remote fences, SBI
#    calls, M-mode traps). Linux stops a CPU's system-wide events for
#    good when that CPU goes offline, so these totals cannot balance:
#    they are reported with each CPU's counting time.
# 2. The balance window: the same stressors but CPU hotplug, for a tenth
#    of SECONDS (at least 10 s), inside a fresh `perf stat -a -A` of the
#    same events, on harts that the soak stopped and started again: every
#    remote fence sent must be received, and every IPI sent received
#    (the same IPI sent twice before its target took it counts once).
#    perf stat starts and stops counting while no stressor runs.
# 3. Every CPU online.
#
# Prints (parsed by soak.sh):
#   SOAK-STRESS: <phase> status <s> <stressor>=<bogo ops> ...
#   SOAK-FW: <phase> <name>=<sum over CPUs> ... min-run=<percent>
#   SOAK-ONLINE: <cpu list>
# Exits non-zero if stress-ng failed or a CPU is left offline.
PATH=/bin:/usr/bin
export PATH
secs=${1:-60}
bal=$((secs / 10))
[ "$bal" -ge 10 ] || bal=10
cd /tmp || exit 1
status=0

# name:code of the firmware events (SBI PMU firmware events, docs/perf.md)
events="set_timer:05 ipi_sent:06 ipi_received:07 fence_i_sent:08
fence_i_received:09 sfence_vma_sent:0a sfence_vma_received:0b
sfence_vma_asid_sent:0c sfence_vma_asid_received:0d sbi_calls:100
mmode_traps:101"
list="" map=""
for e in $events; do
	raw=r8$(printf '%015x' "0x${e#*:}")
	list="$list${list:+,}$raw"
	map="$map $raw=${e%%:*}"
done

# the stressors; cpu-online is added for the soak
stressors="--timer 1 --timer-freq 10000 --tlb-shootdown 1 --mmap 1 --mmap-bytes 1M
--munmap 1 --sigq 1 --futex 1"

# fw_sums <phase> <perf stat -x, -A csv>: one SOAK-FW line, each event
# summed over the CPUs, and each CPU's counting time in percent of the
# longest ("CPU0,380,,r8000000000000006 [cpu],5956340800,100.00,,")
fw_sums() {
	awk -F, -v phase="$1" -v map="$map" '
	BEGIN { n = split(map, m, " ")
		for (i = 1; i <= n; i++) { split(m[i], p, "="); name[p[1]] = p[2]; order[i] = p[2] } }
	/^CPU/ { ev = $4; sub(/ .*/, "", ev); ev = ev in name ? name[ev] : ev
		if ($2 !~ /^[0-9]+$/) na[ev] = 1	# <not counted>, <not supported>
		sum[ev] += $2; if ($5 > run[$1]) run[$1] = $5 }
	END { line = "SOAK-FW: " phase
		for (i = 1; i <= n; i++) line = line " " order[i] "=" (order[i] in na || !(order[i] in sum) ? "na" : sum[order[i]])
		max = 0; for (c in run) if (run[c] > max) max = run[c]
		for (c = 0; ("CPU" c) in run; c++)
			line = line " cpu" c "-counted=" int(100 * run["CPU" c] / max + 0.5) "%"
		print line }' "$2"
}

# stress_line <phase> <stress-ng output> <status>: one SOAK-STRESS line
stress_line() {
	awk -v phase="$1" -v st="$3" '
	/metrc:/ && $5 ~ /^[0-9]+$/ && $4 != "stressor" { ops = ops " " $4 "=" $5 }
	END { print "SOAK-STRESS: " phase " status " st ops }' "$2"
}

echo "SOAK: $secs s of stress-ng (cpu-online, timer, tlb-shootdown, mmap, munmap, sigq, futex; --perf) under perf stat -a -A -e $list"
# shellcheck disable=SC2086
perf stat -a -A -x, -o /tmp/soak-fw.csv -e "$list" -- \
	stress-ng --cpu-online 1 --pathological $stressors --perf --metrics-brief \
	--timeout "${secs}s" > /tmp/soak-stress.txt 2>&1
s=$?
cat /tmp/soak-stress.txt
stress_line soak /tmp/soak-stress.txt $s
[ $s -eq 0 ] || status=1
fw_sums soak /tmp/soak-fw.csv
cat /tmp/soak-fw.csv

echo "SOAK: the balance window: $bal s of the same stressors but cpu-online, under perf stat -a -A"
# shellcheck disable=SC2086
perf stat -a -A -x, -o /tmp/bal-fw.csv -e "$list" -- \
	stress-ng $stressors --perf --metrics-brief --timeout "${bal}s" > /tmp/bal-stress.txt 2>&1
s=$?
grep -E 'metrc:|passed|failed|skipped|successful|unsuccessful' /tmp/bal-stress.txt
stress_line balance /tmp/bal-stress.txt $s
[ $s -eq 0 ] || status=1
fw_sums balance /tmp/bal-fw.csv
cat /tmp/bal-fw.csv

online=$(cat /sys/devices/system/cpu/online)
echo "SOAK-ONLINE: $online"
[ "$online" = "$(cat /sys/devices/system/cpu/present)" ] || status=1
exit $status
