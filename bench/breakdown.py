#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Where the instructions go: one call of each measured SBI call, and the
boot, broken down by firmware function and by category.

Runs the bench payload under QEMU with -icount shift=0,sleep=off -singlestep
-d exec,nochain (one log line per executed instruction), finds each series'
first timed ecall (the payload marks each timed call with bench_mark(), see
bench/bench.h; its BENCH-SERIES lines name the marks), and attributes every
instruction from the ecall to the instruction after it to the firmware
function holding its address (the firmware ELF's symbols, from nm), then to
a category:

  trap entry/exit  the ecall, _trap_entry (save, mcause test, restore, mret)
  dispatch         sbi_ecall_handle, the extensions' *_handle, pmu_sbi_call
  validation       S-mode memory range checks, filter-capability checks
  lookup           event matching and the event map
  CSR access       the PMU's CSR hooks (csr_*) and counter read/write/start
  shared memory    copies from and to S-mode memory, snapshot load/save
  handler          the rest of the call's own function(s): argument checks,
                   bookkeeping, encoding
  S-mode           instructions of the payload itself between the ecall and
                   the instruction after it: the SSE round trip's event
                   handler (bench_sse_entry), named "S:<symbol>"; an ecall
                   it makes counts as <ecall> (trap entry/exit)

It also counts the CSR instructions (csr*) executed, wherever they are.
With --boot, the instructions from reset to the first S-mode instruction
per function and category, on QEMU's tree and on the 10,000-row raw map
tree bench/run.sh made, and the difference.

Usage: bench/breakdown.py <builddir> [--calls id,id,...] [--all] [--boot]
       [--fw <fw.bin>]
Prints Markdown. Needs <builddir>/bench/bench.elf (bench/run.sh builds
it; --boot needs its devicetrees: run bench/run.sh first). The QEMU log (up
to a GB for --boot) goes to a temporary file, removed afterwards.
"""
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile

from elfsyms import symbols, tool

# The costly calls, broken down by default (payload series ids).
DEFAULT_CALLS = [
    "unknown_eid", "base_spec_version", "pmu_num_counters", "pmu_get_info",
    "pmu_cfg_match_dtlb", "pmu_start_value", "pmu_stop", "pmu_stop_reset",
    "pmu_fw_read", "pmu_snapshot_stop", "pmu_snapshot_start",
    "pmu_ovf_stop_snapshot", "pmu_ovf_restart_snapshot",
    "pmu_event_info8", "pmu_cfg_match_raw", "sse_inject_complete",
]

CATEGORIES = [
    ("S-mode", [r"S:.*"]),
    ("trap entry/exit", [r"<ecall>", r"_trap_entry"]),
    ("dispatch", [r"sbi_ecall_handle", r"[a-z]+_handle", r"pmu_sbi_call"]),
    ("validation", [r"memmap_smode_range_ok.*", r"smode_shmem_map",
                    r"pmu_filter_capable.*", r"sbi_ext_available"]),
    ("lookup", [r"pmu_event_match.*", r"event_match", r"hw_event_counters.*", r"raw_event_counters.*",
                r"fw_event_match.*", r"board_counters.*", r"pmu_map_.*",
                r"drop_bound_selectors.*"]),
    ("CSR access", [r"csr_.*", r"pmu_counter_read", r"pmu_counter_write",
                    r"pmu_hw_.*", r"pmu_counters_(start|stop)"]),
    ("shared memory", [r"smode_shmem_(read|write)", r"memcpy", r"memmove", r"copy_(up|down)",
                       r"pmu_snapshot_(value|save)", r"save_(counter|many|base_hw|fw_counter)"]),
]
CATEGORY_NAMES = [c for c, _ in CATEGORIES if c != "S-mode"] + ["handler", "S-mode"]

BOOT_CATEGORIES = [
    ("QEMU reset ROM", [r"0x.*"]),
    ("libfdt", [r"fdt_(?!pmu).*", r"_?fdt.*_$"]),
    ("PMU devicetree parser (fdt_pmu)", [r"fdt_pmu.*", r"load_.*", r"read_matrix.*"]),
    ("PMU event map builder", [r"pmu_map_.*", r"merge_stage", r"open_gap", r"add_raw_searched", r"append_in_order"]),
    ("memmove/memcpy/memset", [r"mem(move|cpy|set|cmp|chr)", r"copy_(up|down)", r"str.*"]),
    ("console", [r".*printf.*", r".*print.*", r"uart.*", r"console.*"]),
]
PAYLOAD_START = 0x80200000


def csr_pcs(elf):
    """Addresses of the CSR instructions of an ELF."""
    out = subprocess.run([tool("objdump"), "-d", elf], capture_output=True, text=True).stdout
    pcs = set()
    for line in out.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+[0-9a-f]+\s+(\S+)", line)
        if m and m.group(2).startswith("csr"):
            pcs.add(int(m.group(1), 16))
    return pcs


class Namer:
    """The function holding pc: a firmware symbol, "S:<symbol>" for one of
    the payload's (payload_elf, when given), else the address."""

    def __init__(self, elf, payload_elf=None):
        self.syms = symbols(elf)
        self.addrs = [a for a, _ in self.syms]
        self.psyms = [(a, n) for a, n in symbols(payload_elf) if a >= PAYLOAD_START] \
            if payload_elf else []
        self.paddrs = [a for a, _ in self.psyms]

    def __call__(self, pc):
        if pc >= PAYLOAD_START:
            i = bisect.bisect_right(self.paddrs, pc) - 1
            return "S:" + self.psyms[i][1] if i >= 0 else hex(pc)
        i = bisect.bisect_right(self.addrs, pc) - 1
        return self.syms[i][1] if i >= 0 else hex(pc)


def category(name, table, default):
    for cat, pats in table:
        if any(re.fullmatch(p, name) for p in pats):
            return cat
    return default


def run_qemu(fw, elf, dtb, log, serial):
    cmd = ["qemu-system-riscv64", "-M", "virt", "-cpu", "rv64,sscofpmf=true", "-smp", "1",
           "-icount", "shift=0,sleep=off", "-display", "none", "-monitor", "none",
           "-serial", "file:" + serial, "-singlestep", "-d", "exec,nochain", "-D", log,
           "-bios", fw, "-kernel", elf, "-no-reboot"]
    if dtb:
        cmd += ["-dtb", dtb]
    subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=600, check=False)


