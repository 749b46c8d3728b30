/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/fading_channel.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

namespace {

constexpr double two_pi = 6.283185307179586476925286766559;
constexpr double pi = two_pi / 2.0;

// Full precision in messages ("got 1e-12", not "got 0.000000").
std::string num(double v)
{
    std::ostringstream o;
    o.precision(17);
    o << v;
    return o.str();
}

[[noreturn]] void bad(const std::string& what, const std::string& value)
{
    throw std::invalid_argument(what + ", got " + value);
}

// 3GPP TS 36.104 Annex B.2, Tables B.2-2 (EPA) and B.2-3 (EVA).
struct table_entry {
    double ns, db;
};
const table_entry epa_table[] = { { 0, 0.0 },    { 30, -1.0 },   { 70, -2.0 },   { 90, -3.0 },
                                  { 110, -8.0 }, { 190, -17.2 }, { 410, -20.8 } };
const table_entry eva_table[] = { { 0, 0.0 },     { 30, -1.5 },    { 150, -1.4 },
                                  { 310, -3.6 },  { 370, -0.6 },   { 710, -9.1 },
                                  { 1090, -7.0 }, { 1730, -12.0 }, { 2510, -16.9 } };

// The modified Bessel function I0 (its power series; converges for every x).
double bessel_i0(double x)
{
    double sum = 1.0, term = 1.0;
    const double q = x * x / 4.0;
    for (int k = 1; k < 200; k++) {
        term *= q / (double(k) * k);
        sum += term;
        if (term < sum * 1e-17)
            break;
    }
    return sum;
}

} // namespace

power_delay_profile make_profile(const std::string& name, double sample_rate, int num_taps, double decay_db)
{
    if (!(sample_rate > 0.0) || !std::isfinite(sample_rate))
        bad("sample_rate must be positive and finite", num(sample_rate));
    if (num_taps < 1 || num_taps > fading_channel::max_taps)
        bad("num_taps must be in 1.." + std::to_string(fading_channel::max_taps), std::to_string(num_taps));
    if (!(decay_db >= 0.0) || !std::isfinite(decay_db))
        bad("decay_db must be non-negative and finite", num(decay_db));

    std::vector<std::pair<int64_t, double>> taps; // (delay, linear power)
    if (name == "flat") {
        taps.emplace_back(0, 1.0);
    } else if (name == "exponential") {
        for (int l = 0; l < num_taps; l++)
            taps.emplace_back(l, std::pow(10.0, -decay_db * l / 10.0));
    } else if (name == "epa" || name == "eva") {
        const table_entry* t = name == "epa" ? epa_table : eva_table;
        const size_t n = name == "epa" ? std::size(epa_table) : std::size(eva_table);
        for (size_t i = 0; i < n; i++) {
            const double d = t[i].ns * sample_rate / 1e9;
            if (!(d < 1e9))
                bad("sample_rate is too high for the " + name + " profile's delays", num(sample_rate));
            taps.emplace_back(int64_t(std::floor(d + 0.5)), std::pow(10.0, t[i].db / 10.0));
        }
    } else {
        bad("profile must be \"flat\", \"exponential\", \"epa\" or \"eva\"", "\"" + name + "\"");
    }

    power_delay_profile p;
    double total = 0.0;
    for (const auto& [d, pw] : taps) { // ascending delays: merge equal ones
        if (!p.delays.empty() && p.delays.back() == d)
            p.powers.back() += pw;
        else {
            p.delays.push_back(int(d));
            p.powers.push_back(pw);
        }
        total += pw;
    }
    for (auto& pw : p.powers)
        pw /= total;
    return p;
}

