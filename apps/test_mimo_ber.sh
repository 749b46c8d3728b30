#!/usr/bin/env bash
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# ctest gpurx_mimo_ber_app: gpurx-mimo-ber's command line and one short run
# per detector on the CPU backend (a few seconds).
#   test_mimo_ber.sh path/to/gpurx-mimo-ber
# A wrong LLR sign, bit order or scale anywhere between the mapper, the
# detectors and the turbo decoder turns the high-SNR point's zero errors into
# about half the bits wrong; the low-SNR point checks that errors are counted.
set -u
app=${1:?usage: test_mimo_ber.sh path/to/gpurx-mimo-ber}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# The value of column $2 in row $3 (1 = the first data row) of CSV $1.
col() {
    awk -F, -v name="$2" -v row="$3" \
        'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
         NR == row + 1 { print $c }' "$1"
}

# --help: exit 0, the options listed.
"$app" --help > "$tmp/help" || fail "--help exited $?, want 0"
grep -q -- "--vectors-per-channel" "$tmp/help" || fail "--help does not list --vectors-per-channel"

# Bad arguments: exit 2, the message names the option.
expect_usage_error() {
    local opt=$1
    shift
    "$app" "$@" > /dev/null 2> "$tmp/err"
    local rc=$?
    [ $rc = 2 ] || fail "gpurx-mimo-ber $* exited $rc, want 2"
    grep -q -- "$opt" "$tmp/err" || fail "gpurx-mimo-ber $*: the message does not name $opt: $(cat "$tmp/err")"
}
expect_usage_error --bogus --bogus
expect_usage_error --K --K 41
expect_usage_error --modulation --modulation 8psk
expect_usage_error --algorithm --algorithm mtt,best
expect_usage_error --ebn0 --ebn0 3:1:0.5
expect_usage_error --nr --nt 4 --nr 2
expect_usage_error --png --png out.png
expect_usage_error --algorithm --algorithm ml --nt 4 --nr 4 --modulation 256qam
expect_usage_error --code-rate --code-rate 1.5
expect_usage_error --code-rate --code-rate 0.5 --no-rate-matching

# Every detector, 2x2 QPSK, K=512, Eb/N0 8 dB: no bit errors in 16 blocks.
common=(--backend cpu --threads 2 --nt 2 --nr 2 --modulation qpsk --K 512 --max-blocks 16 --quiet)
"$app" "${common[@]}" --algorithm mtt,one-pass,kbest,lmmse,ml --ebn0 8:8:1 --csv "$tmp/high.csv" \
    > "$tmp/high.md" || fail "the high-SNR run exited $?"
[ "$(wc -l < "$tmp/high.csv")" = 6 ] || fail "want 5 rows in the CSV: $(cat "$tmp/high.csv")"
for r in 1 2 3 4 5; do
    curve=$(col "$tmp/high.csv" curve $r)
    [ "$(col "$tmp/high.csv" frames $r)" = 16 ] || fail "$curve: want 16 blocks"
    [ "$(col "$tmp/high.csv" bits $r)" = 8192 ] || fail "$curve: want 8192 bits"
    [ "$(col "$tmp/high.csv" bit_errors $r)" = 0 ] || fail "$curve: bit errors at Eb/N0 8 dB: $(sed -n "$((r + 1))p" "$tmp/high.csv")"
done
# SNR per receive antenna = Eb/N0 + 10 log10(nt R log2 Q), R = 512 / 1548.
snr=$(col "$tmp/high.csv" snr_db 1)
awk -v s="$snr" 'BEGIN { exit !(s > 9.2 && s < 9.22) }' || fail "snr_db $snr, want 9.21"

# mtt at Eb/N0 -4 dB: most blocks wrong (errors are counted).
"$app" "${common[@]}" --algorithm mtt --ebn0 -4:-4:1 --csv "$tmp/low.csv" > /dev/null || fail "the low-SNR run exited $?"
awk -v b="$(col "$tmp/low.csv" ber 1)" 'BEGIN { exit !(b > 0.01 && b < 0.5) }' ||
    fail "BER at Eb/N0 -4 dB: $(col "$tmp/low.csv" ber 1), want 0.01..0.5"
# --code-rate 0.5: E = 1024 bits sent for K = 512, a third fewer vectors;
# the rate in the CSV is K over the bits of the vectors sent.
"$app" "${common[@]}" --algorithm mtt,lmmse --code-rate 0.5 --ebn0 8:8:1 --csv "$tmp/half.csv" \
    > "$tmp/half.md" || fail "the rate-1/2 run exited $?"
