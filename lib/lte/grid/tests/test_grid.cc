/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// OFDM demodulation, the CRS and the channel estimate against lte_dl_gen's
// captures: the generator's CRS (srsRAN's) at h = 1 must be the sequence of
// §6.10.1 exactly; through its known flat channels (-o: h = 1 per port and
// antenna, -S: h = [1 1], -R: the h2x2 of its truth, [rx][port]) the estimate
// must be that channel; with -N the noise variance must be 10^(-N/10) per RE.
#include "lte/common/crs_positions.h"
#include "lte/grid/channel_estimator.h"
#include "lte/grid/crs.h"
#include "lte/grid/ofdm_demod.h"
#include "lte/grid/tests/grid_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace gr::gpurx::core::lte;
using namespace gr::gpurx::test;

namespace {

//! The true flat channel [rx][port] of a capture.
std::vector<std::vector<cf>> true_channel(lte_rx_setup setup, int ports, const nlohmann::json& truth)
{
    if (setup == lte_rx_setup::ports_summed)
        return { std::vector<cf>(size_t(ports), cf(1.0f, 0.0f)) };
    if (setup == lte_rx_setup::channel_2x2) {
        const auto& h = truth["h2x2"];
        auto at = [&](int i) { return cf(h[size_t(2 * i)].get<float>(), h[size_t(2 * i + 1)].get<float>()); };
        return { { at(0), at(1) }, { at(2), at(3) } };
    }
    std::vector<std::vector<cf>> H(size_t(ports), std::vector<cf>(size_t(ports), cf(0.0f, 0.0f)));
    for (int p = 0; p < ports; p++)
        H[size_t(p)][size_t(p)] = cf(1.0f, 0.0f);
    return H;
}

} // namespace

TEST(Crs, InitialValueByHand)
{
    // 2^10 (7 (ns+1) + l + 1)(2 N_ID + 1) + 2 N_ID + N_CP
    EXPECT_EQ(crs_c_init(0, 0, 0, cyclic_prefix::normal), 1024u * 8u + 1u);
    EXPECT_EQ(crs_c_init(1, 1, 4, cyclic_prefix::normal), 1024u * 19u * 3u + 2u + 1u);
    EXPECT_EQ(crs_c_init(503, 19, 5, cyclic_prefix::extended), 1024u * 146u * 1007u + 1006u);
}

TEST(Crs, GeneratorsReferenceSignalsAreTheSequence)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    for (const auto& bc : cases)
        for (int ports : { 1, 2 }) {
            const auto& cap = cached_capture(gen_args(bc, ports, 4), lte_rx_setup::port_files);
            const cell c = cell_of_truth(cap.truth[0]);
            ASSERT_EQ(c.ports, ports);
            ASSERT_EQ(int(cap.rx.size()), ports);
            ofdm_demodulator dem(c, cap.truth[0]["fft"].get<int>(), ports);
            subframe_grid g;
            std::vector<cf> r(size_t(2 * c.n_prb));
            double worst = 0.0, other = 0.0;
            for (int i = 0; i < 3; i++) {
                demod_subframe(cap, dem, i, g);
                for (int p = 0; p < ports; p++) // port p is file p
                    for (int l = 0; l < g.n_symbols; l++) {
                        const int ls = l % c.symbols_per_slot(), ns = g.time.slot() + l / c.symbols_per_slot();
                        if (!crs_symbol(c, p, ls))
                            continue;
                        crs_sequence(c, ns, ls, r.data());
                        const int off = crs_offset(c, p, ls, ns);
                        for (int m = 0; m < 2 * c.n_prb; m++) {
                            worst = std::max(worst, double(std::abs(g.at(p, l, 6 * m + off) - r[size_t(m)])));
                            // The other port's CRS REs are left empty on this one.
                            if (ports == 2)
                                other = std::max(other, double(std::abs(g.at(1 - p, l, 6 * m + off))));
                        }
                    }
            }
            EXPECT_LT(worst, 1e-3) << bc.n_prb << " PRB cell " << bc.cell_id << " ports " << ports;
            EXPECT_LT(other, 1e-3) << bc.n_prb << " PRB cell " << bc.cell_id;
        }
}

