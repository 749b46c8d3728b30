#!/bin/sh
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gpurx-turbo-ber's command line: help, bad values, an unwritable CSV, sweeps
# that run every point they are asked for and report a crossing only where
# two measured points bracket it, P chosen per K as the blocks do, and the
# plot script. Short runs of K=40/1024 on the CPU backend (a few seconds).
#   turbo_ber_cli.sh GPURX_TURBO_BER PLOT_BER_PY PYTHON
set -u
[ $# = 3 ] || { echo "usage: turbo_ber_cli.sh GPURX_TURBO_BER PLOT_BER_PY PYTHON" >&2; exit 2; }
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

expect 0 "--keep-going" --help
expect 0 "Exit status" -h
expect 2 'K wants an integer' --K abc
expect 2 'one of the 188 LTE block sizes' --K 100
expect 2 'iterations wants an integer in 1..16' --iterations 0
expect 2 'ebn0 wants start:stop:step' --ebn0 1:2
expect 2 'unknown option' --frobnicate
expect 2 'algorithm wants' --algorithm viterbi
expect 2 'png plots the CSV' --png x.png
expect 1 'csv: cannot write' --backend cpu --K 40 --max-frames 8 --csv /nonexistent-dir/x.csv

common="--backend cpu --quiet --max-frames 64 --min-frame-errors 1000"
# High Eb/N0, no errors at the first point: the sweep stops there and says so,
# and claims no crossing.
# shellcheck disable=SC2086
expect 0 'sweep stops here' $common --K 40 --ebn0 8:9:0.5 --csv "$d/stop.csv"
grep -q "not bracketed" "$d/out" || fail "a crossing was reported without a bracketing point"
[ "$(wc -l < "$d/stop.csv")" = 2 ] || fail "stop.csv: expected header + 1 row"
# --keep-going runs every point, the last one (1.0 dB) included.
# shellcheck disable=SC2086
expect 0 '| 1.00 |' $common --K 40 --ebn0 0.6:1.0:0.2 --keep-going --csv "$d/all.csv"
[ "$(wc -l < "$d/all.csv")" = 4 ] || { cat "$d/all.csv"; fail "all.csv: expected header + 3 rows"; }
# P = 0 by default: windows of at most 48 steps, as the blocks choose (K=1024:
# P=22), for the implementations that take P (named here: on the CPU "auto"
# is cpu-window16-simd, which picks its own windows, checked next).
# shellcheck disable=SC2086
expect 0 'P=22' $common --K 1024 --ebn0 1:1:1 --implementation cpu-fixed16-simd --csv "$d/p.csv"
cut -d, -f3 "$d/p.csv" | tail -1 | grep -qx 22 || { cat "$d/p.csv"; fail "p.csv: P column is not 22"; }
# shellcheck disable=SC2086
expect 0 'P=8/g=0/cpu-window16-simd' $common --K 1024 --ebn0 1:1:1 --csv "$d/w.csv"
cut -d, -f3 "$d/w.csv" | tail -1 | grep -qx 8 || { cat "$d/w.csv"; fail "w.csv: P column is not 8"; }

# The plot script: its default output sits beside the CSV, never over an input.
if "$python" -c "import matplotlib" 2>/dev/null; then
    "$python" "$plot" "$d/all.csv" > "$d/plot.out" 2>&1 || { cat "$d/plot.out"; fail "plot_ber.py all.csv"; }
    [ -s "$d/all.png" ] || fail "plot_ber.py wrote no all.png"
    "$python" "$plot" -o "$d/all.csv" "$d/all.csv" > /dev/null 2>&1 && fail "plot_ber.py wrote over its input"
    "$python" "$plot" > /dev/null 2>&1 && fail "plot_ber.py without arguments succeeded"
    "$app" $common --K 40 --ebn0 0.6:1.0:0.2 --keep-going --csv "$d/p2.csv" --png "$d/p2.png" > "$d/out" 2>&1 \
        || { cat "$d/out"; fail "--png"; }
    [ -s "$d/p2.png" ] || fail "--png wrote no plot"
else
    echo "matplotlib missing: plot checks not run"
fi
[ "$fails" = 0 ] && echo "all checks passed"
[ "$fails" = 0 ]
