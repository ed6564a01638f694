#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Build a Linux test kernel for Tally from Debian's linux-source-<kver>
# (kver 6.1 or 6.12):
#   <builddir>/perf            Linux's own perf (tools/perf of the same tree),
#                              static, stripped, without optional libraries
#   <builddir>/initramfs.cpio  the static test init (tests/linux/init.c),
#                              /bin/perf and /bin/work (tests/linux/workload.c)
#   <builddir>/Image           the kernel, with that initramfs built in, so
#                              it also boots from fw_payload (no -initrd)
#
# The kernel is Debian's source as shipped: users boot the kernel they
# have, and a driver bug they would meet is the firmware's to absorb. With
# --fixed, the kernel gets the upstream-ready fixes of contrib/linux/<kver>/
# (in name order), for the checks of Tally's strict build (LINUX_COMPAT=0)
# against a fixed kernel: <builddir> must end in -fixed, and the stock
# build beside it (the same name without -fixed) is built first, then
# patched in place for one incremental build (the files the patches touch
# and the link) and reverted; <builddir> gets that Image, and links to the
# stock build's source tree and initramfs. The kernel config is tinyconfig
# + tests/linux/kernel.config + (if present) tests/linux/kernel-<kver>.config.
#
# Usage: tests/linux/build.sh [--kver 6.1|6.12] [--fixed] [builddir]
#   default kver: $TALLY_KVER, else 6.1; default builddir: <repo>/build/linux
#   for 6.1 (the historical name), <repo>/build/linux-<kver> otherwise,
#   <repo>/build/linux-<kver>-fixed with --fixed.
#
# Every step is keyed by a hash of its inputs and skipped when the key is
# unchanged, so a second run does nothing. The kernel object tree is kept in
# <builddir>/obj, so changing init.c only relinks the kernel.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=../lib/cache.sh
source "$repo/tests/lib/cache.sh"	# hash_inputs, stamp_ok, stamp_set ($stamps)
# shellcheck source=source.sh
source "$here/source.sh"	# extract_source

cross=riscv64-linux-gnu-
kmake_vars=(ARCH=riscv "CROSS_COMPILE=$cross")
# perf: static, every optional library off (none is cross-installed), no
# jevents (needs host python, only adds vendor event aliases; RISC-V has
# none for QEMU). Without libelf perf resolves kernel symbols from
# /proc/kallsyms only, which is all the tests use.
perf_vars=(ARCH=riscv "CROSS_COMPILE=$cross" LDFLAGS=-static WERROR=0
	NO_LIBELF=1 NO_LIBPERL=1 NO_LIBPYTHON=1 NO_SLANG=1 NO_GTK2=1
	NO_LIBAUDIT=1 NO_LIBUNWIND=1 NO_LIBDW_DWARF_UNWIND=1 NO_LIBNUMA=1
	NO_LIBBPF=1 NO_LIBCRYPTO=1 NO_LIBZSTD=1 NO_LIBCAP=1 NO_JVMTI=1
	NO_LIBBABELTRACE=1 NO_DEMANGLE=1 NO_LIBBFD=1 NO_LIBDEBUGINFOD=1
	NO_LIBPFM4=1 NO_LZMA=1 NO_ZLIB=1 NO_SDT=1 NO_AUXTRACE=1 NO_JEVENTS=1)
# perf's Makefile puts -O3 and -ggdb3 after any EXTRA_CFLAGS; the compiler
# wrapper (perf_cc) puts these last.  perf is a test tool here, its own speed
# is measured nowhere, and -O1 compiles in half the time (util/evsel.c: 1.42 s
# at -O3, 0.76 s at -O1): about a minute less CPU a perf.  -g0: the binary is
# stripped, so its debug information was made only to be thrown away, and
# it made the objects large (6.1: perf-in.o 83 MB) and the static link slow
# (46 s of one core; 9 s without).  The stripped perf's code and data are the
# same byte for byte (only the build ID and the object directory's path in
# one string differ); 6.1's perf takes 81 s of CPU instead of 136.
perf_opt="-O1 -g0"
# Newer perf wants libtraceevent (6.4+) unless told not to; 6.1 has no
# such switch, so the list above (and its cache key) stays as it was.
perf_vars_new=(NO_LIBTRACEEVENT=1 NO_CAPSTONE=1 NO_LIBLLVM=1 BUILD_BPF_SKEL=0)

