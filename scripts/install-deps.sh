#!/usr/bin/env bash
# Installs the Debian packages Tally needs, when any is missing.  Called by
# scripts/tally (the README's commands) and `make deps`; fast when all are
# there (one dpkg-query for the whole list).
# Usage: scripts/install-deps.sh [--check]   (--check: report, install nothing)
set -euo pipefail

# compilers (clang with its runtime for the fuzz targets), QEMU, dtc, libfdt (host), the Linux sources (libfdt for the firmware,
# Linux and perf for the tests), OpenSBI 1.1 to compare with, kernel build tools
packages=(
	gcc-riscv64-unknown-elf
	gcc-riscv64-linux-gnu
	libc6-dev-riscv64-cross
	qemu-system-misc
	device-tree-compiler
	libfdt-dev
	linux-source-6.1
	linux-source-6.12
	opensbi
	flex bison bc libssl-dev libelf-dev cpio xz-utils
	rsync				# headers_install (make headers) for the KVM selftests
	gcc make python3
	clang libclang-rt-14-dev	# libFuzzer + ASan/UBSan (tests/fuzz, tests/trace)
)

missing=()
declare -A installed=()
while read -r name status; do
	[[ $status == "install ok installed" ]] && installed[${name%%:*}]=1
done < <(dpkg-query -W -f='${Package} ${Status}\n' "${packages[@]}" 2>/dev/null || true)
for p in "${packages[@]}"; do
	[[ -n ${installed[$p]:-} ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
	exit 0
fi
if [[ ${1:-} == --check ]]; then
	echo "missing packages: ${missing[*]}"
	exit 1
fi

echo "Installing: ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then
	sudo="sudo"
fi
# gcc-riscv64-unknown-elf may be unavailable on some mirrors: the Makefile
# falls back to gcc-riscv64-linux-gnu, so try it separately.
others=()
want_elf=0
for p in "${missing[@]}"; do
	if [[ $p == gcc-riscv64-unknown-elf ]]; then want_elf=1; else others+=("$p"); fi
done
$sudo apt-get update -qq
export DEBIAN_FRONTEND=noninteractive
if [[ ${#others[@]} -gt 0 ]]; then
	$sudo apt-get install -y -qq --no-install-recommends "${others[@]}"
fi
if [[ $want_elf -eq 1 ]]; then
	$sudo apt-get install -y -qq --no-install-recommends gcc-riscv64-unknown-elf ||
		echo "gcc-riscv64-unknown-elf not installable; using riscv64-linux-gnu-gcc"
fi
