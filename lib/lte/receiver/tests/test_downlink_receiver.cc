/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE downlink receiver end to end, on captures of srsRAN's eNodeB
// chain (lte_dl_gen): every TB the generator sent (code rate <= 0.93, as a
// UE must decode, 36.213 §7.1.7) comes out with the generator's payload, or
// is a retransmission of one already delivered. Bandwidths 6, 25, 100 PRB;
// 1 and 2 ports; TM1-TM4; CFI 1-3; MCS 0, 9, 16, 28; HARQ; CFO up to +-2
// subcarriers, a delay, 20 ppm of sampling-rate offset; noise; several UEs
// found without being told their RNTIs. And bad input: noise alone, a
// truncated capture, a gap.
#include "lte/common/tests/lte_capture.h"
#include "lte/output/mac_pcap.h"
#include "lte/receiver/downlink_receiver.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <tuple>

using namespace gr::gpurx;
using namespace gr::gpurx::core::lte;

namespace {

struct run_result {
    std::vector<downlink_tb> tbs;
    std::vector<subframe_report> reports;
    bool acquired = false;
    acquisition_result acq;
    std::string status;
};

run_result receive(const std::vector<std::vector<cf>>& rx, double rate, downlink_options o, size_t chunk = 7777,
                   const char* backend = "cpu")
{
    o.n_rx = int(rx.size());
    o.sample_rate = rate;
    o.dlsch.backend = backend;
    o.dlsch.cpu_threads = 2;
    downlink_receiver r(o);
    const size_t n = rx[0].size();
    for (size_t i = 0; i < n; i += chunk) {
        const size_t m = std::min(chunk, n - i);
        std::vector<const cf*> p;
        for (const auto& a : rx)
            p.push_back(a.data() + i);
        r.feed(p.data(), m);
    }
    r.finish();
    run_result out;
    out.tbs = r.take_tbs();
    out.reports = r.take_reports();
    out.acquired = r.acquired();
    out.acq = r.acquisition();
    out.status = r.search_status();
    return out;
}

struct tally {
    int expected = 0, decoded = 0, duplicates = 0, missing = 0, wrong = 0;
    std::string first_missing; //!< "sfn.subframe rnti" of the first few
};

// Every TB of the truth (of the RNTIs asked for) against what came out.
tally compare(const test::lte_capture& cap, const run_result& r, const std::vector<int>& rntis = {},
              size_t subframes = 0)
{
    std::map<std::tuple<int, int, int, int>, const downlink_tb*> got; // sfn, sf, rnti, tb
    for (const auto& t : r.tbs)
        got[{ t.tb.sfn, t.tb.subframe, t.tb.rnti, t.tb.tb_index }] = &t;
    tally c;
    for (size_t s = 0; s < cap.truth.size() && (subframes == 0 || s < subframes); s++)
        for (const auto& p : cap.truth[s]["pdsch_list"]) {
            const auto& sf = cap.truth[s];
            const int rnti = p["rnti"];
            if (!rntis.empty() && std::find(rntis.begin(), rntis.end(), rnti) == rntis.end() && rnti != 0xFFFF)
                continue;
            int index = 0;
            for (const auto& tb : p["tb"]) {
                const int i = index++;
                if (double(tb["cr"]) > 0.93)
                    continue;
                c.expected++;
                auto it = got.find({ int(sf["sfn"]), int(sf["sf_idx"]), rnti, i });
                if (it == got.end()) {
                    if (c.missing++ < 4)
                        c.first_missing += " " + std::to_string(int(sf["sfn"])) + "." +
                                           std::to_string(int(sf["sf_idx"])) + " rnti " + std::to_string(rnti);
                    continue;
                }
                const auto& d = *it->second;
                if (d.duplicate) {
                    c.duplicates++;
                } else if (d.crc_ok && d.bits == test::hex_bits(tb["payload"], int(tb["tbs"]))) {
                    c.decoded++;
                } else {
                    c.wrong++;
                }
            }
        }
    return c;
}

void expect_all(const test::lte_capture& cap, const run_result& r, const std::string& what,
                const std::vector<int>& rntis = {}, size_t subframes = 0)
{
    ASSERT_TRUE(r.acquired) << what << ": " << r.status;
    const auto c = compare(cap, r, rntis, subframes);
    EXPECT_GT(c.expected, 0) << what;
    EXPECT_EQ(c.decoded + c.duplicates, c.expected)
        << what << ": " << c.decoded << " decoded, " << c.duplicates << " duplicates, " << c.missing << " missing, "
        << c.wrong << " wrong of " << c.expected << "; missing:" << c.first_missing;
    EXPECT_EQ(c.wrong, 0) << what;
}

double rate_of(const test::lte_capture& cap) { return double(cap.truth.at(0)["srate"]); }

downlink_options all_ues()
{
    downlink_options o;
    o.every_ue = true;
    return o;
}

} // namespace

