#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tabulate `ptxas -v` output (registers, spills, stack per kernel and
architecture) as Markdown. Input: logs of nvcc runs with -Xptxas -v, either
one per file (scripts/ptxas-table.sh) or a whole build log made with
-DCMAKE_CUDA_FLAGS="-Xptxas -v" (Ninja/Make print "Building CUDA object
.../X.cu.o" before each file's output).

  ptxas-table.py --build-log build.log
  ptxas-table.py --file lib/x.cu x_86.log [--file lib/x.cu x_90.log ...]
"""
import argparse
import re
import subprocess
import sys
from collections import OrderedDict


def parse(text, file_name, rows):
    cur = None
    for line in text.splitlines():
        m = re.search(r"Building CUDA object .*?([^/ ]+\.cu)\.o", line)
        if m:
            file_name = m.group(1)
            continue
        m = re.search(r"Compiling entry function '([^']+)' for '(sm_\d+[af]?)'", line)
        if m:
            # A parallel build interleaves files: a kernel in an anonymous
            # namespace names its file in its mangled name; trust that first.
            fm = re.search(r"_GLOBAL__N__[0-9a-f]+_\d+_(\w+?)_cu_[0-9a-f]+", m.group(1))
            file_name = fm.group(1) + ".cu" if fm else file_name
            cur = (file_name, m.group(1), m.group(2))
            rows.setdefault((file_name, m.group(1)), {}).setdefault(m.group(2), {})
            continue
        if cur is None:
            continue
        cell = rows[(cur[0], cur[1])][cur[2]]
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            cell["stack"], cell["ss"], cell["sl"] = map(int, m.groups())
        m = re.search(r"Used (\d+) registers", line)
        if m:
            cell["regs"] = int(m.group(1))


def short_names(mangled):
    out = subprocess.run(["c++filt"], input="\n".join(mangled), capture_output=True, text=True).stdout.splitlines()
    res = {}
    for k, d in zip(mangled, out):
        d = d.replace("gr::gpurx::core::", "").replace("(anonymous namespace)::", "")
        d = re.sub(r"\((?:[^()]|\([^()]*\))*\)$", "", d)
        d = d.replace("std::integral_constant<", "ic<")
        res[k] = d if len(d) <= 100 else d[:97] + "..."
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-log", action="append", default=[])
    ap.add_argument("--file", nargs=2, action="append", default=[], metavar=("CU", "LOG"))
    ap.add_argument("--spills-only", action="store_true", help="only kernels that spill somewhere")
    a = ap.parse_args()
    rows = OrderedDict()
    for log in a.build_log:
        parse(open(log, errors="replace").read(), "?", rows)
    for cu, log in a.file:
        parse(open(log, errors="replace").read(), cu.split("/")[-1], rows)
    archs = sorted({ar for v in rows.values() for ar in v}, key=lambda s: int(re.sub(r"\D", "", s)))
    names = short_names([k[1] for k in rows])
    print("| file | kernel | " + " | ".join(archs) + " |")
    print("|---|---|" + "---|" * len(archs))
    spilling = 0
    for (f, k), per in rows.items():
        spills = any(c.get("ss", 0) or c.get("sl", 0) for c in per.values())
        spilling += spills
        if a.spills_only and not spills:
            continue
        cells = []
        for ar in archs:
            c = per.get(ar)
            if not c:
                cells.append("-")
                continue
            t = str(c.get("regs", 0))
            if c.get("ss", 0) or c.get("sl", 0):
                t += " **spill %d/%d**" % (c["ss"], c["sl"])
            if c.get("stack", 0):
                t += " (stack %d)" % c["stack"]
            cells.append(t)
        print("| %s | `%s` | %s |" % (f, names[k], " | ".join(cells)))
    print()
    print("%d kernels x %d architectures; %d kernels spill on some architecture. "
          "Cells: registers per thread; **spill S/L**: spill stores/loads, bytes per thread; "
          "stack: stack frame bytes." % (len(rows), len(archs), spilling))


if __name__ == "__main__":
    main()