TEST(OfdmDemod, WindowAdvanceIsCompensated)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    const auto& cap = cached_capture(gen_args(cases[1], 1, 4), lte_rx_setup::port_files);
    const cell c = cell_of_truth(cap.truth[0]);
    const int fft = cap.truth[0]["fft"].get<int>();
    std::vector<cf> r(size_t(2 * c.n_prb));
    for (int adv : { 0, 1, 9, 36 }) {
        ofdm_demodulator dem(c, fft, 1, adv);
        EXPECT_EQ(dem.window_advance(), adv);
        subframe_grid g;
        demod_subframe(cap, dem, 1, g);
        double worst = 0.0;
        for (int l : { 0, 4, 7, 11 }) {
            const int ls = l % 7, ns = 2 + l / 7;
            crs_sequence(c, ns, ls, r.data());
            for (int m = 0; m < 2 * c.n_prb; m++)
                worst = std::max(worst, double(std::abs(g.at(0, l, 6 * m + crs_offset(c, 0, ls, ns)) - r[size_t(m)])));
        }
        EXPECT_LT(worst, 1e-3) << "advance " << adv;
    }
    EXPECT_THROW(ofdm_demodulator(c, fft, 1, 37), std::invalid_argument);
    EXPECT_THROW(ofdm_demodulator(c, 256, 1), std::invalid_argument);
}

TEST(OfdmDemod, UnitPowerResourceElements)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    // One UE on every PRB, QPSK (MCS 9): symbols 5 and 6 of subframe 1 are
    // all PDSCH, |x|^2 = 1 at every RE.
    const auto& cap = cached_capture(gen_args(cases[1], 1, 4), lte_rx_setup::port_files);
    const cell c = cell_of_truth(cap.truth[0]);
    ofdm_demodulator dem(c, cap.truth[0]["fft"].get<int>(), 1);
    subframe_grid g;
    demod_subframe(cap, dem, 1, g);
    for (int l : { 5, 6 })
        for (int k = 0; k < c.n_sc(); k++)
            ASSERT_NEAR(std::abs(g.at(0, l, k)), 1.0, 1e-3) << l << " " << k;
}

namespace {
struct flat_case {
    lte_rx_setup setup;
    int ports;
    const char* name;
};
const flat_case flat_cases[] = {
    { lte_rx_setup::port_files, 1, "-o 1 port" },
    { lte_rx_setup::port_files, 2, "-o 2 ports" },
    { lte_rx_setup::ports_summed, 2, "-S" },
    { lte_rx_setup::channel_2x2, 2, "-R" },
};

//! Largest |h_est - h| over every RE of the capture's subframes (of the
//! ports it has), the mean square error, and the mean noise variance;
//! \p est_ports ports estimated (a hypothesis of more ports than the cell
//! has, as a MIB search makes: the noise from port 0 only).
void estimate_capture(const lte_capture& cap, int est_ports, lte_rx_setup setup,
                      frequency_interpolation fi, double& worst, double& mse, double& noise)
{
    cell c = cell_of_truth(cap.truth[0]);
    const int true_ports = c.ports;
    const auto H = true_channel(setup, true_ports, cap.truth[0]);
    c.ports = est_ports;
    const int n_rx = int(cap.rx.size());
    ofdm_demodulator dem(c, cap.truth[0]["fft"].get<int>(), n_rx);
    channel_estimator_options o;
    o.frequency = fi;
    if (est_ports > true_ports)
        o.noise_ports = 1;
    channel_estimator ce(c, n_rx, o);
    subframe_grid g;
    channel_estimate est;
    worst = 0.0;
    mse = 0.0;
    noise = 0.0;
    size_t count = 0;
    const int n = capture_subframes(cap, dem);
    for (int i = 0; i < n; i++) {
        demod_subframe(cap, dem, i, g);
        ASSERT_TRUE(ce.estimate(g, est));
        ASSERT_EQ(est.n_rx, n_rx);
        ASSERT_EQ(est.n_ports, est_ports);
        noise += est.noise_var / n;
        for (int a = 0; a < n_rx; a++)
            for (int p = 0; p < true_ports; p++) {
                const cf h = H[size_t(a)][size_t(p)];
                for (int l = 0; l < est.n_symbols; l++)
                    for (int k = 0; k < est.n_sc; k++) {
                        const double e = std::norm(est.at(a, p, l, k) - h);
                        worst = std::max(worst, std::sqrt(e));
                        mse += e;
                        count++;
                    }
            }
    }
    mse /= double(count);
}
} // namespace

