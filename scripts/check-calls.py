#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""
No circular ties between the firmware's source files, and no tie from a
lower layer up into a higher one.

Three kinds of tie, each from the code itself:
  calls    nm of the firmware's objects: a file calls another when it
           leaves undefined a function (text symbol) the other defines;
  data     the same for a global variable (data, bss or read-only symbol)
           defined in one file and used in another;
  headers  #include lines of the sources and headers: a file includes a
           header; include/tally/X.h belongs to the folder that holds X.c
           (console.h to lib/utils, say), any other header is the ground
           that every folder may include.
For each checked directory the calls among its own files must form no
cycle (one strongly connected component per file), nor may the calls and
writable-data ties among all of them (a table naming a read-only entry
descriptor is a registration, left out of this one check), nor the includes among every source and
header (inline functions make a header part of a circle); a cycle is
printed as one FAIL line naming its files and the symbols that close it.
The layers, lowest first: lib/utils, lib/pmu and lib/fdt, platform,
lib/sbi; a folder ties (calls, data, headers) only to itself and the
folders LAYERS names for it.

Usage: scripts/check-calls.py <obj-dir>   (e.g. build/platform/generic/obj)
Prints one PASS/FAIL line per checked directory; exits 1 on any FAIL.
"""
import functools
import os
import re
import shutil
import subprocess
import sys

CHECKED = ["lib/sbi", "lib/pmu", "lib/fdt", "lib/utils", "platform"]
# the layers: each may tie (call, data, include) only to itself and the ones named here
LAYERS = {
    "lib/utils": set(),
    "lib/pmu": {"lib/utils"},
    "lib/fdt": {"lib/utils", "lib/pmu"},
    "platform": {"lib/utils", "lib/pmu", "lib/fdt"},
}
# nm symbol types that are data: initialised, bss, read-only, small data/bss
DATA_TYPES = "DBRGSV"
# Writable data only: a table naming a read-only descriptor of its entries
# (a board, an extension: nm type R) is how an entry registers itself, a
# one-way reference; the circle check leaves it out, the layers do not.
STATE_TYPES = "DBGSV"


def nm_tool():
    cross = os.environ.get("CROSS_COMPILE")
    names = [cross + "nm"] if cross else ["riscv64-unknown-elf-nm", "riscv64-linux-gnu-nm"]
    for n in names:
        if shutil.which(n):
            return n
    sys.exit("check-calls: no RISC-V nm found (%s)" % ", ".join(names))


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def objects(objdir):
    """Objects of Tally's sources below objdir, as {source path: object}
    (an object whose source is gone is stale, and left out)."""
    found = {}
    for top in ["lib", "platform"]:
        base = os.path.join(objdir, top)
        for dirpath, _, files in os.walk(base):
            for f in files:
                if f.endswith(".o"):
                    obj = os.path.join(dirpath, f)
                    src = os.path.relpath(obj, objdir)[:-2] + ".c"
                    if os.path.exists(os.path.join(ROOT, src)):
                        found[src] = obj
    return found


@functools.cache
def nm_output(nm, obj):
    """nm's listing of one object, run once: three graphs read each object."""
    return subprocess.run([nm, obj], check=True, capture_output=True, text=True).stdout


def symbols(nm, obj, types):
    """(symbols of the given nm types defined, symbols left undefined) of one object."""
    out = nm_output(nm, obj)
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in types:
            defined.add(parts[2])
    return defined, undefined


def call_graph(nm, objs, types="TW"):
    """{file: {callee file: [symbols]}} over every object given: calls
    (types "TW"), or uses of global variables (DATA_TYPES)."""
    syms = {src: symbols(nm, obj, types) for src, obj in objs.items()}
    owner = {}
    for src, (defined, _) in syms.items():
        for s in defined:
            owner[s] = src
    graph = {src: {} for src in syms}
    for src, (_, undefined) in syms.items():
        for s in sorted(undefined):
            callee = owner.get(s)
            if callee and callee != src:
                graph[src].setdefault(callee, []).append(s)
    return graph


def cycles(nodes, edges):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in nodes:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def describe(comp, graph):
    links = []
    for a in comp:
        for b in comp:
            if b in graph[a]:
                links.append("%s -> %s (%s)" % (os.path.basename(a), os.path.basename(b),
                                                 ", ".join(graph[a][b][:3])))
    return "; ".join(links)


