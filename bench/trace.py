#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Where a call's instructions go: a per-function count of each measured call.

Runs the bench payload once under QEMU with -singlestep -d exec,nochain (one
log line per executed instruction), cuts the log at the payload's timed ecall
and prints, for the first call of each distinct shape, its instruction count
and how many instructions each firmware function executed.

Usage: bench/trace.py <bench.elf> <firmware.bin> [<firmware.elf>] [-dtb <file>]
The firmware ELF (default: the .bin's name with .elf) names the functions.
The QEMU log (a few hundred MB) goes to a temporary file, removed afterwards.
"""
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile

from elfsyms import symbols, tool


def ecall_pc(bench_elf):
    """The address of the ecall inside bench_ecall (the timed region)."""
    syms = dict((name, addr) for addr, name in symbols(bench_elf))
    base = syms["bench_ecall"]
    dump = subprocess.run([tool("objdump"), "-d", "--start-address", hex(base),
                           "--stop-address", hex(base + 64), bench_elf],
                          capture_output=True, text=True).stdout
    for line in dump.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+00000073\s", line)
        if m:
            return int(m.group(1), 16)
    raise SystemExit("no ecall found in bench_ecall")


def main():
    args = sys.argv[1:]
    dtb = None
    if "-dtb" in args:
        i = args.index("-dtb")
        dtb = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    bench_elf, fw = args[0], args[1]
    fw_elf = args[2] if len(args) > 2 else os.path.splitext(fw)[0] + ".elf"
    pc_ecall = ecall_pc(bench_elf)
    syms = symbols(fw_elf)
    addrs = [a for a, _ in syms]

    def fn(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        return syms[i][1] if i >= 0 else hex(pc)

    with tempfile.TemporaryDirectory(prefix="tally-trace-") as tmp:
        log = os.path.join(tmp, "exec.log")
        cmd = ["qemu-system-riscv64", "-M", "virt", "-cpu", "rv64,sscofpmf=true", "-smp", "1",
               "-icount", "shift=0,sleep=off", "-display", "none", "-monitor", "none",
               "-serial", "null", "-singlestep", "-d", "exec,nochain", "-D", log,
               "-bios", fw, "-kernel", bench_elf]
        if dtb:
            cmd += ["-dtb", dtb]
        subprocess.run(cmd, stdin=subprocess.DEVNULL, timeout=300, check=False)
        seen = set()
        cur = None
        n = 0
        pat = re.compile(r"/([0-9a-f]{16})/")
        with open(log) as f:
            for line in f:
                m = pat.search(line)
                if not m:
                    continue
                pc = int(m.group(1), 16)
                if pc == pc_ecall:
                    cur = collections.Counter()
                    order = []
                elif pc == pc_ecall + 4 and cur is not None:
                    key = tuple(order)
                    if key not in seen:
                        seen.add(key)
                        total = sum(cur.values()) + 1
                        parts = ", ".join(f"{k} {cur[k]}" for k in order)
                        print(f"call {n}: {total} instructions (ecall 1, {parts})")
                    n += 1
                    cur = None
                elif cur is not None:
                    name = fn(pc)
                    if name not in cur:
                        order.append(name)
                    cur[name] += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
