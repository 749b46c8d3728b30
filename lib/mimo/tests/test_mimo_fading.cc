/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The tapped-delay-line channel (mimo/fading_channel.h) against references
// written here: the 36.104 Annex B.2 tables, a direct convolution with the
// taps each block reports, the inverse DFT of the reported frequency
// responses, an exact shift for an integer delay and a delayed tone for a
// fractional one; any split of the input into calls gives the same output;
// every bad parameter is refused by name and value.
#include "mimo/fading_channel.h"
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gr::gpurx::core::mimo;
using cf = std::complex<float>;

namespace {

const double pi = 3.14159265358979323846;

struct row {
    double ns, db;
};
const std::vector<row> EPA = { { 0, 0 }, { 30, -1 }, { 70, -2 }, { 90, -3 }, { 110, -8 }, { 190, -17.2 }, { 410, -20.8 } };
const std::vector<row> EVA = { { 0, 0 },      { 30, -1.5 },  { 150, -1.4 },   { 310, -3.6 },  { 370, -0.6 },
                               { 710, -9.1 }, { 1090, -7.0 }, { 1730, -12.0 }, { 2510, -16.9 } };

// The table at fs: delays rounded to the nearest sample, equal ones merged.
power_delay_profile expected(const std::vector<row>& tab, double fs)
{
    power_delay_profile p;
    double total = 0;
    for (const auto& e : tab) {
        const int d = int(std::lround(e.ns * 1e-9 * fs));
        const double pw = std::pow(10.0, e.db / 10.0);
        total += pw;
        if (!p.delays.empty() && p.delays.back() == d)
            p.powers.back() += pw;
        else {
            p.delays.push_back(d);
            p.powers.push_back(pw);
        }
    }
    for (auto& v : p.powers)
        v /= total;
    return p;
}

void expect_profile(const power_delay_profile& got, const power_delay_profile& want)
{
    ASSERT_EQ(got.delays, want.delays);
    ASSERT_EQ(got.powers.size(), want.powers.size());
    for (size_t i = 0; i < got.powers.size(); i++)
        EXPECT_NEAR(got.powers[i], want.powers[i], 1e-12) << i;
}

std::vector<std::vector<cf>> random_streams(int n_streams, int n, std::mt19937& rng)
{
    std::normal_distribution<float> g(0.0f, float(std::sqrt(0.5)));
    std::vector<std::vector<cf>> x(static_cast<size_t>(n_streams), std::vector<cf>(static_cast<size_t>(n)));
    for (auto& s : x)
        for (auto& v : s)
            v = { g(rng), g(rng) };
    return x;
}

// Runs the channel over x in calls of the given sizes (cycled); returns the
// outputs and collects the reported blocks.
std::vector<std::vector<cf>> run(fading_channel& ch, const std::vector<std::vector<cf>>& x,
                                 const std::vector<int>& chunks, std::vector<fading_block>* blocks)
{
    const int nt = ch.config().nt, nr = ch.config().nr, n = int(x[0].size());
    std::vector<std::vector<cf>> y(static_cast<size_t>(nr), std::vector<cf>(static_cast<size_t>(n)));
    int pos = 0, out = 0;
    for (size_t c = 0; pos < n; c++) {
        const int m = std::min(chunks[c % chunks.size()], n - pos);
        std::vector<const cf*> in(static_cast<size_t>(nt));
        std::vector<cf*> o(static_cast<size_t>(nr));
        for (int t = 0; t < nt; t++)
            in[t] = x[t].data() + pos;
        for (int r = 0; r < nr; r++)
            o[r] = y[r].data() + out;
        out += ch.process(in.data(), m, o.data());
        pos += m;
        for (auto& b : ch.take_new_blocks())
            if (blocks)
                blocks->push_back(std::move(b));
    }
    for (auto& v : y)
        v.resize(size_t(out));
    return y;
}

fading_channel_config base_config()
{
    fading_channel_config c;
    c.nt = 2;
    c.nr = 3;
    c.profile = "exponential";
    c.num_taps = 5;
    c.decay_db = 2.0;
    c.block_samples = 37;
    c.fft_len = 16;
    c.seed = 11;
    return c;
}

} // namespace

