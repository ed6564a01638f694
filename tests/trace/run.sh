#!/usr/bin/env bash
# N-Trace round trips on a real run: Tally boots to its S-mode test payload
# under QEMU (one hart, -icount for a deterministic run); tally-trace records
# it; the decoded address sequence must equal the one QEMU executed,
# instruction for instruction, in branch-trace (BTM) and history (HTM) modes,
# with and without the optimisations; the count must agree with a separate
# -icount run.  Then the profile, and bounded libFuzzer runs of the stream
# parser and decoder, the ELF loader and the side-file parser (fuzz.sh); the
# tool as a user meets it (formats, errors, hostile files) in tool.sh.
#
# Usage: tests/trace/run.sh <build-dir> [boot|linux|all]
#   boot   Tally's boot, the SBI payload, the profile, the tool and fuzz checks
#   linux  the Linux boot round trips (section 6; needs tests/linux's 6.1 build)
#   all    both (the default); the test command runs them as two jobs
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$root/build}")
part=${2:-all}
case $part in
boot | linux | all) ;;
*) echo "usage: $0 <build-dir> [boot|linux|all]" >&2; exit 2 ;;
esac
fw="$out/platform/generic/firmware"
tool="$out/host/tools/tally-trace"
plugin="$out/host/tools/tally-trace-plugin.so"
work="$out/trace"
mkdir -p "$work"
failures=0
pass() { echo "PASS: trace: $*"; }
fail() { echo "FAIL: trace: $*"; failures=$((failures + 1)); }

# Recordings are kept in $work/cache/<name>-<key>, the key a hash of what
# they record from (the images, QEMU's version, tally-trace and its plugin,
# the command): a run with the same inputs checks them again (decodes,
# compares, counts) without recording them again.  A check on a kept
# recording says so ("kept").
# cache_dir <name> <files...> -- <command...>: prints the recording's directory
cache_dir() {
	local name=$1 files=() key
	shift
	while [[ $1 != -- ]]; do
		files+=("$1")
		shift
	done
	shift
	key=$( (sha256sum "${files[@]}" "$tool" "$plugin" | cut -d' ' -f1
		qemu-system-riscv64 --version | head -n 1
		echo "$*") | sha256sum | cut -c1-16)
	[[ -d $work/cache/$name-$key ]] || rm -rf "$work/cache/$name"-????????????????
	mkdir -p "$work/cache/$name-$key"
	echo "$work/cache/$name-$key"
}
# Big files read once or three times and deleted (QEMU's 0.5 GB log of
# section 3, the 1.3 GB executed sequences of section 6) go to /dev/shm when
# it has room: writing 1 GB costs 4 s of system time on the test machine's
# ext4 and 1.3 s on tmpfs.  Otherwise they go to $work.
scratch=$work
if [[ -d /dev/shm && -w /dev/shm ]] &&
   (($(df --output=avail -k /dev/shm 2>/dev/null | tail -n 1) > 4 * 1024 * 1024)); then
	scratch=$(mktemp -d /dev/shm/tally-trace.XXXXXX) || scratch=$work
	[[ $scratch == "$work" ]] || trap 'rm -rf "$scratch"' EXIT
fi
# the digest of the Linux recordings' executed sequences (section 6); it
# is in the key of each recording that keeps one, as what it says depends on it
digest=b2sum
# decoded_digest ARGS...: the digest of what tally-trace decode ARGS writes,
# through a file in $scratch: piping the 1.3 GB into the digest took 1.5 s
# more CPU (8.4 s against 6.9 s for one decode)
decoded_digest() {
	timeout 900 "$tool" decode -q -o "$scratch/decoded" "$@" &&
		"$digest" <"$scratch/decoded" | cut -d' ' -f1
	rm -f "$scratch/decoded"
}
# kept <dir>: a note for a check on a kept recording
kept() { [[ ! -f $1/kept ]] || echo "; recording kept from an earlier run with the same inputs"; }

