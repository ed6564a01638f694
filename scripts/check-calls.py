#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""
No circular calls between the firmware's source files.

Reads the firmware's object files with nm: a file calls another when it
leaves undefined a function (text symbol) the other defines.  For each
checked directory the calls among its own files must form no cycle (one
strongly connected component per file), nor may the calls among all of
them; a cycle is printed as one FAIL line naming its files and the
functions that close it.  One more check covers the layers: lib/utils
calls nothing outside it, lib/pmu (the library) nothing but lib/utils.

Usage: scripts/check-calls.py <obj-dir>   (e.g. build/platform/generic/obj)
Prints one PASS/FAIL line per checked directory; exits 1 on any FAIL.
"""
import os
import shutil
import subprocess
import sys

CHECKED = ["lib/sbi", "lib/pmu", "lib/fdt", "lib/utils", "platform"]
# the library layers: each may call only itself and the ones named here
LAYERS = {
    "lib/utils": set(),
    "lib/pmu": {"lib/utils"},
}


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


def symbols(nm, obj):
    """(functions defined, symbols left undefined) of one object."""
    out = subprocess.run([nm, obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TW":
            defined.add(parts[2])
    return defined, undefined


def call_graph(nm, objs):
    """{file: {callee file: [functions]}} over every object given."""
    syms = {src: symbols(nm, obj) for src, obj in objs.items()}
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
    return os.path.dirname(src)


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: check-calls.py <obj-dir>")
    graph = call_graph(nm_tool(), objects(sys.argv[1]))
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
    found = cycles(set(graph), graph)
    for comp in found:
        print("FAIL: calls: lib and platform: circular calls: %s" % describe(comp, graph))
    if found:
        failed = True
    else:
        print("PASS: calls: lib and platform: no circular calls between any of their %d files"
              % len(graph))
    # the library layers call nothing above them
    bad = []
    for src, callees in sorted(graph.items()):
        d = directory_of(src)
        if d not in LAYERS:
            continue
        for callee, funcs in sorted(callees.items()):
            cd = directory_of(callee)
            if cd != d and cd not in LAYERS[d]:
                bad.append("%s -> %s (%s)" % (src, callee, ", ".join(funcs[:3])))
    for b in bad:
        print("FAIL: calls: layers: %s" % b)
    if not bad:
        print("PASS: calls: layers: lib/pmu calls only itself and lib/utils; lib/utils only itself")
    return 1 if failed or bad else 0


if __name__ == "__main__":
    sys.exit(main())
