#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Build the 32-bit Linux 6.1 test kernel for Tally on qemu-system-riscv32:
#   <builddir>/init            tests/linux/init-rv32.c, a static freestanding
#                              init on the kernel tree's own nolibc (Debian
#                              has no rv32 C library, so no perf either;
#                              nolibc-rv32.h fills 6.1 nolibc's rv32 gaps)
#   <builddir>/initramfs.cpio  /init and the nodes the kernel needs
#   <builddir>/Image           the kernel with that initramfs built in
#
# Config: tinyconfig + tests/linux/kernel.config + kernel-rv32.config (the
# later fragment wins). Source: /usr/src/linux-source-6.1.tar.xz as
# Debian ships it: build/linux's tree if tests/linux/build.sh extracted it
# (read only), else extracted into the build dir.
#
# Usage: tests/linux/build-rv32.sh [builddir]   (default <repo>/build/linux-rv32)
# Each step is keyed by a hash of its inputs and skipped when unchanged; the
# object tree stays in <builddir>/obj, so changing init only relinks.
# JOBS (default 2) limits make's parallelism.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=../lib/cache.sh
source "$repo/tests/lib/cache.sh"	# hash_inputs, stamp_ok, stamp_set ($stamps)
# shellcheck source=source.sh
source "$here/source.sh"	# extract_source
cross=riscv64-linux-gnu-
kmake_vars=(ARCH=riscv "CROSS_COMPILE=$cross")
jobs=${JOBS:-2}
src_pkg=linux-source-6.1
tarball=/usr/src/$src_pkg.tar.xz
fragments=("$here/kernel.config" "$here/kernel-rv32.config")
init_cflags=(-march=rv32imac_zicsr -mabi=ilp32 -static -nostdlib -ffreestanding
	-fno-stack-protector -fno-asynchronous-unwind-tables -Os -s -Wall -Wextra)

log() { printf '[linux-rv32] %s\n' "$*"; }
die() { printf '[linux-rv32] error: %s\n' "$*" >&2; exit 1; }

# The source tree as Debian ships it, extracted once per package version;
# or the 6.1 tree tests/linux/build.sh extracted into build/linux beside
# this build dir, if it has the same version (out-of-tree objects: neither
# build writes into it).
prepare_source() {
	local key shared
	key=$(hash_inputs "$pkg_version")
	stamp_ok source "$key" && [[ -d $src ]] && return
	shared=$(dirname "$build")/linux
	if [[ -d $shared/$src_pkg && $(cat "$shared/.stamp-source" 2>/dev/null) == "$pkg_version" ]]; then
		log "reading the source tree of $shared"
		rm -rf "$src" "$obj" "$build"/.stamp-*
		ln -s "$shared/$src_pkg" "$src"
		stamp_set source "$key"
		return
	fi
	log "extracting $tarball"
	rm -rf "$src" "$obj" "$build/.extract" "$build"/.stamp-*
	extract_source "$tarball" "$src_pkg" "$build/.extract"
	mv "$build/.extract/$src_pkg" "$src"
	rmdir "$build/.extract"
	stamp_set source "$key"
}

# /init from tests/linux/init-rv32.c on nolibc, and the cpio archive.
build_initramfs() {
	local key dir=$build/initramfs
	key=$(hash_inputs "$here/init-rv32.c" "$here/nolibc-rv32.h" "${init_cflags[*]}" \
		"$("${cross}gcc" --version | head -n1)" "$(cat "$build/.stamp-source")")
	stamp_ok initramfs "$key" && [[ -f $build/initramfs.cpio ]] && return
	log "building init (nolibc) and initramfs"
	mkdir -p "$dir"
	"${cross}gcc" "${init_cflags[@]}" -I"$src/tools/include/nolibc" \
		-include "$here/nolibc-rv32.h" -include nolibc.h \
		-o "$build/init" "$here/init-rv32.c" ||
		die "init-rv32.c does not build"
	cc -O2 -o "$dir/gen_init_cpio" "$src/usr/gen_init_cpio.c"
	cat > "$dir/cpio.list" <<-LIST
		dir /dev 0755 0 0
		nod /dev/console 0600 0 0 c 5 1
		dir /proc 0755 0 0
		dir /sys 0755 0 0
		file /init $build/init 0755 0 0
	LIST
	"$dir/gen_init_cpio" -t 0 "$dir/cpio.list" > "$dir/initramfs.cpio.new"
	if cmp -s "$dir/initramfs.cpio.new" "$build/initramfs.cpio"; then
		rm "$dir/initramfs.cpio.new"
	else
		mv "$dir/initramfs.cpio.new" "$build/initramfs.cpio"
	fi
	stamp_set initramfs "$key"
}

