#!/usr/bin/env bash
# The device tool carries at most 64 MiB. Moves what only the build machine
# needs (object files, static libraries, CMake's compiler probes, duplicate
# installed benchmarks) out of build/ into $1, or back with --restore.
#   scripts/trim-build-for-gpuhost.sh /tmp/gpurx-stash
#   scripts/trim-build-for-gpuhost.sh /tmp/gpurx-stash --restore
set -euo pipefail
cd "$(dirname "$0")/.."
stash=${1:?usage: $0 STASH_DIR [--restore]}
if [ "${2:-}" = --restore ]; then
    rsync -a --remove-source-files "$stash"/ build/
    exit 0
fi
mkdir -p "$stash"
# scripts/gpuhost-check.sh runs everything from the build tree (not install/);
# the BER app travels only when asked for (GPURX_CARRY_BER=1).
ber=apps/gpurx-turbo-ber
[ "${GPURX_CARRY_BER:-0}" = 1 ] && ber=none
rsync -a --remove-source-files --include='*/' --include='*.o' --include='*.a' \
      --include='CMakeFiles/3.*/***' --include='install/***' \
      --include="$ber" --exclude='*' build/ "$stash"/
du -sh build