make -s -C "$root/tools" O="$out/host/tools" || { fail "tools build"; exit 1; }
if [[ $part != linux ]]; then
	# the tool as a user meets it: the reference's streams, no side file, errors
	"$root/tests/trace/tool.sh" "$out" || failures=$((failures + 1))
	elf="$fw/fw_payload.elf"
	payload="$fw/test_payload.elf"	# the S-mode payload's own symbols
	[[ -f $elf ]] || { fail "no $elf (run make first)"; exit 1; }
	qemu=(qemu-system-riscv64 -M virt -smp 1 -m 256M -nographic -no-reboot -monitor none
	      -serial null -bios "$fw/fw_payload.bin" -icount shift=0,sleep=off)

	# 1. record (BTM, Ownership messages on: privilege from QEMU's TB flags),
	#    and with a second encoder (--and) BTM without them, for 2b
	rec=$(cache_dir boot "$fw/fw_payload.bin" -- record --context --and "${qemu[@]}")
	if [[ -f $rec/done ]] && touch "$rec/kept" ||
	   { timeout 300 "$tool" record --context -o "$rec/boot.ntr" --and -o "$rec/boot-log.ntr" \
		--addresses "$rec/boot.addr" -- "${qemu[@]}" 2>"$rec/record.log" && touch "$rec/done"; }; then
		for f in boot.ntr boot.ntr.cfg boot.ntr.code boot.addr boot-log.ntr record.log; do
			ln -sfn "$rec/$f" "$work/$f"
		done
		n=$(wc -l <"$work/boot.addr")
		pass "record: Tally boot to the S-mode payload, $n instructions ($(tail -1 "$work/record.log" | sed 's/.*instructions, //')$(kept "$rec"))"
	else
		fail "record: $(tail -3 "$rec/record.log")"
		exit 1
	fi

	# 2. decode the recorded stream with the ELF (+ the captured reset ROM words)
	if "$tool" decode -q --cfg "$work/boot.ntr.cfg" --elf "$elf" --code "$work/boot.ntr.code" \
		-o "$work/boot.dec" "$work/boot.ntr" && cmp -s "$work/boot.dec" "$work/boot.addr"; then
		pass "decode of the recorded BTM stream == QEMU's executed sequence ($n instructions)"
	else
		fail "decode of the recorded BTM stream differs from QEMU's executed sequence"
	fi

	# 2b. the TCG plugin trace source (record --plugin) sees the same run: same
	#     executed sequence, same stream as the log source's second encoder (the
	#     log source gives privilege, Ownership off there as the plugin cannot
	#     read it)
	rec=$(cache_dir boot-plugin "$fw/fw_payload.bin" -- record --plugin "${qemu[@]}")
	if { [[ -f $rec/done ]] && touch "$rec/kept" ||
	     { timeout 300 "$tool" record --plugin -o "$rec/boot-plugin.ntr" --addresses "$rec/boot-plugin.addr" \
		-- "${qemu[@]}" 2>"$rec/record-plugin.log" && touch "$rec/done"; }; } &&
	   cmp -s "$rec/boot-plugin.addr" "$work/boot.addr" && cmp -s "$rec/boot-plugin.ntr" "$work/boot-log.ntr"; then
		pass "record --plugin: same executed sequence and stream as the log source ($(tail -1 "$rec/record-plugin.log" | sed 's/.* \([0-9.]* s\)$/\1/') instead of $(tail -1 "$work/record.log" | sed 's/.* \([0-9.]* s\)$/\1/')$(kept "$rec"))"
	else
		fail "record --plugin differs from the log source (see $rec/record-plugin.log)"
	fi

	# 3. the count against a separate plain -icount run (QEMU's own log)
	rec=$(cache_dir icount "$fw/fw_payload.bin" -- "${qemu[@]}" -singlestep -d nochain,exec)
	if [[ -f $rec/done ]]; then
		touch "$rec/kept"
	else
		timeout 300 "${qemu[@]}" -singlestep -d nochain,exec -D "$scratch/icount.log" </dev/null >/dev/null 2>&1
		# executed = "Trace" lines, less TBs "Stopped ... before" they ran, less the
		# first of two runs in a row of one instruction (an MMIO access under -icount
		# restarts its TB; docs/trace.md); none of these runs jumps to itself.
		awk '/^Trace/ { split($0, f, "/"); pc = f[2]; n++; if (pc == last) n--; last = pc; next }
		     /^Stopped execution/ { n--; last = "" } END { print n }' "$scratch/icount.log" >"$rec/executed" &&
		touch "$rec/done"
	fi
	executed=$(cat "$rec/executed" 2>/dev/null)
	if [[ -n $executed && $executed -eq $n ]]; then
		pass "instruction count $n agrees with a separate -icount run$(kept "$rec")"
	else
		fail "instruction count $n, separate -icount run executed $executed"
	fi
	rm -f "$scratch/icount.log"

	# 4. every mode and option set: encode the executed addresses, decode, compare
	configs=(
		"btm|--mode btm"
		"btm+implicit-return|--mode btm --implicit-return 3"
		"btm+repeat-branch|--mode btm --repeat-branch"
		"btm+all|--mode btm --implicit-return 3 --repeat-branch --ext-addr"
		"btm+sync+tstamp+src|--mode btm --sync-mode 3 --sync-max 8 --tstamp --src-bits 4 --src-id 3"
		"btm+sequential-jump|--mode btm --sequential-jump"
		"btm+all-jumps|--mode btm --all-jumps"
		"btm+icnt-limit-100|--mode btm --icnt-limit 100"
		"btm+icnt-full-sync|--mode btm --icnt-limit 100 --icnt-full-sync"
		"btm+all+new|--mode btm --implicit-return 3 --repeat-branch --ext-addr --sequential-jump --all-jumps --icnt-full-sync"
		"htm|--mode htm"
		"htm+implicit-return|--mode htm --implicit-return 3"
		"htm+repeat-history|--mode htm --repeat-history"
		"htm+repeat-branch|--mode htm --repeat-branch"
		"htm+all|--mode htm --implicit-return 3 --repeat-history --repeat-branch --ext-addr"
		"htm+sequential-jump|--mode htm --sequential-jump"
		"htm+all-jumps|--mode htm --all-jumps"
		"htm+all+new|--mode htm --implicit-return 3 --repeat-history --repeat-branch --ext-addr --sequential-jump --all-jumps"
		"htm+small-limits|--mode htm --icnt-limit 100 --hist-bits 8 --sync-mode 1 --sync-max 2 --implicit-return 2 --stack-depth 4"
		"htm+counting-return|--mode htm --implicit-return 1 --repeat-history"
		"htm+small-limits+new|--mode htm --icnt-limit 100 --hist-bits 8 --sync-mode 1 --sync-max 2 --implicit-return 2 --stack-depth 4 --sequential-jump --all-jumps"
	)
	# one encode with an encoder for each set (--and): the 6 M addresses are
	# read once, not 21 times
	encoders=()
	for c in "${configs[@]}"; do
		((${#encoders[@]} == 0)) || encoders+=(--and)
		# shellcheck disable=SC2206
		encoders+=(${c#*|} -o "$work/${c%%|*}.ntr")
		rm -f "$work/${c%%|*}.ntr"	# (a failed encode writes none)
	done
	"$tool" encode -q "${encoders[@]}" --elf "$elf" --code "$work/boot.ntr.code" "$work/boot.addr" \
		2>"$work/encode.log" || fail "encode (every set at once): $(head -3 "$work/encode.log")"
	echo "config bytes bits_per_instruction" >"$work/bits.txt"
	for c in "${configs[@]}"; do
		name=${c%%|*}
		if [[ -f $work/$name.ntr ]] &&
		   "$tool" decode -q --cfg "$work/$name.ntr.cfg" --elf "$elf" --code "$work/boot.ntr.code" \
			-o "$work/$name.dec" "$work/$name.ntr" &&
		   cmp -s "$work/$name.dec" "$work/boot.addr"; then
			bytes=$(stat -c %s "$work/$name.ntr")
			bits=$(awk -v b="$bytes" -v n="$n" 'BEGIN { printf "%.4f", 8 * b / n }')
			echo "$name $bytes $bits" >>"$work/bits.txt"
			pass "round trip $name: decoded == executed ($n instructions, $bytes bytes, $bits bits/instruction)"
		else
			fail "round trip $name: decoded sequence differs"
		fi
		rm -f "$work/$name.dec"
	done

	# 5. the S-mode SBI test payload (tests/sbi) on fw_dynamic, PMU checks only
	#    (bootargs "pmu"), HTM with every optimisation.  Not under -icount: QEMU
	#    7.2 aborts ("Raised interrupt while not in I/O function") on its timer
	#    tests there, so this run is checked against its own executed sequence.
	sbi_elf="$out/tests/sbi/sbi-test.elf"
	sbi_opts=(--mode htm --implicit-return 3 --repeat-history --repeat-branch --context)
	make -s -C "$root/tests/sbi" O="$out/tests/sbi" >/dev/null
	rec=$(cache_dir sbi "$fw/fw_dynamic.bin" "$sbi_elf" -- "${sbi_opts[@]}" -append pmu)
	if { [[ -f $rec/done ]] && touch "$rec/kept" ||
	     { timeout 600 "$tool" record "${sbi_opts[@]}" -o "$rec/sbi.ntr" --addresses "$rec/sbi.addr" -- \
		qemu-system-riscv64 -M virt -smp 1 -m 256M -nographic -no-reboot -monitor none \
		-serial file:"$rec/sbi.serial" -bios "$fw/fw_dynamic.bin" -kernel "$sbi_elf" \
		-append pmu 2>"$rec/sbi-record.log" && touch "$rec/done"; }; } &&
	   "$tool" decode -q --cfg "$rec/sbi.ntr.cfg" --elf "$fw/fw_dynamic.elf" --elf "$sbi_elf" \
		--code "$rec/sbi.ntr.code" -o "$work/sbi.dec" "$rec/sbi.ntr" &&
	   cmp -s "$work/sbi.dec" "$rec/sbi.addr"; then
		pass "SBI payload (HTM, all optimisations): decoded == executed ($(tail -1 "$rec/sbi-record.log" | sed 's/tally-trace: //')$(kept "$rec"))"
	else
		fail "SBI payload trace round trip (see $rec/sbi-record.log)"
	fi
	rm -f "$work/sbi.dec"

fi

if [[ $part != boot ]]; then
	# 6. Linux 6.1 (one hart, -icount) through the TCG plugin trace source: the
	#    kernel boot, init, and init's first checks, 120 M instructions, in BTM and
	#    HTM, each without and with every optimisation: one recording with an
	#    encoder for each option set, each stream's decoded sequence equal to
	#    the sequence the recording observed; the instructions before init's
	#    first instruction must equal the count of a separate -icount run
	#    (QEMU's inline per-instruction counter, no trace).
	#    Needs the Linux test artefacts (tests/linux/build.sh; run-all.sh builds them first).
	linux="$out/linux"
	plugin="$out/host/tools/tally-trace-plugin.so"
	linux_max=120000000
	linux_configs=(
		"btm|--mode btm"
		"btm+all|--mode btm --implicit-return 3 --repeat-branch --ext-addr --sequential-jump"
		"htm|--mode htm"
		"htm+all|--mode htm --implicit-return 3 --repeat-history --repeat-branch --ext-addr --sequential-jump"
	)
	if [[ ! -f $linux/Image || ! -f $linux/obj/vmlinux || ! -f $linux/initramfs.cpio ||
	      ! -f $linux/initramfs/init ]]; then
		echo "SKIP: trace: Linux boot round trips: no $linux/Image, obj/vmlinux, initramfs (tests/linux/build.sh builds them)"
	else
		t_linux=$SECONDS
		# -seed: QEMU 7.2 puts a fresh random /chosen/rng-seed in every
		# boot's devicetree, and Linux seeds its random numbers from it, so
		# two -icount boots could differ (once: 2,258 instructions fewer
		# before init in the count run than in the recording).  A fixed
		# seed makes them the same run.
		qemu_linux=(qemu-system-riscv64 -M virt -smp 1 -m 512M -nographic -no-reboot -monitor none
			    -serial file:"$work/linux.serial" -bios "$fw/fw_dynamic.bin" -kernel "$linux/Image"
			    -initrd "$linux/initramfs.cpio" -append "console=ttyS0 earlycon"
			    -icount shift=0,sleep=off -seed 1)
		entry=$(readelf -h "$linux/initramfs/init" | awk '/Entry point/ { sub("0x", "", $4); print $4 }')
		# the runs compared below are one run only if QEMU gives each the
		# same devicetree: two dumps of it, compared
		if "${qemu_linux[@]}" -machine dumpdtb="$scratch/linux-a.dtb" </dev/null >/dev/null 2>&1 &&
		   "${qemu_linux[@]}" -machine dumpdtb="$scratch/linux-b.dtb" </dev/null >/dev/null 2>&1 &&
		   cmp -s "$scratch/linux-a.dtb" "$scratch/linux-b.dtb"; then
			pass "Linux boot: every -icount boot gets the same devicetree (-seed 1: the same rng-seed)"
		else
			fail "Linux boot: two boots' devicetrees differ (rng-seed?): the -icount runs below may differ"
		fi
		rm -f "$scratch"/linux-[ab].dtb
		# An executed sequence is 1.3 GB of text: a recording keeps its
		# length, digest and init entry line (addr-info), and the decoded
		# stream is compared by its digest.  The digest is BLAKE2b (b2sum):
		# coreutils' sha256sum takes 7 s for 1.3 GB here, b2sum 2 s, and
		# there are two for each recording.
		rec=$(cache_dir linux-count "$fw/fw_dynamic.bin" "$linux/Image" "$linux/initramfs.cpio" \
			"$linux/initramfs/init" -- "${qemu_linux[@]}" count)
		if [[ -f $rec/done ]]; then
			touch "$rec/kept"
		else
			timeout 600 "${qemu_linux[@]}" -plugin "$plugin,count=$entry" </dev/null 2>&1 >/dev/null |
				sed -n 's/^tally-trace-plugin: \([0-9]*\) instructions before.*/\1/p' >"$rec/counted" &&
				[[ -s $rec/counted ]] && touch "$rec/done"
		fi
		counted=$(cat "$rec/counted" 2>/dev/null)
		# One recording with an encoder for each option set (record --and):
		# the executed sequence is recorded, digested and counted once, and
		# each stream must decode to it.  (With four recordings of the same
		# -icount run, this part took 106 to 133 s of CPU; with one, 71 s.)
		# The recordings of one option set each, from before: deleted.
		rm -rf "$work"/cache/linux-{btm,btm+all,htm,htm+all}-????????????????
		rec=$(cache_dir linux-boot "$fw/fw_dynamic.bin" "$linux/Image" "$linux/initramfs.cpio" \
			"$linux/initramfs/init" -- "${linux_configs[@]}" --max-instructions $linux_max \
			"${qemu_linux[@]}" digest="$digest")
		encoders=()
		for c in "${linux_configs[@]}"; do
			((${#encoders[@]} == 0)) || encoders+=(--and)
			# shellcheck disable=SC2206
			encoders+=(${c#*|} -o "$rec/${c%%|*}.ntr")
		done
		info=() recorded=""
		if [[ -f $rec/done ]] && touch "$rec/kept" ||
		   { timeout 900 "$tool" record --plugin "${encoders[@]}" --max-instructions $linux_max \
			--addresses "$scratch/linux.addr" -- "${qemu_linux[@]}" </dev/null 2>"$rec/record.log" &&
		     { wc -l <"$scratch/linux.addr"; "$digest" <"$scratch/linux.addr" | cut -d' ' -f1
		       grep -n -m1 "^$entry\$" "$scratch/linux.addr" | cut -d: -f1; } >"$rec/addr-info" &&
		     touch "$rec/done"; }; then
			mapfile -t info <"$rec/addr-info"
			recorded="recorded with the other option sets in $(tail -1 "$rec/record.log" |
				awk '{ print $(NF - 1) }') s$(kept "$rec")"
		else
			fail "Linux boot: record (see $rec/record.log)"
		fi
		rm -f "$scratch/linux.addr"
		before=${info[2]-}
		if [[ -n $counted && -n $before && $((before - 1)) -eq $counted ]]; then
			pass "Linux boot: $counted instructions before init (0x$entry) agree with a separate -icount run"
		else
			fail "Linux boot: ${before:-no} init entry in the trace, separate -icount run counted ${counted:-nothing} before 0x$entry"
		fi
		echo "config bytes bits_per_instruction" >"$work/linux-bits.txt"
		for c in "${linux_configs[@]}"; do
			name=${c%%|*}
			if [[ -n ${info[1]-} && -f $rec/$name.ntr &&
			      $(decoded_digest --cfg "$rec/$name.ntr.cfg" --syms "$linux/obj/vmlinux" \
				--code "$rec/$name.ntr.code" "$rec/$name.ntr") == "${info[1]}" ]]; then
				n=${info[0]}
				bytes=$(stat -c %s "$rec/$name.ntr")
				bits=$(awk -v b="$bytes" -v n="$n" 'BEGIN { printf "%.4f", 8 * b / n }')
				echo "$name $bytes $bits" >>"$work/linux-bits.txt"
				pass "Linux boot $name: decoded == executed ($n instructions, $bytes bytes, $bits bits/instruction, $recorded)"
			else
				fail "Linux boot $name: decoded sequence differs (see $rec/record.log)"
			fi
		done

		# 4 harts: one encoder per hart, SRC = hart index (trTeSrcBits=2), all in
		# one stream; each hart decoded on its own (decode --src) must equal what
		# that hart executed.  Not under -icount: with 4 harts QEMU 7.2's -icount
		# run stalled in init's checks, so this run is multi-threaded TCG, checked
		# against its own observed sequences; the first 40 M instructions.
		# addr-info: a line per hart that ran, "<hart> <instructions> <digest>".
		qemu_smp4=(qemu-system-riscv64 -M virt -smp 4 -m 512M -nographic -no-reboot -monitor none
			   -serial file:"$work/linux4.serial" -bios "$fw/fw_dynamic.bin" -kernel "$linux/Image"
			   -initrd "$linux/initramfs.cpio" -append "console=ttyS0 earlycon")
		smp4_opts=(--mode htm --implicit-return 3 --repeat-history --repeat-branch --ext-addr
			   --src-bits 2 --max-instructions 40000000)
		rec=$(cache_dir linux4 "$fw/fw_dynamic.bin" "$linux/Image" "$linux/initramfs.cpio" \
			-- "${smp4_opts[@]}" "${qemu_smp4[@]}" digest="$digest")
		if [[ -f $rec/done ]] && touch "$rec/kept" ||
		   { timeout 900 "$tool" record --plugin "${smp4_opts[@]}" \
			-o "$rec/linux4.ntr" --addresses "$scratch/linux4.addr" -- "${qemu_smp4[@]}" \
			</dev/null 2>"$rec/record.log" &&
		     for h in 0 1 2 3; do
			a="$scratch/linux4.addr"
			[[ $h == 0 ]] || a="$a.$h"
			[[ ! -f $a ]] || echo "$h $(wc -l <"$a") $("$digest" <"$a" | cut -d' ' -f1)"
		     done >"$rec/addr-info" && touch "$rec/done"; }; then
			for h in 0 1 2 3; do
				code="$rec/linux4.ntr.code"
				[[ $h == 0 ]] || code="$code.$h"
				n= sum=
				read -r _ n sum < <(awk -v h=$h '$1 == h' "$rec/addr-info") || true
				if [[ -z $sum ]]; then
					# all four start in Tally's boot, but a loaded host may
					# not schedule a vCPU thread before the 40 M
					echo "SKIP: trace: Linux boot, 4 harts: hart $h ran no instruction in this window"
					continue
				fi
				if [[ -f $code &&
				      $(decoded_digest --cfg "$rec/linux4.ntr.cfg" --src $h \
					--syms "$linux/obj/vmlinux" --code "$code" "$rec/linux4.ntr") == "$sum" ]]; then
					pass "Linux boot, 4 harts: hart $h (SRC=$h) decoded == executed ($n instructions$(kept "$rec"))"
				else
					fail "Linux boot, 4 harts: hart $h decoded sequence differs (see $rec/record.log)"
				fi
			done
		else
			fail "Linux boot, 4 harts: record (see $rec/record.log)"
		fi
		rm -f "$scratch"/linux4.addr*
		echo "(Linux trace round trips: $((SECONDS - t_linux)) s)"
	fi

fi

if [[ $part != linux ]]; then
	# 7. profile: per function and per SBI call, and a flame graph
	if "$tool" profile --cfg "$work/boot.ntr.cfg" --elf "$elf" --elf "$payload" --code "$work/boot.ntr.code" \
		--svg "$work/boot.svg" "$work/boot.ntr" >"$work/profile.txt" 2>/dev/null &&
	   grep -q '^sbi_ecall_handle ' "$work/profile.txt" && grep -q '^dbcn_handle' "$work/profile.txt" &&
	   grep -q '<rect' "$work/boot.svg"; then
		pass "profile: per-function and per-SBI-call tables, flame graph $work/boot.svg"
	else
		fail "profile output incomplete ($work/profile.txt)"
	fi

	# 8. the libFuzzer targets, deterministic: the stream parser and decoder, the
	#    ELF loader (seeded with the malformed ELF cases), the side-file parser
	"$root/tests/trace/fuzz.sh" "$out" || failures=$((failures + 1))
fi
[[ $failures -eq 0 ]]
