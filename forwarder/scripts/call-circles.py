#!/usr/bin/env python3
"""Call circles among object files, from their symbols (nm), as a TAP test.

  scripts/call-circles.py OBJDIR [NAME]

File A uses file B when A's object leaves undefined a global symbol (function or
variable) that B's object defines. A circle is a set of two or more files each of
which reaches every other one along such uses (a strongly connected component),
or a file that uses itself (impossible with nm, so not checked). Prints one TAP
line; on a circle it names every file of it and the symbols that tie them.
"""
import os
import subprocess
import sys


def symbols(obj):
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        name, kind = f[0], f[1]
        if kind == "U":
            undefined.add(name)
        elif kind in "TDBRVWCG" or kind in "i":
            defined.add(name)
    return defined, undefined


def sccs(nodes, edges):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
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
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    objdir = sys.argv[1]
    name = sys.argv[2] if len(sys.argv) > 2 else "no_call_circle_among_forwarder_src_files"
    objs = []
    for root, _, files in os.walk(objdir):
        objs += [os.path.join(root, f) for f in files if f.endswith(".o")]
    if not objs:
        print("1..1\nnot ok 1 - %s # no object files under %s" % (name, objdir))
        return 1
    defs, undefs, owner = {}, {}, {}
    for o in objs:
        rel = os.path.relpath(o, objdir)[:-2] + ".c"
        defs[rel], undefs[rel] = symbols(o)
        for s in defs[rel]:
            owner[s] = rel
    edges, ties = {}, {}
    for f, us in undefs.items():
        for s in us:
            g = owner.get(s)
            if g is not None and g != f:
                edges.setdefault(f, set()).add(g)
                ties.setdefault((f, g), []).append(s)
    circles = [c for c in sccs(defs.keys(), edges) if len(c) > 1]
    print("1..1")
    print("# %d files, %d uses between them" % (len(defs), sum(len(e) for e in edges.values())))
    for c in circles:
        print("# circle: " + " ".join(c))
        for f in c:
            for g in c:
                if (f, g) in ties:
                    print("#   %s -> %s: %s" % (f, g, ", ".join(sorted(ties[f, g]))))
    print("%sok 1 - %s" % ("not " if circles else "", name))
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main())