# The final value of every option the fragments name (the last fragment
# naming an option wins) must be in .config; "is not set" may be absent.
verify_config() {
	local frag line name bad=0
	declare -A want=()
	for frag in "$@"; do
		while IFS= read -r line; do
			if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)= ]] ||
				[[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
				want[${BASH_REMATCH[1]}]=$line
			fi
		done < "$frag"
	done
	for name in "${!want[@]}"; do
		line=${want[$name]}
		if [[ $line == "# "* ]]; then
			grep -q "^$name=" "$obj/.config" || continue
		else
			grep -qxF "$line" "$obj/.config" && continue
		fi
		printf '[linux-rv32] config: asked "%s", got "%s"\n' "$line" \
			"$(grep -E "^(# )?$name[= ]" "$obj/.config" || echo absent)" >&2
		bad=1
	done
	((bad == 0)) || die "the kernel config lacks the values above"
}

configure_kernel() {
	local key extra=$build/initramfs.config
	key=$(hash_inputs "$(cat "$build/.stamp-source")" "${fragments[@]}" "$build")
	stamp_ok config "$key" && [[ -f $obj/.config ]] && return
	log "configuring kernel (tinyconfig + ${fragments[*]##*/})"
	mkdir -p "$obj"
	printf 'CONFIG_INITRAMFS_SOURCE="%s"\n' "$build/initramfs.cpio" > "$extra"
	make -C "$src" O="$obj" "${kmake_vars[@]}" tinyconfig > "$build/config.log" 2>&1 ||
		{ tail -n 30 "$build/config.log"; die "make tinyconfig failed"; }
	(cd "$src" && ARCH=riscv CROSS_COMPILE=$cross scripts/kconfig/merge_config.sh \
		-n -O "$obj" "$obj/.config" "${fragments[@]}" "$extra") \
		>> "$build/config.log" 2>&1 ||
		{ tail -n 30 "$build/config.log"; die "merge_config.sh failed"; }
	verify_config "${fragments[@]}" "$extra"
	stamp_set config "$key"
}

build_kernel() {
	local key klog=$build/kernel-build.log start=$SECONDS
	configure_kernel
	key=$(hash_inputs "$(cat "$build/.stamp-config")" "$(cat "$build/.stamp-initramfs")")
	stamp_ok kernel "$key" && [[ -f $build/Image ]] && { log "kernel up to date"; return; }
	log "building kernel Image with $jobs jobs (full log: $klog)"
	make -C "$src" O="$obj" "${kmake_vars[@]}" -j"$jobs" Image > "$klog" 2>&1 ||
		{ grep -E 'error|warning:' "$klog" | head -n 20; tail -n 20 "$klog"
		  die "kernel build failed (full log: $klog)"; }
	cp "$obj/arch/riscv/boot/Image" "$build/Image"
	stamp_set kernel "$key"
	log "kernel built in $((SECONDS - start)) s"
}

main() {
	build=${1:-$repo/build/linux-rv32}
	mkdir -p "$build"
	build=$(cd "$build" && pwd)
	stamps=$build
	[[ $build != *[[:space:]]* ]] || die "build dir must not contain blanks: $build"
	src=$build/$src_pkg
	obj=$build/obj
	[[ -f $tarball ]] || die "missing $tarball (apt-get install $src_pkg)"
	command -v "${cross}gcc" > /dev/null || die "missing ${cross}gcc"
	pkg_version=$(dpkg-query -W -f='${Version}' "$src_pkg" 2> /dev/null) ||
		die "package $src_pkg is not installed"
	prepare_source
	build_initramfs
	build_kernel
	log "Image: $build/Image ($(stat -c %s "$build/Image") bytes)"
}

main "$@"
