/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The burst receiver against a textbook transmitter and channel (link_sim):
// layout, preamble properties, detection, synchronisation, equalisation and
// the noise estimate, with statistics where noise is involved.
#include "link/burst_receiver.h"
#include "link/equalizer.h"
#include "link_sim.h"

#include <gtest/gtest.h>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

using namespace gr::gpurx;
using namespace gr::gpurx::core::link;
using gr::gpurx::test::channel;

namespace {

constexpr int sps = 4;
const std::vector<float>& rrc()
{
    static const std::vector<float> h = test::rrc_taps(sps, 0.35, 11);
    return h;
}

struct sent {
    std::vector<cfloat> data;
    std::vector<cfloat> samples; // after the receiver's matched filter
};

//! One burst (data_symbols random symbols) shaped, through c, matched-filtered.
sent make_burst(int data_symbols, int qm, const channel& c, std::mt19937_64& rng, int lead = 500, int tail = 500)
{
    sent s;
    s.data = test::random_symbols(data_symbols, qm, rng);
    const burst_format fmt(data_symbols);
    std::vector<cfloat> sym(static_cast<size_t>(lead / sps), cfloat(0, 0));
    const auto b = build_burst(fmt, s.data.data());
    sym.insert(sym.end(), b.begin(), b.end());
    sym.insert(sym.end(), size_t(tail / sps), cfloat(0, 0));
    const auto tx = test::shape(sym, sps, rrc());
    const auto rx = test::apply(c, tx, rng);
    s.samples = test::convolve(rx, rrc());
    return s;
}

std::vector<burst_result> receive(const receiver_config& cfg, int data_symbols, const std::vector<cfloat>& x, size_t chunk = 4096)
{
    burst_receiver rx(cfg, data_symbols);
    for (size_t i = 0; i < x.size(); i += chunk)
        rx.push(x.data() + i, std::min(chunk, x.size() - i));
    std::vector<burst_result> out;
    burst_result r;
    while (rx.pop(r))
        out.push_back(r);
    return out;
}

double evm(const std::vector<cfloat>& got, float gain, const std::vector<cfloat>& want)
{
    double e = 0.0;
    for (size_t i = 0; i < want.size(); i++)
        e += std::norm(got[i] / gain - want[i]);
    return e / double(want.size());
}

receiver_config config()
{
    receiver_config c;
    c.demod.sps = sps;
    return c;
}

const std::vector<cfloat> three_taps = [] {
    // Sample spaced, unit energy: the twin's multipath (examples/packet_link_loopback.py).
    std::vector<cfloat> t{ { 1.0f, 0.0f }, { 0.0f, 0.3f }, { 0.15f, -0.1f } };
    double e = 0.0;
    for (auto v : t)
        e += std::norm(v);
    for (auto& v : t)
        v /= float(std::sqrt(e));
    return t;
}();

} // namespace

TEST(BurstFormat, PilotsAndDataTileTheCore)
{
    for (int n : { 1, 59, 60, 61, 120, 1000, 1024, 4096 }) {
        const burst_format f(n);
        std::vector<int> used(static_cast<size_t>(f.core_len()), 0);
        for (int k = 0; k < burst_format::preamble_len; k++)
            used[k]++;
        for (int j = 0; j < f.pilot_blocks(); j++)
            for (int i = 0; i < burst_format::pilot_len; i++)
                used[f.pilot_start(j) + i]++;
        for (int d = 0; d < n; d++)
            used[f.data_index(d)]++;
        for (int k = 0; k < f.core_len(); k++)
            ASSERT_EQ(used[k], 1) << "data_symbols " << n << " core index " << k;
        // Every data symbol lies between two pilot blocks, at most pilot_spacing apart.
        EXPECT_EQ(f.pilot_start(0), burst_format::preamble_len);
        EXPECT_EQ(f.pilot_start(f.pilot_blocks() - 1), f.core_len() - burst_format::pilot_len);
        for (int j = 1; j < f.pilot_blocks(); j++)
            EXPECT_LE(f.pilot_start(j) - f.pilot_start(j - 1), burst_format::pilot_len + burst_format::pilot_spacing);
    }
    EXPECT_THROW(burst_format(0), std::invalid_argument);
}