TEST(FadingProfile, TablesOf36104)
{
    for (double fs : { 1e9, 30.72e6, 15.36e6, 7.68e6, 1.92e6 }) {
        SCOPED_TRACE(fs);
        expect_profile(make_profile("epa", fs, 1, 0.0), expected(EPA, fs));
        expect_profile(make_profile("eva", fs, 1, 0.0), expected(EVA, fs));
    }
    // At 1 GHz every delay is its own sample: the tables themselves.
    const auto p = make_profile("eva", 1e9, 1, 0.0);
    EXPECT_EQ(p.delays, (std::vector<int>{ 0, 30, 150, 310, 370, 710, 1090, 1730, 2510 }));
    // At 15.36 MHz EPA's 30 and 70 ns land on 0 and 1 sample: 0/30 ns merged.
    EXPECT_EQ(make_profile("epa", 15.36e6, 1, 0.0).delays, (std::vector<int>{ 0, 1, 2, 3, 6 }));
}

TEST(FadingProfile, FlatAndExponential)
{
    auto f = make_profile("flat", 1.0, 1, 0.0);
    EXPECT_EQ(f.delays, std::vector<int>{ 0 });
    EXPECT_DOUBLE_EQ(f.powers[0], 1.0);
    auto e = make_profile("exponential", 1.0, 4, 3.0);
    EXPECT_EQ(e.delays, (std::vector<int>{ 0, 1, 2, 3 }));
    double total = 0;
    for (int l = 0; l < 4; l++)
        total += std::pow(10.0, -0.3 * l);
    for (int l = 0; l < 4; l++)
        EXPECT_NEAR(e.powers[l], std::pow(10.0, -0.3 * l) / total, 1e-15);
}

TEST(FadingChannel, RefusesBadParametersByName)
{
    struct bad_case {
        const char* name;
        const char* value;
        void (*change)(fading_channel_config&);
    };
    const bad_case cases[] = {
        { "nt", "0", [](fading_channel_config& c) { c.nt = 0; } },
        { "nr", "9", [](fading_channel_config& c) { c.nr = 9; } },
        { "profile", "\"tdl-a\"", [](fading_channel_config& c) { c.profile = "tdl-a"; } },
        { "sample_rate", "-1", [](fading_channel_config& c) { c.sample_rate = -1; } },
        { "num_taps", "0", [](fading_channel_config& c) { c.num_taps = 0; } },
        { "decay_db", "-1", [](fading_channel_config& c) { c.decay_db = -1; } },
        { "block_samples", "-5", [](fading_channel_config& c) { c.block_samples = -5; } },
        { "fft_len", "4", [](fading_channel_config& c) { c.fft_len = 4; } }, // taps at 0..4
        { "fft_len", "0", [](fading_channel_config& c) { c.fft_len = 0; } },
        { "cfo", "0.75", [](fading_channel_config& c) { c.cfo = 0.75; } },
        { "delay", "-0.5", [](fading_channel_config& c) { c.delay = -0.5; } },
        { "noise_var", "nan", [](fading_channel_config& c) { c.noise_var = std::nan(""); } },
    };
    for (const auto& k : cases) {
        auto c = base_config();
        k.change(c);
        try {
            fading_channel ch(c);
            ADD_FAILURE() << k.name << " accepted";
        } catch (const std::invalid_argument& e) {
            const std::string msg = e.what();
            EXPECT_NE(msg.find(k.name), std::string::npos) << msg;
            EXPECT_NE(msg.find(std::string("got ") + k.value), std::string::npos) << msg;
        }
    }
}