for r in 1 2; do
    [ "$(col "$tmp/half.csv" bit_errors $r)" = 0 ] || fail "rate 1/2: bit errors at Eb/N0 8 dB: $(sed -n "$((r + 1))p" "$tmp/half.csv")"
    [ "$(col "$tmp/half.csv" rate $r)" = 0.5 ] || [ "$(col "$tmp/half.csv" rate $r)" = 0.500000 ] ||
        fail "rate 1/2: rate column $(col "$tmp/half.csv" rate $r), want 0.5"
done
grep -q "rate 512/1024" "$tmp/half.md" || fail "rate 1/2: the title does not give the rate: $(head -3 "$tmp/half.md")"
# --idd-passes 2: iterative detection and decoding. At 8 dB no errors; at an
# Eb/N0 where the plain receiver (float decoder, the same blocks: pass 1 of
# IDD is that receiver) makes errors, the second pass makes fewer.
expect_usage_error --idd-passes --idd-passes 9
expect_usage_error --idd-passes --idd-passes 2 --turbo-arithmetic fixed
expect_usage_error --idd-scale --idd-passes 2 --idd-scale 1.5
"$app" "${common[@]}" --algorithm mtt,lmmse --idd-passes 2 --ebn0 8:8:1 --csv "$tmp/idd_high.csv" \
    > "$tmp/idd_high.md" || fail "the IDD high-SNR run exited $?"
for r in 1 2; do
    [ "$(col "$tmp/idd_high.csv" bit_errors $r)" = 0 ] || fail "IDD: bit errors at Eb/N0 8 dB: $(sed -n "$((r + 1))p" "$tmp/idd_high.csv")"
    [ "$(col "$tmp/idd_high.csv" idd_passes $r)" = 2 ] || fail "IDD: idd_passes column $(col "$tmp/idd_high.csv" idd_passes $r)"
    [ "$(col "$tmp/idd_high.csv" decoder $r)" = cpu-float ] || fail "IDD: decoder $(col "$tmp/idd_high.csv" decoder $r), want cpu-float"
done
[ "$(col "$tmp/idd_high.csv" curve 1)" = mtt/idd2 ] || fail "IDD: curve $(col "$tmp/idd_high.csv" curve 1), want mtt/idd2"
# With repetition (rate 1/4: bits sent twice or more; lte_rate_match::feedback,
# tested on its own in test_lte_rate_match) and without rate matching.
for extra in "--code-rate 0.25" "--no-rate-matching"; do
    # shellcheck disable=SC2086 # extra is a list of options
    "$app" "${common[@]}" --algorithm mtt --idd-passes 3 --ebn0 8:8:1 $extra --csv "$tmp/idd_x.csv" > /dev/null ||
        fail "IDD $extra exited $?"
    [ "$(col "$tmp/idd_x.csv" bit_errors 1)" = 0 ] || fail "IDD $extra: bit errors at Eb/N0 8 dB: $(sed -n 2p "$tmp/idd_x.csv")"
done
mid=(--backend cpu --threads 2 --nt 2 --nr 2 --modulation 16qam --K 512 --max-blocks 64 --quiet --algorithm mtt --ebn0 2:2:1)
"$app" "${mid[@]}" --turbo-arithmetic float --csv "$tmp/plain.csv" > /dev/null || fail "the plain mid-SNR run exited $?"
"$app" "${mid[@]}" --idd-passes 2 --csv "$tmp/idd.csv" > /dev/null || fail "the IDD mid-SNR run exited $?"
plain_e=$(col "$tmp/plain.csv" bit_errors 1)
idd_e=$(col "$tmp/idd.csv" bit_errors 1)
[ "$plain_e" -gt 50 ] || fail "the plain receiver at 2 dB made only $plain_e bit errors: the check needs errors"
[ "$idd_e" -lt "$plain_e" ] || fail "IDD made $idd_e bit errors, the plain receiver $plain_e: the second pass gained nothing"

# gpurx-plot-ber's default title describes the MIMO link, not BPSK/AWGN.
plot=$(dirname "$0")/../scripts/plot_ber.py
[ -f "$plot" ] || fail "no $plot beside this script"
title=$(/usr/bin/env python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import csv, plot_ber
print(plot_ber.default_title(list(csv.DictReader(open(sys.argv[2])))))' "$(dirname "$plot")" "$tmp/half.csv") ||
    fail "plot_ber.default_title failed on the CSV"
[ "$title" = "2x2 qpsk, LTE turbo K=512 rate 0.5, i.i.d. Rayleigh (N=12)" ] ||
    fail "plot_ber's default title: \"$title\""
echo "gpurx-mimo-ber: command line and detectors OK"
