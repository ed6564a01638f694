#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Build the KVM test initramfs for tests/kvm/run.sh, from the Linux 6.12
# tree that tests/linux/build.sh extracted and patched:
#   <kvmdir>/headers/usr/include   the tree's UAPI headers (make headers,
#                                  out of tree: the source stays clean for
#                                  the kernel's O= build)
#   <kvmdir>/selftests/            tools/testing/selftests/kvm built for
#                                  riscv, static (its objects, unstripped)
#   <kvmdir>/kvm.cpio              /init (tests/kvm/runner.c) and the
#                                  stripped tests under /kvm
# The kernel is the one of <linuxdir> (tests/linux/kernel-6.12.config has
# CONFIG_KVM): run.sh boots its Image with kvm.cpio as -initrd, whose /init
# replaces the perf init of the built-in initramfs.
#
# Usage: tests/kvm/build.sh <linuxdir> [kvmdir]
#   linuxdir: tests/linux/build.sh --kver 6.12's build dir (build/linux-6.12)
#   kvmdir:   default <linuxdir>/../kvm
#
# Each step is keyed by a hash of its inputs (the package version, the
# kernel patches, the compiler, this script, runner.c) and skipped when
# unchanged, like tests/linux/build.sh.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib/cache.sh
source "$here/../lib/cache.sh"	# hash_inputs, stamp_ok, stamp_set ($stamps)
cross=riscv64-linux-gnu-
# The riscv tests of 6.12's Makefile (TEST_GEN_PROGS_riscv), all run by run.sh.
tests=(get-reg-list guest_print_test riscv/ebreak_test kvm_create_max_vcpus
	kvm_binary_stats_test steal_time coalesced_io_test set_memory_region_test
	kvm_page_table_test demand_paging_test dirty_log_test arch_timer
	riscv/sbi_pmu_test)

log() { printf '[kvm] %s\n' "$*"; }
die() { printf '[kvm] error: %s\n' "$*" >&2; exit 1; }

# make headers into <kvmdir>/headers (headers_install needs rsync).
build_headers() {
	local key
	key=$(hash_inputs "$(cat "$linux/.stamp-source")" "$(cat "$linux/.stamp-patches")")
	if stamp_ok headers "$key" && [[ -d $out/headers/usr/include/linux ]]; then
		return
	fi
	command -v rsync > /dev/null || die "rsync missing (headers_install): apt-get install rsync"
	log "make headers"
	rm -rf "$out/headers"
	make -C "$src" O="$out/headers" ARCH=riscv "CROSS_COMPILE=$cross" headers \
		> "$out/headers.log" 2>&1 || { tail -n 20 "$out/headers.log"; die "make headers failed"; }
	stamp_set headers "$key"
}

# dirty_log_test's guest memory is a constant of its source, 1 GiB
# (DIRTY_MEM_BITS 30), with no option to change it as kvm_page_table_test's
# and demand_paging_test's -b do.  Its guest writes every page of it once
# per log mode before the iterations begin, and under TCG those 2 x 262,144
# stage-2 faults of a nested hart were 110 s of each run (of 180 to 205).
# It is built with 64 MiB instead, the size demand_paging_test runs with:
# the same test (every page written, logged, cleared and checked), on
# fewer pages.  The tree's file is edited for the make and restored after.
dirty_mem_bits=26
dirty_log_src=tools/testing/selftests/kvm/dirty_log_test.c

shrink_dirty_log_test() {
	local f=$src/$dirty_log_src
	cp -p "$f" "$out/dirty_log_test.c.orig"
	trap restore_dirty_log_test EXIT
	sed -i "s|^#define DIRTY_MEM_BITS 30 /\* 1G \*/\$|#define DIRTY_MEM_BITS $dirty_mem_bits /* tests/kvm/build.sh */|" "$f"
	grep -q "^#define DIRTY_MEM_BITS $dirty_mem_bits " "$f" ||
		die "$dirty_log_src: no '#define DIRTY_MEM_BITS 30 /* 1G */' to change"
	rm -f "$out/selftests/dirty_log_test" "$out/selftests/dirty_log_test.o"
}