TEST(FadingChannel, EqualsTheConvolutionWithTheReportedTaps)
{
    const auto c = base_config();
    fading_channel ch(c);
    std::mt19937 rng(3);
    const int n = 400;
    const auto x = random_streams(c.nt, n, rng);
    std::vector<fading_block> blocks;
    const auto y = run(ch, x, { 1, 7, 64, 3, 100 }, &blocks);
    ASSERT_EQ(int(y[0].size()), n);
    ASSERT_EQ(blocks.size(), size_t((n + 36) / 37));
    const auto& d = ch.profile().delays;
    const size_t L = d.size();
    for (size_t b = 0; b < blocks.size(); b++) {
        EXPECT_EQ(blocks[b].index, b);
        EXPECT_EQ(blocks[b].first_sample, b * 37);
    }
    for (int r = 0; r < c.nr; r++)
        for (int i = 0; i < n; i++) {
            const auto& h = blocks[size_t(i / 37)].taps;
            std::complex<double> want = 0;
            for (int t = 0; t < c.nt; t++)
                for (size_t l = 0; l < L; l++)
                    if (i - d[l] >= 0)
                        want += std::complex<double>(h[(size_t(r) * c.nt + t) * L + l]) *
                                std::complex<double>(x[t][size_t(i - d[l])]);
            ASSERT_LT(std::abs(std::complex<double>(y[r][i]) - want), 1e-5) << r << " " << i;
        }
    // One call for the whole stream: the same samples, bit for bit.
    fading_channel one(c);
    const auto y1 = run(one, x, { n }, nullptr);
    EXPECT_EQ(y1, y);
}

TEST(FadingChannel, FrequencyResponseIsTheDftOfTheTaps)
{
    auto c = base_config();
    c.profile = "eva";
    c.sample_rate = 7.68e6; // delays up to 19 samples
    c.fft_len = 32;
    fading_channel ch(c);
    std::mt19937 rng(4);
    std::vector<fading_block> blocks;
    run(ch, random_streams(c.nt, 80, rng), { 80 }, &blocks);
    ASSERT_EQ(blocks.size(), 3u);
    const auto& d = ch.profile().delays;
    const size_t L = d.size(), N = size_t(c.fft_len);
    for (const auto& fb : blocks) {
        ASSERT_EQ(fb.freq_response.size(), N * c.nr * c.nt);
        // Inverse DFT of H_{r,t}[k]: the taps at their delays, zero elsewhere.
        for (int r = 0; r < c.nr; r++)
            for (int t = 0; t < c.nt; t++)
                for (size_t m = 0; m < N; m++) {
                    std::complex<double> v = 0;
                    for (size_t k = 0; k < N; k++)
                        v += std::complex<double>(fb.freq_response[(k * c.nr + r) * c.nt + t]) *
                             std::polar(1.0, 2 * pi * double(k * m) / double(N));
                    v /= double(N);
                    std::complex<double> want = 0;
                    for (size_t l = 0; l < L; l++)
                        if (size_t(d[l]) == m)
                            want = fb.taps[(size_t(r) * c.nt + t) * L + l];
                    ASSERT_LT(std::abs(v - want), 1e-5) << r << t << " m=" << m;
                }
    }
}

TEST(FadingChannel, SameSeedSameTapsAtAnyNoise)
{
    auto c = base_config();
    fading_channel a(c);
    c.noise_var = 0.5;
    fading_channel b(c);
    std::mt19937 rng(5);
    const auto x = random_streams(c.nt, 200, rng);
    std::vector<fading_block> ba, bb;
    const auto ya = run(a, x, { 50 }, &ba);
    const auto yb = run(b, x, { 50 }, &bb);
    ASSERT_EQ(ba.size(), bb.size());
    for (size_t i = 0; i < ba.size(); i++)
        EXPECT_EQ(ba[i].taps, bb[i].taps);
    double e = 0;
    for (int r = 0; r < c.nr; r++)
        for (size_t i = 0; i < ya[r].size(); i++)
            e += std::norm(std::complex<double>(yb[r][i]) - std::complex<double>(ya[r][i]));
    EXPECT_NEAR(e / (c.nr * 200.0), 0.5, 0.1);
}

