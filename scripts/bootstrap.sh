#!/usr/bin/env bash
# gr-gpurx set-up on a fresh Debian 12 machine (the only system tried:
# docs/fresh-debian12.md).
#
#   scripts/bootstrap.sh demo   install what is missing, build, run the demo
#                               (gpurx-info, then an LTE turbo link in a flowgraph)
#   scripts/bootstrap.sh test   install what is missing, build, run every test
#
# Builds in ./build (CUDA parts when nvcc is found at /usr/local/cuda or on
# PATH) and installs into ./build/install. Uses /usr/bin/python3, GNU Radio's
# Python, whatever python3 comes first on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-demo}

packages="cmake g++ make pkg-config gnuradio-dev pybind11-dev libvolk2-dev libfftw3-dev libgtest-dev
          libspdlog-dev libfmt-dev libgmp-dev nlohmann-json3-dev python3-numpy python3-yaml
          python3-matplotlib"
missing=""
for p in $packages; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "== installing:$missing"
    sudo_=""
    [ "$(id -u)" = 0 ] || sudo_=sudo
    $sudo_ apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq --no-install-recommends $missing
fi

echo "== configuring and building (build/)"
mkdir -p build
# CUDA_ARCHITECTURES (environment) overrides the default architecture list,
# e.g. CUDA_ARCHITECTURES=90-real for a shorter build (docs/cuda-architectures.md).
arch_arg=()
[ -n "${CUDA_ARCHITECTURES:-}" ] && arch_arg=(-DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCHITECTURES")
if ! cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$PWD/build/install" \
      -DPYTHON_EXECUTABLE=/usr/bin/python3 "${arch_arg[@]}" >build/configure.log 2>&1; then
    cat build/configure.log
    exit 1
fi
grep -E "CUDA backend" build/configure.log || true
cmake --build build -j"$(nproc)"
cmake --install build >/dev/null

case $what in
  demo)
    # The library needs no LD_LIBRARY_PATH (RUNPATH); Python needs the prefix's site-packages.
    export PYTHONPATH="$(ls -d "$PWD"/build/install/lib/python3*/*-packages | head -1):${PYTHONPATH:-}"
    echo "== gpurx-info"
    build/install/bin/gpurx-info
    echo "== LTE turbo link in a flowgraph (examples/lte_turbo_ber.py), default backend"
    /usr/bin/python3 examples/lte_turbo_ber.py --K 6144 --frames 64 --ebn0 1.2 --check
    ;;
  test)
    echo "== unit tests and QA (ctest, all but the install check)"
    status=0
    (cd build && ctest --output-on-failure -j2 -LE install) || status=$?
    echo "== CUDA test cases not run here, and why:"
    grep -h "^skipped:" build/Testing/Temporary/LastTest.log | sort | uniq -c || echo "   (none skipped)"
    # Apart: it installs the tree into a scratch prefix and builds and runs a
    # consumer against it, as a packager or an application would.
    echo "== install check (ctest -L install)"
    (cd build && ctest --output-on-failure -L install) || status=$?
    exit $status
    ;;
  *) echo "usage: $0 demo|test" >&2; exit 2 ;;
esac