TEST(BurstFormat, PreambleIsConstantAmplitudeWithSmallSidelobes)
{
    const auto& p = preamble_symbols();
    ASSERT_EQ(int(p.size()), burst_format::preamble_len);
    for (auto v : p)
        EXPECT_NEAR(std::abs(v), 1.0, 1e-6);
    // Aperiodic cross-correlation with itself: peak 128 at lag 0; at one
    // repetition (32 symbols) |.| = 32 by the sign pattern; elsewhere below
    // 0.35 of the peak (39.4 at lag 9), far from it at any usable SNR.
    const int n = burst_format::preamble_len, r = burst_format::zc_len;
    for (int lag = 1; lag < n; lag++) {
        std::complex<double> c = 0.0;
        for (int k = 0; k + lag < n; k++)
            c += std::conj(std::complex<double>(p[k])) * std::complex<double>(p[k + lag]);
        if (lag % r == 0)
            EXPECT_LE(std::abs(c), 32.0 + 1e-6) << "lag " << lag;
        else
            EXPECT_LE(std::abs(c), 0.35 * n) << "lag " << lag; // partial sums of the Chu sequence
    }
}

TEST(Equalizer, CholeskySolvesAHermitianSystem)
{
    std::mt19937_64 rng(1);
    std::normal_distribution<double> g;
    const int n = 7;
    std::vector<cdouble> b(n * n);
    for (auto& v : b)
        v = cdouble(g(rng), g(rng));
    std::vector<cdouble> a(n * n, 0.0), x(n), rhs(n, 0.0);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                a[i * n + j] += b[i * n + k] * std::conj(b[j * n + k]);
    for (auto& v : x)
        v = cdouble(g(rng), g(rng));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            rhs[i] += a[i * n + j] * x[j];
    auto a2 = a;
    ASSERT_TRUE(cholesky_solve(a2, rhs, n));
    for (int i = 0; i < n; i++)
        EXPECT_NEAR(std::abs(rhs[i] - x[i]), 0.0, 1e-9);
}

TEST(BurstReceiver, NoiselessBurstThroughEveryImpairment)
{
    std::mt19937_64 rng(2);
    channel c;
    c.cfo = 1.0e-3;
    c.delay = 37.37;
    c.taps = three_taps;
    c.phase = 1.0;
    const int n = 1024;
    const auto s = make_burst(n, 4, c, rng);
    const auto got = receive(config(), n, s.samples);
    ASSERT_EQ(got.size(), 1u);
    const auto& r = got[0];
    EXPECT_NEAR(r.cfo, c.cfo, 2e-6);
    // 16-QAM recovered with an error vector 30 dB below the signal: the
    // equaliser's residual ISI, interpolation and rounding only.
    EXPECT_LT(10.0 * std::log10(evm(r.data, r.gain, s.data)), -30.0);
    EXPECT_GT(r.snr_db, 25.0);
    EXPECT_GT(r.corr, 0.9);
}

TEST(BurstReceiver, AtZeroDecibelsEveryBurstIsFoundAndN0IsRight)
{
    // 100 QPSK bursts at Es/N0 0 dB, each with its own CFO, delay and phase.
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const int n = 1000, bursts = 100;
    const double n0 = 1.0;
    double evm_sum = 0.0, n0_sum = 0.0, cfo_err2 = 0.0;
    int found = 0;
    for (int b = 0; b < bursts; b++) {
        channel c;
        c.cfo = (2.0 * u(rng) - 1.0) * 2.0e-3;
        c.delay = 100.0 * u(rng);
        c.phase = 6.28 * u(rng);
        c.n0 = n0;
        const auto s = make_burst(n, 2, c, rng);
        const auto got = receive(config(), n, s.samples);
        if (got.size() != 1u)
            continue;
        found++;
        evm_sum += evm(got[0].data, got[0].gain, s.data);
        n0_sum += got[0].n0 / (got[0].gain * got[0].gain);
        cfo_err2 += (got[0].cfo - c.cfo) * (got[0].cfo - c.cfo);
    }
    EXPECT_EQ(found, bursts);
    std::printf("Es/N0 0 dB: error %.3f, estimated N0 %.3f (channel N0 %.3f), CFO error rms %.2g\n",
                evm_sum / found, n0_sum / found, n0, std::sqrt(cfo_err2 / found));
    // The data symbols' true error against the estimated N0: both within
    // 10 % of the channel's N0 (the estimation losses are a few percent).
    EXPECT_NEAR(evm_sum / found, n0, 0.1 * n0);
    EXPECT_NEAR(n0_sum / found, n0, 0.1 * n0);
    EXPECT_LT(std::sqrt(cfo_err2 / found), 2e-5);
}

