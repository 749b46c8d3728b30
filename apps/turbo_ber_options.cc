/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo_ber_options.h"
#include "turbo/lte_qpp.h"
#include "turbo/turbo_config.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace apps {

namespace {

const char* const help_text = R"(usage: gpurx-turbo-ber [options]

BER and FER of gr-gpurx's LTE turbo decoder, BPSK over AWGN, against Eb/N0,
on the CPU or CUDA backend (the same batching pipeline as the GNU Radio
blocks; no flowgraph).

Channel: bit 1 -> +1, bit 0 -> -1 (Es = 1), y = x + n with n ~ N(0, N0/2),
  Es/N0 = Eb/N0 + 10 log10(K / (3K + 12)),
  LLR L = ln P(1|y)/P(0|y) = 4 y / N0, as the blocks take it.

Decoder:
  --K N                  block size, one of the 188 LTE sizes 40..6144 (6144)
  --algorithm A          scaled-max-log-map (default) | max-log-map | log-map
  --iterations N         1..16 (6)
  --P N                  sub-blocks decoded in parallel; 0 (default) picks
                         windows of at most 48 steps per K, as the blocks do
  --guard N              steps each window starts inside its neighbours (16)
  --arithmetic A         fixed (16-bit, as the blocks; default) | float: the
                         max-log-MAP variants; log-MAP is always float
  --implementation NAME  auto (default) or a registry name (gpurx-info lists
                         them), e.g. cpu-fixed16-simd, cpu-window16-simd;
                         naming one fixes the arithmetic. cpu-window16-simd
                         (the CPU's auto choice in fixed point) picks its own
                         windows (16 per codeword, guard 0): --P and --guard
                         do not apply to it
  --backend B            auto | cuda | cpu (default auto)
  --devices D            GPUs: 0, 0,1 or all (default 0)

Sweep:
  --ebn0 A:B:STEP        Eb/N0 points in dB (default 0.2:1.2:0.1)
  --min-frame-errors N   a point ends after N frame errors (100) ...
  --max-frames N         ... or after N frames (20000)
  --keep-going           run every point; by default the sweep stops after
                         the first point without a single error (it says so:
                         later points would need more frames to resolve)

Output:
  --csv FILE             one row per point (an unwritable path is an error)
  --png FILE             plot the CSV (needs --csv) with plot_ber.py (needs
                         python3-matplotlib); if that fails the exit status is 1
  --label TEXT           the curve's name in CSV and plot
  --quiet                no progress line on stderr
  --help                 this text

Reference table (docs/turbo_ber.md):
  --table                log-MAP 6 and 8 iterations, scaled max-log-MAP 6,
                         max-log-MAP 6, each at P = 1 and --table-P, around
                         published Eb/N0 values; prints where BER crosses 1e-5
  --table-P N            the windowed decoder of the table (128)
  --no-p1                the table without its P = 1 curves
  --max-log-only         the table without the log-MAP curves

Stdout: a markdown table per curve (Eb/N0, BER +- its standard error, FER,
frame errors, bit errors, bits) and the Eb/N0 where BER crosses 1e-5 (and
1e-3) when two measured points with errors bracket it.

Exit status: 0 success, 1 run-time failure, 2 bad arguments.

Example:
  gpurx-turbo-ber --K 1024 --backend cpu --ebn0 0.6:1.6:0.2 --csv k1024.csv --png k1024.png
)";

} // namespace

const char* turbo_ber_help() { return help_text; }

turbo_ber_options parse_turbo_ber_options(int argc, char** argv, bool& help)
{
    turbo_ber_options o;
    help = false;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc)
                throw usage_error(a + " wants a value");
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            help = true;
            return o;
        } else if (a == "--K") {
            const std::string v = val();
            o.K = int(to_int(a, v, 40, 6144));
            if (!core::lte_valid_K(o.K))
                throw usage_error("--K must be one of the 188 LTE block sizes (40..512 in steps of 8, "
                                  "..1024 of 16, ..2048 of 32, ..6144 of 64), got " + v);
        } else if (a == "--P") o.P = int(to_int(a, val(), 0, 256));
        else if (a == "--algorithm") {
            o.algorithm = val();
            try {
                (void)core::turbo::parse_algorithm(o.algorithm);
            } catch (const std::exception& e) {
                throw usage_error("--algorithm wants log-map, max-log-map or scaled-max-log-map, got \"" +
                                  o.algorithm + "\"");
            }
        } else if (a == "--iterations") o.iterations = int(to_int(a, val(), 1, 16));
        else if (a == "--guard") o.guard = int(to_int(a, val(), 0, 64));
        else if (a == "--implementation") o.implementation = val();
        else if (a == "--arithmetic") {
            const std::string v = val();
            if (v != "fixed" && v != "float")
                throw usage_error("--arithmetic wants fixed or float, got \"" + v + "\"");
            o.fixed_point = v == "fixed";
        } else if (a == "--backend") {
            o.backend = val();
            if (o.backend != "auto" && o.backend != "cuda" && o.backend != "cpu")
                throw usage_error("--backend wants auto, cuda or cpu, got \"" + o.backend + "\"");
        } else if (a == "--devices") o.devices = val();
        else if (a == "--ebn0") o.ebn0 = parse_db_range(a, val());
        else if (a == "--min-frame-errors") o.min_frame_errors = uint64_t(to_int(a, val(), 1, 1LL << 40));
        else if (a == "--max-frames") o.max_frames = uint64_t(to_int(a, val(), 1, 1LL << 40));
        else if (a == "--keep-going") o.keep_going = true;
        else if (a == "--csv") o.csv = val();
        else if (a == "--png") o.png = val();
        else if (a == "--label") o.label = val();
        else if (a == "--quiet") o.quiet = true;
        else if (a == "--table") o.table = true;
        else if (a == "--table-P") o.table_P = int(to_int(a, val(), 1, 256));
        else if (a == "--no-p1") o.no_p1 = true;
        else if (a == "--max-log-only") o.max_log_only = true;
        else
            throw usage_error("unknown option \"" + a + "\"");
    }
    if (!o.png.empty() && o.csv.empty())
        throw usage_error("--png plots the CSV: give --csv FILE too");
    if ((o.no_p1 || o.max_log_only) && !o.table)
        throw usage_error("--no-p1 and --max-log-only shape --table, which is missing");
    return o;
}

} // namespace apps
} // namespace gpurx
} // namespace gr
