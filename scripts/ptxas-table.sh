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
#   FILES="lib/turbo/cuda/turbo_decode_fixed.cu" scripts/ptxas-table.sh 75 86 90
# From a whole build made with -DCMAKE_CUDA_FLAGS="-Xptxas -v" instead:
#   scripts/ptxas-table.py --build-log build.log
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
if [ -n "${FILES:-}" ]; then read -r -a files <<< "$FILES"
else mapfile -t files < <(cd "$here" && find lib -name '*.cu' | sort); fi

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

args=()
for f in "${files[@]}"; do
    for a in "${archs[@]}"; do
        args+=(--file "$f" "$work/$(echo "$f" | tr '/.' '__')_$a.log")
    done
done
python3 "$here/scripts/ptxas-table.py" "${args[@]}"
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
