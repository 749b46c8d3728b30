#!/usr/bin/env bash
# BLER against SNR of gpurx-lte-dl beside srsRAN's receiver (lte_dl_rx, a
# peer) on the same captures through a fading channel: lte_dl_gen writes its
# transmit ports (-o: no channel, no noise), scripts/lte-fading-channel.py
# (GNU Radio) passes them through a 3GPP TS 36.101 delay profile with Rayleigh
# fading at a Doppler, one independent path per receive antenna and port,
# and adds AWGN; both receivers decode the same files. 25 PRB, one UE, no
# HARQ; TM1 one antenna, TM3 two antennas (2x2, both codewords). SNR: the
# generator's per-RE SNR (-N) of one port at unit mean path gain. A seed is
# a new payload, fading and noise; the fading of a seed is the same at every
# SNR and both MCS. Prints a markdown table of BLER per point (a TB is
# good when its payload equals the truth; the files in which a receiver
# found no cell, of one per seed, beside), then per scheme and MCS the SNR
# at BLER 10% of each receiver (linear interpolation of log10 BLER between
# the last point at or above 10% and the next one; a BLER of 0 counts as
# half a TB) and their difference: over all files, and over the files in
# which both receivers found the cell (PDCCH and PDSCH without the cell
# search).
#
# Usage: scripts/lte-dl-fidelity-fading.sh [subframes] [seeds] [profile] [doppler_hz] [rows]
#   rows: "TM:MCS:SNR_FIRST:SNR_LAST[:STEP] ..." (integer dB, step 1 dB), default the four rows
#   of 25 PRB TM1 and TM3 at MCS 9 and 16 over their EPA 5 Hz waterfalls.
# Environment: GPURX_LTE_DL_GEN (../shared/peers/lte_dl_gen; lte_dl_rx
# beside it), GPURX_LTE_DL (build/apps/gpurx-lte-dl), JOBS (seeds run in
# parallel, 2).
set -uo pipefail
n=${1:-200}
seeds=${2:-4}
profile=${3:-EPA}
doppler=${4:-5}
rows=${5:-"1:9:6:22 1:16:12:28 3:9:4:18 3:16:10:24"}
jobs=${JOBS:-2}
gen=${GPURX_LTE_DL_GEN:-../shared/peers/lte_dl_gen}
rx=$(dirname "$gen")/lte_dl_rx
ours=${GPURX_LTE_DL:-build/apps/gpurx-lte-dl}
py=/usr/bin/python3
scripts=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

worker() { # tm mcs first last step seed: one line per SNR to $tmp/res.<...>
    local tm=$1 mcs=$2 first=$3 last=$4 step=$5 s=$6
    local d="$tmp/w.$tm.$mcs.$s" snrs a ports
    mkdir -p "$d"
    snrs=$(seq -s, "$first" "$step" "$last")
    "$gen" -p 25 -x "$tm" -m "$mcs" -n "$n" -s "$s" -o "$d/p" -j "$d/t.jsonl" > /dev/null 2>&1
    if [ "$tm" = 1 ]; then a=1; ports="$d/p"; else a=2; ports="$d/p.0,$d/p.1"; fi
    "$py" "$scripts/lte-fading-channel.py" --ports-in "$ports" --out "$d/r" --rx "$a" --rate 7.68e6 \
        --profile "$profile" --doppler "$doppler" --snr "$snrs" --seed "$s" 2> /dev/null
    if [ "$first" = "$last" ]; then # one SNR: the channel script writes r, r.0, r.1
        if [ "$a" = 1 ]; then mv "$d/r" "$d/r_$first"; else mv "$d/r.0" "$d/r_$first.0"; mv "$d/r.1" "$d/r_$first.1"; fi
    fi
    for snr in $(seq "$first" "$step" "$last"); do
        local in="$d/r_$snr" line exp eq srs out acq_ours=1 acq_srs=1
        [ "$a" = 2 ] && in="$d/r_$snr.0,$d/r_$snr.1"
        rm -f "$d/o.jsonl"
        out=$("$ours" --quiet --input "$in" --rate 7.68e6 --rnti 0x1234 --backend cpu --front-end cpu \
            --jsonl "$d/o.jsonl" 2>&1)
        echo "$out" | grep -q "^cell [0-9]*:" || acq_ours=0
        touch "$d/o.jsonl"
        line=$("$py" "$scripts/lte-dl-compare.py" "$d/t.jsonl" "$d/o.jsonl")
        exp=$(echo "$line" | sed -n 's/^truth TBs \([0-9]*\):.*/\1/p')
        eq=$(echo "$line" | sed -n 's/.*: \([0-9]*\) decoded equal.*/\1/p')
        out=$("$rx" -i "$d/r_$snr" -a "$a" -p 25 -c 0 -x "$tm" -j "$d/t.jsonl" -q 2>&1)
        echo "$out" | grep -q "no cell found" && acq_srs=0
        srs=$(echo "$out" | sed -n 's/^decoded \([0-9]*\) of \([0-9]*\) TBs.*/\1/p')
        echo "$tm $mcs $snr $s ${exp:-0} ${eq:-0} ${srs:-0} $acq_ours $acq_srs" >> "$tmp/res.$tm.$mcs.$s"
        rm -f "$d"/r_"$snr"*
    done
    rm -rf "$d"
}

