/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The MIMO-OFDM frame and its synchronisation: the frame's layout against
// its definition (an FFT written here as a plain DFT), and frames through a
// multi-antenna channel with delay, frequency offset and noise, found,
// timed and estimated (mimo_chanest) so that the data symbols come back.
#include "common/running_sums.h"
#include "ofdm/mimo_chanest.h"
#include "ofdm/ofdm_pilots.h"
#include "ofdm/ofdm_sync.h"

#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace gr::gpurx::core::ofdm;
using gr::gpurx::core::zero_non_finite;

namespace {
std::vector<std::complex<double>> dft(const cfloat* x, int n)
{
    const double pi = std::acos(-1.0);
    std::vector<std::complex<double>> X(static_cast<size_t>(n));
    for (int k = 0; k < n; k++)
        for (int t = 0; t < n; t++)
            X[k] += std::complex<double>(x[t]) * std::polar(1.0, -2.0 * pi * k * t / n);
    return X;
}

std::vector<cfloat> qpsk(int n, std::mt19937_64& rng)
{
    std::uniform_int_distribution<int> b(0, 1);
    const float a = float(1.0 / std::sqrt(2.0));
    std::vector<cfloat> v(static_cast<size_t>(n));
    for (auto& x : v)
        x = cfloat(b(rng) ? -a : a, b(rng) ? -a : a);
    return v;
}
} // namespace

TEST(OfdmFrame, DataAndTrainingSitWhereTheDefinitionSays)
{
    const ofdm_frame_format f(2, 64, 16, 48, 2, 3);
    std::mt19937_64 rng(1);
    const auto sym = qpsk(f.data_res(), rng);
    const auto fr = build_ofdm_frame(f, sym.data());
    const mimo_training tr(2, 48, 2);
    const double scale = std::sqrt(64.0);
    for (int j = 0; j < 2; j++) {
        // The sync symbol's halves repeat (antenna 0, sqrt(nt) louder),
        // antenna 1 is silent.
        for (int n = 0; n < 32; n++) {
            const cfloat a = fr[j][size_t(16 + n)], b = fr[j][size_t(16 + 32 + n)];
            EXPECT_NEAR(std::abs(a - b), 0.0, 1e-5);
            if (j == 1) {
                EXPECT_EQ(std::abs(a), 0.0f);
            }
        }
        for (int s = 0; s < f.training_symbols() + f.data_symbols; s++) {
            const cfloat* x = fr[j].data() + size_t(1 + s) * f.symbol_len();
            for (int n = 0; n < 16; n++) // cyclic prefix
                EXPECT_NEAR(std::abs(x[n] - x[64 + n]), 0.0, 1e-6);
            const auto X = dft(x + 16, 64);
            for (int k = 0; k < 48; k++) {
                const std::complex<double> got = X[size_t(f.bin(k))] / scale;
                std::complex<double> want;
                if (s < f.training_symbols())
                    want = double(tr.cover(j, s % 2)) * std::complex<double>(tr.sequence()[k]);
                else
                    want = std::complex<double>(sym[(size_t(k) * 3 + (s - f.training_symbols())) * 2 + j]);
                EXPECT_NEAR(std::abs(got - want), 0.0, 1e-4) << "antenna " << j << " symbol " << s << " k " << k;
            }
        }
    }
}

