/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi_ber_options.h"
#include "viterbi/viterbi_implementations.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gr {
namespace gpurx {
namespace apps {

namespace {

const char* const help_text = R"(usage: gpurx-viterbi-ber [options]

BER and FER of a convolutional code decoded by gr-gpurx's Viterbi decoders,
BPSK over AWGN, against Eb/N0, on the CPU or CUDA backend (the same batching
pipeline as the GNU Radio blocks; no flowgraph).

Channel: bit 1 -> +1, bit 0 -> -1 (Es = 1), y = x + n with n ~ N(0, N0/2),
  Es/N0 = R * Eb/N0, R = the code rate after puncturing (1/2, 3/4, ...; the
  tail of terminated frames is not charged unless --charge-tail),
  soft input: LLR L = ln P(1|y)/P(0|y) = 4 * Es/N0 * y  (= 2y / sigma^2).
  int8 input: round(y * --int8-scale), saturated to +-127 (the decoded path
  does not depend on the LLR scale, only on the quantisation step).
  hard input: y > 0 -> 1.

Code (a preset, then any of --K/--polys/--termination/--puncture override it):
  --code NAME            k7       K=7 (133,171) rate 1/2, terminated (default)
                         gsm      K=5 (23,33) rate 1/2, terminated (GSM)
                         lte      K=7 (133,171,165) rate 1/3, tail-biting (LTE)
                         k9       K=9 (753,561) rate 1/2, terminated (IS-95)
                         80211-34 K=7 (133,171) punctured to rate 3/4 (111001),
                                  terminated (IEEE 802.11)
  --K N                  constraint length 3..9
  --polys P,P[,P[,P]]    generator polynomials, octal, the standards' order
                         (the MSB taps the current input bit)
  --gr-fec-order         --polys are in gr-fec cc_encoder's bit-reversed order
                         (decimal or octal with a leading 0, e.g. 109,79)
  --termination T        terminated | truncated | tail-biting
  --puncture FLAGS       keep (1) / drop (0) per coded bit, n per step, e.g.
                         111001 or 1,1,1,0,0,1; "none" keeps every bit

Decoder:
  --backend B            auto | cuda | cpu (default auto)
  --devices D            GPUs: 0, 0,1 or all (default 0)
  --cpu-threads N        CPU backend workers, 0 = one per hardware thread
  --implementation NAME  auto, or a registry name (cpu-reference, cpu-tiled,
                         cuda-warp, cuda-tiled; gpurx-info lists them)
  --chunk N              trellis steps per tile of the tiled decoders (64)
  --input I              soft (float32 LLRs, default) | int8 | hard
  --int8-scale S         int8 levels per unit of received amplitude (32)

Sweep:
  --frame-bits N         information bits per frame (2048)
  --ebn0 A:B:STEP        Eb/N0 points in dB (default 0:6:0.5)
  --min-frame-errors N   a point ends after N frame errors (100) ...
  --max-frames N         ... or after N frames (100000)
  --keep-going           run every point; by default the sweep stops after
                         the first point without a single error (it says so:
                         later points would need more frames to resolve)
  --seed N               noise and data seed (1); each point is reproducible

Output:
  --csv FILE             one row per point (an unwritable path is an error)
  --png FILE             plot the CSV (needs --csv) with plot_ber.py; if that
                         fails the command is printed and the exit status is 1
  --label TEXT           the curve's name in CSV and plot (default: the code)
  --grfec                also decode the same code, frame length, Eb/N0 points
                         and stopping rule with GNU Radio's gr-fec cc_decoder,
                         in a flowgraph (gpurx_viterbi_ber_grfec.py, run with
                         GNU Radio's Python; K=7 rate 1/2 codes only); its rows
                         go to FILE-grfec.csv beside --csv, same columns, and
                         into the plot
  --quiet                no progress line on stderr
  --help                 this text

Stdout: a markdown table per curve (Eb/N0, BER +- its standard error, FER,
frame errors, bit errors, bits) and the Eb/N0 where BER crosses 1e-5 (and
1e-3), with its uncertainty. The BER's standard error is taken over frames
(errors come in bursts inside a frame, so bits are not independent trials).

Exit status: 0 success, 1 run-time failure, 2 bad arguments.

Example (docs/viterbi-ber.md):
  gpurx-viterbi-ber --code k7 --backend cpu --ebn0 1:5:0.5 --csv k7.csv --png k7.png
)";

// Octal as the standards print polynomials; in gr-fec's order, decimal as
// gr-fec's examples give them unless written with a leading 0.
std::vector<unsigned> parse_polys(const std::string& v, bool gr_fec_order)
{
    std::vector<unsigned> polys;
    for (const auto& p : split(v, ',')) {
        char* end = nullptr;
        const int base = gr_fec_order && !(p.size() > 1 && p[0] == '0') ? 10 : 8;
        const unsigned long x = std::strtoul(p.c_str(), &end, base);
        if (p.empty() || *end || x == 0 || x > 0xffff)
            throw usage_error("--polys wants comma-separated " + std::string(base == 8 ? "octal" : "decimal") +
                              " polynomials such as 133,171, got \"" + v + "\"");
        polys.push_back(unsigned(x));
    }
    return polys;
}

std::vector<int> parse_puncture(const std::string& v)
{
    std::vector<int> flags;
    if (v == "none")
        return flags;
    for (char c : v) {
        if (c == ',')
            continue;
        if (c != '0' && c != '1')
            throw usage_error("--puncture wants 0/1 flags such as 111001, got \"" + v + "\"");
        flags.push_back(c - '0');
    }
    if (flags.empty())
        throw usage_error("--puncture wants 0/1 flags such as 111001, got \"" + v + "\"");
    return flags;
}

void apply_preset(const std::string& name, core::viterbi_config& c)
{
    using core::viterbi::termination;
    c.gr_fec_order = false;
    c.puncture.clear();
    c.termination = termination::terminated;
    if (name == "k7") {
        c.K = 7;
        c.polynomials = { 0133, 0171 };
    } else if (name == "gsm") {
        c.K = 5;
        c.polynomials = { 023, 033 };
    } else if (name == "lte") {
        c.K = 7;
        c.polynomials = { 0133, 0171, 0165 };
        c.termination = termination::tail_biting;
    } else if (name == "k9") {
        c.K = 9;
        c.polynomials = { 0753, 0561 };
    } else if (name == "80211-34") {
        c.K = 7;
        c.polynomials = { 0133, 0171 };
        c.puncture = { 1, 1, 1, 0, 0, 1 };
    } else {
        throw usage_error("--code wants k7, gsm, lte, k9 or 80211-34, got \"" + name + "\"");
    }
}

} // namespace

const char* viterbi_ber_help() { return help_text; }

viterbi_ber_options parse_viterbi_ber_options(int argc, char** argv, bool& help)
{
    viterbi_ber_options o;
    help = false;
    apply_preset(o.code_name, o.cfg);
    // Code overrides apply after the preset whatever their order on the line.
    std::string K, polys, term, punct;
    bool gr_fec_order = false;
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
        } else if (a == "--code") {
            o.code_name = val();
            apply_preset(o.code_name, o.cfg);
        } else if (a == "--K") K = val();
        else if (a == "--polys") polys = val();
        else if (a == "--gr-fec-order") gr_fec_order = true;
        else if (a == "--termination") term = val();
        else if (a == "--puncture") punct = val();
        else if (a == "--backend") {
            o.backend = val();
            if (o.backend != "auto" && o.backend != "cuda" && o.backend != "cpu")
                throw usage_error("--backend wants auto, cuda or cpu, got \"" + o.backend + "\"");
        } else if (a == "--devices") o.devices = val();
        else if (a == "--cpu-threads") o.cpu_threads = size_t(to_int(a, val(), 0, 4096));
        else if (a == "--implementation") o.cfg.implementation = val();
        else if (a == "--chunk") o.cfg.chunk = int(to_int(a, val(), 1, 65536));
        else if (a == "--input") {
            const std::string v = val();
            if (v == "soft") o.input = core::viterbi::INPUT_SOFT;
            else if (v == "int8") o.input = core::viterbi::INPUT_INT8;
            else if (v == "hard") o.input = core::viterbi::INPUT_HARD;
            else throw usage_error("--input wants soft, int8 or hard, got \"" + v + "\"");
        } else if (a == "--int8-scale") {
            o.int8_scale = to_double(a, val());
            if (o.int8_scale <= 0)
                throw usage_error("--int8-scale must be positive, got " + std::to_string(o.int8_scale));
        } else if (a == "--frame-bits") o.frame_bits = int(to_int(a, val(), 1, core::viterbi_code::max_frame_bits));
        else if (a == "--ebn0") {
            const db_range r = parse_db_range(a, val());
            o.e0 = r.start;
            o.e1 = r.stop;
            o.estep = r.step;
        } else if (a == "--min-frame-errors") o.min_frame_errors = uint64_t(to_int(a, val(), 1, 1LL << 40));
        else if (a == "--max-frames") o.max_frames = uint64_t(to_int(a, val(), 1, 1LL << 40));
        else if (a == "--keep-going") o.keep_going = true;
        else if (a == "--charge-tail") o.charge_tail = true;
        else if (a == "--seed") o.seed = uint64_t(to_int(a, val(), 0, 1LL << 62));
        else if (a == "--csv") o.csv = val();
        else if (a == "--png") o.png = val();
        else if (a == "--label") o.label = val();
        else if (a == "--grfec") o.grfec = true;
        else if (a == "--quiet") o.quiet = true;
        else
            throw usage_error("unknown option \"" + a + "\"");
    }
    if (!K.empty())
        o.cfg.K = int(to_int("--K", K, core::viterbi::min_K, core::viterbi::max_K));
    if (!polys.empty()) {
        o.cfg.polynomials = parse_polys(polys, gr_fec_order);
        o.cfg.gr_fec_order = gr_fec_order;
    } else if (gr_fec_order) {
        throw usage_error("--gr-fec-order applies to --polys, which is missing");
    }
    if (!term.empty()) {
        try {
            o.cfg.termination = core::viterbi::parse_termination(term);
        } catch (const std::exception& e) {
            throw usage_error(std::string("--termination: ") + e.what());
        }
    }
    if (!punct.empty())
        o.cfg.puncture = parse_puncture(punct);
    if (!K.empty() || !polys.empty() || !term.empty() || !punct.empty())
        o.code_name = "custom";
    if (!o.png.empty() && o.csv.empty())
        throw usage_error("--png plots the CSV: give --csv FILE too");
    if (o.grfec && o.csv.empty())
        throw usage_error("--grfec writes FILE-grfec.csv beside --csv FILE: give --csv too");
    o.cfg.max_frame_bits = o.frame_bits;
    try {
        o.cfg.validate();
        o.cfg.code().check_frame_bits(o.frame_bits);
    } catch (const std::invalid_argument& e) {
        throw usage_error(std::string("the code: ") + e.what());
    }
    try {
        (void)core::choose_viterbi_implementation(o.cfg);
    } catch (const std::invalid_argument& e) {
        throw usage_error(std::string("--implementation: ") + e.what());
    }
    return o;
}

std::string polys_text(const core::viterbi_code& code)
{
    std::string s;
    for (unsigned p : code.polynomials()) {
        char b[16];
        std::snprintf(b, sizeof b, "%o", p);
        s += (s.empty() ? "" : ",") + std::string(b);
    }
    return s;
}

std::string puncture_text(const core::viterbi_code& code)
{
    std::string s;
    bool all = true;
    for (int f : code.puncture()) {
        s += char('0' + f);
        all = all && f;
    }
    return all ? "none" : s;
}

double nominal_rate(const core::viterbi_code& code)
{
    const auto& p = code.puncture();
    size_t kept = 0;
    for (int f : p)
        kept += size_t(f);
    return double(p.size() / size_t(code.n())) / double(kept);
}

const char* input_name(core::viterbi::input_kind input)
{
    switch (input) {
    case core::viterbi::INPUT_INT8: return "int8";
    case core::viterbi::INPUT_HARD: return "hard";
    default: return "soft";
    }
}

} // namespace apps
} // namespace gpurx
} // namespace gr
