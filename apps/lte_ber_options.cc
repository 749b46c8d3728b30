/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte_ber_options.h"
#include "lte_ber_tables.h"
#include "turbo/turbo_config.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace apps {

namespace {

const char* const help_text = R"(usage: gpurx-lte-ber [options]

BLER and throughput of LTE downlink shared-channel (DL-SCH) transport
blocks against Es/N0, over AWGN, with HARQ: 36.212 coding and rate
matching, 36.211 scrambling and Gray QAM, max-log soft demapping, and
gr-gpurx's transport-block decoder (HARQ soft combining, turbo decoding,
CRCs) on the CPU or CUDA backend.

SNR: Es/N0 in dB, Es the average energy of a QAM symbol (the constellations
  have unit average energy) and N0 the noise power per complex sample:
  y = s + n, E|n|^2 = N0. Eb/N0 = Es/N0 - 10 log10(qm TBS / G) (information
  bits per symbol) is in the CSV too.
Demapper: max-log LLRs, L = ln P(b=1)/P(b=0) ~ (min_{b=0} |y-s|^2 -
  min_{b=1} |y-s|^2) / N0, as the module's QAM demapper (--demapper).

Transport block (one of):
  --mcs M[,M...]         36.213 PDSCH MCS index 0..28 (Table 7.1.7.1-1: the
                         modulation and I_TBS), one curve each; needs --prb
  --prb N                PRBs 1..110: the TBS from Table 7.1.7.2.1-1 and,
                         unless --g is given, G = 138 N qm (normal CP, 2
                         control symbols, 36.211 CRS of one antenna port:
                         168 - 24 - 6 = 138 REs per PRB; no PBCH or
                         synchronisation signals)
  --tbs A                a TBS of your own, 16..391656 (needs --g)
  --qm Q                 bits per symbol with --tbs: 2 (QPSK, default), 4
                         (16QAM), 6 (64QAM), 8 (256QAM)
  --g G                  coded bits per transmission, a multiple of qm

HARQ:
  --harq H[,H...]        ir (default): redundancy versions 0, 2, 3, 1, ...;
                         chase: rv 0 every time; one curve each
  --max-tx N             transmissions per TB at most, 1..8 (4). A TB is
                         sent again only while its CRC fails; each
                         transmission sees fresh noise; the receiver combines
                         them in one soft buffer

Receiver:
  --demapper D           max-log (default) | exact: ln of the sums of
                         exp(-|y-s|^2/N0) instead of their largest terms
  --iterations N         turbo iterations per code block, 1..16 (6)
  --early-termination B  on (default): a code block stops once its CRC
                         checks; off: every code block runs all iterations
  --algorithm A          scaled-max-log-map (default) | max-log-map | log-map
  --backend B            auto | cuda | cpu (default auto)
  --devices D            GPUs: 0, 0,1 or all (default 0)
  --threads N            CPU workers and signal generator threads, 0 = one
                         per hardware thread (0)

Sweep:
  --esn0 A:B:STEP        Es/N0 points in dB (default 0:10:1)
  --min-block-errors N   a point ends once N TBs failed their first
                         transmission (100) and --min-blocks ran ...
  --min-blocks N         ... (0) ...
  --max-blocks N         ... or after N TBs (2000)
  --keep-going           run every point; by default a curve stops after the
                         first point where every TB decoded at its first
                         transmission (it says so)
  --seed N               the random seed (1). A point's TBs and noise follow
                         from it and the point's Es/N0 only: IR and chase
                         curves see the same first transmissions

Output:
  --csv FILE             one row per point (an unwritable path is an error)
  --png FILE             plot the CSV (needs --csv) with plot_bler.py (needs
                         python3-matplotlib); if that fails the exit status is 1
  --label TEXT           a prefix of the curve names
  --quiet                no progress line on stderr
  --help                 this text

Reported per point: BLER after 1, 2, ... transmissions (the TBs whose CRC
still fails), the residual BLER after --max-tx, the TBs delivered with a
wrong payload although their CRC checked (undetected), and the throughput
after HARQ: TB bits delivered / transmissions used, as a fraction of the TBS
per transmission and in Mbit/s for one transmission per 1 ms subframe.

Exit status: 0 success, 1 run-time failure, 2 bad arguments.

Example:
  gpurx-lte-ber --mcs 5,13,22 --prb 25 --harq ir --esn0 -4:20:1 --backend cpu \
      --csv bler.csv --png bler.png
)";

harq_mode parse_harq(const std::string& v)
{
    if (v == "ir")
        return harq_mode::ir;
    if (v == "chase")
        return harq_mode::chase;
    throw usage_error("--harq wants ir or chase (or a list of them), got \"" + v + "\"");
}

} // namespace

const char* lte_ber_help() { return help_text; }

const char* harq_name(harq_mode m) { return m == harq_mode::ir ? "ir" : "chase"; }

int rv_of(harq_mode m, int tx)
{
    // IR: the uplink's fixed sequence (36.321 §5.4.2.2), which downlink
    // schedulers commonly follow too: rv 2 sends the parity that rv 0 left
    // out first, rv 3 and rv 1 fill the rest of the circular buffer.
    static const int order[4] = { 0, 2, 3, 1 };
    return m == harq_mode::chase ? 0 : order[tx % 4];
}

std::string lte_link::name() const
{
    static const char* mods[] = { "", "", "qpsk", "", "16qam", "", "64qam", "", "256qam" };
    if (mcs >= 0)
        return "mcs" + std::to_string(mcs) + "/" + std::to_string(prb) + "prb";
    return "tbs" + std::to_string(tbs) + "/g" + std::to_string(g) + "/" + mods[qm];
}