TEST(OfdmSync, FramesThroughDelaySpreadCfoAndNoiseComeBack)
{
    const int nt = 2, nr = 2;
    const ofdm_frame_format f(nt, 64, 16, 48, 2, 4);
    std::mt19937_64 rng(2);
    std::normal_distribution<double> g(0.0, std::sqrt(0.5));
    // 3-tap channel per antenna pair, within the CP.
    std::vector<cfloat> taps(size_t(nr) * nt * 3);
    for (auto& t : taps)
        t = cfloat(float(g(rng)), float(g(rng))) * 0.577f;
    const double cfo = 2.3e-3, n0 = 1e-4;
    const int frames = 4, gap = 300, lead = 517;
    std::vector<std::vector<cfloat>> sent;
    std::vector<std::vector<cfloat>> x(static_cast<size_t>(nt));
    for (auto& v : x)
        v.assign(size_t(lead), cfloat(0, 0));
    for (int fr = 0; fr < frames; fr++) {
        sent.push_back(qpsk(f.data_res(), rng));
        const auto t = build_ofdm_frame(f, sent.back().data());
        for (int j = 0; j < nt; j++) {
            x[j].insert(x[j].end(), t[j].begin(), t[j].end());
            x[j].insert(x[j].end(), size_t(gap), cfloat(0, 0));
        }
    }
    const size_t len = x[0].size() + 3;
    std::vector<std::vector<cfloat>> y(size_t(nr), std::vector<cfloat>(len, cfloat(0, 0)));
    std::normal_distribution<double> w(0.0, std::sqrt(n0 / 2.0));
    const double pi = std::acos(-1.0);
    for (int r = 0; r < nr; r++) {
        for (int j = 0; j < nt; j++)
            for (size_t n = 0; n < x[j].size(); n++)
                for (int l = 0; l < 3; l++)
                    y[r][n + l] += taps[(size_t(r) * nt + j) * 3 + l] * x[j][n];
        for (size_t n = 0; n < len; n++)
            y[r][n] = y[r][n] * cfloat(std::polar(1.0, 2.0 * pi * cfo * double(n))) +
                      cfloat(float(w(rng)), float(w(rng)));
    }
    ofdm_frame_receiver rx(f, nr);
    std::vector<const cfloat*> p(static_cast<size_t>(nr));
    for (size_t i = 0; i < len; i += 1000) {
        const size_t n = std::min<size_t>(1000, len - i);
        for (int r = 0; r < nr; r++)
            p[r] = y[r].data() + i;
        rx.push(p.data(), n);
    }
    const mimo_training tr(nt, f.used, f.repeats);
    for (int fr = 0; fr < frames; fr++) {
        ofdm_sync_result r;
        ASSERT_TRUE(rx.pop(r)) << "frame " << fr;
        EXPECT_NEAR(r.cfo, cfo, 2e-5);
        // The training's used subcarriers, then the channel, then the data
        // symbols by zero forcing: every QPSK decision right at 40 dB (zero
        // forcing on a Rayleigh subcarrier near singular errs at 20 dB).
        std::vector<cfloat> train(size_t(tr.symbols()) * nr * f.used);
        for (int t = 0; t < tr.symbols(); t++)
            for (int rr = 0; rr < nr; rr++)
                for (int k = 0; k < f.used; k++)
                    train[(size_t(t) * nr + rr) * f.used + k] = r.symbols[(size_t(t) * nr + rr) * 64 + f.bin(k)];
        const chanest_result est = estimate_mimo_channel(tr, nr, train.data());
        EXPECT_LT(est.n0, 3 * n0);
        int wrong = 0;
        for (int k = 0; k < f.used; k++)
            for (int s = 0; s < f.data_symbols; s++) {
                const int si = tr.symbols() + s;
                const std::complex<double> y0 = r.symbols[(size_t(si) * nr + 0) * 64 + f.bin(k)];
                const std::complex<double> y1 = r.symbols[(size_t(si) * nr + 1) * 64 + f.bin(k)];
                const std::complex<double> a = est.h[size_t(k) * 4 + 0], b = est.h[size_t(k) * 4 + 1],
                                           c = est.h[size_t(k) * 4 + 2], d = est.h[size_t(k) * 4 + 3];
                const std::complex<double> det = a * d - b * c;
                const std::complex<double> x0 = (d * y0 - b * y1) / det, x1 = (a * y1 - c * y0) / det;
                const size_t i = (size_t(k) * f.data_symbols + s) * 2;
                wrong += (x0.real() > 0) != (sent[fr][i].real() > 0) || (x0.imag() > 0) != (sent[fr][i].imag() > 0);
                wrong += (x1.real() > 0) != (sent[fr][i + 1].real() > 0) ||
                         (x1.imag() > 0) != (sent[fr][i + 1].imag() > 0);
            }
        EXPECT_EQ(wrong, 0) << "frame " << fr;
    }
    ofdm_sync_result extra;
    EXPECT_FALSE(rx.pop(extra));
}

