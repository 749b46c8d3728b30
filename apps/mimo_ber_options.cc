/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo_ber_options.h"

#include "mimo/mimo_implementations.h"
#include "turbo/lte_qpp.h"
#include "turbo/turbo_implementations.h"

#include <cmath>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace apps {

namespace {

const char* const help_text = R"(usage: gpurx-mimo-ber [options]

Coded BER and FER of gr-gpurx's soft MIMO detectors followed by its LTE turbo
decoder, over i.i.d. Rayleigh channels, on the CPU or CUDA backend (the same
batching pipelines as the GNU Radio blocks; no flowgraph).

Link, per block:
  K random bits -> LTE turbo encoder (36.212, rate K/(3K+12) ~ 1/3) -> LTE
  rate matching (36.212 5.1.4.1: sub-block interleavers and bit collection,
  all 3K+12 bits, rv 0, or E bits with --code-rate; the channel interleaver
  of an LTE transmitter) -> the
  coded bits, nt*log2(Q) per vector (antenna 0's
  bits first, 36.211 QAM, unit average energy Es = 1 per stream); the last
  vector is padded with random bits -> y = H s + n, H nr x nt with CN(0,1)
  entries, a new H every --vectors-per-channel vectors, n ~ CN(0, N0 I) ->
  detector (a-posteriori max-log LLRs, L = ln P(1)/P(0), knowing H and N0)
  -> the LLRs of the bits sent, rate matching undone -> turbo decoder -> K bits.
  With --no-rate-matching the codeword goes out in the encoder's order:
  consecutive trellis steps then share a vector and a channel.

SNR and Eb/N0 (both in the CSV and the tables):
  SNR   = nt Es / N0, the received signal-to-noise ratio per receive antenna
          (E|(H s)_r|^2 = nt);
  Es/N0 = 1 / N0 per stream;
  Eb/N0 = Es/N0 / (R log2 Q), with R = K / (coded bits sent) the rate that
          pays for the tail and the padding of the last vector, so Eb is the
          received energy per information bit per receive antenna.
  Hence SNR = Eb/N0 + 10 log10(nt R log2 Q): for R = 1/3, 4x4 16-QAM
  SNR = Eb/N0 + 7.27 dB, 2x2 64-QAM SNR = Eb/N0 + 6.02 dB, 2x2 QPSK
  SNR = Eb/N0 + 1.25 dB.

MIMO detector:
  --algorithm A[,A...]   mtt | one-pass | kbest | ml | lmmse (default mtt);
                         several make several curves in one run and one CSV
  --nt N --nr N          streams 1..8 and receive antennas nt..8 (2, 2)
  --modulation M         qpsk | 16qam | 64qam | 256qam (16qam)
  --k N                  kbest: paths kept per level (16)
  --clip C               kbest, one-pass: |LLR| bound (16)
  --sorted-qr            detect in the order of a sorted QR
  --vectors-per-channel N  received vectors per channel realisation (12)
  --no-rate-matching     no channel interleaver (see Link above)
  --code-rate R          rate matching to E = ceil(K / R) bits sent
                         (36.212 bit selection from the circular buffer, rv 0:
                         puncturing below 3K+12 bits, repetition above;
                         unsent bits reach the decoder as LLR 0), R in
                         0.05..0.95; default: all 3K+12 bits (~1/3)

Iterative detection and decoding:
  --idd-passes P         detection passes per block, 1..8 (1: none). Above 1,
                         every pass after the first gives the detector, as
                         a-priori LLR of each bit sent, the decoder's
                         extrinsic LLR of that coded bit times --idd-scale
                         (plus a repeated bit's other copies); the detector
                         then gives extrinsic LLRs. The decoder runs on the
                         CPU in float (the CUDA turbo kernels give no
                         coded-bit LLRs), the detector on the backend; the
                         curve is named e.g. "mtt/idd3". kbest and one-pass
                         give +-clip to a bit without a counter-hypothesis,
                         in extrinsic output too: a smaller --clip (e.g. 4)
                         serves them better with feedback
  --idd-scale S          factor on the extrinsic LLRs fed back, (0, 1]
                         (0.75: max-log extrinsics are overconfident)

Turbo decoder (the scaled max-log-MAP of the blocks):
  --K K                  information bits per block, a 36.212 size (6144)
  --iterations N         full iterations, 1..16 (6)
  --P P                  parallel windows per codeword, 0 = automatic (1)
  --turbo-arithmetic A   fixed (16-bit, LLRs saturate at +-15.9, the blocks'
                         default) | float

Backend:
  --backend B            auto | cuda | cpu (auto); both pipelines run there
  --devices D            GPUs: 0, 0,1 or all (0)
  --threads N            CPU workers of each pipeline and signal generator
                         threads, 0 = one per hardware thread (0)

Sweep:
  --ebn0 A:B:STEP        Eb/N0 points in dB (default 0:6:0.5) ...
  --snr A:B:STEP         ... or SNR points per receive antenna in dB
  --min-block-errors N   a point ends after N block errors (100) ...
  --max-blocks N         ... or after N blocks (10000)
  --keep-going           run every point; by default a curve stops after its
                         first point without a single bit error (it says so)
  --seed N               data and noise seed (1); block b of a point always
                         gets the same data, channels and noise, whatever
                         --threads, --backend or --max-blocks
  --target-ber B         where the summary compares the curves (1e-4)

Output:
  --csv FILE             one row per point, every curve (an unwritable path
                         is an error)
  --png FILE             plot the CSV (needs --csv) with plot_ber.py; if that
                         fails the command is printed and the exit status is 1
  --quiet                no progress line on stderr
  --help                 this text

Stdout: per curve a markdown table (Eb/N0, SNR, BER +- its standard error
over blocks, FER, errors, blocks), then a summary: each curve's Eb/N0 at
--target-ber with its 95% statistical uncertainty and the difference to the
first curve.

Exit status: 0 success, 1 run-time failure, 2 bad arguments.

Example (docs/mimo-coded-ber.md):
  gpurx-mimo-ber --nt 4 --nr 4 --modulation 16qam \
      --algorithm mtt,kbest,one-pass,lmmse --ebn0 0:8:0.5 --backend cuda \
      --csv 4x4.csv --png 4x4.png
)";

} // namespace