lte_ber_options parse_lte_ber_options(int argc, char** argv, bool& help)
{
    lte_ber_options o;
    help = false;
    std::vector<int> mcs;
    int prb = 0, tbs = 0, qm = 0, g = 0;
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
        } else if (a == "--mcs") {
            for (const auto& m : split(val(), ','))
                mcs.push_back(int(to_int(a, m, 0, lte::MAX_MCS)));
        } else if (a == "--prb") prb = int(to_int(a, val(), 1, lte::MAX_PRB));
        else if (a == "--tbs") tbs = int(to_int(a, val(), 16, core::sch::MAX_TBS));
        else if (a == "--qm") {
            const std::string v = val();
            qm = int(to_int(a, v, 2, 8));
            if (qm % 2)
                throw usage_error("--qm wants 2, 4, 6 or 8, got \"" + v + "\"");
        } else if (a == "--g") g = int(to_int(a, val(), 1, 1 << 21));
        else if (a == "--harq") {
            o.harqs.clear();
            for (const auto& h : split(val(), ','))
                o.harqs.push_back(parse_harq(h));
        } else if (a == "--max-tx") o.max_tx = int(to_int(a, val(), 1, 8));
        else if (a == "--demapper") {
            const std::string v = val();
            if (v != "max-log" && v != "exact")
                throw usage_error("--demapper wants max-log or exact, got \"" + v + "\"");
            o.exact_llr = v == "exact";
        }
        else if (a == "--iterations") o.sch.turbo.iterations = int(to_int(a, val(), 1, 16));
        else if (a == "--early-termination") {
            const std::string v = val();
            if (v != "on" && v != "off")
                throw usage_error("--early-termination wants on or off, got \"" + v + "\"");
            o.sch.early_termination = v == "on";
        } else if (a == "--algorithm") {
            const std::string v = val();
            try {
                o.sch.turbo.algorithm = core::turbo::parse_algorithm(v);
            } catch (const std::exception&) {
                throw usage_error("--algorithm wants log-map, max-log-map or scaled-max-log-map, got \"" + v + "\"");
            }
        } else if (a == "--backend") {
            o.backend = val();
            if (o.backend != "auto" && o.backend != "cuda" && o.backend != "cpu")
                throw usage_error("--backend wants auto, cuda or cpu, got \"" + o.backend + "\"");
        } else if (a == "--devices") o.devices = val();
        else if (a == "--threads") o.threads = size_t(to_int(a, val(), 0, 4096));
        else if (a == "--esn0") o.esn0 = parse_db_range(a, val());
        else if (a == "--min-block-errors") o.min_block_errors = uint64_t(to_int(a, val(), 1, 1LL << 40));
        else if (a == "--min-blocks") o.min_blocks = uint64_t(to_int(a, val(), 0, 1LL << 40));
        else if (a == "--max-blocks") o.max_blocks = uint64_t(to_int(a, val(), 1, 1LL << 40));
        else if (a == "--keep-going") o.keep_going = true;
        else if (a == "--seed") o.seed = uint64_t(to_int(a, val(), 0, 1LL << 62));
        else if (a == "--csv") o.csv = val();
        else if (a == "--png") o.png = val();
        else if (a == "--label") o.label = val();
        else if (a == "--quiet") o.quiet = true;
        else
            throw usage_error("unknown option \"" + a + "\"");
    }
    if (o.harqs.empty())
        throw usage_error("--harq wants ir or chase (or a list of them), got an empty list");
    // The transport block: --mcs/--prb, or --tbs/--g (--prb may give G).
    if (!mcs.empty()) {
        if (tbs)
            throw usage_error("--tbs and --mcs both give the TBS: give one");
        if (qm)
            throw usage_error("--qm comes from --mcs (Table 7.1.7.1-1): give one of them");
        if (!prb)
            throw usage_error("--mcs needs --prb (the TBS depends on both)");
        for (int m : mcs) {
            const auto e = lte::pdsch_mcs(m);
            lte_link l;
            l.mcs = m;
            l.prb = prb;
            l.qm = e.qm;
            l.tbs = lte::tbs_of(e.itbs, prb);
            l.g = g ? g : lte::g_of(prb, e.qm);
            o.links.push_back(l);
        }
    } else if (tbs) {
        lte_link l;
        l.tbs = tbs;
        l.qm = qm ? qm : 2;
        if (g)
            l.g = g;
        else if (prb) {
            l.g = lte::g_of(prb, l.qm);
            l.prb = prb;
        } else
            throw usage_error("--tbs needs --g (or --prb: G = 138 x PRBs x qm)");
        o.links.push_back(l);
    } else {
        throw usage_error("no transport block: give --mcs M --prb N, or --tbs A --g G [--qm Q]");
    }
    for (const auto& l : o.links) {
        if (l.g % l.qm)
            throw usage_error("--g wants a multiple of qm = " + std::to_string(l.qm) + ", got " + std::to_string(l.g));
        // Every code block needs one symbol at least (36.212 §5.1.4.1.2);
        // frame_params_of() names the field when it does not.
        core::sch::tb_request r;
        r.tbs = l.tbs;
        r.qm = l.qm;
        r.g = l.g;
        const std::string why = r.check();
        if (!why.empty())
            throw usage_error((l.mcs >= 0 ? "--mcs " + std::to_string(l.mcs) + " --prb " + std::to_string(l.prb)
                                          : std::string("--tbs/--g")) +
                              ": " + why);
    }
    if (!o.png.empty() && o.csv.empty())
        throw usage_error("--png plots the CSV: give --csv FILE too");
    return o;
}

} // namespace apps
} // namespace gpurx
} // namespace gr
