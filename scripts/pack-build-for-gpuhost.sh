#!/usr/bin/env bash
# Packs the build tree for the GPU host: what only the build machine needs is
# stashed (scripts/trim-build-for-gpuhost.sh), the rest goes into
# .devrun/build.tar.xz (about 11 MB, under the device tool's 64 MiB carry),
# and the stash is put back. Then:
#   run  carry: [".devrun", ".gpuhost"]
#        command: bash scripts/gpuhost-check.sh tests bench-turbo ...
# (gpuhost-check.sh unpacks the archive when build/ is not there).
set -euo pipefail
cd "$(dirname "$0")/.."
stash=$(mktemp -d)
GPURX_CARRY_BER=1 scripts/trim-build-for-gpuhost.sh "$stash" >/dev/null
mkdir -p .devrun
# GPURX_PACK_EXCLUDE: tar patterns left behind (e.g. 'build/bench/*' for a
# test-only run, when the archive and the GNU Radio bundle would not fit).
excl=()
for p in ${GPURX_PACK_EXCLUDE:-}; do excl+=(--exclude="$p"); done
tar -cf - "${excl[@]}" build | xz -T0 -3 > .devrun/build.tar.xz
scripts/trim-build-for-gpuhost.sh "$stash" --restore
rmdir "$stash" 2>/dev/null || true
ls -la .devrun/build.tar.xz