TEST(ChannelEstimator, FlatChannelsAreExact)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    int runs = 0;
    for (const auto& bc : cases)
        for (const auto& fc : flat_cases) {
            const auto& cap = cached_capture(gen_args(bc, fc.ports, 4), fc.setup);
            for (auto fi : { frequency_interpolation::averaged, frequency_interpolation::linear })
                for (int est_ports : { fc.ports, 4 }) {
                    double worst, mse, noise;
                    estimate_capture(cap, est_ports, fc.setup, fi, worst, mse, noise);
                    EXPECT_LT(worst, 2e-3) << fc.name << " " << bc.n_prb << " PRB cell " << bc.cell_id
                                           << " ports estimated " << est_ports;
                    EXPECT_LT(noise, 1e-5) << fc.name << " " << bc.n_prb << " PRB";
                    runs++;
                }
        }
    EXPECT_EQ(runs, 3 * 4 * 2 * 2);
}

TEST(ChannelEstimator, NoiseVarianceAndErrorAtSnr)
{
    GPURX_REQUIRE_LTE_DL_GEN();
    for (const auto& bc : cases)
        for (const auto& fc : { flat_cases[0], flat_cases[3] })
            for (int snr : { 0, 10, 20 }) {
                const auto cap =
                    generate_lte_capture(gen_args(bc, fc.ports, 10, "-N " + std::to_string(snr)), fc.setup);
                double worst, mse, noise;
                estimate_capture(cap, fc.ports, fc.setup, frequency_interpolation::averaged, worst, mse, noise);
                const double s2 = std::pow(10.0, -snr / 10.0);
                std::printf("%-10s %3d PRB %2d dB: noise_var %+.2f dB off, channel MSE %.3f of the noise\n", fc.name,
                            bc.n_prb, snr, 10.0 * std::log10(noise / s2), mse / s2);
                EXPECT_NEAR(10.0 * std::log10(noise / s2), 0.0, 1.0)
                    << fc.name << " " << bc.n_prb << " PRB, " << snr << " dB: noise_var " << noise;
                // A 7-CRS average leaves about s2/7 at the CRS; interpolation
                // and the band edges (shorter windows) add some.
                EXPECT_LT(mse, 0.3 * s2) << fc.name << " " << bc.n_prb << " PRB, " << snr << " dB";
            }
}

TEST(ChannelEstimator, RejectsBadInput)
{
    cell c;
    c.n_prb = 6;
    channel_estimator_options o;
    o.average_span = 4;
    EXPECT_THROW(channel_estimator(c, 1, o), std::invalid_argument);
    EXPECT_THROW(channel_estimator(c, 0), std::invalid_argument);
    channel_estimator ce(c, 1);
    subframe_grid g;
    g.resize(1, 14, 72);
    channel_estimate est;
    g.at(0, 0, 0) = cf(std::nanf(""), 0.0f);
    EXPECT_FALSE(ce.estimate(g, est));
    EXPECT_EQ(est.noise_var, 0.0f);
    g.resize(1, 14, 60);
    EXPECT_FALSE(ce.estimate(g, est));
}

