# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
# Sourced by tests/linux/build.sh and build-rv32.sh.
#
# extract_source <tarball> <package> <dir>: Debian's kernel source tree into
# <dir>/<package>, less files no test build reads (the kernels, perf, the
# KVM selftests): the documentation below Documentation/ (its top-level
# Kconfig stays: Kconfig reads it), the C and assembly sources and the
# devicetrees of the architectures other than riscv and x86 (their Kconfig
# files, headers and syscall tables stay: Kconfig and perf read them), and
# the C sources and headers of the subsystems the test configs leave out
# (their Kconfig files and Makefiles stay: Kconfig and kbuild read them).
# Every file a build reads is extracted as shipped, so the kernels, perf and
# the selftests are the ones the whole tree gives.  (The list was checked
# against the files the builds of 6.1, 6.12 and RV32 read: none is in it.)
#
# Why: the tree is 86,000 files; this leaves out about 50,000.  Creating a
# file costs 0.7 ms of system time on the 2-core test machine's ext4 (tmpfs:
# 0.07 ms), so the whole tree took 56 to 77 s of CPU to extract there.
# A test config that enables one of these subsystems fails to build with a
# missing file: take it out of the lists below and delete the source tree
# (the next build extracts it again).
source_skipped_drivers=(gpu net media staging scsi usb iio infiniband pinctrl crypto
	misc video input acpi mtd platform hwmon mfd phy accel hid s390 soc md)
source_skipped_fs=(xfs btrfs bcachefs smb ocfs2 nfs)
source_skipped_arches=(alpha arc arm arm64 csky hexagon ia64 loongarch m68k microblaze
	mips nios2 openrisc parisc powerpc s390 sh sparc um xtensa)

extract_source() {
	local tarball=$1 pkg=$2 dir=$3 name excludes=()
	excludes+=("$pkg/Documentation/*/*" "$pkg/sound/*.[ch]" "$pkg/net/*.[ch]")
	for name in "${source_skipped_drivers[@]}"; do
		excludes+=("$pkg/drivers/$name/*.[ch]")
	done
	for name in "${source_skipped_fs[@]}"; do
		excludes+=("$pkg/fs/$name/*.[ch]")
	done
	for name in "${source_skipped_arches[@]}"; do
		excludes+=("$pkg/arch/$name/*.[cS]" "$pkg/arch/$name/boot/dts")
	done
	mkdir -p "$dir"
	# xz -T0: the archive is compressed in blocks, so every core decompresses
	tar -C "$dir" -I 'xz -T0' -xf "$tarball" --anchored "${excludes[@]/#/--exclude=}"
}