// The end of a stream: a frame whose last sample is the stream's last comes
// back (finish() decides it on the silence after it, as the block does at
// the end of its input); one cut short by a few samples is reported, not
// popped. Large FFT, where the fine search reads 2N past the frame.
TEST(OfdmSync, FrameEndingTheStreamComesBackAndACutOneIsReported)
{
    const int nt = 2, nr = 2;
    const ofdm_frame_format f(nt, 1024, 72, 600, 2, 3);
    std::mt19937_64 rng(5);
    const int lead = 700;
    for (const int cut_by : { 0, 5 }) {
        const auto sent = qpsk(f.data_res(), rng);
        const auto t = build_ofdm_frame(f, sent.data());
        std::vector<std::vector<cfloat>> y(static_cast<size_t>(nr));
        for (int r = 0; r < nr; r++) {
            y[r].assign(size_t(lead), cfloat(0, 0));
            // Receive antenna r hears transmit antenna r (identity channel).
            y[r].insert(y[r].end(), t[r].begin(), t[r].end() - cut_by);
        }
        for (const int threads : { 0, 2 }) {
            ofdm_frame_receiver rx(f, nr, 0.3, threads);
            std::vector<const cfloat*> p{ y[0].data(), y[1].data() };
            rx.push(p.data(), y[0].size());
            ofdm_sync_result r;
            EXPECT_FALSE(rx.pop(r, true)) << "decided before the end of the stream";
            const auto cut = rx.finish();
            if (cut_by == 0) {
                EXPECT_TRUE(cut.empty());
                ASSERT_TRUE(rx.pop(r, true)) << threads << " threads";
                EXPECT_NEAR(r.timing, lead + f.cp_len, 1.0);
            } else {
                ASSERT_EQ(cut.size(), 1u);
                EXPECT_NEAR(double(cut[0]), lead, 1.0);
                EXPECT_FALSE(rx.pop(r, true));
            }
            EXPECT_EQ(rx.in_work(), 0u);
        }
    }
}

// Worker threads transform the symbols while detection goes on: the same
// frames, in the same order, bit for bit, as on the caller's thread;
// frames popped as they become ready (without waiting) and the rest at the
// end.
TEST(OfdmSync, WorkerThreadsGiveTheSameFramesInOrder)
{
    const int nt = 2, nr = 2;
    const ofdm_frame_format f(nt, 256, 32, 200, 2, 6);
    std::mt19937_64 rng(13);
    std::normal_distribution<double> w(0.0, std::sqrt(1e-3 / 2.0));
    const int frames = 60;
    const double cfo = 1.7e-4, pi = std::acos(-1.0);
    std::vector<std::vector<cfloat>> y(static_cast<size_t>(nr), std::vector<cfloat>(333, cfloat(0, 0)));
    for (int fr = 0; fr < frames; fr++) {
        const auto sent = qpsk(f.data_res(), rng);
        const auto t = build_ofdm_frame(f, sent.data());
        for (int r = 0; r < nr; r++)
            y[r].insert(y[r].end(), t[r].begin(), t[r].end());
    }
    for (int r = 0; r < nr; r++)
        for (size_t n = 0; n < y[r].size(); n++)
            y[r][n] = y[r][n] * cfloat(std::polar(1.0, 2.0 * pi * cfo * double(n))) +
                      cfloat(float(w(rng)), float(w(rng)));
    auto run = [&](int threads) {
        ofdm_frame_receiver rx(f, nr, 0.3, threads);
        std::vector<ofdm_sync_result> out;
        for (size_t i = 0; i < y[0].size(); i += 4096) {
            const size_t n = std::min<size_t>(4096, y[0].size() - i);
            std::vector<const cfloat*> p{ y[0].data() + i, y[1].data() + i };
            rx.push(p.data(), n);
            ofdm_sync_result r;
            while (rx.pop(r))
                out.push_back(std::move(r));
        }
        EXPECT_TRUE(rx.finish().empty());
        ofdm_sync_result r;
        while (rx.pop(r, true))
            out.push_back(std::move(r));
        EXPECT_EQ(rx.in_work(), 0u);
        return out;
    };
    const auto ref = run(0);
    ASSERT_EQ(ref.size(), size_t(frames));
    for (const int threads : { 1, 3 }) {
        const auto got = run(threads);
        ASSERT_EQ(got.size(), ref.size()) << threads << " threads";
        for (size_t i = 0; i < ref.size(); i++) {
            EXPECT_EQ(got[i].timing, ref[i].timing) << "frame " << i;
            EXPECT_EQ(got[i].cfo, ref[i].cfo) << "frame " << i;
            EXPECT_EQ(got[i].metric, ref[i].metric) << "frame " << i;
            ASSERT_EQ(got[i].symbols.size(), ref[i].symbols.size());
            EXPECT_EQ(std::memcmp(got[i].symbols.data(), ref[i].symbols.data(),
                                  ref[i].symbols.size() * sizeof(cfloat)),
                      0)
                << "frame " << i << ", " << threads << " threads";
        }
    }
    EXPECT_THROW(ofdm_frame_receiver(f, nr, 0.3, 17), std::invalid_argument);
    EXPECT_THROW(ofdm_frame_receiver(f, nr, 0.3, -1), std::invalid_argument);
}