def directory_of(src):
    for d in CHECKED:
        if src.startswith(d + "/"):
            return d
    if src.startswith("include/tally/"):
        return header_owner(src)
    return os.path.dirname(src)


INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def header_owner(header):
    """The folder of X.c for include/tally/X.h; "include" (the ground) else."""
    name = os.path.basename(header)[:-2] + ".c"
    for d in CHECKED:
        for dirpath, _, files in os.walk(os.path.join(ROOT, d)):
            if name in files:
                return d
    return "include"


def include_graph():
    """{file: {included file: ["#include"]}} over the sources and headers of
    lib/, platform/ and include/ (headers of this tree only)."""
    files = []
    for top in ["lib", "platform", "include"]:
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            files += [os.path.relpath(os.path.join(dirpath, n), ROOT)
                      for n in names if n.endswith((".c", ".h"))]
    graph = {f: {} for f in files}
    for f in files:
        with open(os.path.join(ROOT, f), errors="replace") as fh:
            text = fh.read()
        for quote, inc in INCLUDE_RE.findall(text):
            cands = [os.path.join("include", inc)]
            if quote == '"':
                cands.insert(0, os.path.normpath(os.path.join(os.path.dirname(f), inc)))
            for c in cands:
                if c in graph and c != f:
                    graph[f].setdefault(c, []).append("#include")
                    break
    return graph


def merge(*graphs):
    out = {}
    for g in graphs:
        for a, bs in g.items():
            for b, names in bs.items():
                out.setdefault(a, {}).setdefault(b, []).extend(names)
            out.setdefault(a, {})
    return out


def layer_ties(graph, kind):
    """FAIL lines for the ties of one kind that run up out of a layer."""
    bad = []
    for src, callees in sorted(graph.items()):
        d = directory_of(src)
        if d not in LAYERS:
            continue
        for callee, names in sorted(callees.items()):
            cd = directory_of(callee)
            if cd not in (d, "include") and cd not in LAYERS[d]:
                bad.append("FAIL: %s: layers: %s -> %s (%s)"
                           % (kind, src, callee, ", ".join(sorted(set(names))[:3])))
    return bad


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: check-calls.py <obj-dir>")
    nm, objs = nm_tool(), objects(sys.argv[1])
    graph = call_graph(nm, objs)
    data = call_graph(nm, objs, DATA_TYPES)
    state = call_graph(nm, objs, STATE_TYPES)
    includes = include_graph()
    failed = False
    for d in CHECKED:
        nodes = {s for s in graph if s.startswith(d + "/")}
        if not nodes:
            print("FAIL: calls: %s: no objects found" % d)
            failed = True
            continue
        found = cycles(nodes, graph)
        for comp in found:
            print("FAIL: calls: %s: circular calls: %s" % (d, describe(comp, graph)))
        if found:
            failed = True
        else:
            print("PASS: calls: %s: no circular calls among its %d files" % (d, len(nodes)))
    # nor any cycle through several directories (lib/sbi -> platform -> lib/sbi)
    both = merge(graph, state)
    found = cycles(set(both), both)
    for comp in found:
        print("FAIL: calls: lib and platform: circular calls or data: %s"
              % describe(comp, both))
    if found:
        failed = True
    else:
        print("PASS: calls: lib and platform: no circular calls or data ties between any of "
              "their %d files" % len(both))
    # nor any cycle of includes, headers included
    found = cycles(set(includes), includes)
    for comp in found:
        print("FAIL: headers: circular includes: %s" % describe(comp, includes))
    if found:
        failed = True
    else:
        print("PASS: headers: no circular includes among %d sources and headers" % len(includes))
    # the lower layers tie to nothing above them
    for kind, g in (("calls", graph), ("data", data), ("headers", includes)):
        bad = layer_ties(g, kind)
        for b in bad:
            print(b)
        if bad:
            failed = True
        else:
            print("PASS: %s: layers: lib/utils ties only to itself; lib/pmu and lib/fdt to "
                  "lib/utils (lib/fdt to lib/pmu too); platform to those; lib/sbi above all"
                  % kind)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
