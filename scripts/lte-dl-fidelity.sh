#!/usr/bin/env bash
# BLER against SNR of gpurx-lte-dl beside srsRAN's receiver (lte_dl_rx, a
# peer) on the same lte_dl_gen captures: 25 PRB, MCS 9 and 16, TM1 (one
# antenna) and TM3 2x2 (two antennas through the generator's random flat
# 2x2 channel, a new channel per seed), one UE, no HARQ. SNR: the
# generator's per-RE SNR (-N). Prints a markdown table.
# Usage: scripts/lte-dl-fidelity.sh [subframes] [seeds]
set -uo pipefail
n=${1:-200}
seeds=${2:-3}
gen=${GPURX_LTE_DL_GEN:-../shared/peers/lte_dl_gen}
rx=$(dirname "$gen")/lte_dl_rx
ours=${GPURX_LTE_DL:-build/apps/gpurx-lte-dl}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| scheme | MCS | SNR dB | TBs | BLER gr-gpurx | BLER srsRAN |"
echo "|---|---|---|---|---|---|"
point() { # scheme mcs snr
    local tm=$1 mcs=$2 snr=$3 tot=0 ok_ours=0 ok_srs=0
    for s in $(seq 1 "$seeds"); do
        if [ "$tm" = 1 ]; then
            "$gen" -p 25 -x 1 -m "$mcs" -n "$n" -s "$s" -N "$snr" -o "$tmp/c" -j "$tmp/c.jsonl" > /dev/null 2>&1
            in="$tmp/c"; a=1
        else
            "$gen" -p 25 -x 3 -m "$mcs" -n "$n" -s "$s" -N "$snr" -R "$tmp/c" -j "$tmp/c.jsonl" > /dev/null 2>&1
            in="$tmp/c.0,$tmp/c.1"; a=2
        fi
        "$ours" --quiet --input "$in" --rate 7.68e6 --rnti 0x1234 --backend cpu --jsonl "$tmp/o.jsonl" > /dev/null 2>&1
        local line
        line=$(/usr/bin/python3 scripts/lte-dl-compare.py "$tmp/c.jsonl" "$tmp/o.jsonl")
        local exp eq
        exp=$(echo "$line" | sed -n 's/^truth TBs \([0-9]*\):.*/\1/p')
        eq=$(echo "$line" | sed -n 's/.*: \([0-9]*\) decoded equal.*/\1/p')
        local srs
        srs=$("$rx" -i "$tmp/c" -a "$a" -p 25 -c 0 -j "$tmp/c.jsonl" -q 2>/dev/null | sed -n 's/^decoded \([0-9]*\) of \([0-9]*\) TBs.*/\1 \2/p')
        tot=$((tot + exp)); ok_ours=$((ok_ours + eq)); ok_srs=$((ok_srs + ${srs%% *}))
    done
    awk -v t="$tm" -v m="$mcs" -v s="$snr" -v n="$tot" -v a="$ok_ours" -v b="$ok_srs" 'BEGIN {
        printf "| %s | %d | %.1f | %d | %.3f | %.3f |\n", (t == 1 ? "TM1 1x1" : "TM3 2x2"), m, s, n, 1 - a / n, 1 - b / n }'
}
for mcs in 9 16; do
    base=$([ "$mcs" = 9 ] && echo 0 || echo 6)
    for d in 0 1 2 3 4 5; do point 1 "$mcs" $((base + d)); done
done
for mcs in 9 16; do
    base=$([ "$mcs" = 9 ] && echo 0 || echo 6)
    for d in 0 1 2 3 4 5; do point 3 "$mcs" $((base + d)); done
done
