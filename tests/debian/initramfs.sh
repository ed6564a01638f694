#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# The initramfs of the Debian-stack boots (tests/debian/boot.sh), one per
# perf root that tests/debian/fetch.sh extracted (<dir>/perf-6.12, ...):
#   /init         the project's static test init (tests/linux/init.c)
#   /bin/work     its workloads (tests/linux/workload.c), static
#   /bin/perf     a link to /usr/bin/perf: Debian's own perf, dynamically
#                 linked, with exactly the libraries it needs (its ELF
#                 closure, found with readelf) at their Debian paths
#                 (/usr/lib/riscv64-linux-gnu, /lib -> usr/lib), Debian's
#                 loader among them
#   /bin/busybox  busybox-static, as /bin/sh and a few tools
# Nothing of usr/share, perl's or python's modules: perf needs them only
# for perf script's scripting, which the tests do not use.
#
# Usage: tests/debian/initramfs.sh [<dir>]   (default <repo>/build/debian)
# Writes <dir>/initramfs/<perf root>.cpio.gz, and initramfs/perf-stable.cpio.gz
# and perf-backports.cpio.gz links after fetch.sh's perf-* links. Each is
# kept while its inputs (init.c, workload.c, this script, the packages of
# its roots, the compiler) are the same.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=$(realpath -m "${1:-$repo/build/debian}")
cross=riscv64-linux-gnu-

log() { printf '[debian] %s\n' "$*"; }
die() { printf '[debian] error: %s\n' "$*" >&2; exit 1; }

# shellcheck source=../lib/cache.sh
source "$repo/tests/lib/cache.sh"	# hash_inputs, build_kept ($stamps)
out=$dir/initramfs
stamps=$out

# shellcheck source=elf.sh
source "$here/elf.sh"	# multiarch, find_lib, elf_closure

# The static programs: compiled once, for every initramfs.
build_static() {
	mkdir -p "$out/static"
	"${cross}gcc" -static -O2 -s -Wall -Wextra -o "$out/static/init" "$repo/tests/linux/init.c" -lm
	"${cross}gcc" -static -O2 -s -Wall -Wextra -pthread -o "$out/static/work" \
		"$repo/tests/linux/workload.c"
}

# make_one <perf root name>: <out>/<name>.cpio.gz
make_one() {
	local name=$1 root=$dir/$1 stage=$out/$1.stage lib applet size interp
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,dev,proc,sys,tmp,usr/bin,usr/lib/$multiarch,etc}
	chmod 1777 "$stage/tmp"
	ln -s usr/lib "$stage/lib"
	cp "$out/static/init" "$stage/init"
	cp "$out/static/work" "$stage/bin/work"
	cp "$root/usr/bin/perf" "$stage/usr/bin/perf"
	ln -s ../usr/bin/perf "$stage/bin/perf"
	elf_closure "$root" "$root/usr/bin/perf" > "$stage.closure" || die "perf's libraries"
	while read -r lib; do
		mkdir -p "$stage/$(dirname "$lib")"
		cp -L "$root/$lib" "$stage/$lib"
	done < <(sort -u "$stage.closure")
	rm -f "$stage.closure"
	# the loader at the path the executable names (/lib/ld-linux-...: /lib is usr/lib)
	interp=$(readelf -l "$root/usr/bin/perf" | sed -nE 's/.*interpreter: (.*)\]/\1/p')
	interp=usr/lib/${interp#/lib/}
	[[ -e $stage/$interp ]] || ln -s "$multiarch/${interp##*/}" "$stage/$interp"
	cp "$dir/busybox/usr/bin/busybox" "$stage/bin/busybox"
	for applet in sh cat ls dmesg ps mount uname grep; do
		ln -s busybox "$stage/bin/$applet"
	done
	# the device the kernel opens for init's output (init.c copes without it)
	if (($(id -u) == 0)); then
		mknod -m 600 "$stage/dev/console" c 5 1
	fi
	# a fixed time on every file: the same input makes the same archive
	find "$stage" -exec touch -h -d @0 {} +
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --reproducible --quiet) | gzip -n -6 > "$out/$name.cpio.gz.new"
	mv "$out/$name.cpio.gz.new" "$out/$name.cpio.gz"
	size=$(du -sm "$stage" | cut -f1)
	rm -rf "$stage"
	log "initramfs $name: $out/$name.cpio.gz ($(($(stat -c %s "$out/$name.cpio.gz") / 1048576)) MB, $size MB unpacked)"
}

main() {
	local start=$SECONDS roots=() r key cc link
	[[ -f $dir/closure ]] || die "no $dir/closure: run tests/debian/fetch.sh $dir first"
	command -v "${cross}gcc" > /dev/null || die "no ${cross}gcc (scripts/install-deps.sh)"
	command -v cpio > /dev/null || die "no cpio (scripts/install-deps.sh)"
	mkdir -p "$out"
	cc=$("${cross}gcc" --version | head -n 1)
	build_kept static "$(hash_inputs "$repo/tests/linux/init.c" "$repo/tests/linux/workload.c" \
		"$here/initramfs.sh" "$cc")" "$out/static/init" "$out/static/work" -- build_static
	mapfile -t roots < <(cut -d: -f1 "$dir/closure" | grep '^perf-' | sort -u)
	((${#roots[@]})) || die "no perf root in $dir/closure"
	for r in "${roots[@]}"; do
		key=$(hash_inputs "$(cat "$out/.stamp-static")" "$here/elf.sh" \
			"$(grep -E "^($r|busybox):" "$dir/closure")")
		build_kept "$r" "$key" "$out/$r.cpio.gz" -- make_one "$r"
		[[ -z $kept ]] || log "initramfs $r: kept ($out/$r.cpio.gz)"
	done
	for link in perf-stable perf-backports; do
		[[ -L $dir/$link ]] || continue
		ln -sfn "$(readlink "$dir/$link").cpio.gz" "$out/$link.cpio.gz"
	done
	log "initramfs done in $((SECONDS - start)) s"
}

main "$@"