log() { printf '[linux] %s\n' "$*"; }
die() { printf '[linux] error: %s\n' "$*" >&2; exit 1; }

check_tools() {
	local missing=() tool
	for tool in "${cross}gcc" "${cross}strip" gcc make flex bison bc perl \
		sha256sum xz patch; do
		command -v "$tool" > /dev/null || missing+=("$tool")
	done
	[[ -f $tarball ]] || missing+=("$tarball")
	((${#missing[@]} == 0)) || die "missing: ${missing[*]}
  install: apt-get install gcc-riscv64-linux-gnu libc6-dev-riscv64-cross" \
		"flex bison bc libssl-dev libelf-dev $src_pkg"
}

# Extract the kernel source once (what the builds read: source.sh); again
# only if the package changed.
prepare_source() {
	if stamp_ok source "$pkg_version" && [[ -d $src ]]; then
		return
	fi
	log "extracting $tarball ($src_pkg $pkg_version)"
	rm -rf "$src" "$obj" "$build/perf-obj" "$build/.extract" "$build"/.stamp-* \
		"$build/applied.patch"
	extract_source "$tarball" "$src_pkg" "$build/.extract"
	mv "$build/.extract/$src_pkg" "$src"
	rmdir "$build/.extract"
	stamp_set source "$pkg_version"
}

# A stock build's tree carries no patch (the --fixed build reverts its own,
# see build_fixed). The stamp keeps the cache keys of the kernel and of
# tests/kvm/build.sh; an older tree patched by the former --fixed build,
# which patched a tree of its own, is reverted here.
patch_source() {
	local key applied=$build/applied.patch
	key=$(hash_inputs "$pkg_version")
	if stamp_ok patches "$key"; then
		return
	fi
	if [[ -s $applied ]]; then
		log "reverting the previously applied patches"
		patch -d "$src" -p1 -R -s -f < "$applied" ||
			die "cannot revert $applied; delete $src to extract it again"
	fi
	rm -f "$applied"
	stamp_set patches "$key"
}

# revert_fixed <stock build dir>: undo the patches a --fixed build applied
# to that build's tree (build_fixed; fixed-applied.patch says which).
revert_fixed() {
	local applied=$1/fixed-applied.patch
	[[ -f $applied ]] || return 0
	patch -d "$1/$src_pkg" -p1 -R -s -f < "$applied" ||
		die "cannot revert $applied; delete $1/$src_pkg to extract it again"
	rm -f "$applied"
}

# Linux's perf from the same tree, static and stripped (about 2.7 MB).
# Objects stay in <builddir>/perf-obj; keyed by the make variables and the
# compiler, not by this script, so editing build.sh does not rebuild it.
build_perf() {
	local key plog=$build/perf-build.log start=$SECONDS
	key=$(hash_inputs "$pkg_version" "${perf_vars[*]} $perf_opt" \
		"$("${cross}gcc" --version | head -n1)")
	if stamp_ok perf "$key" && [[ -f $build/perf ]]; then
		log "perf up to date"
		return
	fi
	log "building perf with $(nproc) jobs (full log: $plog)"
	mkdir -p "$build/perf-obj"
	printf '#!/bin/sh\nexec %sgcc "$@" %s\n' "$cross" "$perf_opt" > "$build/perf_cc"
	chmod +x "$build/perf_cc"
	if ! make -C "$src/tools/perf" O="$build/perf-obj" "${perf_vars[@]}" CC="$build/perf_cc" \
		-j"$(nproc)" perf > "$plog" 2>&1; then
		grep -E 'error|Error' "$plog" | head -n 20
		tail -n 20 "$plog"
		die "perf build failed (full log: $plog)"
	fi
	"${cross}strip" -o "$build/perf" "$build/perf-obj/perf"
	stamp_set perf "$key"
	log "perf built in $((SECONDS - start)) s ($(stat -c %s "$build/perf") bytes)"
}

# The initramfs: /init plus the nodes the kernel needs before init runs.
# gen_init_cpio (from the kernel source) makes /dev/console without root.
build_initramfs() {
	local key dir=$build/initramfs
	key=$(hash_inputs "$here/build.sh" "$here/init.c" "$here/workload.c" \
		"$(cat "$build/.stamp-perf")" "$("${cross}gcc" --version | head -n1)")
	if stamp_ok initramfs "$key" && [[ -f $build/initramfs.cpio ]]; then
		log "initramfs up to date"
		return
	fi
	log "building initramfs"
	mkdir -p "$dir"
	"${cross}gcc" -static -O2 -s -Wall -Wextra -o "$dir/init" "$here/init.c"
	"${cross}gcc" -static -O2 -s -Wall -Wextra -pthread -o "$dir/work" \
		"$here/workload.c"
	cc -O2 -o "$dir/gen_init_cpio" "$src/usr/gen_init_cpio.c"
	cat > "$dir/cpio.list" <<-EOF
		dir /dev 0755 0 0
		nod /dev/console 0600 0 0 c 5 1
		dir /proc 0755 0 0
		dir /sys 0755 0 0
		dir /tmp 1777 0 0
		dir /bin 0755 0 0
		file /init $dir/init 0755 0 0
		file /bin/perf $build/perf 0755 0 0
		file /bin/work $dir/work 0755 0 0
	EOF
	# A fixed timestamp keeps the archive identical for identical input.
	"$dir/gen_init_cpio" -t 0 "$dir/cpio.list" > "$dir/initramfs.cpio.new"
	# Replace only on change: the kernel relinks whenever the file is newer.
	if cmp -s "$dir/initramfs.cpio.new" "$build/initramfs.cpio"; then
		rm "$dir/initramfs.cpio.new"
	else
		mv "$dir/initramfs.cpio.new" "$build/initramfs.cpio"
	fi
	stamp_set initramfs "$key"
}

# Every CONFIG_ line of the fragments must appear verbatim in the result;
# "is not set" may also be absent (its dependencies are then off).
verify_config() {
	local frag line name bad=0
	for frag in "$@"; do
		while IFS= read -r line; do
			if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)= ]]; then
				grep -qxF "$line" "$obj/.config" && continue
			elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
				name=${BASH_REMATCH[1]}
				grep -q "^$name=" "$obj/.config" || continue
			else
				continue
			fi
			name=${BASH_REMATCH[1]}
			printf '[linux] config: asked "%s", got "%s"\n' "$line" \
				"$(grep -E "^(# )?$name[= ]" "$obj/.config" || echo absent)" >&2
			bad=1
		done < "$frag"
	done
	((bad == 0)) || die "the kernel config lacks the values above; fix $here/kernel.config"
}

# tinyconfig, then our fragment on top (allnoconfig keeps it minimal).
configure_kernel() {
	local key extra=$build/initramfs.config
	key=$(hash_inputs "$pkg_version" "$here/build.sh" "${fragments[@]}" "$build")
	if stamp_ok config "$key" && [[ -f $obj/.config ]]; then
		return
	fi
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

# Keep make's output in a log; show a line every 100 steps and all warnings.
show_progress() {
	local n=0 line start=$SECONDS
	while IFS= read -r line; do
		printf '%s\n' "$line" >&3
		n=$((n + 1))
		if [[ $line == *warning:* || $line == *error:* ]]; then
			printf '[linux]   %s\n' "$line"
		elif ((n % 100 == 0)); then
			log "kernel: $n steps, $((SECONDS - start)) s, at:$line"
		fi
	done 3> "$1"
}

build_kernel() {
	local key klog=$build/kernel-build.log
	key=$(hash_inputs "$pkg_version" "$here/build.sh" "${fragments[@]}" \
		"$(cat "$build/.stamp-initramfs")" "$(cat "$build/.stamp-patches")" "$build")
	if stamp_ok kernel "$key" && [[ -f $build/Image ]]; then
		log "kernel up to date"
		return
	fi
	configure_kernel
	log "building kernel Image with $(nproc) jobs (full log: $klog)"
	if ! make -C "$src" O="$obj" "${kmake_vars[@]}" -j"$(nproc)" Image 2>&1 |
		show_progress "$klog"; then
		tail -n 40 "$klog"
		die "kernel build failed (full log: $klog)"
	fi
	cp "$obj/arch/riscv/boot/Image" "$build/Image"
	stamp_set kernel "$key"
}

# --fixed: the stock build <base> patched in place with contrib/linux/<kver>,
# built (make rebuilds only what the patches touch, and links), its Image
# taken, the patches reverted and the stock kernel linked again, so <base>
# is left as it was. Keyed by the stock kernel's key and the patches.
build_fixed() {
	local base=$1 key patches=("$repo/contrib/linux/$kver"/*.patch)
	local klog=$build/kernel-build.log start=$SECONDS
	[[ -e ${patches[0]} ]] || die "no patches in $repo/contrib/linux/$kver"
	ln -sfn "$base/$src_pkg" "$build/$src_pkg"	# boot-test.sh reads the kver here
	ln -sfn "$base/initramfs.cpio" "$build/initramfs.cpio"
	key=$(hash_inputs "$(cat "$base/.stamp-kernel")" "${patches[@]}")
	if stamp_ok kernel "$key" && [[ -f $build/Image ]]; then
		log "fixed kernel up to date"
		return
	fi
	log "patching $base's tree: ${patches[*]##*/}"
	cat "${patches[@]}" > "$base/fixed-applied.patch"
	if ! patch -d "$base/$src_pkg" -p1 -s -f < "$base/fixed-applied.patch"; then
		rm -f "$base/fixed-applied.patch"
		die "contrib/linux/$kver does not apply to $base/$src_pkg"
	fi
	log "building the fixed kernel Image in $base/obj (full log: $klog)"
	if ! make -C "$base/$src_pkg" O="$base/obj" "${kmake_vars[@]}" -j"$(nproc)" Image \
		> "$klog" 2>&1; then
		tail -n 40 "$klog"
		revert_fixed "$base"
		rm -f "$base/.stamp-kernel"	# its objects may be the patched ones: link again
		die "fixed kernel build failed (full log: $klog)"
	fi
	cp "$base/obj/arch/riscv/boot/Image" "$build/Image"
	revert_fixed "$base"
	make -C "$base/$src_pkg" O="$base/obj" "${kmake_vars[@]}" -j"$(nproc)" Image \
		>> "$klog" 2>&1 || die "stock kernel relink failed (full log: $klog)"
	stamp_set kernel "$key"
	log "fixed kernel built in $((SECONDS - start)) s"
}

main() {
	kver=${TALLY_KVER:-6.1}
	fixed=0
	while [[ ${1-} == --* ]]; do
		case $1 in
		--kver) kver=${2-}; shift 2 || die "--kver needs a version" ;;
		--kver=*) kver=${1#--kver=}; shift ;;
		--fixed) fixed=1; shift ;;
		*) die "unknown option $1" ;;
		esac
	done
	case $kver in
	6.1) build=${1:-$repo/build/linux$( ((fixed)) && echo -6.1-fixed)} ;;
	6.12) build=${1:-$repo/build/linux-$kver$( ((fixed)) && echo -fixed)} ;;
	*) die "unsupported kernel version '$kver' (6.1 or 6.12)" ;;
	esac
	tarball=/usr/src/linux-source-$kver.tar.xz
	src_pkg=linux-source-$kver
	fragments=("$here/kernel.config")
	[[ ! -f $here/kernel-$kver.config ]] || fragments+=("$here/kernel-$kver.config")
	[[ $kver == 6.1 ]] || perf_vars+=("${perf_vars_new[@]}")
	mkdir -p "$build"
	build=$(cd "$build" && pwd)
	stamps=$build
	# Kconfig strings and kbuild both break on blanks in paths.
	[[ $build != *[[:space:]]* ]] || die "build dir must not contain blanks: $build"
	src=$build/$src_pkg
	obj=$build/obj

	check_tools
	pkg_version=$(dpkg-query -W -f='${Version}' "$src_pkg" 2> /dev/null) ||
		die "package $src_pkg is not installed"
	if ((fixed)); then
		local base=${build%-fixed}
		[[ $base != "$build" ]] ||
			die "--fixed: the build dir must end in -fixed (beside the stock build)"
		"$here/build.sh" --kver "$kver" "$base"
		# an older layout: a patched source tree of its own
		[[ -L $src || ! -d $src ]] || rm -rf "$src" "$obj" "$build/perf-obj"
		build_fixed "$base"
		log "Image:          $build/Image ($(stat -c %s "$build/Image") bytes)"
		return
	fi
	local start=$SECONDS
	prepare_source
	if [[ -f $build/fixed-applied.patch ]]; then
		log "reverting contrib/linux/$kver, left applied by an interrupted --fixed build"
		revert_fixed "$build"
		rm -f "$build/.stamp-kernel"	# link the kernel again from the stock sources
	fi
	patch_source
	build_perf
	build_initramfs
	build_kernel
	log "Linux $kver done in $((SECONDS - start)) s"
	log "Image:          $build/Image ($(stat -c %s "$build/Image") bytes)"
	log "initramfs.cpio: $build/initramfs.cpio ($(stat -c %s "$build/initramfs.cpio") bytes)"
	log "perf:           $build/perf"
}

main "$@"
