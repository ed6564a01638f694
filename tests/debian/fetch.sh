#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# Fetch "the 2026 stack": Debian 13's (trixie), trixie-backports' and
# sid's own, unmodified binaries, for the tests of tests/debian (boot.sh, run.sh),
# without touching the host's apt sources, lists or dpkg state: a private
# apt configuration in <dir>/apt (its own sources, lists, status file,
# cache; architectures amd64 and riscv64) resolves the newest versions and
# downloads them, and dpkg-deb extracts each set into a root of its own:
#
#   <dir>/qemu-10.0/   trixie's qemu-system-riscv (amd64) and its library
#                      closure, with ./qemu-system-riscv64: a wrapper that
#                      runs it on that root's own loader and libraries
#   <dir>/qemu-11.1/   the same from trixie-backports
#   <dir>/linux-6.12/  trixie's riscv64 kernel: ./Image (the raw image,
#                      /boot/vmlinux-<ver>), the modules under usr/lib/modules
#   <dir>/linux-7.2/   the newest riscv64 kernel Debian serves, of
#                      trixie-backports or sid (image, binary, modules
#                      packages): ./Image (usr/lib/modules/<ver>/vmlinuz, a
#                      raw Image). Today sid's 7.2.13: backports' 7.3.4 is
#                      indexed for riscv64 but its files are not served
#   <dir>/perf-6.12/, <dir>/perf-7.2/   linux-perf (riscv64) of trixie, and
#                      the newest of trixie-backports or sid (the newest
#                      kernel's own: sid's 7.2.13 today; backports serves
#                      none for riscv64), each with its library closure
#   <dir>/busybox/     busybox-static (riscv64)
#   <dir>/stress-ng/   stress-ng (riscv64) with its library closure
#   <dir>/u-boot/      u-boot-qemu (all)
#   <dir>/opensbi-1.6/ trixie's opensbi (fw_dynamic.bin at the root too)
#   <dir>/qemu-stable, qemu-backports, linux-stable, linux-backports,
#   perf-stable, perf-backports: symbolic links to the version-named roots
#   (the actual versions are resolved at run time; the names above are
#   today's). "backports" names the newer line a Debian 13 user takes:
#   backports' QEMU, and the newest 7.x kernel with its perf, which may be
#   sid's (the versions file says which suite)
#   <dir>/versions     "<root>: <package>=<version>" of the packages asked for
#   <dir>/closure      "<root>: <package>:<arch>=<version>" of all extracted
#
# The versions are resolved again on every run (apt-get update of the
# private lists: a few seconds when nothing changed); when the closure and
# this script are unchanged and every root is there, nothing else is done.
# Without network, an earlier complete fetch is used as it is.
#
# Usage: tests/debian/fetch.sh [<dir>]   (default <repo>/build/debian)
# Environment: TALLY_DEBIAN_MIRROR (default http://deb.debian.org/debian)
# Prints "[debian] ..." progress lines; exits non-zero on failure.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=$(realpath -m "${1:-$repo/build/debian}")
mirror=${TALLY_DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
stable=trixie
backports=trixie-backports
# sid: for the newest kernel and perf only (pinned low: nothing else comes
# from it). A mirror that keeps an old copy of sid has a Release file past
# its Valid-Until (a week); the signature is still checked.
unstable=sid

log() { printf '[debian] %s\n' "$*"; }
die() { printf '[debian] error: %s\n' "$*" >&2; exit 1; }

# shellcheck source=../lib/cache.sh
source "$repo/tests/lib/cache.sh"	# hash_inputs, stamp_ok, stamp_set ($stamps)
stamps=$dir

apt_dir=$dir/apt
debs=$apt_dir/cache/archives

# The private apt configuration: nothing of the host's but the keyring, not
# even /etc/apt/apt.conf.d (a container's docker-clean turns apt's cache
# files off, which makes every apt-cache call a second slower).
setup_apt() {
	mkdir -p "$apt_dir"/{lists/partial,state,sources.list.d,preferences.d,apt.conf.d} "$debs/partial"
	[[ -f $apt_dir/status ]] || : > "$apt_dir/status"
	[[ -f $keyring ]] || die "no $keyring (package debian-archive-keyring)"
	local opts="arch=amd64,riscv64 signed-by=$keyring"
	printf 'deb [%s] %s %s main\n' "$opts" "$mirror" "$stable" "$opts" "$mirror" "$backports" \
		"$opts check-valid-until=no" "$mirror" "$unstable" > "$apt_dir/sources.list"
	printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n' "$unstable" \
		> "$apt_dir/preferences"
	cat > "$apt_dir/apt.conf" <<-EOF
		Dir::Etc::SourceList "$apt_dir/sources.list";
		Dir::Etc::SourceParts "$apt_dir/sources.list.d";
		Dir::Etc::Preferences "$apt_dir/preferences";
		Dir::Etc::PreferencesParts "$apt_dir/preferences.d";
		Dir::State "$apt_dir/state";
		Dir::State::Lists "$apt_dir/lists";
		Dir::State::status "$apt_dir/status";
		Dir::Cache "$apt_dir/cache";
		Dir::Cache::archives "$debs";
		APT::Architecture "amd64";
		APT::Architectures { "amd64"; "riscv64"; };
		APT::Install-Recommends "false";
		APT::Install-Suggests "false";
		Acquire::Languages "none";
		APT::Sandbox::User "root";
		Dir::Etc::Parts "$apt_dir/apt.conf.d";
	EOF
	export APT_CONFIG=$apt_dir/apt.conf
}

# newest <package> <suite>: the newest version of <package> in <suite>
newest() {
	apt-cache madison "$1" | awk -F' *[|] *' -v s="$2" \
		'{ split($3, a, " "); if (a[2] == s "/main") print $2 }' |
		sort -V | tail -n 1
}

# closure <root> <apt-get install args...>: the packages an install from an
# empty system would bring, as "<root>: name:arch=version" lines
closure() {
	local root=$1
	shift
	apt-get -s -q install "$@" 2> "$dir/.sim.err" |
		sed -nE 's/^Inst ([^ ]+) \(([^ ]+) .*\[([a-z0-9]+)\].*/\1 \2 \3/p' |
		while read -r name ver arch; do
			printf '%s: %s:%s=%s\n' "$root" "${name%%:*}" "$arch" "$ver"
		done
	[[ ! -s $dir/.sim.err ]] || ! grep -q '^E:' "$dir/.sim.err" ||
		die "apt cannot resolve $* for $root: $(grep '^E:' "$dir/.sim.err" | head -n 3)"
}

# fetch_now <spec...>: download these name:arch=version now (into the
# cache, where download() finds them); fails if the archive lacks one
fetch_now() {
	local spec name arch ver want=()
	for spec in "$@"; do
		name=${spec%%:*} arch=${spec#*:} arch=${arch%%=*} ver=${spec#*=}
		[[ -f $(deb_file "$name" "$arch" "$ver") ]] && continue
		if [[ $arch == all ]]; then want+=("$name=$ver"); else want+=("$name:$arch=$ver"); fi
	done
	((${#want[@]})) || return 0
	(cd "$debs" && apt-get download -q "${want[@]}") >> "$dir/download.log" 2>&1
}

# The kernel packages of the suites: the newest ABI (linux-image-<abi>-
# riscv64) that one of them has and whose packages the archive serves
# (trixie-backports has indexed riscv64 builds whose files are not there:
# 404), with the split packages of 7.x (binary, modules, base) of the same
# ABI. Prints "<root>: ..." lines.
kernel_set() {	# <suite>...
	local abi kver p v specs suite
	for abi in $(apt-cache pkgnames linux-image- |
		sed -nE 's/^linux-image-([0-9][^-]*)-riscv64$/\1/p' | sort -rV); do
		for suite in "$@"; do
			specs=()
			for p in linux-image linux-binary linux-modules linux-base; do
				v=$(newest "$p-$abi-riscv64:riscv64" "$suite")
				[[ -z $v ]] || specs+=("$p-$abi-riscv64:riscv64=$v")
			done
			((${#specs[@]})) || continue	# not in this suite
			if ! fetch_now "${specs[@]}"; then
				log "$suite: linux $abi riscv64 is indexed but not served ($(grep -oE "[0-9]{3} +[A-Za-z ]+" "$dir/download.log" | tail -n 1)): trying an older one" >&2
				continue
			fi
			kver=$(sed -E 's/^([0-9]+\.[0-9]+).*/\1/' <<< "$abi")
			printf "linux-$kver: %s\n" "${specs[@]}"
			return 0
		done
	done
	die "no riscv64 kernel of $* can be downloaded"
}

# perf_version <suite>...: "<version> <suite>" of the newest linux-perf
# (riscv64) of these suites that the archive serves, or nothing
perf_version() {
	local v s
	while read -r v s; do
		if fetch_now "linux-perf:riscv64=$v"; then
			echo "$v $s"
			return 0
		fi
		log "$s: linux-perf $v riscv64 is indexed but not served" >&2
	done < <(apt-cache madison linux-perf:riscv64 | awk -F' *[|] *' -v s=" $* " \
		'{ split($3, a, " "); sub("/main", "", a[2]);
		   if (index(s, " " a[2] " ")) print $2, a[2] }' | sort -rV)
}

# resolve: the closure manifest of every root, and the versions file
resolve() {
	local q10 q11 p6 p7 k6 k7 v out=$dir/.closure.new
	: > "$out"
	q10=$(newest qemu-system-riscv "$stable")
	q11=$(newest qemu-system-riscv "$backports")
	[[ -n $q10 && -n $q11 ]] || die "no qemu-system-riscv in $stable or $backports"
	qemu_root() { sed -E 's/^([0-9]+:)?([0-9]+\.[0-9]+).*/qemu-\2/' <<< "$1"; }
	closure "$(qemu_root "$q10")" "qemu-system-riscv=$q10" >> "$out"
	closure "$(qemu_root "$q11")" -t "$backports" "qemu-system-riscv=$q11" >> "$out"
	k6=$(kernel_set "$stable")
	k7=$(kernel_set "$backports" "$unstable")
	printf '%s\n%s\n' "$k6" "$k7" >> "$out"
	read -r p6 _ < <(perf_version "$stable") || true
	read -r p7 s7 < <(perf_version "$backports" "$unstable") || true
	[[ -n $p6 ]] || die "no linux-perf (riscv64) of $stable can be downloaded"
	perf_root() { sed -E 's/^([0-9]+\.[0-9]+).*/perf-\1/' <<< "$1"; }
	# perf's perl:any and python3:any are satisfied by amd64 packages: the
	# riscv64 roots take only riscv64 and all (see extract)
	closure "$(perf_root "$p6")" "linux-perf:riscv64=$p6" >> "$out"
	if [[ -n $p7 ]]; then
		closure "$(perf_root "$p7")" -t "$s7" "linux-perf:riscv64=$p7" >> "$out"
	else
		log "no linux-perf (riscv64) of $backports or $unstable can be downloaded: perf-backports is $stable's" >&2
		p7=$p6
	fi
	closure stress-ng "stress-ng:riscv64" >> "$out"
	# leaves: their own package only (a static binary, firmware images)
	printf 'busybox: busybox-static:riscv64=%s\n' "$(newest busybox-static:riscv64 "$stable")" >> "$out"
	printf 'u-boot: u-boot-qemu:all=%s\n' "$(newest u-boot-qemu "$stable")" >> "$out"
	v=$(newest opensbi "$stable")
	printf 'opensbi-%s: opensbi:all=%s\n' "$(sed -E 's/^([0-9]+\.[0-9]+).*/\1/' <<< "$v")" "$v" >> "$out"
	# the roots of the stable and backports suites, for the links
	links=("qemu-stable $(qemu_root "$q10")" "qemu-backports $(qemu_root "$q11")"
		"linux-stable ${k6%%:*}" "linux-backports ${k7%%:*}"
		"perf-stable $(perf_root "$p6")" "perf-backports $(perf_root "$p7")")
	grep -q . "$out" || die "resolved nothing"
	# what was asked for, one line a root
	{
		printf '%s: qemu-system-riscv=%s\n' "$(qemu_root "$q10")" "$q10" "$(qemu_root "$q11")" "$q11"
		sed -nE 's/^(linux-[0-9.]+): (linux-image-[^:]*):riscv64=(.*)/\1: \2=\3/p' "$out"
		printf '%s: linux-perf=%s\n' "$(perf_root "$p6")" "$p6" "$(perf_root "$p7")" "$p7" | sort -u
		sed -nE 's/^(stress-ng: stress-ng|busybox: busybox-static|u-boot: u-boot-qemu|opensbi-[0-9.]+: opensbi):[a-z0-9]+=/\1=/p' "$out"
	} > "$dir/.versions.new"
}

# deb_file <name> <arch> <version>: the file apt stores it as
deb_file() { printf '%s/%s_%s_%s.deb' "$debs" "$1" "${3//:/%3a}" "$2"; }

# download: every package of the closure manifest that is not in the cache
download() {
	local root spec name arch ver want=()
	while read -r root spec; do
		name=${spec%%:*} arch=${spec#*:} arch=${arch%%=*} ver=${spec#*=}
		[[ -f $(deb_file "$name" "$arch" "$ver") ]] && continue
		if [[ $arch == all ]]; then want+=("$name=$ver"); else want+=("$name:$arch=$ver"); fi
	done < "$dir/closure"
	((${#want[@]})) || return 0
	log "downloading ${#want[@]} packages"
	# apt-get download: exactly these (install --download-only would resolve
	# the closure again, and the kernels' would bring initramfs tools)
	mapfile -t want < <(printf '%s\n' "${want[@]}" | sort -u)
	(cd "$debs" && apt-get download -q "${want[@]}") >> "$dir/download.log" 2>&1 ||
		{ tail -n 20 "$dir/download.log"; die "download failed (log: $dir/download.log)"; }
}

# The QEMU wrapper: trixie's binary on the root's own loader and libraries
# (the host's glibc is older); QEMU_MODULE_DIR keeps it off a host QEMU's
# modules. The root has no display or audio modules: QEMU says it cannot
# load them only where asked for them (the callers use -nographic).
write_qemu_wrapper() {	# <root dir>
	local ld
	ld=$(cd "$1" && ls usr/lib64/ld-linux-x86-64.so.2 lib64/ld-linux-x86-64.so.2 \
		usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 2> /dev/null | head -n 1) ||
		true
	[[ -n $ld ]] || die "no ld-linux-x86-64.so.2 in $1"
	cat > "$1/qemu-system-riscv64" <<-EOF
		#!/bin/sh
		# $(basename "$1"): Debian's qemu-system-riscv64 on its own loader and libraries (tests/debian/fetch.sh)
		root=\$(cd "\$(dirname "\$0")" && pwd)
		QEMU_MODULE_DIR=\$root/usr/lib/x86_64-linux-gnu/qemu
		export QEMU_MODULE_DIR
		exec "\$root/$ld" --library-path "\$root/usr/lib/x86_64-linux-gnu" \\
			"\$root/usr/bin/qemu-system-riscv64" -L "\$root/usr/share/qemu" "\$@"
	EOF
	chmod +x "$1/qemu-system-riscv64"
	"$1/qemu-system-riscv64" --version | head -n 1 | grep -q 'QEMU emulator version' ||
		die "$1/qemu-system-riscv64 does not run: $("$1/qemu-system-riscv64" --version 2>&1 | head -n 3)"
}

# extract: each root from nothing, its packages only
extract() {
	local root spec name arch ver roots
	mapfile -t roots < <(cut -d: -f1 "$dir/closure" | sort -u)
	for root in "${roots[@]}"; do
		rm -rf "${dir:?}/$root"
		mkdir -p "$dir/$root"
	done
	while read -r root spec; do
		root=${root%:}
		name=${spec%%:*} arch=${spec#*:} arch=${arch%%=*} ver=${spec#*=}
		# riscv64 roots: no amd64 package (perl:any, python3:any)
		[[ $root == qemu-* || $arch != amd64 ]] || continue
		dpkg-deb -x "$(deb_file "$name" "$arch" "$ver")" "$dir/$root" ||
			die "cannot extract $name $ver"
	done < "$dir/closure"
	for root in "${roots[@]}"; do
		case $root in
		qemu-*) write_qemu_wrapper "$dir/$root" ;;
		linux-*) link_kernel "$dir/$root" ;;
		perf-*) trim_perf "$dir/$root" ;;
		opensbi-*) ln -sfn usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin \
			"$dir/$root/fw_dynamic.bin" ;;
		esac
	done
}

# <root>/Image: the raw image (6.12: boot/vmlinux-<ver>; 7.x:
# usr/lib/modules/<ver>/vmlinuz, a raw Image too); <root>/release: <ver>
link_kernel() {
	local img
	img=$(cd "$1" && ls boot/vmlinux-* usr/lib/modules/*/vmlinuz boot/vmlinuz-* 2> /dev/null |
		head -n 1) || true
	[[ -n $img ]] || die "no kernel image in $1"
	ln -sfn "$img" "$1/Image"
	ls "$1"/usr/lib/modules "$1"/lib/modules 2> /dev/null | grep -m1 '^[0-9]' > "$1/release" || true
	# the image must be a raw RISC-V Image ("RISCV" magic at 0x30)
	[[ $(dd if="$1/Image" bs=1 skip=48 count=5 status=none) == RISCV ]] ||
		die "$1/Image ($img) is not a raw RISC-V Image"
}

# perf at run time needs none of usr/share (docs, perl and python modules
# of perf script, locales) nor the man pages
trim_perf() {
	rm -rf "$1/usr/share/doc" "$1/usr/share/man" "$1/usr/share/locale" \
		"$1/usr/share/lintian" "$1/usr/share/info"
	[[ -n $(compgen -G "$1/usr/bin/perf*") ]] || die "no perf in $1"
}

# The roots and files a complete fetch has.
complete() {
	local root
	[[ -f $dir/closure && -f $dir/versions ]] || return 1
	for root in $(cut -d: -f1 "$dir/closure" | sort -u); do
		[[ -d $dir/$root ]] || return 1
		case $root in
		qemu-*) [[ -x $dir/$root/qemu-system-riscv64 ]] || return 1 ;;
		linux-*) [[ -f $dir/$root/Image ]] || return 1 ;;
		esac
	done
}

# fetch_key <closure file>: the cache key, its packages and this script
fetch_key() { hash_inputs "$(cat "$1")" "$here/fetch.sh"; }

make_links() {
	local l
	for l in "${links[@]}"; do
		ln -sfn "${l#* }" "$dir/${l%% *}"
	done
}

main() {
	local start=$SECONDS key
	mkdir -p "$dir"
	setup_apt
	log "apt-get update ($stable, $backports, $unstable; amd64, riscv64) in $apt_dir"
	if ! apt-get update -q > "$dir/update.log" 2>&1 ||
		grep -qE '^(W|E): (Failed|Some index)' "$dir/update.log"; then
		if complete && stamp_ok fetch "$(fetch_key "$dir/closure")"; then
			log "apt-get update failed (no network?): using the fetch of $(stat -c %y "$dir/versions" | cut -d. -f1)"
			cat "$dir/versions"
			return 0
		fi
		tail -n 10 "$dir/update.log" >&2
		die "apt-get update failed and there is no complete earlier fetch in $dir"
	fi
	: > "$dir/download.log"
	resolve
	key=$(fetch_key "$dir/.closure.new")
	if complete && stamp_ok fetch "$key" && cmp -s "$dir/.closure.new" "$dir/closure"; then
		rm -f "$dir/.closure.new" "$dir/.versions.new"
		make_links
		log "up to date ($((SECONDS - start)) s): $(tr '\n' ';' < "$dir/versions" | sed 's/;$//;s/;/; /g')"
		return 0
	fi
	rm -f "$dir/.stamp-fetch"
	mv "$dir/.closure.new" "$dir/closure"
	mv "$dir/.versions.new" "$dir/versions"
	local t=$SECONDS
	download
	log "downloaded in $((SECONDS - t)) s ($(du -sh "$debs" | cut -f1) of .deb in $debs)"
	t=$SECONDS
	extract
	make_links
	# .debs no root uses any more
	local keep f
	keep=$(while read -r _ spec; do
		n=${spec%%:*} a=${spec#*:} a=${a%%=*} v=${spec#*=}
		deb_file "$n" "$a" "$v"; echo; done < "$dir/closure")
	for f in "$debs"/*.deb; do
		grep -qxF "$f" <<< "$keep" || rm -f "$f"
	done
	stamp_set fetch "$key"
	log "extracted in $((SECONDS - t)) s; done in $((SECONDS - start)) s"
	cat "$dir/versions"
}

main "$@"