fading_channel::fading_channel(const fading_channel_config& cfg)
    : d_cfg(cfg), d_rng_h(cfg.seed), d_rng_n(cfg.seed ^ 0x9e3779b97f4a7c15ull)
{
    if (cfg.nt < 1 || cfg.nt > max_antennas)
        bad("nt must be in 1.." + std::to_string(max_antennas), std::to_string(cfg.nt));
    if (cfg.nr < 1 || cfg.nr > max_antennas)
        bad("nr must be in 1.." + std::to_string(max_antennas), std::to_string(cfg.nr));
    d_pdp = make_profile(cfg.profile, cfg.sample_rate, cfg.num_taps, cfg.decay_db);
    if (cfg.block_samples < 0)
        bad("block_samples must be >= 0 (0: one channel for the whole run)", std::to_string(cfg.block_samples));
    d_max_d = d_pdp.delays.back();
    if (cfg.fft_len < 1 || cfg.fft_len > max_fft_len)
        bad("fft_len must be in 1.." + std::to_string(max_fft_len), std::to_string(cfg.fft_len));
    if (cfg.fft_len <= d_max_d)
        bad("fft_len must exceed the profile's longest delay (" + std::to_string(d_max_d) +
                " samples), or the frequency response would alias it",
            std::to_string(cfg.fft_len));
    set_cfo(cfg.cfo);
    if (!(cfg.delay >= 0.0 && cfg.delay <= max_delay))
        bad("delay must be in [0, " + num(max_delay) + "] samples", num(cfg.delay));
    set_noise_var(cfg.noise_var);

    d_ntaps = int(d_pdp.delays.size());
    for (double p : d_pdp.powers)
        d_sqrt_p.push_back(float(std::sqrt(p / 2.0))); // per real component
    d_int_delay = int(std::floor(cfg.delay));
    const double frac = cfg.delay - d_int_delay;
    if (frac > 0.0) {
        // Kaiser-windowed sinc at i - frac, i = -(half-1) .. half, unit DC gain.
        const int half = interp_half;
        const double beta = 8.0;
        double sum = 0.0;
        std::vector<double> f;
        for (int i = -(half - 1); i <= half; i++) {
            const double u = i - frac;
            const double sinc = std::sin(pi * u) / (pi * u);
            const double r = u / half;
            const double w = bessel_i0(beta * std::sqrt(std::max(0.0, 1.0 - r * r))) / bessel_i0(beta);
            f.push_back(sinc * w);
            sum += sinc * w;
        }
        for (double v : f)
            d_interp.push_back(float(v / sum));
        d_lookahead = std::max(0, half - 1 - d_int_delay);
    } else {
        d_lookahead = 0;
    }
    const int back = d_int_delay + (d_interp.empty() ? 0 : interp_half) + 1;
    d_xbase = -back;
    d_x.assign(size_t(cfg.nt), std::vector<std::complex<float>>(size_t(back)));
    d_sbase = -d_max_d;
    d_s.assign(size_t(cfg.nt), std::vector<std::complex<float>>(size_t(d_max_d)));
    d_taps.resize(size_t(cfg.nr) * cfg.nt * d_ntaps);
}

void fading_channel::set_noise_var(double n0)
{
    if (!(n0 >= 0.0) || !std::isfinite(n0))
        bad("noise_var must be non-negative and finite", num(n0));
    d_cfg.noise_var = n0;
}

void fading_channel::set_cfo(double cfo)
{
    if (!(std::abs(cfo) <= 0.5))
        bad("cfo must be in [-0.5, 0.5] cycles per sample", num(cfo));
    d_cfg.cfo = cfo;
}

std::vector<std::complex<float>> fading_channel::frequency_response(int nr, int nt, const std::vector<int>& delays,
                                                                    const std::vector<std::complex<float>>& taps,
                                                                    int fft_len)
{
    const size_t L = delays.size();
    std::vector<std::complex<float>> h(size_t(fft_len) * nr * nt);
    std::vector<std::complex<double>> tw(L);
    for (int k = 0; k < fft_len; k++) {
        for (size_t l = 0; l < L; l++) // exact phase: (k d) mod N first
            tw[l] = std::polar(1.0, -two_pi * double((int64_t(k) * delays[l]) % fft_len) / fft_len);
        for (int r = 0; r < nr; r++)
            for (int t = 0; t < nt; t++) {
                std::complex<double> acc = 0.0;
                const std::complex<float>* hp = &taps[(size_t(r) * nt + t) * L];
                for (size_t l = 0; l < L; l++)
                    acc += std::complex<double>(hp[l]) * tw[l];
                h[(size_t(k) * nr + r) * nt + t] = std::complex<float>(acc);
            }
    }
    return h;
}

void fading_channel::new_block(uint64_t b)
{
    const int nr = d_cfg.nr, nt = d_cfg.nt, L = d_ntaps;
    for (int rt = 0; rt < nr * nt; rt++)
        for (int l = 0; l < L; l++) {
            const double re = d_normal_h(d_rng_h);
            const double im = d_normal_h(d_rng_h);
            d_taps[size_t(rt) * L + l] = { float(re * d_sqrt_p[l]), float(im * d_sqrt_p[l]) };
        }
    d_block = b;
    d_have_block = true;
    fading_block fb;
    fb.index = b;
    fb.first_sample = b * uint64_t(d_cfg.block_samples);
    fb.taps = d_taps;
    fb.freq_response = frequency_response(nr, nt, d_pdp.delays, d_taps, d_cfg.fft_len);
    d_new_blocks.push_back(std::move(fb));
}

std::vector<fading_block> fading_channel::take_new_blocks()
{
    std::vector<fading_block> out;
    out.swap(d_new_blocks);
    return out;
}