TEST(BurstReceiver, NoiseAloneGivesNoBurst)
{
    std::mt19937_64 rng(4);
    channel c;
    c.n0 = 1.0;
    const std::vector<cfloat> silence(size_t(1) << 20, cfloat(0, 0));
    const auto x = test::convolve(test::apply(c, silence, rng), rrc());
    burst_receiver rx(config(), 1000);
    rx.push(x.data(), x.size());
    burst_result r;
    EXPECT_FALSE(rx.pop(r));
    // Detections happen; the preamble correlation rejects them.
    std::printf("noise only, %zu samples: %llu detections rejected, 0 bursts\n", x.size(),
                (unsigned long long)rx.false_alarms());
}

TEST(BurstReceiver, BurstsAtRandomTimesAndOneCutByTheEnd)
{
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<int> gap(0, 3000);
    const int n = 400;
    channel c;
    c.n0 = 0.3;
    c.cfo = -5e-4;
    std::vector<cfloat> x;
    std::vector<size_t> starts;
    std::vector<std::vector<cfloat>> data;
    for (int b = 0; b < 8; b++) {
        const auto s = make_burst(n, 2, c, rng, 0, gap(rng));
        starts.push_back(x.size());
        x.insert(x.end(), s.samples.begin(), s.samples.end());
        data.push_back(s.data);
    }
    // The last burst is cut in half.
    const size_t cut = starts.back() + (x.size() - starts.back()) / 3;
    x.resize(cut);
    burst_receiver rx(config(), n);
    std::mt19937_64 chunks(6);
    std::uniform_int_distribution<size_t> csize(1, 5000);
    for (size_t i = 0; i < x.size();) {
        const size_t k = std::min(csize(chunks), x.size() - i);
        rx.push(x.data() + i, k);
        i += k;
    }
    burst_result r;
    for (int b = 0; b < 7; b++) {
        ASSERT_TRUE(rx.pop(r)) << "burst " << b;
        EXPECT_LT(evm(r.data, r.gain, data[b]), 0.45) << "burst " << b; // N0 0.3 plus losses
        EXPECT_NEAR(r.timing, double(starts[b]), 200.0);
    }
    EXPECT_FALSE(rx.pop(r));
    ASSERT_TRUE(rx.pending());
    EXPECT_GE(rx.pending_sample(), int64_t(starts.back()) - 300);
}

TEST(BurstReceiver, CaptureRangeOfTheFrequencyOffset)
{
    std::mt19937_64 rng(7);
    for (double cfo : { -3.0e-3, 3.0e-3 }) {
        channel c;
        c.cfo = cfo;
        c.n0 = 0.5;
        const auto s = make_burst(600, 2, c, rng);
        const auto got = receive(config(), 600, s.samples);
        ASSERT_EQ(got.size(), 1u) << "cfo " << cfo;
        EXPECT_NEAR(got[0].cfo, cfo, 3e-5);
        EXPECT_LT(evm(got[0].data, got[0].gain, s.data), 0.6);
    }
}

TEST(BurstReceiver, BadParametersAreNamed)
{
    receiver_config c = config();
    c.threshold = 1.5;
    try {
        burst_receiver rx(c, 100);
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("threshold"), std::string::npos);
    }
    c = config();
    c.demod.sps = 1;
    EXPECT_THROW(burst_receiver(c, 100), std::invalid_argument);
}
