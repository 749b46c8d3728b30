#!/usr/bin/env bash
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Compiles every .cu file of gpurx-core for each architecture with the
# library's flags and -Xptxas -v, and prints a Markdown table of registers,
# spill stores/loads (bytes) and stack frame per kernel and architecture,
# plus the compile time of each file and architecture.
#
#   scripts/ptxas-table.sh [ARCH...]        (default: 75 80 86 87 89 90 100 120)
#   NVCC=/usr/local/cuda/bin/nvcc JOBS=2 scripts/ptxas-table.sh 86 90 > table.md
#
# Each (file, arch) is one nvcc -cubin run; JOBS of them run at once.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
JOBS="${JOBS:-2}"
archs=("$@")
[ ${#archs[@]} -eq 0 ] && archs=(75 80 86 87 89 90 100 120)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mapfile -t files < <(cd "$here" && find lib -name '*.cu' | sort)

compile() { # file arch
    local f="$1" a="$2" tag
    tag="$(echo "$f" | tr '/.' '__')_$a"
    local t0 t1
    t0=$(date +%s.%N)
    "$NVCC" -cubin -O3 -DNDEBUG -DGPURX_HAVE_CUDA=1 -std=c++17 --fmad=false -lineinfo \
        --expt-relaxed-constexpr -I"$here/lib" -arch=sm_"$a" -Xptxas -v \
        -o "$work/$tag.cubin" "$here/$f" > "$work/$tag.log" 2>&1 || { echo "FAILED $f sm_$a" >&2; cat "$work/$tag.log" >&2; }
    t1=$(date +%s.%N)
    echo "$f $a $(echo "$t1 - $t0" | bc)" > "$work/$tag.time"
}
export -f compile
export NVCC here work
for f in "${files[@]}"; do for a in "${archs[@]}"; do echo "$f $a"; done; done |
    xargs -P "$JOBS" -n 2 bash -c 'compile "$0" "$1"'

echo "| file | kernel | $(printf 'sm_%s | ' "${archs[@]}")"
echo "|---|---|$(printf -- '---|%.0s' "${archs[@]}")"
for f in "${files[@]}"; do
    # kernel (demangled, template arguments kept short) -> per arch "R regs / S spill"
    python3 - "$f" "$work" "${archs[@]}" <<'PY'
import re, subprocess, sys
f, work, archs = sys.argv[1], sys.argv[2], sys.argv[3:]
tagbase = f.replace('/', '_').replace('.', '_')
rows = {}
order = []
for a in archs:
    try:
        log = open(f"{work}/{tagbase}_{a}.log").read()
    except FileNotFoundError:
        continue
    cur = None
    for line in log.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            cur = m.group(1)
            if cur not in rows:
                rows[cur] = {}
                order.append(cur)
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and cur:
            rows[cur].setdefault(a, {})["spill"] = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
        m = re.search(r"Used (\d+) registers", line)
        if m and cur:
            rows[cur].setdefault(a, {})["regs"] = int(m.group(1))
if not order:
    sys.exit(0)
names = subprocess.run(["c++filt"], input="\n".join(order), capture_output=True, text=True).stdout.splitlines()
short = {}
for mangled, d in zip(order, names):
    d = re.sub(r"gr::gpurx::core::", "", d)
    d = re.sub(r"\(anonymous namespace\)::", "", d)
    d = re.sub(r"\((?:[^()]|\([^()]*\))*\)$", "", d)  # drop the parameter list
    short[mangled] = d if len(d) < 110 else d[:107] + "..."
for k in order:
    cells = []
    for a in archs:
        v = rows[k].get(a)
        if not v:
            cells.append("-")
            continue
        st, ss, sl = v.get("spill", (0, 0, 0))
        c = f"{v.get('regs', 0)}"
        if ss or sl:
            c += f" **spill {ss}/{sl}**"
        if st:
            c += f" (stack {st})"
        cells.append(c)
    print(f"| {f.split('/')[-1]} | `{short[k]}` | " + " | ".join(cells) + " |")
PY
done
echo
echo "Cells: registers per thread; **spill S/L**: spill stores/loads in bytes per thread; stack: stack frame bytes."
echo
echo "| file | $(printf 'sm_%s s | ' "${archs[@]}")"
echo "|---|$(printf -- '---|%.0s' "${archs[@]}")"
for f in "${files[@]}"; do
    row="| $(basename "$f") |"
    for a in "${archs[@]}"; do
        t=$(awk '{printf "%.1f", $3}' "$work/$(echo "$f" | tr '/.' '__')_$a.time" 2>/dev/null || echo -)
        row="$row $t |"
    done
    echo "$row"
done
echo
echo "Compile seconds per file and architecture (nvcc -cubin, one job of $JOBS in parallel, $(nproc) cores)."