const char* mimo_ber_help() { return help_text; }

std::string curve_name(const core::mimo_config& cfg)
{
    std::string s = core::mimo::algorithm_name(cfg.algorithm);
    if (cfg.algorithm == core::mimo::algorithm::kbest)
        s += std::to_string(cfg.k);
    return cfg.sorted_qr ? s + "/sqr" : s;
}

mimo_ber_options parse_mimo_ber_options(int argc, char** argv, bool& help)
{
    mimo_ber_options o;
    help = false;
    bool have_ebn0 = false, have_snr = false, have_fixed = false;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc)
                throw usage_error(a + " wants a value");
            return argv[++i];
        };
        // The library's messages name the field; the option's name goes first.
        auto named = [&](auto&& f) {
            try {
                f();
            } catch (const std::invalid_argument& e) {
                throw usage_error(a + ": " + e.what());
            }
        };
        if (a == "--help" || a == "-h") {
            help = true;
            return o;
        } else if (a == "--algorithm") {
            const std::string v = val();
            o.algorithms.clear();
            for (const auto& name : split(v, ','))
                named([&] { o.algorithms.push_back(core::mimo::parse_algorithm(name)); });
            if (o.algorithms.empty())
                throw usage_error("--algorithm wants one or more of mtt, one-pass, kbest, ml, lmmse");
        } else if (a == "--nt") o.mimo.nt = int(to_int(a, val(), 1, core::mimo::max_antennas));
        else if (a == "--nr") o.mimo.nr = int(to_int(a, val(), 1, core::mimo::max_antennas));
        else if (a == "--modulation") {
            const std::string v = val();
            named([&] { o.mimo.modulation = core::qam::parse_modulation(v); });
        } else if (a == "--k") o.mimo.k = int(to_int(a, val(), 1, core::mimo::kbest_max_k));
        else if (a == "--clip") {
            o.mimo.clip = float(to_double(a, val()));
            if (!(o.mimo.clip > 0))
                throw usage_error("--clip must be positive, got " + std::to_string(o.mimo.clip));
        } else if (a == "--sorted-qr") o.mimo.sorted_qr = true;
        else if (a == "--no-rate-matching") o.rate_matching = false;
        else if (a == "--code-rate") {
            o.code_rate = to_double(a, val());
            if (!(o.code_rate >= 0.05 && o.code_rate <= 0.95))
                throw usage_error("--code-rate must be in 0.05..0.95, got " + std::to_string(o.code_rate));
        }
        else if (a == "--idd-passes") o.idd_passes = int(to_int(a, val(), 1, 8));
        else if (a == "--idd-scale") {
            o.idd_scale = to_double(a, val());
            if (!(o.idd_scale > 0 && o.idd_scale <= 1))
                throw usage_error("--idd-scale must be in (0, 1], got " + std::to_string(o.idd_scale));
        }
        else if (a == "--vectors-per-channel") o.vectors_per_channel = int(to_int(a, val(), 1, 1 << 20));
        else if (a == "--K") {
            o.K = int(to_int(a, val(), 40, 6144));
            named([&] { core::lte_qpp(o.K); });
        } else if (a == "--iterations") o.turbo.iterations = int(to_int(a, val(), 1, 16));
        else if (a == "--P") o.turbo.subblocks = int(to_int(a, val(), 0, 256));
        else if (a == "--turbo-arithmetic") {
            const std::string v = val();
            if (v != "fixed" && v != "float")
                throw usage_error("--turbo-arithmetic wants fixed or float, got \"" + v + "\"");
            o.turbo.fixed_point = v == "fixed";
            have_fixed = o.turbo.fixed_point;
        } else if (a == "--backend") {
            o.backend = val();
            if (o.backend != "auto" && o.backend != "cuda" && o.backend != "cpu")
                throw usage_error("--backend wants auto, cuda or cpu, got \"" + o.backend + "\"");
        } else if (a == "--devices") o.devices = val();
        else if (a == "--threads") o.threads = size_t(to_int(a, val(), 0, 4096));
        else if (a == "--ebn0") {
            o.sweep = parse_db_range(a, val());
            have_ebn0 = true;
        } else if (a == "--snr") {
            o.sweep = parse_db_range(a, val());
            have_snr = true;
        } else if (a == "--min-block-errors") o.min_block_errors = uint64_t(to_int(a, val(), 1, 1LL << 40));
        else if (a == "--max-blocks") o.max_blocks = uint64_t(to_int(a, val(), 1, 1LL << 40));
        else if (a == "--keep-going") o.keep_going = true;
        else if (a == "--target-ber") {
            o.target_ber = to_double(a, val());
            if (!(o.target_ber > 0 && o.target_ber < 0.5))
                throw usage_error("--target-ber wants a BER in (0, 0.5), got " + std::to_string(o.target_ber));
        } else if (a == "--seed") o.seed = uint64_t(to_int(a, val(), 0, 1LL << 62));
        else if (a == "--csv") o.csv = val();
        else if (a == "--png") o.png = val();
        else if (a == "--quiet") o.quiet = true;
        else
            throw usage_error("unknown option \"" + a + "\"");
    }
    if (have_ebn0 && have_snr)
        throw usage_error("--ebn0 and --snr both give the sweep: give one");
    o.snr_axis = have_snr;
    if (!o.png.empty() && o.csv.empty())
        throw usage_error("--png plots the CSV: give --csv FILE too");
    if (o.code_rate > 0 && !o.rate_matching)
        throw usage_error("--code-rate punctures through rate matching: it does not go with --no-rate-matching");
    if (o.idd_passes > 1) {
        if (have_fixed)
            throw usage_error("--idd-passes needs the float decoder (coded-bit LLRs): drop --turbo-arithmetic fixed");
        o.turbo.fixed_point = false;
    }
    if (o.mimo.nr < o.mimo.nt)
        throw usage_error("--nr must be at least --nt (" + std::to_string(o.mimo.nt) + "), got " +
                          std::to_string(o.mimo.nr));
    // Each curve's detector and the decoder, checked as they will run.
    for (auto alg : o.algorithms) {
        core::mimo_config c = o.mimo;
        c.algorithm = alg;
        try {
            c.validate();
            (void)core::choose_mimo_implementation(c);
        } catch (const std::invalid_argument& e) {
            throw usage_error(std::string("--algorithm ") + core::mimo::algorithm_name(alg) + ": " +
                              e.what());
        }
    }
    try {
        o.turbo.validate();
        core::turbo_config t = o.turbo;
        (void)core::choose_turbo_implementation(t);
    } catch (const std::invalid_argument& e) {
        throw usage_error(std::string("the turbo decoder: ") + e.what());
    }
    return o;
}

int mimo_ber_options::sent_bits() const
{
    // Less a hair: 168 / 0.7 is 240 in decimal but 240.00000000000003 in
    // binary, and a rate given in decimal means the decimal E.
    return code_rate > 0 ? int(std::ceil(double(K) / code_rate - 1e-9)) : 3 * K + 12;
}

} // namespace apps
} // namespace gpurx
} // namespace gr
