#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The soak (issue 33): Debian's stress-ng on Debian's kernel on a firmware,
# 4 harts under Debian's QEMU 11.1 (-cpu rva23s64: Sscofpmf, so Linux 6.12+
# uses the PMU snapshot on Tally), every stressor at once for <seconds>:
# CPU offline/online (stress-ng --cpu-online 1 --pathological), perf events
# on every stressor (--perf), timers (--timer), TLB shootdowns and remote
# fences (--tlb-shootdown, --mmap, --munmap), IPIs (--sigq, --futex), all
# inside `perf stat -a -A` of the SBI PMU firmware events; then a balance
# window of the same stressors without hotplug (a tenth of <seconds>, at
# least 10 s) under a fresh perf stat; then init.c's perf-after-hotplug
# (CPUs offline and online twice, perf stat -a -A: every CPU counts cycles
# and dTLB-load-misses within its bounds; sampling on the last CPU) and
# perf-driver-quiet. The guest side is tests/debian/soak-guest.sh; it and
# stress-ng with its library closure (Debian's is dynamically linked; the
# perf initramfs has the loader and libc) and this tree's init.c travel in
# an extra cpio appended to tests/debian/initramfs.sh's perf initramfs.
#
# Pass means: the init checks pass (snapshot in use, soak, perf after
# hotplug, a quiet PMU driver); stress-ng passed every stressor; no oops,
# BUG, hung task, RCU stall or lockup on the console, no WARNING from the
# PMU driver or arch/riscv (the scheduler's own are INFO lines); no "failed"
# line from the riscv PMU driver; every CPU online at the end; and in the
# balance window every remote fence sent was received (sent == received for
# each kind) and every IPI sent was received (received <= sent: two IPIs
# raised on a hart before it takes them are received once, which happens
# when its vCPU waits for a host core: 2.8 to 3.2% fewer on the 2-core
# host; at most 10% + 16 fewer).
#
# Usage: tests/debian/soak.sh <build-dir> <seconds> [FW [FW-NAME]]
#   build-dir  its debian/ (tests/debian/fetch.sh, initramfs.sh) and, by
#              default, its Tally image platform/generic/firmware/fw_dynamic.bin
#   FW         another firmware; one that is not a Tally image
#              (.../platform/<p>/firmware/*.bin) is a comparison: its lines
#              are INFO, never counted (OpenSBI 1.9:
#              /work/shared/anchors/opensbi-1.9/fw_dynamic.bin)
#   FW-NAME    its name in the lines (default tally, or FW's directory name)
# Environment: SOAK_QEMU (backports, stable, or a root of build-dir/debian;
# default backports: 11.1), SOAK_LINUX (stable, backports; default stable:
# trixie's 6.12), SOAK_CPU (default rva23s64), SOAK_LOG (the console log,
# default build-dir/debian/logs/soak-<fw>-<seconds>s.log); SOAK_JUDGE_LOG=<log>:
# no run, the verdicts on that console log of an earlier one.
# Prints PASS/FAIL (or INFO) lines named debian/soak/<qemu>/<fw>, then a
# summary: the hotplug operations, firmware events, wall time.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
usage="usage: soak.sh <build-dir> <seconds> [FW [FW-NAME]]"
out=$(realpath -m "${1:?$usage}")
secs=${2:?$usage}
fw=$(realpath -m "${3:-$out/platform/generic/firmware/fw_dynamic.bin}")
dir=$out/debian
# shellcheck source=elf.sh
source "$here/elf.sh"	# multiarch, find_lib, elf_closure
# shellcheck source=../lib/init-checks.sh
source "$repo/tests/lib/init-checks.sh"	# init_checks
[[ $secs =~ ^[1-9][0-9]*$ ]] || { echo "$usage" >&2; exit 2; }