TEST(FadingChannel, IntegerDelayIsAnExactShift)
{
    auto c = base_config();
    c.profile = "flat";
    c.nt = 1;
    c.nr = 1;
    c.block_samples = 0;
    fading_channel ref(c);
    c.delay = 3.0;
    fading_channel ch(c);
    EXPECT_EQ(ch.lookahead(), 0);
    EXPECT_TRUE(ch.interpolator().empty());
    std::mt19937 rng(6);
    const auto x = random_streams(1, 100, rng);
    const auto y0 = run(ref, x, { 13 }, nullptr);
    const auto y3 = run(ch, x, { 13 }, nullptr);
    for (int i = 0; i < 3; i++)
        EXPECT_EQ(y3[0][i], cf(0, 0));
    for (int i = 3; i < 100; i++)
        EXPECT_EQ(y3[0][i], y0[0][i - 3]) << i;
}

TEST(FadingChannel, FractionalDelayOfABandLimitedSignal)
{
    for (double delay : { 0.3, 2.5, 30.75 }) {
        SCOPED_TRACE(delay);
        auto c = base_config();
        c.profile = "flat";
        c.nt = 1;
        c.nr = 1;
        c.block_samples = 0;
        c.delay = delay;
        fading_channel ch(c);
        const int la = std::max(0, fading_channel::interp_half - 1 - int(std::floor(delay)));
        EXPECT_EQ(ch.lookahead(), la);
        // Tones within |f| < 0.4 cycles/sample.
        const double f[] = { 0.013, -0.21, 0.39, -0.37 };
        const double a[] = { 0.5, 0.4, 0.3, 0.3 };
        auto sig = [&](double tt) {
            std::complex<double> v = 0;
            for (int i = 0; i < 4; i++)
                v += a[i] * std::polar(1.0, 2 * pi * f[i] * tt);
            return v;
        };
        const int n = 600;
        std::vector<std::vector<cf>> x(1, std::vector<cf>(size_t(n)));
        for (int i = 0; i < n; i++)
            x[0][i] = cf(sig(i));
        std::vector<fading_block> blocks;
        const auto y = run(ch, x, { 17, 1, 200 }, &blocks);
        ASSERT_EQ(int(y[0].size()), n - la);
        const std::complex<double> h = blocks.at(0).taps.at(0);
        double worst = 0;
        for (int i = 100; i < n - la; i++) // away from the start's zeros
            worst = std::max(worst, std::abs(std::complex<double>(y[0][i]) - h * sig(i - delay)) / std::abs(h));
        EXPECT_LT(worst, 2e-4);
    }
}

TEST(FadingChannel, OscillatorIsCommonAndContinuous)
{
    auto c = base_config();
    c.profile = "flat";
    c.nt = 1;
    c.nr = 2;
    c.block_samples = 0;
    c.cfo = 0.01;
    fading_channel ch(c);
    std::vector<std::vector<cf>> x(1, std::vector<cf>(200, cf(1, 0)));
    std::vector<fading_block> blocks;
    auto y = run(ch, x, { 200 }, &blocks);
    for (int r = 0; r < 2; r++) {
        const std::complex<double> h = blocks[0].taps[size_t(r)];
        for (int i = 0; i < 200; i++)
            ASSERT_LT(std::abs(std::complex<double>(y[r][i]) - h * std::polar(1.0, 2 * pi * 0.01 * i)), 1e-5);
    }
    // A new CFO continues from the phase reached.
    ch.set_cfo(-0.02);
    auto y2 = run(ch, x, { 200 }, nullptr);
    const std::complex<double> h = blocks[0].taps[0];
    for (int i = 0; i < 200; i++)
        ASSERT_LT(std::abs(std::complex<double>(y2[0][i]) -
                           h * std::polar(1.0, 2 * pi * (0.01 * 200 - 0.02 * i))), 1e-5);
}
