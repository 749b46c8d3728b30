/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The power gate of blind decoding (pdcch_cce_power, cce_power_gate)
// against the statistics it is built on: on noise alone |r|^2 / N0 is
// exponential with mean 1, so a CCE's mean over 36 n_rx REs is about
// 1 +- 1/sqrt(36 n_rx), and a candidate passes 2 standard deviations above
// 1 a few times in 100 (the Gaussian tail is 2.3%, the Gamma's a little
// more); a QPSK PDCCH at SNR s has mean 1 + s.
#include "lte/control/control_layout.h"
#include "lte/control/control_region.h"
#include "lte/control/pdcch.h"
#include "lte/control/pdcch_blind.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace gr::gpurx::core::lte;

namespace {

struct gate_counts {
    int candidates = 0, passed = 0;
    double power_sum = 0.0;
    int cces = 0;
};

//! The control region of \p trials subframes of a 50 PRB, 2-port cell,
//! every CCE carrying a QPSK PDCCH at \p snr_db (or nothing, noise alone,
//! when \p send is false), N0 = 1, the noise estimate exact.
gate_counts run(bool send, double snr_db, int n_rx, int agg, int trials)
{
    cell c;
    c.n_prb = 50;
    c.cell_id = 7;
    c.ports = 2;
    const control_layout lay = make_control_layout(c, 3);
    std::mt19937 rng(5 + n_rx + 10 * agg);
    std::normal_distribution<float> n(0.0f, std::sqrt(0.5f));
    const float amp = float(std::sqrt(std::pow(10.0, snr_db / 10.0)));
    channel_estimate h;
    h.noise_var = 1.0f;
    gate_counts t;
    for (int trial = 0; trial < trials; trial++) {
        subframe_grid g;
        g.resize(n_rx, c.symbols_per_subframe(), c.n_sc());
        for (auto& v : g.re)
            v = cf(n(rng), n(rng));
        if (send)
            for (int32_t off : lay.cce_re)
                for (int a = 0; a < n_rx; a++) {
                    const float s = float(M_SQRT1_2) * amp;
                    g.re[size_t(a) * g.n_symbols * g.n_sc + size_t(off)] +=
                        cf(rng() & 1 ? s : -s, rng() & 1 ? s : -s);
                }
        const auto power = pdcch_cce_power(lay, g, h);
        EXPECT_EQ(power.size(), size_t(lay.n_cce));
        for (float p : power) {
            t.power_sum += p;
            t.cces++;
        }
        const cce_power_gate gate{ power.data(), n_rx, 2.0f };
        for (int ncce = 0; ncce + agg <= lay.n_cce; ncce += agg) {
            t.candidates++;
            t.passed += gate.passes(ncce, agg);
        }
    }
    return t;
}

} // namespace

TEST(CcePower, NoiseAloneHasUnitMeanAndRarelyPasses)
{
    for (int n_rx : { 1, 2 })
        for (int agg : { 1, 2, 4, 8 }) {
            const gate_counts t = run(false, 0.0, n_rx, agg, 200);
            const double mean = t.power_sum / t.cces;
            const double rate = double(t.passed) / t.candidates;
            std::printf("[ gate     ] noise alone, %d rx, aggregation %d: mean power %.4f, %d of %d candidates pass "
                        "(%.3f%%)\n",
                        n_rx, agg, mean, t.passed, t.candidates, 100.0 * rate);
            EXPECT_NEAR(mean, 1.0, 0.01);
            EXPECT_LE(rate, 0.04) << n_rx << " rx, aggregation " << agg;
        }
}

TEST(CcePower, PdcchWhereItDecodesPasses)
{
    // SNR per RE where a DCI of its aggregation decodes (formats of 30..60
    // bits: code rate about 0.6 at L = 1, 0.08 at L = 8).
    const struct {
        int agg;
        double snr_db;
    } cases[] = { { 1, 3.0 }, { 2, 0.0 }, { 4, -3.0 }, { 8, -5.0 } };
    for (const auto& k : cases) {
        const gate_counts t = run(true, k.snr_db, 1, k.agg, 200);
        const double mean = t.power_sum / t.cces;
        const double rate = double(t.passed) / t.candidates;
        std::printf("[ gate     ] PDCCH at %.0f dB, aggregation %d: mean power %.3f (1 + SNR = %.3f), %d of %d pass\n",
                    k.snr_db, k.agg, mean, 1.0 + std::pow(10.0, k.snr_db / 10.0), t.passed, t.candidates);
        EXPECT_NEAR(mean, 1.0 + std::pow(10.0, k.snr_db / 10.0), 0.02);
        EXPECT_GE(rate, 0.99) << "aggregation " << k.agg;
    }
}

TEST(CcePower, NoNoiseEstimateNoGate)
{
    cell c;
    c.n_prb = 25;
    const control_layout lay = make_control_layout(c, 2);
    subframe_grid g;
    g.resize(1, c.symbols_per_subframe(), c.n_sc());
    channel_estimate h;
    h.noise_var = 0.0f;
    EXPECT_TRUE(pdcch_cce_power(lay, g, h).empty());
    control_region_result r;
    EXPECT_EQ(r.gate(3.0f).power, nullptr);
    EXPECT_TRUE(r.gate(3.0f).passes(0, 1));
    const float zero_power[8] = {};
    EXPECT_TRUE((cce_power_gate{ zero_power, 1, 0.0f }.passes(0, 8))) << "sigmas 0: every candidate runs";
    EXPECT_FALSE((cce_power_gate{ zero_power, 1, 3.0f }.passes(0, 8)));
}