// Frames back to back, no gap: the receiver waits for a frame nearly all
// the time, and what it keeps must not grow with the stream.
TEST(OfdmSync, BackToBackFramesAllComeBackInBoundedMemory)
{
    const int nt = 2, nr = 2;
    const ofdm_frame_format f(nt, 64, 16, 48, 2, 4);
    std::mt19937_64 rng(9);
    const int frames = 400;
    std::vector<std::vector<cfloat>> y(static_cast<size_t>(nr));
    for (int fr = 0; fr < frames; fr++) {
        const auto sent = qpsk(f.data_res(), rng);
        const auto t = build_ofdm_frame(f, sent.data());
        for (int r = 0; r < nr; r++)
            y[r].insert(y[r].end(), t[r].begin(), t[r].end());
    }
    ofdm_frame_receiver rx(f, nr);
    size_t most = 0;
    int found = 0;
    for (size_t i = 0; i < y[0].size(); i += 500) {
        const size_t n = std::min<size_t>(500, y[0].size() - i);
        std::vector<const cfloat*> p{ y[0].data() + i, y[1].data() + i };
        rx.push(p.data(), n);
        most = std::max(most, rx.kept());
        ofdm_sync_result r;
        while (rx.pop(r))
            found++;
    }
    EXPECT_TRUE(rx.finish().empty());
    ofdm_sync_result r;
    while (rx.pop(r))
        found++;
    EXPECT_EQ(found, frames);
    ASSERT_GT(y[0].size(), size_t(4) << 16); // long enough to show growth
    EXPECT_LT(most, size_t(1 << 16) + size_t(f.frame_len()) + 8 * 64 + 500);
}

// The receivers' input check: NaN, Inf and parts beyond 1e15 (|x|^2 not
// below 1e30) become 0 and are counted, wherever they sit (the vector
// lanes or the tail); every other sample is left as it was.
TEST(RunningSums, ZeroNonFiniteFindsEveryBadSampleAndNothingElse)
{
    const float nan = std::nanf(""), inf = std::numeric_limits<float>::infinity();
    for (const size_t n : { size_t(1), size_t(7), size_t(8), size_t(29), size_t(4096) }) {
        std::vector<cfloat> x(n);
        for (size_t i = 0; i < n; i++)
            x[i] = cfloat(float(i) * 0.5f - 3.0f, 1e14f);
        EXPECT_EQ(zero_non_finite(x.data(), n), 0u) << n;
        std::vector<size_t> at;
        const cfloat bad[] = { cfloat(nan, 0), cfloat(0, inf), cfloat(-inf, 1), cfloat(2e15f, 0), cfloat(0, nan) };
        for (size_t k = 0; k < 5 && k * 5 < n; k++) {
            const size_t i = n - 1 - k * 5; // the tail first, then lanes
            x[i] = bad[k];
            at.push_back(i);
        }
        std::vector<cfloat> want = x;
        for (const size_t i : at)
            want[i] = cfloat(0, 0);
        EXPECT_EQ(zero_non_finite(x.data(), n), at.size()) << n;
        for (size_t i = 0; i < n; i++)
            EXPECT_TRUE(x[i] == want[i]) << "n " << n << ", sample " << i;
    }
}

