#!/bin/sh
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gpurx-lte-ber's command line and short simulations on the CPU backend,
# checked against what does not come from the program: 36.213's TBS for
# MCS 28 on 100 PRBs, a code that decodes every TB far above its threshold
# and none far below what the channel can carry, IR HARQ recovering TBs
# that a first transmission loses, and IR beating chase combining at a high
# code rate (rv 2 sends parity rv 0 left out). 10-20 s on 2 cores.
#   lte_ber_cli.sh GPURX_LTE_BER PLOT_BLER_PY PYTHON
set -u
[ $# = 3 ] || { echo "usage: lte_ber_cli.sh GPURX_LTE_BER PLOT_BLER_PY PYTHON" >&2; exit 2; }
app=$1 plot=$2 python=$3
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# expect STATUS PATTERN ARGS...: exit status and a line of stdout+stderr.
expect() {
    want=$1 pattern=$2
    shift 2
    "$app" "$@" > "$d/out" 2>&1
    rc=$?
    [ "$rc" = "$want" ] || { cat "$d/out"; fail "$* exited $rc, expected $want"; return; }
    grep -q -e "$pattern" "$d/out" || { cat "$d/out"; fail "$*: no line matching \"$pattern\""; }
}
# col CSV NAME ROW: the value of column NAME in data row ROW (1 = first).
col() {
    awk -F, -v name="$2" -v row="$3" \
        'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
         NR == row + 1 { print $c }' "$1"
}
# is A OP B (awk arithmetic, OP one of < <= > >= ==).
is() { awk -v a="$1" -v b="$3" "BEGIN { exit !(a $2 b) }"; }

expect 0 "Es/N0" --help
expect 0 "Exit status" -h
expect 2 'mcs wants an integer in 0..28' --mcs 29 --prb 25
expect 2 'prb wants an integer in 1..110' --mcs 5 --prb 0
expect 2 'mcs needs --prb' --mcs 5
expect 2 'tbs needs --g' --tbs 1000
expect 2 'qm wants 2, 4, 6 or 8' --tbs 1000 --g 3000 --qm 3
expect 2 'g wants a multiple of qm' --tbs 1000 --g 3001 --qm 4
expect 2 'g=2: too small' --tbs 10000 --g 2
expect 2 'harq wants ir or chase' --mcs 5 --prb 25 --harq ir,harq
expect 2 'max-tx wants an integer in 1..8' --mcs 5 --prb 25 --max-tx 9
expect 2 'early-termination wants on or off' --mcs 5 --prb 25 --early-termination yes
expect 2 'demapper wants max-log or exact' --mcs 5 --prb 25 --demapper log
expect 2 'esn0 wants start:stop:step' --mcs 5 --prb 25 --esn0 1:2
expect 2 'png plots the CSV' --mcs 5 --prb 25 --png x.png
expect 2 'unknown option' --mcs 5 --prb 25 --frobnicate
expect 1 'csv: cannot write' --mcs 5 --prb 25 --backend cpu --max-blocks 1 --csv /nonexistent-dir/x.csv

cpu="--backend cpu --quiet"
# 36.213: MCS 28 (64QAM, I_TBS 26) on 100 PRBs is TBS 75376; G = 138 x 100 x 6.
# shellcheck disable=SC2086
expect 0 "TBS 75376, 64QAM, G 82800" $cpu --mcs 28 --prb 100 --esn0 30:30:1 --max-blocks 2 --csv "$d/m28.csv"
[ "$(col "$d/m28.csv" tbs 1)" = 75376 ] || fail "m28.csv: tbs $(col "$d/m28.csv" tbs 1), want 75376"
[ "$(col "$d/m28.csv" snr_definition 1)" = "Es/N0" ] || fail "m28.csv: the SNR definition column"

# QPSK MCS 5 on 25 PRBs (code rate 0.32): at Es/N0 3 dB, 4 dB above where
# it starts to decode, every TB decodes at once: BLER 0, throughput 1 TBS.
# shellcheck disable=SC2086
expect 0 "curve stops here" $cpu --mcs 5 --prb 25 --esn0 3:4:1 --max-blocks 64 --csv "$d/high.csv"
[ "$(wc -l < "$d/high.csv")" = 2 ] || fail "high.csv: expected header + 1 row (the curve stops)"
[ "$(col "$d/high.csv" bler_tx1 1)" = "0.000000e+00" ] || fail "BLER at 3 dB: $(col "$d/high.csv" bler_tx1 1)"
is "$(col "$d/high.csv" throughput 1)" == 1 || fail "throughput at 3 dB: $(col "$d/high.csv" throughput 1)"

# At Es/N0 -12 dB, QPSK carries log2(1 + 10^-1.2) = 0.088 bits per symbol;
# even 4 transmissions (0.16 information bits per symbol) cannot decode.
# shellcheck disable=SC2086
expect 0 "BLER" $cpu --mcs 5 --prb 25 --esn0 -12:-12:1 --max-blocks 32 --csv "$d/low.csv"
is "$(col "$d/low.csv" residual_bler 1)" == 1 || fail "residual BLER at -12 dB: $(col "$d/low.csv" residual_bler 1)"
is "$(col "$d/low.csv" throughput 1)" == 0 || fail "throughput at -12 dB: $(col "$d/low.csv" throughput 1)"
[ "$(col "$d/low.csv" transmissions 1)" = 128 ] || fail "transmissions at -12 dB: want 4 per TB"

# Es/N0 -3 dB: rv 0 alone fails (a rate-0.32 code, 1.8 dB below where it
# decodes), rv 0 + rv 2 (rate 0.16) decodes: IR HARQ delivers.
# shellcheck disable=SC2086
expect 0 "BLER" $cpu --mcs 5 --prb 25 --esn0 -3:-3:1 --max-blocks 64 --harq ir --csv "$d/mid.csv"
is "$(col "$d/mid.csv" bler_tx1 1)" '>=' 0.9 || fail "BLER after 1 at -3 dB: $(col "$d/mid.csv" bler_tx1 1), want >= 0.9"
is "$(col "$d/mid.csv" bler_tx4 1)" '<=' 0.05 || fail "BLER after 4 at -3 dB: $(col "$d/mid.csv" bler_tx4 1), want <= 0.05"
is "$(col "$d/mid.csv" throughput 1)" '>' 0.4 || fail "throughput at -3 dB: $(col "$d/mid.csv" throughput 1)"

# Code rate 0.83 QPSK at Es/N0 1 dB: rv 0 + rv 2 is a rate-0.42 code, which
# decodes there; rv 0 twice is a rate-0.83 code at 4 dB, which does not.
# shellcheck disable=SC2086
expect 0 "BLER" $cpu --tbs 1000 --g 1200 --qm 2 --esn0 1:1:1 --max-blocks 64 --max-tx 2 --harq ir,chase \
    --csv "$d/ic.csv" --threads 2
[ "$(col "$d/ic.csv" harq 1),$(col "$d/ic.csv" harq 2)" = "ir,chase" ] || fail "ic.csv: curves $(cut -d, -f3 "$d/ic.csv")"
is "$(col "$d/ic.csv" bler_tx2 1)" '<=' 0.1 || fail "IR BLER after 2 at 1 dB: $(col "$d/ic.csv" bler_tx2 1)"
is "$(col "$d/ic.csv" bler_tx2 2)" '>=' 0.5 || fail "chase BLER after 2 at 1 dB: $(col "$d/ic.csv" bler_tx2 2)"
[ "$(col "$d/ic.csv" bler_tx3 1)" = "" ] || fail "ic.csv: bler_tx3 given with --max-tx 2"
# Both curves send the same TBs through the same noise the first time.
[ "$(col "$d/ic.csv" bler_tx1 1)" = "$(col "$d/ic.csv" bler_tx1 2)" ] ||
    fail "ic.csv: the first transmissions of IR and chase differ"
# Each TB's bits and noise come from its own seed: one thread gives the same.
# shellcheck disable=SC2086
"$app" $cpu --tbs 1000 --g 1200 --qm 2 --esn0 1:1:1 --max-blocks 64 --max-tx 2 --harq ir,chase \
    --csv "$d/ic1.csv" --threads 1 > /dev/null 2>&1 || fail "--threads 1 exited $?"
cmp -s "$d/ic.csv" "$d/ic1.csv" || { diff "$d/ic.csv" "$d/ic1.csv"; fail "--threads 1 and 2 differ"; }

# The plot script.
if "$python" -c "import matplotlib" 2>/dev/null; then
    # shellcheck disable=SC2086
    "$app" $cpu --mcs 5 --prb 25 --esn0 -3:-1:1 --max-blocks 32 --csv "$d/p.csv" --png "$d/p.png" > "$d/out" 2>&1 \
        || { cat "$d/out"; fail "--png"; }
    [ -s "$d/p.png" ] || fail "--png wrote no plot"
    "$python" "$plot" "$d/ic.csv" > "$d/plot.out" 2>&1 || { cat "$d/plot.out"; fail "plot_bler.py ic.csv"; }
    [ -s "$d/ic.png" ] || fail "plot_bler.py wrote no ic.png"
    "$python" "$plot" -o "$d/ic.csv" "$d/ic.csv" > /dev/null 2>&1 && fail "plot_bler.py wrote over its input"
    "$python" "$plot" "$d/m28.csv" "$d/nonexistent.csv" > /dev/null 2>&1 && fail "plot_bler.py took a missing CSV"
else
    echo "matplotlib missing: plot checks not run"
fi
[ "$fails" = 0 ] && echo "all checks passed"
[ "$fails" = 0 ]
