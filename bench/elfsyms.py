# SPDX-License-Identifier: BSD-2-Clause
"""The cross binutils and an ELF's function symbols, for bench/trace.py and
bench/breakdown.py."""
import os
import shutil
import subprocess


def tool(name):
    """The cross binutils' <name>, as bench/run.sh picks them."""
    cross = os.environ.get("CROSS_COMPILE")
    if not cross:
        cross = "riscv64-unknown-elf-" if shutil.which("riscv64-unknown-elf-nm") \
            else "riscv64-linux-gnu-"
    return cross + name


def symbols(elf):
    """(address, name) of every text symbol, in address order."""
    out = subprocess.run([tool("nm"), "-n", elf], capture_output=True, text=True).stdout
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTW":
            syms.append((int(f[0], 16), f[2]))
    return syms