for row in $rows; do
    IFS=: read -r tm mcs first last step <<< "$row"
    for s in $(seq 1 "$seeds"); do
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
        worker "$tm" "$mcs" "$first" "$last" "${step:-1}" "$s" &
    done
done
wait

cat "$tmp"/res.* | "$py" -c '
import math, sys
prof, dop = sys.argv[1], sys.argv[2]
files = [tuple(map(int, line.split())) for line in sys.stdin]
name = lambda tm: "TM1 1x1" if tm == 1 else "TM3 2x2"
def curves(both_found):
    pts = {}
    for tm, mcs, snr, s, exp, eq, srs, ao, asr in files:
        t = pts.setdefault((tm, mcs, snr), [0, 0, 0, 0, 0])
        t[3] += 1 - ao; t[4] += 1 - asr
        if both_found and not (ao and asr):
            continue
        t[0] += exp; t[1] += eq; t[2] += srs
    return pts
pts = curves(False)
print("| scheme | channel | MCS | SNR dB | TBs | BLER gr-gpurx | BLER srsRAN | no cell: gr-gpurx | srsRAN |")
print("|---|---|---|---|---|---|---|---|---|")
for (tm, mcs, snr) in sorted(pts):
    n, a, b, na, nb = pts[(tm, mcs, snr)]
    print("| %s | %s %s Hz | %d | %.1f | %d | %.3f | %.3f | %d | %d |" % (
        name(tm), prof, dop, mcs, snr, n, 1 - a / n, 1 - b / n, na, nb))
def cross(c, k):
    last = max((i for i in range(len(c)) if c[i][k] >= 0.1), default=None)
    if last is None or last + 1 >= len(c):
        return None
    (s1, b1), (s2, b2) = (c[last][0], c[last][k]), (c[last + 1][0], c[last + 1][k])
    l1, l2 = math.log10(b1), math.log10(max(b2, 0.5 / c[last + 1][3]))
    return s1 + (math.log10(0.1) - l1) / (l2 - l1) * (s2 - s1)
f = lambda x: "-" if x is None else "%.2f dB" % x
print()
print("| scheme | channel | MCS | files | SNR at BLER 10%: gr-gpurx | srsRAN | gr-gpurx - srsRAN |")
print("|---|---|---|---|---|---|---|")
for both, what in ((False, "all"), (True, "both found the cell")):
    cs = {}
    for (tm, mcs, snr), (n, a, b, na, nb) in sorted(curves(both).items()):
        if n:
            cs.setdefault((tm, mcs), []).append((snr, 1 - a / n, 1 - b / n, n))
    for (tm, mcs), c in sorted(cs.items()):
        x, y = cross(c, 1), cross(c, 2)
        d = "-" if x is None or y is None else "%+.2f dB" % (x - y)
        print("| %s | %s %s Hz | %d | %s | %s | %s | %s |" % (name(tm), prof, dop, mcs, what, f(x), f(y), d))
' "$profile" "$doppler"
