#!/bin/sh
# dt-vendor.sh <thead|andes> <in.dts> <out.dts>: QEMU virt's tree made a
# vendor SoC's, for the vendor PMU boards (platform/generic/boards.c,
# board_cpu_table): the root no board matches, every cpu node compatible
# with a T-Head C906 or an Andes AX45MP.  QEMU's harts have none of the
# vendor's PMU CSRs: the firmware must find that out and count only.
set -eu
case $1 in
thead) cpu=thead,c906 ;;
andes) cpu=andestech,ax45mp ;;
*) echo "dt-vendor.sh: unknown vendor $1" >&2; exit 1 ;;
esac
# Andes: the cpus also list xandespmu (riscv,isa), which the firmware must
# take out when it finds no Andes PMU CSRs (Linux keys its PMU on it).
isa=""
[ "$1" != andes ] || isa='s/riscv,isa = "\([^"]*\)"/riscv,isa = "\1_xandespmu"/'
sed -e "s/compatible = \"riscv-virtio\";/compatible = \"tally,test-$1-soc\";/" \
    -e "s/compatible = \"riscv\";/compatible = \"$cpu\", \"riscv\";/" \
    ${isa:+-e "$isa"} "$2" >"$3"
grep -q "\"$cpu\"" "$3"