judged=1 fw_name=tally
if [[ $fw != */platform/*/firmware/*.bin ]]; then
	judged=0 fw_name=$(basename "$(dirname "$fw")")
fi
fw_name=${4:-$fw_name}
qroot=$(realpath -m "$dir/qemu-${SOAK_QEMU:-backports}")
lroot=$(realpath -m "$dir/linux-${SOAK_LINUX:-stable}")
cpu=${SOAK_CPU:-rva23s64}
qname=${qroot##*/}
name="debian/soak/$qname/$fw_name"
logf=${SOAK_LOG:-$dir/logs/soak-$fw_name-${secs}s.log}
failures=0

# verdict <ok 0|1> <check> [detail]: PASS/FAIL, or INFO for a comparison
verdict() {
	local how
	if ((judged)); then
		if (($1)); then how=PASS; else how=FAIL failures=$((failures + 1)); fi
		printf '%s: %s: %s%s\n' "$how" "$name" "$2" "${3:+ ($3)}"
	else
		how=ok
		(($1)) || how=FAILED
		printf 'INFO: %s: %s: %s%s\n' "$name" "$2" "$how" "${3:+ ($3)}"
	fi
}

for f in "$qroot/qemu-system-riscv64" "$lroot/Image" "$dir/initramfs/perf-stable.cpio.gz" \
	"$dir/stress-ng/usr/bin/stress-ng" "$dir/busybox/usr/bin/busybox" "$fw"; do
	if [[ ! -e $f ]]; then
		verdict 0 "boots to init" "no $f (tests/debian/fetch.sh, initramfs.sh; the firmware)"
		exit $((judged ? 1 : 0))
	fi
done

# The extra cpio: /init (this tree's init.c), /soak/run.sh, stress-ng and
# the libraries it needs (readelf's NEEDED, transitively, from its root)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/root
mkdir -p "$stage"/{soak,bin,usr/bin,usr/lib/$multiarch}
sroot=$dir/stress-ng
build_cpio() {
	local path
	riscv64-linux-gnu-gcc -static -O2 -s -Wall -Wextra -o "$stage/init" \
		"$repo/tests/linux/init.c" -lm || return 1
	cp "$here/soak-guest.sh" "$stage/soak/run.sh"
	cp "$sroot/usr/bin/stress-ng" "$stage/usr/bin/stress-ng"
	elf_closure "$sroot" "$sroot/usr/bin/stress-ng" > "$work/closure" || return 1
	# under usr/lib: the perf initramfs has lib -> usr/lib
	while read -r path; do
		cp -L "$sroot/$path" "$stage/usr/lib/$multiarch/${path##*/}"
	done < "$work/closure"
	local f
	for f in awk sed sleep head tail wc tr cut; do
		ln -s busybox "$stage/bin/$f"
	done
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) | gzip -n -1 > "$work/soak.cpio.gz" &&
		cat "$dir/initramfs/perf-stable.cpio.gz" "$work/soak.cpio.gz" > "$work/initrd.gz"
}
if [[ -n ${SOAK_JUDGE_LOG-} ]]; then
	:
elif ! build_cpio > "$work/build.log" 2>&1; then
	verdict 0 "boots to init" "the soak initramfs: $(tail -n 3 "$work/build.log" | tr '\n' ' ')"
	exit $((judged ? 1 : 0))
fi

# The run. -display none, the console on stdio (Debian's QEMU has no
# display modules); panic=-1 with -no-reboot ends it at a panic. Hung tasks
# after 30 s (Debian's default 120 s would never fire in a 1-minute soak);
# a 4 MB log keeps every hotplug operation's lines for perf-driver-quiet.
# A run that met an RCU stall, a lockup, a hung task or an oops has failed:
# it is stopped 60 s later (a wedged kernel would hold the QEMU until the
# timeout), with what the kernel said meanwhile.
timeout_s=$((secs * 2 + 400))
bad='Oops|Unable to handle kernel|BUG:|Kernel panic|blocked for more than|rcu: INFO|rcu_.*detected stall|self-detected stall|soft lockup|hard LOCKUP'
fatal='Oops|Unable to handle kernel|blocked for more than|rcu: INFO|self-detected stall|soft lockup|hard LOCKUP'
start=$SECONDS
status=0 stop_at=""
if [[ -n ${SOAK_JUDGE_LOG-} ]]; then
	logf=$SOAK_JUDGE_LOG
	grep -aq 'reboot: Power down' "$logf" || status=1
else
	mkdir -p "$(dirname "$logf")"
	: > "$logf"
	timeout -k 5 "$timeout_s" "$qroot/qemu-system-riscv64" -M virt -cpu "$cpu" -smp 4 -m 1G \
		-display none -serial stdio -monitor none -no-reboot -bios "$fw" \
		-kernel "$lroot/Image" -initrd "$work/initrd.gz" \
		-append "console=ttyS0 earlycon panic=-1 tally.perf=soak tally.soak=$secs tally.pmu_num=16 log_buf_len=4M transparent_hugepage=never sysctl.kernel.hung_task_timeout_secs=30" \
		< /dev/null > "$logf" 2>&1 &
	qpid=$!
	while kill -0 "$qpid" 2> /dev/null; do
		if [[ -z $stop_at ]] && grep -aqE "$fatal" "$logf"; then
			stop_at=$((SECONDS + 60))
			echo "  $name: the kernel says \"$(grep -am1 -E "$fatal" "$logf" | tr -d '\r')\" after $((SECONDS - start)) s: stopping the run in 60 s"
		fi
		if [[ -n $stop_at ]] && ((SECONDS >= stop_at)); then
			kill "$qpid" 2> /dev/null
			break
		fi
		sleep 5
	done
	wait "$qpid" || status=$?
	tr -d '\r' < "$logf" > "$logf.txt" && mv "$logf.txt" "$logf"
