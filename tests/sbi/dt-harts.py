#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""
Rewrites the cpu nodes of a QEMU devicetree source (dtc -O dts) for the
hart-index runs of tests/sbi/run.sh:
  reverse <in.dts> <out.dts>          the cpu nodes in reverse order (hart
                                      index i is hart id n-1-i)
  disable-below N <in.dts> <out.dts>  the cpus with hart id below N disabled
"""
import re
import sys

mode = sys.argv[1]
limit = int(sys.argv[2]) if mode == "disable-below" else 0
src, dst = sys.argv[-2:]
s = open(src).read()
blocks = list(re.finditer(r"\t\tcpu@([0-9a-f]+) \{\n.*?\n\t\t\};\n\n", s, re.S))
if not blocks:
    sys.exit("dt-harts: no cpu nodes in " + src)
if mode == "reverse":
    start, end = blocks[0].start(), blocks[-1].end()
    s = s[:start] + "".join(b.group(0) for b in reversed(blocks)) + s[end:]
elif mode == "disable-below":
    for b in reversed(blocks):
        if int(b.group(1), 16) < limit:
            node = b.group(0).replace('status = "okay";', 'status = "disabled";')
            s = s[:b.start()] + node + s[b.end():]
else:
    sys.exit("dt-harts: unknown mode " + mode)
open(dst, "w").write(s)