TEST(DownlinkReceiver, Tm1AcrossBandwidthsCfiAndMcs)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const char* cases[] = { "-p 6 -x 1 -m 0 -f 1 -c 1", "-p 6 -x 1 -m 9 -f 3 -c 7", "-p 25 -x 1 -m 16 -f 2 -c 101",
                            "-p 25 -x 1 -m 28 -f 1 -c 44", "-p 100 -x 1 -m 9 -f 3 -c 303" };
    for (const char* s : cases) {
        const std::string args = std::string(s) + " -n 30";
        const auto cap = test::generate_lte_capture(args);
        expect_all(cap, receive(cap.rx, rate_of(cap), all_ues()), args);
    }
}

TEST(DownlinkReceiver, TwoPortsTm2Tm3Tm4)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    struct c {
        const char* args;
        test::lte_rx_setup setup;
    } cases[] = {
        { "-p 25 -x 2 -m 16 -c 5", test::lte_rx_setup::ports_summed },
        { "-p 25 -x 3 -m 16 -c 9 -N 30", test::lte_rx_setup::channel_2x2 },
        { "-p 50 -x 4 -w 2 -I 1 -m 9 -c 12 -N 30", test::lte_rx_setup::channel_2x2 },
        { "-p 25 -x 4 -w 1 -I 2 -m 16 -c 3", test::lte_rx_setup::ports_summed },
    };
    for (const auto& k : cases) {
        const std::string args = std::string(k.args) + " -n 30";
        const auto cap = test::generate_lte_capture(args, k.setup);
        expect_all(cap, receive(cap.rx, rate_of(cap), all_ues()), args);
    }
}

TEST(DownlinkReceiver, SeveralUesFoundWithoutTheirRntisAndSi)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const std::string args = "-p 50 -U 4 -P 1 -m r -B -n 60 -s 11 -r 1234,4601,3a7f,77";
    const auto cap = test::generate_lte_capture(args);
    const auto r = receive(cap.rx, rate_of(cap), all_ues());
    // An RNTI is believed from its second sighting on: the first DCI of
    // each UE may be missed in this mode.
    const auto c = compare(cap, r);
    EXPECT_GE(c.decoded + c.duplicates, c.expected - 4) << c.missing << " missing of " << c.expected;
    EXPECT_EQ(c.wrong, 0);
    // Told the RNTIs: every one.
    downlink_options given;
    given.rntis = { 0x1234, 0x4601, 0x3a7f, 0x77 };
    expect_all(cap, receive(cap.rx, rate_of(cap), given), args + " (RNTIs given)");
}

TEST(DownlinkReceiver, HarqRetransmissionsAreDuplicatesOnceDecoded)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const std::string args = "-p 25 -x 1 -m 16 -k -n 40 -c 2";
    const auto cap = test::generate_lte_capture(args);
    const auto r = receive(cap.rx, rate_of(cap), all_ues());
    expect_all(cap, r, args);
    EXPECT_GT(compare(cap, r).duplicates, 0);
}

TEST(DownlinkReceiver, CfoDelayAndNoise)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const char* cases[] = { "-p 25 -x 1 -m 9 -F 30000 -O 12345 -N 20", "-p 25 -x 1 -m 9 -F -29000 -O 777 -N 15",
                            "-p 6 -x 1 -m 4 -F 14000 -O 100 -N 10" };
    for (const char* s : cases) {
        const std::string args = std::string(s) + " -n 40";
        const auto cap = test::generate_lte_capture(args);
        expect_all(cap, receive(cap.rx, rate_of(cap), all_ues()), args);
    }
}