restore_dirty_log_test() {
	[[ -f $out/dirty_log_test.c.orig ]] || return 0
	cp -p "$out/dirty_log_test.c.orig" "$src/$dirty_log_src"
	rm -f "$out/dirty_log_test.c.orig"
}

# The selftests, static; only the riscv tests run.sh runs.
build_selftests() {
	local key targets=() t start=$SECONDS
	key=$(hash_inputs "$(cat "$out/.stamp-headers")" "${tests[*]}" \
		"$("${cross}gcc" --version | head -n1)" "dirty_mem_bits=$dirty_mem_bits")
	if stamp_ok selftests "$key" && [[ -x $out/selftests/riscv/sbi_pmu_test ]]; then
		log "selftests up to date"
		return
	fi
	for t in "${tests[@]}"; do
		targets+=("$out/selftests/$t")
	done
	log "building ${#tests[@]} KVM selftests with $(nproc) jobs (log: $out/selftests.log)"
	mkdir -p "$out/selftests"
	shrink_dirty_log_test
	if ! make -C "$src/tools/testing/selftests/kvm" ARCH=riscv "CROSS_COMPILE=$cross" \
		LDFLAGS=-static OUTPUT="$out/selftests" \
		KHDR_INCLUDES="-isystem $out/headers/usr/include" -j"$(nproc)" \
		"${targets[@]}" > "$out/selftests.log" 2>&1; then
		grep -E 'error' "$out/selftests.log" | head -n 20
		die "selftests build failed (log: $out/selftests.log)"
	fi
	restore_dirty_log_test
	stamp_set selftests "$key"
	log "selftests built in $((SECONDS - start)) s"
}

# /init = runner.c, /kvm/<test> stripped.
build_initramfs() {
	local key dir=$out/initramfs t
	key=$(hash_inputs "$here/build.sh" "$here/runner.c" "$(cat "$out/.stamp-selftests")" \
		"$("${cross}gcc" --version | head -n1)")
	if stamp_ok initramfs "$key" && [[ -f $out/kvm.cpio ]]; then
		log "kvm.cpio up to date"
		return
	fi
	log "building kvm.cpio"
	rm -rf "$dir"
	mkdir -p "$dir/kvm"
	"${cross}gcc" -static -O2 -s -Wall -Wextra -Werror -o "$dir/init" "$here/runner.c"
	for t in "${tests[@]}"; do
		"${cross}strip" -o "$dir/kvm/${t##*/}" "$out/selftests/$t"
	done
	cc -O2 -o "$dir/gen_init_cpio" "$src/usr/gen_init_cpio.c"
	{
		printf 'dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\n'
		printf 'dir /proc 0755 0 0\ndir /sys 0755 0 0\ndir /tmp 1777 0 0\n'
		printf 'dir /kvm 0755 0 0\nfile /init %s 0755 0 0\n' "$dir/init"
		for t in "${tests[@]}"; do
			printf 'file /kvm/%s %s 0755 0 0\n' "${t##*/}" "$dir/kvm/${t##*/}"
		done
	} > "$dir/cpio.list"
	"$dir/gen_init_cpio" -t 0 "$dir/cpio.list" > "$out/kvm.cpio"
	stamp_set initramfs "$key"
}

main() {
	(($# >= 1 && $# <= 2)) || die "usage: $0 <linuxdir> [kvmdir]"
	linux=$(cd "$1" && pwd) || die "no $1"
	out=${2:-$linux/../kvm}
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	stamps=$out
	src=$linux/linux-source-6.12
	[[ -d $src && -f $linux/.stamp-patches ]] ||
		die "$src not prepared: run tests/linux/build.sh --kver 6.12 $1 first"
	local start=$SECONDS
	build_headers
	build_selftests
	build_initramfs
	log "done in $((SECONDS - start)) s: $out/kvm.cpio ($(stat -c %s "$out/kvm.cpio") bytes)"
}

main "$@"