int fading_channel::process(const std::complex<float>* const* x, int m, std::complex<float>* const* y)
{
    const int nt = d_cfg.nt, nr = d_cfg.nr, L = d_ntaps;
    if (m <= 0)
        return 0;
    for (int t = 0; t < nt; t++)
        d_x[t].insert(d_x[t].end(), x[t], x[t] + m);
    d_consumed += uint64_t(m);
    const int64_t p0 = int64_t(d_produced);
    const int64_t p1 = std::max<int64_t>(0, int64_t(d_consumed) - d_lookahead);
    const int count = int(p1 - p0);

    // Stage 1: s_t[n] = x_t(n - delay) for n in [p0, p1).
    const int taps_i = int(d_interp.size());
    for (int t = 0; t < nt; t++) {
        auto& s = d_s[t];
        const auto& xv = d_x[t];
        for (int64_t n = p0; n < p1; n++) {
            if (taps_i == 0) {
                s.push_back(xv[size_t(n - d_int_delay - d_xbase)]);
            } else {
                // x[n - D - i] for i = half .. -(half-1): ascending x indices.
                const std::complex<float>* xp = &xv[size_t(n - d_int_delay - interp_half - d_xbase)];
                float re = 0.0f, im = 0.0f;
                for (int j = 0; j < taps_i; j++) { // x index n-D-half+j <-> i = half - j
                    const float f = d_interp[size_t(taps_i - 1 - j)];
                    re += f * xp[j].real();
                    im += f * xp[j].imag();
                }
                s.push_back({ re, im });
            }
        }
    }

    // Stage 2, a segment of one fading block at a time: the taps as
    // multiply-adds over the segment (the same order of sums for every
    // sample, whatever the segments), then the oscillator and the noise.
    const int64_t B = d_cfg.block_samples;
    const double n0 = d_cfg.noise_var;
    const double sn = std::sqrt(n0 / 2.0);
    for (int64_t n = p0; n < p1;) {
        const uint64_t b = B > 0 ? uint64_t(n / B) : 0;
        if (!d_have_block || b != d_block)
            new_block(b);
        const int64_t end = B > 0 ? std::min<int64_t>(p1, int64_t(b + 1) * B) : p1;
        const int len = int(end - n);
        for (int r = 0; r < nr; r++) {
            float* acc = reinterpret_cast<float*>(y[r] + (n - p0)); // re, im pairs
            std::fill(acc, acc + 2 * len, 0.0f);
            for (int t = 0; t < nt; t++) {
                const std::complex<float>* h = &d_taps[(size_t(r) * nt + t) * L];
                for (int l = 0; l < L; l++) {
                    const float hr = h[l].real(), hi = h[l].imag();
                    const float* s = reinterpret_cast<const float*>(d_s[t].data() + (n - d_pdp.delays[l] - d_sbase));
                    for (int i = 0; i < len; i++) {
                        const float sr = s[2 * i], si = s[2 * i + 1];
                        acc[2 * i] += hr * sr - hi * si;
                        acc[2 * i + 1] += hr * si + hi * sr;
                    }
                }
            }
        }
        const bool rotate = d_cfg.cfo != 0.0 || d_phase != 0.0;
        for (int64_t i = n; i < end; i++) {
            std::complex<double> rot = 1.0;
            if (rotate) {
                rot = std::polar(1.0, two_pi * d_phase);
                d_phase += d_cfg.cfo;
                d_phase -= std::floor(d_phase);
            }
            for (int r = 0; r < nr; r++) {
                std::complex<float>& out = y[r][i - p0];
                std::complex<double> v = std::complex<double>(out);
                if (rotate)
                    v *= rot;
                if (n0 > 0.0) {
                    const double wr = d_normal_n(d_rng_n);
                    const double wi = d_normal_n(d_rng_n);
                    v += std::complex<double>(wr * sn, wi * sn);
                }
                out = std::complex<float>(v);
            }
        }
        n = end;
    }
    d_produced = uint64_t(p1);

    // Keep what later samples read.
    const int64_t keep_x = p1 - d_int_delay - (taps_i ? interp_half : 0);
    if (keep_x > d_xbase) {
        for (auto& v : d_x)
            v.erase(v.begin(), v.begin() + (keep_x - d_xbase));
        d_xbase = keep_x;
    }
    const int64_t keep_s = p1 - d_max_d;
    if (keep_s > d_sbase) {
        for (auto& v : d_s)
            v.erase(v.begin(), v.begin() + (keep_s - d_sbase));
        d_sbase = keep_s;
    }
    return count;
}

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr
