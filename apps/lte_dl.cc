/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-lte-dl: every transport block of an LTE downlink capture
// (lte_dl_options.cc's help says what it does and takes).
#include "app_args.h"
#include "app_output.h"
#include "lte/output/mac_pcap.h"
#include "lte/receiver/downlink_receiver.h"
#include "lte_dl_options.h"

#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <unistd.h>

using namespace gr::gpurx;
using namespace gr::gpurx::core::lte;
using core::lte::cf;

namespace {

const double standard_rates[] = { 1.92e6, 3.84e6, 7.68e6, 15.36e6, 23.04e6, 30.72e6 };

//! The capture: one file per antenna, read in chunks as cf32.
class capture_reader
{
public:
    capture_reader(const std::vector<std::string>& files, const std::string& format) : d_sc16(format == "sc16")
    {
        for (const auto& f : files) {
            d_f.emplace_back(f, std::ios::binary);
            if (!d_f.back())
                throw apps::usage_error("--input " + f + ": cannot be opened");
        }
    }
    //! Up to \p n samples per antenna into \p out; the count read (the
    //! shortest file's).
    size_t read(size_t n, std::vector<std::vector<cf>>& out)
    {
        out.resize(d_f.size());
        size_t got = n;
        for (size_t a = 0; a < d_f.size(); a++) {
            out[a].resize(n);
            if (d_sc16) {
                d_raw.resize(2 * n);
                d_f[a].read(reinterpret_cast<char*>(d_raw.data()), std::streamsize(2 * n * sizeof(int16_t)));
                const size_t k = size_t(d_f[a].gcount()) / (2 * sizeof(int16_t));
                for (size_t i = 0; i < k; i++)
                    out[a][i] = cf(d_raw[2 * i] / 32768.0f, d_raw[2 * i + 1] / 32768.0f);
                got = std::min(got, k);
            } else {
                d_f[a].read(reinterpret_cast<char*>(out[a].data()), std::streamsize(n * sizeof(cf)));
                got = std::min(got, size_t(d_f[a].gcount()) / sizeof(cf));
            }
        }
        return got;
    }
    void rewind()
    {
        for (auto& f : d_f) {
            f.clear();
            f.seekg(0);
        }
    }

private:
    std::vector<std::ifstream> d_f;
    std::vector<int16_t> d_raw;
    bool d_sc16;
};

//! The rate a cell is found at when --rate is not given.
double find_rate(capture_reader& in, int n_rx, std::string& why)
{
    double best = 0.0, metric = -1.0;
    for (double rate : standard_rates) {
        in.rewind();
        std::vector<std::vector<cf>> buf;
        const size_t n = in.read(size_t(0.045 * rate), buf);
        if (n < size_t(0.006 * rate))
            break;
        std::vector<const cf*> p;
        for (auto& b : buf)
            p.push_back(b.data());
        const auto a = acquire_cell(p.data(), n_rx, n, rate);
        if (a.found && a.search.pss_metric > metric) {
            metric = a.search.pss_metric;
            best = rate;
        } else if (!a.found && why.empty()) {
            why = a.reason;
        }
    }
    in.rewind();
    return best;
}

struct rnti_count {
    long long tbs = 0, ok = 0, bits = 0;
};

void write_json(std::ofstream& j, const downlink_tb& t)
{
    j << "{\"sfn\":" << t.tb.sfn << ",\"subframe\":" << t.tb.subframe << ",\"rnti\":" << t.tb.rnti
      << ",\"tb\":" << t.tb.tb_index << ",\"tbs\":" << t.tb.tbs << ",\"mcs\":" << t.tb.mcs << ",\"rv\":" << t.tb.rv
      << ",\"ndi\":" << t.tb.ndi << ",\"harq\":" << t.tb.harq_process << ",\"crc_ok\":" << (t.crc_ok ? "true" : "false");
    if (!t.rar_tc_rntis.empty()) {
        j << ",\"rar_tc_rntis\":[";
        for (size_t i = 0; i < t.rar_tc_rntis.size(); i++)
            j << (i ? "," : "") << t.rar_tc_rntis[i];
        j << "]";
    }
    j << ",\"payload\":\"" << (t.decoded ? bits_hex(t.bits) : "") << "\"}\n";
}

int run(const apps::lte_dl_options& o)
{
    capture_reader in(o.inputs, o.format);
    const int n_rx = int(o.inputs.size());
    double rate = o.rate;
    if (rate == 0.0) {
        std::string why;
        rate = find_rate(in, n_rx, why);
        if (rate == 0.0) {
            std::printf("no cell found at any standard rate: %s\n", why.c_str());
            return 1;
        }
        std::fprintf(stderr, "rate: %.2f MS/s (a cell was found there)\n", rate / 1e6);
    }
    downlink_options ro;
    ro.n_rx = n_rx;
    ro.sample_rate = rate;
    ro.every_ue = o.every_ue;
    ro.tm = o.tm;
    ro.rntis = o.rntis;
    ro.detector = core::mimo::parse_algorithm(o.detector);
    ro.dlsch.backend = o.backend;
    ro.dlsch.devices = o.devices;
    ro.dlsch.ue_category = o.ue_category;
    ro.front_end = o.front_end;
    ro.dlsch.cpu_threads = size_t(o.cpu_threads);
    downlink_receiver rx(ro);
    std::fprintf(stderr, "%s\n", rx.backend_line().c_str());
    bool front_logged = false;
    std::ofstream jsonl;
    if (!o.jsonl.empty()) {
        jsonl.open(o.jsonl);
        if (!jsonl)
            throw apps::usage_error("--jsonl " + o.jsonl + ": cannot be opened for writing");
    }
    std::unique_ptr<mac_pcap_writer> pcap;
    if (!o.pcap.empty())
        pcap = std::make_unique<mac_pcap_writer>(o.pcap);

    std::map<int, rnti_count> per_rnti;
    long long subframes = 0, lost = 0, no_control = 0, pdschs = 0, tbs = 0, tbs_ok = 0, duplicates = 0;
    long long ok_bits = 0;
    const auto t0 = std::chrono::steady_clock::now();
    auto last = t0;
    auto drain = [&]() {
        for (const auto& r : rx.take_reports()) {
            subframes++;
            pdschs += r.pdschs;
            if (r.outcome == subframe_outcome::lost)
                lost++;
            else if (r.outcome == subframe_outcome::no_control)
                no_control++;
        }
        for (const auto& t : rx.take_tbs()) {
            if (t.duplicate) {
                duplicates++;
                continue;
            }
            tbs++;
            auto& c = per_rnti[t.tb.rnti];
            c.tbs++;
            if (t.crc_ok) {
                tbs_ok++;
                c.ok++;
                c.bits += t.tb.tbs;
                ok_bits += t.tb.tbs;
            }
            if (jsonl.is_open())
                write_json(jsonl, t);
            if (pcap && t.decoded)
                pcap->write(t.bits, t.tb.rnti, t.tb.sfn, t.tb.subframe, t.crc_ok,
                            double(t.tb.sfn * 10 + t.tb.subframe) * 1e-3);
        }
    };
    std::vector<std::vector<cf>> buf;
    const size_t chunk = size_t(rate * 0.01); // 10 ms
    double search_wall = 0.0; // until the cell was found (srsRAN's pdsch_ue times what follows)
    long long read_total = 0;
    for (;;) {
        const size_t n = in.read(chunk, buf);
        if (n == 0)
            break;
        read_total += (long long)n;
        std::vector<const cf*> p;
        for (auto& b : buf)
            p.push_back(b.data());
        rx.feed(p.data(), n);
        if (rx.acquired() && !front_logged) {
            std::fprintf(stderr, "%s\n", rx.front_end_line().c_str());
            front_logged = true;
            search_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
        drain();
        const auto now = std::chrono::steady_clock::now();
        if (!o.quiet && now - last > std::chrono::milliseconds(500)) {
            last = now;
            const double s = std::chrono::duration<double>(now - t0).count();
            std::fprintf(stderr, "\r  %s  subframes %lld  PDSCH %lld  TBs %lld/%lld ok  %.0f subframes/s   ",
                         rx.acquired() ? "tracking" : "searching", subframes, pdschs, tbs_ok, tbs, subframes / s);
        }
        if (o.max_subframes > 0 && read_total >= (long long)(o.max_subframes * (rate / 1000.0)))
            break;
    }
    rx.finish();
    drain();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!o.quiet)
        std::fprintf(stderr, "\n");
    if (!rx.acquired() && subframes == 0) {
        std::printf("no cell found: %s\n", rx.search_status().c_str());
        return 1;
    }
    const auto& a = rx.acquisition();
    if (rx.acquired())
        std::printf("cell %d: %d PRB, %d port(s), %s CP, CFO %.0f Hz, first SFN %d, %.2f MS/s, %d rx\n", a.c.cell_id,
                    a.c.n_prb, a.c.ports, a.c.cp == cyclic_prefix::normal ? "normal" : "extended", a.cfo_hz, a.sfn,
                    rate / 1e6, n_rx);
    const double seconds = double(read_total) / rate;
    std::printf("subframes: %lld seen, %lld skipped (%lld lost, %lld without a readable control region)\n", subframes,
                lost + no_control, lost, no_control);
    std::printf("PDSCH: %lld; TBs: %lld decoded of %lld (%lld duplicates not decoded again, %lld of unconfirmed "
                "RNTIs dropped)\n",
                pdschs, tbs_ok, tbs, duplicates, rx.unconfirmed_dropped());
    std::printf("random access responses: %lld C-RNTIs learnt, %lld malformed\n", rx.rar_rntis_learnt(),
                rx.rars_malformed());
    std::printf("%-8s %8s %8s %10s\n", "rnti", "TBs", "BLER", "Mbit/s");
    for (const auto& kv : per_rnti)
        std::printf("%-8d %8lld %8.4f %10.3f\n", kv.first, kv.second.tbs,
                    kv.second.tbs ? 1.0 - double(kv.second.ok) / double(kv.second.tbs) : 0.0,
                    seconds > 0 ? kv.second.bits / seconds / 1e6 : 0.0);
    std::printf("throughput: %.3f Mbit/s of TB bits over %.3f s of capture; wall time %.3f s, %.0f subframes/s\n",
                seconds > 0 ? ok_bits / seconds / 1e6 : 0.0, seconds, wall, subframes / wall);
    // The subframes after the cell search, over the time they took (the
    // first 10 ms read with the search's last chunk included).
    if (rx.acquired() && wall > search_wall)
        std::printf("tracking: %.3f s after a cell search of %.3f s, %.0f subframes/s\n", wall - search_wall,
                    search_wall, subframes / (wall - search_wall));
    return 0;
}

//! --usrp: a live cell through GNU Radio's USRP Source, in the Python
//! program beside this one (gpurx_lte_dl_usrp.py: found beside the program,
//! in libexec or the source tree), run with GNU Radio's Python and every
//! argument passed through. Returns only when it cannot be run.
int exec_usrp_program(int argc, char** argv)
{
    const std::string script = apps::find_script(argv[0], "gpurx_lte_dl_usrp.py", "apps");
    const std::string py = apps::python();
    std::vector<char*> args;
    args.push_back(const_cast<char*>(py.c_str()));
    args.push_back(const_cast<char*>(script.c_str()));
    for (int i = 1; i < argc; i++)
        args.push_back(argv[i]);
    args.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    ::execvp(py.c_str(), args.data());
    std::fprintf(stderr, "gpurx-lte-dl: --usrp: cannot run %s %s: %s\n", py.c_str(), script.c_str(),
                 std::strerror(errno));
    return 2;
}

bool wants_usrp(int argc, char** argv)
{
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--usrp" || a.rfind("--usrp=", 0) == 0)
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    if (wants_usrp(argc, argv))
        return exec_usrp_program(argc, argv);
    try {
        const auto o = apps::parse_lte_dl_options(argc, argv);
        if (o.help) {
            std::fputs(apps::lte_dl_help(), stdout);
            return 0;
        }
        return run(o);
    } catch (const apps::usage_error& e) {
        std::fprintf(stderr, "gpurx-lte-dl: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpurx-lte-dl: %s\n", e.what());
        return 2;
    }
}