namespace {
//! A channel linear in time (symbol count since subframe 0 of SFN 0) and
//! in frequency, different per antenna and port: linear interpolation, the
//! symmetric moving average and linear extrapolation are exact on it.
cf linear_channel(int rx, int p, int abs_symbol, int k)
{
    const cf a(0.5f + 0.1f * rx, -0.3f + 0.2f * p), b(0.004f * (p + 1), -0.003f * (rx + 1)), c(-0.001f, 0.0005f * p);
    return a + b * float(abs_symbol % 100) + c * float(k);
}

//! The grid of subframe \p t holding only the CRS of the cell's ports, RE
//! (a, l, k) of port p being value(a, p, l, k, r) for the CRS symbol r.
template <typename F>
void crs_only_grid(const cell& c, int n_rx, subframe_time t, subframe_grid& g, F value)
{
    g.resize(n_rx, c.symbols_per_subframe(), c.n_sc());
    g.time = t;
    std::vector<cf> r(size_t(2 * c.n_prb));
    for (int a = 0; a < n_rx; a++)
        for (int l = 0; l < g.n_symbols; l++) {
            const int ls = l % c.symbols_per_slot(), ns = g.time.slot() + l / c.symbols_per_slot();
            crs_sequence(c, ns, ls, r.data());
            for (int p = 0; p < c.ports; p++)
                if (crs_symbol(c, p, ls))
                    for (int m = 0; m < 2 * c.n_prb; m++) {
                        const int k = 6 * m + crs_offset(c, p, ls, ns);
                        g.at(a, l, k) = value(a, p, l, k, r[size_t(m)]);
                    }
        }
}

//! Subframe \p sf's grid holding only the CRS of 4 ports through linear_channel().
void crs_only_grid(const cell& c, int n_rx, int sf, subframe_grid& g)
{
    subframe_time t;
    t.subframe = sf;
    crs_only_grid(c, n_rx, t, g, [&](int a, int p, int l, int k, cf r) {
        return linear_channel(a, p, sf * c.symbols_per_subframe() + l, k) * r;
    });
}
} // namespace

TEST(ChannelEstimator, LinearChannelFourPortsAndThePreviousSubframe)
{
    cell c;
    c.n_prb = 15;
    c.cell_id = 101;
    c.ports = 4;
    for (auto fi : { frequency_interpolation::averaged, frequency_interpolation::linear }) {
        channel_estimator_options o;
        o.frequency = fi;
        o.hold_in_time = false;
        channel_estimator extrapolating(c, 2, o);
        o.hold_in_time = true;
        channel_estimator holding(c, 2, o);
        subframe_grid g;
        channel_estimate ex, ho;
        for (int sf = 3; sf < 5; sf++) {
            crs_only_grid(c, 2, sf, g);
            ASSERT_TRUE(extrapolating.estimate(g, ex));
            ASSERT_TRUE(holding.estimate(g, ho));
            EXPECT_LT(ex.noise_var, 1e-8);
            double worst_ex = 0.0, worst_inside = 0.0, worst_held = 0.0;
            for (int a = 0; a < 2; a++)
                for (int p = 0; p < 4; p++) {
                    // Ports 0, 1: CRS in symbols 0..11; ports 2, 3: 1..8, and 8
                    // of the subframe before (4 only).
                    const int first = p < 2 || sf == 4 ? 0 : 1, last = p < 2 ? 11 : 8;
                    for (int l = 0; l < 14; l++)
                        for (int k = 0; k < c.n_sc(); k++) {
                            const cf h = linear_channel(a, p, sf * 14 + l, k);
                            worst_ex = std::max(worst_ex, double(std::abs(ex.at(a, p, l, k) - h)));
                            if (l >= first && l <= last)
                                worst_inside = std::max(worst_inside, double(std::abs(ho.at(a, p, l, k) - h)));
                            else // held: the nearest CRS symbol's channel
                                worst_held = std::max(
                                    worst_held,
                                    double(std::abs(ho.at(a, p, l, k) -
                                                    linear_channel(a, p, sf * 14 + (l < first ? first : last), k))));
                        }
                }
            EXPECT_LT(worst_ex, 1e-4) << "subframe " << sf;
            EXPECT_LT(worst_inside, 1e-4) << "subframe " << sf;
            EXPECT_LT(worst_held, 1e-4) << "subframe " << sf;
        }
        // Not consecutive (subframe 6 after 4): symbol 0 of port 2 is held
        // from symbol 1 again, not interpolated from subframe 4.
        crs_only_grid(c, 2, 6, g);
        ASSERT_TRUE(holding.estimate(g, ho));
        EXPECT_LT(std::abs(ho.at(0, 2, 0, 5) - linear_channel(0, 2, 6 * 14 + 1, 5)), 1e-4);
    }
}