fi
took=$((SECONDS - start))

# --- the verdicts ---
marker=$(grep -aoE 'TALLY-LINUX-INIT: (ok|FAIL).*' "$logf" | tail -n 1) || true
if grep -aq 'TALLY-LINUX-INIT: started' "$logf"; then
	verdict 1 "boots to init"
else
	verdict 0 "boots to init" "$(grep -am1 -E 'Kernel panic|Oops|Unable to handle|BUG:' "$logf" || echo "no TALLY-LINUX-INIT marker"); log $logf"
fi
init_verdict() {	# for init_checks: one init check
	case $1 in
	PASS) verdict 1 "init check $2" "$3" ;;
	SKIP)
		if ((judged)); then echo "SKIP: $name: init check $2 ($3)"; else
			echo "INFO: $name: init check $2: skipped ($3)"; fi ;;
	FAIL) verdict 0 "init check $2" "$3; log $logf" ;;
	esac
}
init_checks "$logf" init_verdict

# stress-ng: every stressor passed, and how much each did
soak=$(grep -aoE 'SOAK-STRESS: soak .*' "$logf" | tail -n 1) || true
ops=${soak#SOAK-STRESS: soak status * }
hotplug=$(grep -oE 'cpu-online=[0-9]+' <<< "$soak" | cut -d= -f2) || true
if [[ $soak == "SOAK-STRESS: soak status 0 "* && $soak == *" cpu-online="* ]]; then
	verdict 1 "stress-ng: every stressor at once for $secs s passed" "bogo ops: $ops"
else
	why=$(grep -am1 -E 'stress-ng: (fail|error)|stress-ng: info: .*failed: [1-9]' "$logf") || true
	verdict 0 "stress-ng: every stressor at once for $secs s passed" "${soak:-no SOAK-STRESS line}${why:+; $why}"
fi

# the console: the kernel's warnings and errors reach it (init.c sets the
# console level to 5), the informational hotplug lines do not
hits=$(grep -acE "$bad" "$logf") || true
if ((hits == 0)) && [[ -n $marker ]]; then
	verdict 1 "no oops, hung task or RCU stall in $secs s"
else
	verdict 0 "no oops, hung task or RCU stall in $secs s" "$hits lines, first: $(grep -am1 -E "$bad" "$logf" || echo "the run did not finish: ${marker:-no end marker}"); log $logf"
fi
# Kernel warnings: one from the PMU driver, the SBI code or arch/riscv
# fails; the scheduler's under stress-ng's hotplug are Linux's own (6.12:
# "Dying CPU not properly vacated!", kernel/sched/core.c; "dl_rq->running_bw
# > old", kernel/sched/deadline.c; OpenSBI 1.9 meets them too): INFO lines
warn='WARNING: CPU: [0-9]+ PID: [0-9]+ at [^ ]+'
ours=$(grep -aoE "$warn" "$logf" | grep -E ' at (drivers/perf|drivers/firmware|arch/riscv)/') || true
if [[ -z $ours ]]; then
	verdict 1 "no kernel WARNING from the PMU driver or arch/riscv"
else
	verdict 0 "no kernel WARNING from the PMU driver or arch/riscv" "$(wc -l <<< "$ours") warnings, first: $(head -n 1 <<< "$ours"); log $logf"
fi
others=$(grep -aoE "$warn" "$logf" | grep -vE ' at (drivers/perf|drivers/firmware|arch/riscv)/' | sed -E 's/.* at //' | sort | uniq -c | awk '{ s = s (NR > 1 ? ", " : "") $2 " x" $1 } END { printf "%s", s }') || true
[[ -z $others ]] || echo "INFO: $name: Linux's own warnings elsewhere, not counted: $others"
pmu=$(grep -acE 'riscv-pmu-sbi: .*failed' "$logf") || true
if ((pmu == 0)); then
	verdict 1 "no \"failed\" line from the riscv PMU driver on the console"
else
	verdict 0 "no \"failed\" line from the riscv PMU driver on the console" "$pmu lines, first: $(grep -am1 -E 'riscv-pmu-sbi: .*failed' "$logf")"
fi

online=$(grep -aoE 'SOAK-ONLINE: .*' "$logf" | tail -n 1) || true
if [[ $online == "SOAK-ONLINE: 0-3" && $marker == *", 4 cpus online"* ]]; then
	verdict 1 "every CPU online at the end" "after the soak: 0-3; at the end: 4"
else
	verdict 0 "every CPU online at the end" "after the soak: ${online#SOAK-ONLINE: }; ${marker:-no end marker}"
fi

# fw <phase> <name>: a firmware event's sum over the CPUs ("na": not counted)
fw() {
	grep -aoE "SOAK-FW: $1 .*" "$logf" | tail -n 1 | grep -oE " $2=[^ ]+" | cut -d= -f2
}
balance=$(grep -aoE 'SOAK-FW: balance .*' "$logf" | tail -n 1) || true
counted=$(grep -oE 'cpu[0-9]+-counted=[0-9]+' <<< "$balance" | awk -F= '$2 < 99 { bad = bad " " $0 } END { print bad }')
n_cpus=$(grep -oE 'cpu[0-9]+-counted' <<< "$balance" | wc -l)
if [[ -z $balance ]]; then
	verdict 0 "firmware events balance in the window after the soak" "no SOAK-FW balance line; log $logf"
elif ((n_cpus != 4)) || [[ -n $counted ]]; then
	verdict 0 "firmware events balance in the window after the soak" "not every CPU counted the whole window: $balance"
else
	for kind in sfence_vma sfence_vma_asid fence_i; do
		s=$(fw balance "${kind}_sent") r=$(fw balance "${kind}_received")
		if [[ $s =~ ^[0-9]+$ && $s == "$r" ]]; then
			verdict 1 "firmware remote ${kind//_/.} fences balance after the soak" "sent $s, received $r"
		else
			verdict 0 "firmware remote ${kind//_/.} fences balance after the soak" "sent ${s:-none}, received ${r:-none}"
		fi
	done
	s=$(fw balance ipi_sent) r=$(fw balance ipi_received)
	if [[ $s =~ ^[0-9]+$ && $r =~ ^[0-9]+$ ]] && ((s > 0 && r <= s && r >= s - s / 10 - 16)); then
		verdict 1 "firmware IPIs balance after the soak" "sent $s, received $r: $(((s - r) * 1000 / s / 10)).$(((s - r) * 1000 / s % 10))% taken together"
	else
		verdict 0 "firmware IPIs balance after the soak" "sent ${s:-none}, received ${r:-none} (want received <= sent, at most 10% + 16 fewer)"
	fi
fi

if ((status == 0)) && grep -aq 'reboot: Power down' "$logf"; then
	verdict 1 "powers off cleanly"
elif [[ -n $stop_at ]]; then
	verdict 0 "powers off cleanly" "stopped 60 s after the first fatal sign; log $logf"
elif ((status == 124 || status == 137)); then
	verdict 0 "powers off cleanly" "still running after $timeout_s s, killed; log $logf"
else
	verdict 0 "powers off cleanly" "QEMU status $status, $(grep -am1 -E 'Kernel panic.*|reboot: .*' "$logf" || echo 'no power-off line'); log $logf"
fi

# the figures of docs/benchmarks.md's soak table
soak_fw=$(grep -aoE 'SOAK-FW: soak .*' "$logf" | tail -n 1) || true
perf_events=$(grep -acE 'stress-ng: info: +\[[0-9]+\] +[0-9,]+ [A-Z]' "$logf") || true
echo "  $name: $(basename "$fw") ($fw), $qname, ${lroot##*/} ($(cat "$lroot/release" 2> /dev/null)), -cpu $cpu -smp 4, $secs s: ${took} s wall, QEMU status $status, log $logf"
echo "  $name: hotplug operations (stress-ng cpu-online bogo ops): ${hotplug:-none}; stress-ng --perf values in the soak's report: $perf_events (events x stressors)"
echo "  $name: soak firmware events: ${soak_fw#SOAK-FW: soak }"
echo "  $name: balance window: ${balance#SOAK-FW: balance }"
if ((failures)); then
	echo "  last lines of $logf:"
	grep -av '^$' "$logf" | tail -n 25 | sed 's/^/  | /'
fi
((failures == 0))
