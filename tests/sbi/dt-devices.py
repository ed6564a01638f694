#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""
Rewrites the IPI and timer devices of a QEMU devicetree source (dtc -O dts)
into trees QEMU never builds, for the device-table runs of tests/sbi/run.sh
(the IPI and timer tables of platform/generic/fdt_driver.c):
  imsic-partial <in.dts> <out.dts>     (virt,aia=aplic-imsic) the M-level
                                       IMSIC without its last hart's file
  clint-and-aclint <in.dts> <out.dts>  (virt,aclint=on) a CLINT node over
                                       the ACLINT's registers as well
  mswi-and-clint <in.dts> <out.dts>    (virt,aclint=on) the same, without
                                       the ACLINT MTIMER
"""
import re
import sys

IRQ_M_SOFT, IRQ_M_TIMER, IRQ_M_EXT = 3, 7, 11
CLINT_SIZE = 0x10000    # msip words, mtimecmp array, mtime (SiFive's layout)


def node_re(name):
    """A child of /soc: "\t\t<name>@<unit> { ... };" and the blank line after it."""
    return re.compile(r"\t\t" + name + r"@([0-9a-f]+) \{\n.*?\n\t\t\};\n\n?", re.S)


def cells(node, prop):
    m = re.search(r"\t" + prop + r" = <([^>]*)>;", node)
    if not m:
        sys.exit("dt-devices: no %s in %s" % (prop, node.splitlines()[0].strip()))
    return [int(c, 16) for c in m.group(1).split()]


def set_cells(node, prop, values):
    text = " ".join("0x%02x" % v for v in values)
    return re.sub(r"(\t" + prop + r" = <)[^>]*(>;)", lambda m: m.group(1) + text + m.group(2),
                  node, count=1)


def imsic_partial(s):
    """Drop the last <&intc 11> pair of the M-level IMSIC's interrupts-extended."""
    for b in node_re("imsics").finditer(s):
        ie = cells(b.group(0), "interrupts-extended")
        if ie[1::2] and all(irq == IRQ_M_EXT for irq in ie[1::2]):
            node = set_cells(b.group(0), "interrupts-extended", ie[:-2])
            return s[:b.start()] + node + s[b.end():]
    sys.exit("dt-devices: no M-level IMSIC")


def add_clint(s):
    """A CLINT at the ACLINT MSWI's base, for the MSWI's harts, before it."""
    b = node_re("mswi").search(s)
    if not b:
        sys.exit("dt-devices: no ACLINT MSWI")
    reg = cells(b.group(0), "reg")
    ie = []
    for intc in cells(b.group(0), "interrupts-extended")[0::2]:
        ie += [intc, IRQ_M_SOFT, intc, IRQ_M_TIMER]
    base = reg[0] << 32 | reg[1]
    clint = ("\t\tclint@%x {\n"
             "\t\t\tinterrupts-extended = <%s>;\n"
             "\t\t\treg = <0x00 0x%x 0x00 0x%x>;\n"
             "\t\t\tcompatible = \"sifive,clint0\\0riscv,clint0\";\n"
             "\t\t};\n\n") % (base, " ".join("0x%02x" % c for c in ie), base, CLINT_SIZE)
    return s[:b.start()] + clint + s[b.start():]


def drop_mtimer(s):
    b = node_re("mtimer").search(s)
    if not b:
        sys.exit("dt-devices: no ACLINT MTIMER")
    return s[:b.start()] + s[b.end():]


mode, src, dst = sys.argv[1:4]
s = open(src).read()
if mode == "imsic-partial":
    s = imsic_partial(s)
elif mode == "clint-and-aclint":
    s = add_clint(s)
elif mode == "mswi-and-clint":
    s = add_clint(drop_mtimer(s))
else:
    sys.exit("dt-devices: unknown mode " + mode)
open(dst, "w").write(s)