PC = re.compile(rb"/([0-9a-f]{16})/")


def pcs_of(log):
    with open(log, "rb") as f:
        for line in f:
            m = PC.search(line)
            if m:
                yield int(m.group(1), 16)


def payload_syms(bench_elf):
    syms = dict((n, a) for a, n in symbols(bench_elf))
    base = syms["bench_ecall"]
    dump = subprocess.run([tool("objdump"), "-d", "--start-address", hex(base),
                           "--stop-address", hex(base + 64), bench_elf],
                          capture_output=True, text=True).stdout
    ecall = None
    for line in dump.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+00000073\s", line)
        if m:
            ecall = int(m.group(1), 16)
            break
    if ecall is None:
        raise SystemExit("no ecall found in bench_ecall")
    return ecall, syms["bench_marks"]


def ecall_pcs(elf):
    """Addresses of the ecall instructions of the payload."""
    out = subprocess.run([tool("objdump"), "-d", elf], capture_output=True, text=True).stdout
    return set(int(m.group(1), 16) for m in
               re.finditer(r"(?m)^\s*([0-9a-f]+):\s+00000073\s", out))


def trace_calls(bdir, fw, fw_elf, wanted):
    """{series id: (total, Counter per function, csr instructions)}.

    A call runs from the timed ecall to the instruction after it, whatever
    happens between: the SSE round trip enters the event handler in S-mode
    (named "S:<symbol>", whose own ecall counts as <ecall>) and comes back
    through the complete call's ecall."""
    bench_elf = os.path.join(bdir, "bench.elf")
    pc_ecall, marks = payload_syms(bench_elf)
    name = Namer(fw_elf, bench_elf)
    ecalls = ecall_pcs(bench_elf)
    csrs = csr_pcs(fw_elf)
    with tempfile.TemporaryDirectory(prefix="tally-breakdown-") as tmp:
        log, serial = os.path.join(tmp, "exec.log"), os.path.join(tmp, "serial.txt")
        run_qemu(fw, bench_elf, None, log, serial)
        ids = {}
        with open(serial, errors="replace") as f:
            for line in f:
                p = line.split()
                if len(p) == 3 and p[0] == "BENCH-SERIES":
                    ids[int(p[1])] = p[2]
        result = {}
        mark, cur, in_marks = None, None, False
        for pc in pcs_of(log):
            if marks <= pc < marks + 4 * 65:
                if not in_marks:
                    mark = ids.get((pc - marks) // 4)
                in_marks = True
                continue
            in_marks = False
            if pc == pc_ecall:
                if mark and mark in wanted and mark not in result:
                    cur = collections.Counter({"<ecall>": 1})
                    ncsr = 0
                    order = ["<ecall>"]
            elif cur is not None:
                if pc == pc_ecall + 4:
                    result[mark] = (sum(cur.values()), cur, ncsr, order)
                    cur, mark = None, None
                    if len(result) == len(wanted):
                        break
                    continue
                fn = "<ecall>" if pc in ecalls else name(pc)
                if fn not in cur:
                    order.append(fn)
                cur[fn] += 1
                ncsr += pc in csrs
    return result


def calls_report(bdir, fw, fw_elf, wanted):
    res = trace_calls(bdir, fw, fw_elf, wanted)
    print("| call | total | " + " | ".join(CATEGORY_NAMES) + " | CSR instr. |")
    print("|---" * (len(CATEGORY_NAMES) + 3) + "|")
    for ident in wanted:
        if ident not in res:
            print(f"| {ident} | not traced |" + " |" * (len(CATEGORY_NAMES) + 1))
            continue
        total, cnt, ncsr, _ = res[ident]
        cats = collections.Counter()
        for fn, n in cnt.items():
            cats[category(fn, CATEGORIES, "handler")] += n
        print(f"| {ident} | {total:,} | " +
              " | ".join(str(cats[c]) for c in CATEGORY_NAMES) + f" | {ncsr} |")
    print()
    print("Per function (in the order first executed):")
    print()
    print("```")
    for ident in wanted:
        if ident in res:
            total, cnt, _, order = res[ident]
            print(f"{ident} {total}: " + ", ".join(f"{fn} {cnt[fn]}" for fn in order))
    print("```")


def boot_profile(bdir, fw, fw_elf, dtb):
    name = Namer(fw_elf)
    cnt = collections.Counter()
    with tempfile.TemporaryDirectory(prefix="tally-breakdown-") as tmp:
        log, serial = os.path.join(tmp, "exec.log"), os.path.join(tmp, "serial.txt")
        run_qemu(fw, os.path.join(bdir, "bench.elf"), dtb, log, serial)
        per_pc = collections.Counter()
        for pc in pcs_of(log):
            if pc >= PAYLOAD_START:
                break
            per_pc[pc] += 1
    for pc, n in per_pc.items():
        cnt[name(pc)] += n
    return cnt


def boot_report(bdir, fw, fw_elf):
    stock = boot_profile(bdir, fw, fw_elf, None)
    big = boot_profile(bdir, fw, fw_elf, os.path.join(bdir, "dtb", "raw-map.dtb"))
    ts, tb = sum(stock.values()), sum(big.values())
    print(f"Reset to the first S-mode instruction: stock tree {ts:,}, "
          f"10,000-row raw map {tb:,} (+{tb - ts:,}, {(tb - ts) / 10000:,.0f} a row).")
    print()
    print("| category | stock | 10,000-row map | difference |")
    print("|---|---|---|---|")
    cs, cb = collections.Counter(), collections.Counter()
    for fn, n in stock.items():
        cs[category(fn, BOOT_CATEGORIES, "other")] += n
    for fn, n in big.items():
        cb[category(fn, BOOT_CATEGORIES, "other")] += n
    for c in sorted(set(cs) | set(cb), key=lambda c: -(cb[c] - cs[c])):
        print(f"| {c} | {cs[c]:,} | {cb[c]:,} | {cb[c] - cs[c]:+,} |")
    print()
    print("Functions that grow most with the map:")
    print()
    print("| function | stock | 10,000-row map | difference |")
    print("|---|---|---|---|")
    diff = sorted(set(stock) | set(big), key=lambda f: -(big[f] - stock[f]))
    for fn in diff[:12]:
        print(f"| {fn} | {stock[fn]:,} | {big[fn]:,} | {big[fn] - stock[fn]:+,} |")


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    out = os.path.abspath(args.pop(0))
    bdir = os.path.join(out, "bench")
    fw = os.path.join(out, "platform/generic/firmware/fw_dynamic.bin")
    wanted, boot = list(DEFAULT_CALLS), False
    while args:
        a = args.pop(0)
        if a == "--calls":
            wanted = args.pop(0).split(",")
        elif a == "--fw":
            fw = args.pop(0)
        elif a == "--boot":
            boot = True
        else:
            print(__doc__, file=sys.stderr)
            return 2
    fw_elf = os.path.splitext(fw)[0] + ".elf"
    for f in (fw, fw_elf, os.path.join(bdir, "bench.elf")):
        if not os.path.exists(f):
            print(f"breakdown: {f} missing (run make and bench/run.sh first)", file=sys.stderr)
            return 1
    print(f"Instructions of one call of each series ({os.path.relpath(fw)}), "
          "from the ecall to the instruction after it:")
    print()
    calls_report(bdir, fw, fw_elf, wanted)
    if boot:
        print()
        boot_report(bdir, fw, fw_elf)
    return 0


if __name__ == "__main__":
    sys.exit(main())