// Pilots (ofdm_pilots.h): their places (48 used, 4 pilots: +-7, +-19 from
// DC) and values in the frame, the data on the other used subcarriers.
TEST(OfdmFrame, PilotsAndDataSitWhereTheLayoutSays)
{
    const ofdm_frame_format f(2, 64, 16, 48, 2, 3, 4);
    const ofdm_pilot_layout pl(48, 4);
    ASSERT_EQ(pl.pilot_index, (std::vector<int>{ 24 - 19, 24 - 7, 24 + 7 - 1, 24 + 19 - 1 }));
    ASSERT_EQ(f.data_res(), 44 * 3 * 2);
    std::mt19937_64 rng(2);
    const auto sym = qpsk(f.data_res(), rng);
    const auto fr = build_ofdm_frame(f, sym.data());
    const double scale = std::sqrt(64.0);
    for (int j = 0; j < 2; j++)
        for (int s = 0; s < f.data_symbols; s++) {
            const cfloat* x = fr[j].data() + size_t(1 + f.training_symbols() + s) * f.symbol_len();
            const auto X = dft(x + 16, 64);
            for (int d = 0; d < pl.data_carriers(); d++) {
                const std::complex<double> got = X[size_t(f.bin(pl.data_index[size_t(d)]))] / scale;
                const std::complex<double> want(sym[(size_t(d) * 3 + s) * 2 + j]);
                EXPECT_NEAR(std::abs(got - want), 0.0, 1e-4) << "antenna " << j << " symbol " << s << " d " << d;
            }
            for (int i = 0; i < 4; i++) {
                const std::complex<double> got = X[size_t(f.bin(pl.pilot_index[size_t(i)]))] / scale;
                EXPECT_NEAR(std::abs(got - double(pilot_value(s, i, j))), 0.0, 1e-4);
            }
        }
    EXPECT_THROW(ofdm_frame_format(2, 64, 16, 48, 2, 3, 3), std::invalid_argument);
    EXPECT_THROW(ofdm_frame_format(2, 64, 16, 48, 2, 3, 26), std::invalid_argument);
}

// The common phase: every data symbol turned by its own phase (pilots and
// data alike), without noise, is measured exactly, and the data carriers
// come out turned back, with their H, the pilots left out.
TEST(OfdmPilots, CommonPhaseIsMeasuredAndTurnedBack)
{
    for (const int nt : { 1, 2, 4 }) {
        const int nr = nt, used = 48, D = 7;
        const ofdm_pilot_layout pl(used, 4);
        std::mt19937_64 rng{ uint64_t(nt) };
        std::normal_distribution<float> g(0.0f, float(std::sqrt(0.5)));
        std::vector<cfloat> h(size_t(used) * nr * nt), y(size_t(used) * D * nr), clean(y.size());
        for (auto& v : h)
            v = cfloat(g(rng), g(rng));
        const auto x = qpsk(used * D * nt, rng);
        std::vector<float> truth(static_cast<size_t>(D));
        for (int s = 0; s < D; s++)
            truth[size_t(s)] = 0.4f * float(s) - 1.3f;
        std::vector<char> pilot(size_t(used), 0);
        for (int i = 0; i < pl.pilots; i++)
            pilot[size_t(pl.pilot_index[size_t(i)])] = char(1 + i);
        for (int k = 0; k < used; k++)
            for (int s = 0; s < D; s++)
                for (int r = 0; r < nr; r++) {
                    cfloat v(0, 0);
                    for (int j = 0; j < nt; j++) {
                        const cfloat xs = pilot[size_t(k)] ? cfloat(pilot_value(s, pilot[size_t(k)] - 1, j), 0.0f)
                                                           : x[(size_t(k) * D + s) * nt + j];
                        v += h[(size_t(k) * nr + r) * nt + j] * xs;
                    }
                    clean[(size_t(k) * D + s) * nr + r] = v;
                    y[(size_t(k) * D + s) * nr + r] = v * std::polar(1.0f, truth[size_t(s)]);
                }
        const auto phase = common_phase(pl, nt, nr, D, y.data(), h.data());
        for (int s = 0; s < D; s++)
            EXPECT_NEAR(phase[size_t(s)], truth[size_t(s)], 1e-5) << nt;
        // One phase for the frame: a window of 3 symbols finds it too.
        std::vector<cfloat> y1(clean);
        for (auto& v : y1)
            v *= std::polar(1.0f, 0.7f);
        for (const float p : common_phase(pl, nt, nr, D, y1.data(), h.data(), 3))
            EXPECT_NEAR(p, 0.7f, 1e-5) << nt;
        std::vector<cfloat> yo(size_t(pl.data_carriers()) * D * nr), ho(size_t(pl.data_carriers()) * nr * nt);
        data_carriers(pl, nt, nr, D, y.data(), h.data(), phase.data(), yo.data(), ho.data());
        for (int d = 0; d < pl.data_carriers(); d++) {
            const int k = pl.data_index[size_t(d)];
            for (int i = 0; i < D * nr; i++)
                EXPECT_NEAR(std::abs(yo[size_t(d) * D * nr + i] - clean[size_t(k) * D * nr + i]), 0.0, 1e-4);
            for (int i = 0; i < nr * nt; i++)
                EXPECT_EQ(ho[size_t(d) * nr * nt + i], h[size_t(k) * nr * nt + i]);
        }
    }
}

