#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Debian's riscv64 qemu-system-riscv: the VMM that runs inside a riscv64
# KVM host (tests/debian/kvm-guest.sh), with its riscv64 library closure,
# extracted into <dir>/vmm-qemu, from the private apt configuration and
# lists of tests/debian/fetch.sh (which must have run: this script does no
# apt-get update of its own, so it never races fetch.sh on those lists).
#
#   <dir>/vmm-qemu/            the riscv64 and "all" packages of the closure
#                              of qemu-system-riscv:riscv64 (the newest the
#                              lists have for riscv64: trixie's; backports
#                              builds no riscv64 QEMU)
#   <dir>/vmm-qemu/version     qemu-system-riscv:riscv64=<version>
#   <dir>/vmm-qemu.closure     "name:arch=version" of what was extracted
#   <dir>/vmm-debs/            the .deb files (kept: the cache)
# Kept while the closure and this script are unchanged.
#
# Usage: tests/debian/fetch-vmm.sh [<dir>]   (default <repo>/build/debian)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=$(realpath -m "${1:-$repo/build/debian}")
root=$dir/vmm-qemu
debs=$dir/vmm-debs

log() { printf '[debian] %s\n' "$*"; }
die() { printf '[debian] error: %s\n' "$*" >&2; exit 1; }

# shellcheck source=../lib/cache.sh
source "$repo/tests/lib/cache.sh"	# hash_inputs, stamp_ok, stamp_set ($stamps)
stamps=$dir

[[ -f $dir/apt/apt.conf ]] || die "no $dir/apt/apt.conf: run tests/debian/fetch.sh $dir first"
export APT_CONFIG=$dir/apt/apt.conf
start=$SECONDS
# The closure of an install from an empty system; riscv64 and all only
# (apt satisfies some :any dependencies with amd64 packages: not ours).
apt-get -s -q install qemu-system-riscv:riscv64 2> "$dir/.vmm-sim.err" |
	sed -nE 's/^Inst ([^ ]+) \(([^ ]+) .*\[([a-z0-9]+)\].*/\1 \2 \3/p' |
	awk '$3 == "riscv64" || $3 == "all" { n = $1; sub(/:.*/, "", n); print n ":" $3 "=" $2 }' |
	LC_ALL=C sort > "$dir/.vmm-closure.new"
if grep -q '^E:' "$dir/.vmm-sim.err" || ! grep -q '^qemu-system-riscv:riscv64=' "$dir/.vmm-closure.new"; then
	die "apt cannot resolve qemu-system-riscv:riscv64: $(grep '^E:' "$dir/.vmm-sim.err" | head -n 3)"
fi
key=$(hash_inputs "$dir/.vmm-closure.new" "$here/fetch-vmm.sh")
if stamp_ok vmm "$key" && [[ -x $root/usr/bin/qemu-system-riscv64 ]] &&
	cmp -s "$dir/.vmm-closure.new" "$dir/vmm-qemu.closure"; then
	rm -f "$dir/.vmm-closure.new"
	log "vmm-qemu up to date: $(cat "$root/version")"
	exit 0
fi
rm -f "$dir/.stamp-vmm"
mkdir -p "$debs"
want=()
while IFS= read -r spec; do
	name=${spec%%:*} arch=${spec#*:} arch=${arch%%=*} ver=${spec#*=}
	[[ -f $debs/${name}_${ver//:/%3a}_$arch.deb ]] && continue
	if [[ $arch == all ]]; then want+=("$name=$ver"); else want+=("$name:$arch=$ver"); fi
done < "$dir/.vmm-closure.new"
if ((${#want[@]})); then
	log "vmm-qemu: downloading ${#want[@]} packages"
	(cd "$debs" && apt-get download -q "${want[@]}") > "$dir/vmm-download.log" 2>&1 ||
		{ tail -n 20 "$dir/vmm-download.log"; die "download failed (log $dir/vmm-download.log)"; }
fi
rm -rf "$root"
mkdir -p "$root"
while IFS= read -r spec; do
	name=${spec%%:*} arch=${spec#*:} arch=${arch%%=*} ver=${spec#*=}
	dpkg-deb -x "$debs/${name}_${ver//:/%3a}_$arch.deb" "$root" || die "cannot extract $spec"
done < "$dir/.vmm-closure.new"
rm -rf "$root"/usr/share/{doc,man,locale,lintian,info}
grep '^qemu-system-riscv:' "$dir/.vmm-closure.new" > "$root/version"
[[ -x $root/usr/bin/qemu-system-riscv64 ]] || die "no usr/bin/qemu-system-riscv64 in $root"
mv "$dir/.vmm-closure.new" "$dir/vmm-qemu.closure"
stamp_set vmm "$key"
log "vmm-qemu: $(cat "$root/version"), $(wc -l < "$dir/vmm-qemu.closure") packages, $((SECONDS - start)) s"