// Two free-running radios: the capture resampled by 1 + 20e-6 (band-limited
// interpolation, a windowed sinc of 32 taps).
TEST(DownlinkReceiver, SamplingRateOffsetOf20ppm)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const std::string args = "-p 25 -x 1 -m 9 -n 200 -c 4 -O 3000";
    const auto cap = test::generate_lte_capture(args);
    const auto& x = cap.rx[0];
    const double ratio = 1.0 + 20e-6;
    std::vector<cf> y(size_t(double(x.size() - 64) / ratio));
    for (size_t n = 0; n < y.size(); n++) {
        const double t = double(n) * ratio;
        const long c = long(t);
        std::complex<double> acc = 0.0;
        for (long k = c - 15; k <= c + 16; k++) {
            if (k < 0 || k >= long(x.size()))
                continue;
            const double d = t - double(k);
            const double sinc = std::fabs(d) < 1e-12 ? 1.0 : std::sin(M_PI * d) / (M_PI * d);
            const double win = 0.5 + 0.5 * std::cos(M_PI * d / 17.0);
            acc += std::complex<double>(x[size_t(k)]) * (sinc * win);
        }
        y[n] = cf(acc);
    }
    // The resampled capture ends 30 samples short: its last subframe is cut.
    expect_all(cap, receive({ y }, rate_of(cap), all_ues()), args + " at +20 ppm", {}, 199);
}

TEST(DownlinkReceiver, NoiseAloneFindsNoCell)
{
    std::mt19937 rng(5);
    std::normal_distribution<float> n(0.0f, 0.5f);
    std::vector<cf> x(size_t(1.92e6 * 0.1));
    for (auto& v : x)
        v = cf(n(rng), n(rng));
    const auto r = receive({ x }, 1.92e6, all_ues());
    EXPECT_FALSE(r.acquired);
    EXPECT_TRUE(r.tbs.empty());
    EXPECT_NE(r.status.find("no cell"), std::string::npos) << r.status;
}

TEST(DownlinkReceiver, TruncatedCaptureAndGapAreReported)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const auto cap = test::generate_lte_capture("-p 6 -x 1 -m 9 -n 60 -c 8");
    // 3 ms: too short to search.
    std::vector<cf> shortcap(cap.rx[0].begin(), cap.rx[0].begin() + 3 * 1920);
    const auto r0 = receive({ shortcap }, 1.92e6, all_ues());
    EXPECT_FALSE(r0.acquired);
    EXPECT_NE(r0.status.find("short"), std::string::npos) << r0.status;
    // A gap of 5000 samples after 45 ms, reported: the subframes it touches
    // are lost, never decoded; those after it decode again.
    downlink_options o = all_ues();
    o.n_rx = 1;
    o.sample_rate = 1.92e6;
    o.dlsch.backend = "cpu";
    downlink_receiver rx(o);
    const cf* p = cap.rx[0].data();
    const size_t cut = 45 * 1920, skip = 5000;
    rx.feed(&p, cut);
    rx.feed_gap(skip);
    const cf* q = p + cut + skip;
    rx.feed(&q, cap.rx[0].size() - cut - skip);
    rx.finish();
    int lost = 0, after = 0;
    for (const auto& rep : rx.take_reports())
        if (rep.outcome == subframe_outcome::lost)
            lost++;
    for (const auto& t : rx.take_tbs()) {
        const int abs = t.tb.sfn * 10 + t.tb.subframe;
        if (abs >= 48 && t.crc_ok)
            after++;
        // Nothing decoded from the lost stretch.
        EXPECT_FALSE(abs >= 45 && abs <= 47 && t.crc_ok) << "subframe " << abs << " decoded across the gap";
    }
    EXPECT_GE(lost, 2);
    EXPECT_GE(after, 8);
}

TEST(DownlinkReceiver, CudaDecodesTheSameTbs)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const std::string args = "-p 50 -x 3 -m 16 -U 2 -P 1 -n 30 -c 21 -N 25";
    const auto cap = test::generate_lte_capture(args, test::lte_rx_setup::channel_2x2);
    const auto cpu = receive(cap.rx, rate_of(cap), all_ues(), 7777, "cpu");
    const auto gpu = receive(cap.rx, rate_of(cap), all_ues(), 7777, "cuda");
    expect_all(cap, gpu, args + " on CUDA");
    ASSERT_EQ(cpu.tbs.size(), gpu.tbs.size());
    for (size_t i = 0; i < cpu.tbs.size(); i++) {
        EXPECT_EQ(cpu.tbs[i].bits, gpu.tbs[i].bits) << i;
        EXPECT_EQ(cpu.tbs[i].crc_ok, gpu.tbs[i].crc_ok) << i;
    }
}