// The slope: every data symbol turned by its own phase and its own slope
// across subcarriers (a timing drift), without noise, is measured exactly
// (also with a window of 3 when the rotation is the same in every symbol),
// and the data carriers come out turned back.
TEST(OfdmPilots, PhaseAndSlopeAreMeasuredAndTurnedBack)
{
    const int nt = 2, nr = 2, used = 96, D = 5;
    const ofdm_pilot_layout pl(used, 16);
    std::mt19937_64 rng{ 7 };
    std::normal_distribution<float> g(0.0f, float(std::sqrt(0.5)));
    std::vector<cfloat> h(size_t(used) * nr * nt), clean(size_t(used) * D * nr);
    for (auto& v : h)
        v = cfloat(g(rng), g(rng));
    const auto x = qpsk(used * D * nt, rng);
    std::vector<char> pilot(size_t(used), 0);
    for (int i = 0; i < pl.pilots; i++)
        pilot[size_t(pl.pilot_index[size_t(i)])] = char(1 + i);
    for (int k = 0; k < used; k++)
        for (int s = 0; s < D; s++)
            for (int r = 0; r < nr; r++) {
                cfloat v(0, 0);
                for (int j = 0; j < nt; j++)
                    v += h[(size_t(k) * nr + r) * nt + j] *
                         (pilot[size_t(k)] ? cfloat(pilot_value(s, pilot[size_t(k)] - 1, j), 0.0f)
                                           : x[(size_t(k) * D + s) * nt + j]);
                clean[(size_t(k) * D + s) * nr + r] = v;
            }
    auto turned = [&](auto phase_of, auto slope_of) {
        std::vector<cfloat> y(clean);
        for (int k = 0; k < used; k++)
            for (int s = 0; s < D; s++)
                for (int r = 0; r < nr; r++)
                    y[(size_t(k) * D + s) * nr + r] *=
                        std::polar(1.0f, phase_of(s) + slope_of(s) * float(pl.subcarrier(k)));
        return y;
    };
    const auto y = turned([](int s) { return 0.3f * float(s) - 0.8f; }, [](int s) { return 0.01f * float(s - 2); });
    std::vector<float> slope;
    const auto phase = common_phase(pl, nt, nr, D, y.data(), h.data(), 1, &slope);
    for (int s = 0; s < D; s++) {
        EXPECT_NEAR(phase[size_t(s)], 0.3f * float(s) - 0.8f, 1e-4);
        EXPECT_NEAR(slope[size_t(s)], 0.01f * float(s - 2), 1e-6);
    }
    std::vector<cfloat> yo(size_t(pl.data_carriers()) * D * nr), ho(size_t(pl.data_carriers()) * nr * nt);
    data_carriers(pl, nt, nr, D, y.data(), h.data(), phase.data(), yo.data(), ho.data(), slope.data());
    for (int d = 0; d < pl.data_carriers(); d++) {
        const int k = pl.data_index[size_t(d)];
        for (int i = 0; i < D * nr; i++)
            EXPECT_NEAR(std::abs(yo[size_t(d) * D * nr + i] - clean[size_t(k) * D * nr + i]), 0.0, 1e-4);
    }
    const auto y3 = turned([](int) { return 1.1f; }, [](int) { return -0.02f; });
    const auto phase3 = common_phase(pl, nt, nr, D, y3.data(), h.data(), 3, &slope);
    for (int s = 0; s < D; s++) {
        EXPECT_NEAR(phase3[size_t(s)], 1.1f, 1e-4);
        EXPECT_NEAR(slope[size_t(s)], -0.02f, 1e-6);
    }
}
