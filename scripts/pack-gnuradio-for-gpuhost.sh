#!/usr/bin/env bash
# The GNU Radio bundle for the GPU host (.gpuhost/): ../shared/gpuhost/pack,
# with gr-zeromq and pyzmq kept as well (the two-process twin of the packet
# link, qa_packet_link, joins its processes with GNU Radio's ZMQ blocks).
#   scripts/pack-gnuradio-for-gpuhost.sh [OUT_DIR]   (default .gpuhost)
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${GPURX_SHARED:-../shared}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# pack copies its sibling "enter" into OUT_DIR: both go to one folder.
cp "$shared/gpuhost/enter" "$tmp/enter"
sed 's/^keep_gr="\(.*\)"$/keep_gr="\1 zeromq"/' "$shared/gpuhost/pack" > "$tmp/pack"
sed -i 's/^for p in gnuradio pmt /for p in gnuradio pmt zmq /' "$tmp/pack"
grep -q 'zeromq"$' "$tmp/pack" && grep -q '^for p in gnuradio pmt zmq ' "$tmp/pack" ||
    { echo "pack's keep_gr or package line not found: $shared/gpuhost/pack changed"; exit 1; }
bash "$tmp/pack" "${1:-.gpuhost}"
