# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
#
# Sourced by tests/debian's scripts that put Debian's dynamically linked
# riscv64 programs (perf, stress-ng, the VMM) into an initramfs: which
# libraries a program needs, found in the root fetch.sh extracted it to.

multiarch=riscv64-linux-gnu

# find_lib <root> <soname>: its path in the root, from the library directories
find_lib() {
	local d
	for d in usr/lib/$multiarch lib/$multiarch usr/lib lib; do
		[[ -e $1/$d/$2 ]] && { echo "$d/$2"; return 0; }
	done
	return 1
}

# elf_closure <root> <file...>: every library these ELF files need
# (readelf's NEEDED, transitively) and the loader the first one names
# (PT_INTERP), as paths in the root, one a line; non-zero and a message on
# stderr when one is not in the root.
elf_closure() {
	local root=$1 f lib path
	local -A seen=()
	local todo=("${@:2}")
	while ((${#todo[@]})); do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		while read -r lib; do
			[[ -z ${seen[$lib]-} ]] || continue
			seen[$lib]=1
			path=$(find_lib "$root" "$lib") ||
				{ echo "$root: ${f#"$root"/} needs $lib, not in the root" >&2; return 1; }
			echo "$path"
			todo+=("$root/$path")
		done < <(readelf -d "$f" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p')
	done
	lib=$(readelf -l "$2" | sed -nE 's/.*interpreter: (.*)\]/\1/p')
	lib=${lib##*/}
	find_lib "$root" "$lib" || { echo "$root: no loader $lib" >&2; return 1; }
}
