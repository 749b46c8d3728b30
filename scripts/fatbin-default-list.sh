#!/usr/bin/env bash
# The device code the default CUDA architecture list puts in
# libgpurx-core.so, measured without a whole build: every .cu of lib/
# compiled as CMake compiles it (the same flags; cuda/turbo_decode_fixed.cu
# with its Blackwell code from compute_90 PTX, GpurxCudaHopperPtx.cmake),
# for GPURX_DEFAULT_CUDA_ARCHITECTURES, and the objects' .nv_fatbin summed
# (scripts/fatbin-bytes.py). The library's size is then its size in a
# one-architecture build less that build's device code, plus this.
#   scripts/fatbin-default-list.sh OUT_DIR [JOBS]
# Needs nvcc (13.0 here) and no GPU; a GPU host's 16 cores make it minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: fatbin-default-list.sh OUT_DIR [JOBS]}
jobs=${2:-$(nproc)}
mkdir -p "$out"
nvcc=${NVCC:-nvcc}
common=(-O3 -DNDEBUG -Xcompiler=-fPIC --fmad=false -lineinfo --expt-relaxed-constexpr -std=c++17
        -DGPURX_HAVE_CUDA=1 -Ilib --threads 0)
# 75-real;80-real;86-real;90-real;100-real;120-real;120-virtual (CMakeLists.txt)
list=(--generate-code=arch=compute_75,code=[sm_75] --generate-code=arch=compute_80,code=[sm_80]
      --generate-code=arch=compute_86,code=[sm_86] --generate-code=arch=compute_90,code=[sm_90]
      --generate-code=arch=compute_100,code=[sm_100] --generate-code=arch=compute_120,code=[sm_120]
      --generate-code=arch=compute_120,code=[compute_120])
fixed=(--generate-code=arch=compute_75,code=[sm_75] --generate-code=arch=compute_80,code=[sm_80]
       --generate-code=arch=compute_86,code=[sm_86] --generate-code=arch=compute_90,code=[sm_90]
       --generate-code=arch=compute_90,code=[sm_100] --generate-code=arch=compute_90,code=[sm_120]
       --generate-code=arch=compute_90,code=[compute_90])
compile() {
    local f=$1 o
    o="$out/$(echo "$f" | tr / _).o"
    if [ "$f" = lib/turbo/cuda/turbo_decode_fixed.cu ]; then
        "$nvcc" "${common[@]}" "${fixed[@]}" -c "$f" -o "$o"
    else
        "$nvcc" "${common[@]}" "${list[@]}" -Xfatbin=-compress-all -c "$f" -o "$o"
    fi
}
files=$(find lib -name '*.cu' | sort)
for f in $files; do
    compile "$f" &
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
done
wait
for f in $files; do
    [ -s "$out/$(echo "$f" | tr / _).o" ] || { echo "FAILED: $f"; exit 1; }
done
python3 scripts/fatbin-bytes.py "$out"/*.o