namespace {
//! A channel flat in time whose second path, \p delay_s later and 0.8 as
//! strong, bends it in frequency: h(k) = a (1 + 0.8 e^{-j 2 pi k 15 kHz delay}).
cf two_path_channel(int rx, int p, int k, double delay_s)
{
    const cf a(0.6f + 0.1f * rx, 0.2f - 0.1f * p);
    const double ph = -2.0 * M_PI * double(k) * 15e3 * delay_s;
    return a * (1.0f + 0.8f * cf(float(std::cos(ph)), float(std::sin(ph))));
}

struct span_result {
    int wide = 0, narrow = 0; //!< subframes that took each average
    double mse = 0.0;         //!< mean square error over every RE of ports 0 and 1
};

//! Subframes of CRS only through two_path_channel() with white noise of
//! variance \p s2 on the CRS REs, estimated with \p o; MSE over every RE of
//! ports 0 and 1.
span_result run_two_path(double delay_s, double s2, const channel_estimator_options& o, int subframes)
{
    cell c;
    c.n_prb = 25;
    c.cell_id = 7;
    c.ports = 2;
    channel_estimator ce(c, 1, o);
    std::mt19937 rng(31);
    std::normal_distribution<float> n(0.0f, float(std::sqrt(s2 / 2.0)));
    span_result res;
    double sum = 0.0;
    long count = 0;
    for (int sf = 0; sf < subframes; sf++) {
        subframe_grid g;
        subframe_time t;
        t.sfn = sf / 10;
        t.subframe = sf % 10;
        crs_only_grid(c, 1, t, g, [&](int, int p, int, int k, cf r) {
            return two_path_channel(0, p, k, delay_s) * r + cf(n(rng), n(rng));
        });
        channel_estimate est;
        EXPECT_TRUE(ce.estimate(g, est));
        (ce.last_span() == o.average_span ? res.wide : res.narrow)++;
        for (int p = 0; p < 2; p++)
            for (int l = 0; l < g.n_symbols; l++)
                for (int k = 0; k < c.n_sc(); k++) {
                    sum += std::norm(est.at(0, p, l, k) - two_path_channel(0, p, k, delay_s));
                    count++;
                }
    }
    res.mse = sum / double(count);
    return res;
}
} // namespace

// The moving average's width per subframe (narrow_span): a channel flat in
// frequency keeps the wide average at every SNR (its estimate the same as
// without the choice); a delay spread that bends the channel within the
// wide window (2.5 us, EVA's longest path, bends it by 60 degrees over 7
// CRS) takes the narrow one where the bend outweighs the noise, and the
// estimate's error falls.
TEST(ChannelEstimator, NarrowAverageWhereTheChannelBends)
{
    channel_estimator_options adaptive, wide_only;
    wide_only.narrow_span = 0;
    for (double snr_db : { 0.0, 10.0, 30.0 }) {
        const double s2 = std::pow(10.0, -snr_db / 10.0);
        const span_result flat = run_two_path(0.0, s2, adaptive, 20);
        const span_result flat_wide = run_two_path(0.0, s2, wide_only, 20);
        std::printf("[ span     ] flat, %2.0f dB: wide in %d of 20 subframes, MSE %.3g (wide only %.3g)\n", snr_db,
                    flat.wide, flat.mse, flat_wide.mse);
        EXPECT_EQ(flat.wide, 20) << snr_db << " dB";
        EXPECT_EQ(flat.mse, flat_wide.mse) << snr_db << " dB";
    }
    for (double snr_db : { 20.0, 30.0 }) {
        const double s2 = std::pow(10.0, -snr_db / 10.0);
        const span_result bent = run_two_path(2.5e-6, s2, adaptive, 20);
        const span_result bent_wide = run_two_path(2.5e-6, s2, wide_only, 20);
        std::printf("[ span     ] 2.5 us, %2.0f dB: narrow in %d of 20 subframes, MSE %.3g (wide only %.3g)\n",
                    snr_db, bent.narrow, bent.mse, bent_wide.mse);
        EXPECT_EQ(bent.narrow, 20) << snr_db << " dB";
        EXPECT_LT(bent.mse, 0.5 * bent_wide.mse) << snr_db << " dB";
    }
    channel_estimator_options bad;
    bad.narrow_span = 7;
    cell c;
    c.n_prb = 6;
    try {
        channel_estimator ce(c, 1, bad);
        FAIL() << "no throw";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("narrow_span=7"), std::string::npos) << e.what();
    }
}
