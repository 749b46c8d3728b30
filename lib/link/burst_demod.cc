/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "link/burst_demod.h"
#include "link/equalizer.h"

#include <algorithm>
#include <cmath>

namespace gr {
namespace gpurx {
namespace core {
namespace link {

namespace {
constexpr double pi = 3.14159265358979323846;
// Pilot blocks either side in each block's smoothed estimate (triangular
// weights): +-3 blocks (+-192 symbols) average the noise of 28 pilots yet
// follow phase noise with a correlation time of a few hundred symbols.
constexpr int smoothing_span = 3;

int search_window(const demod_config& c)
{
    // One repetition either side: the coarse peak is never that far off,
    // and the cross-correlation's next sidelobe (1/4 of the peak) lies there.
    return c.window > 0 ? c.window : burst_format::zc_len * c.sps;
}

//! Symbols sampled beyond the core on each side, for the equaliser's reach.
int pad_symbols(const demod_config& c) { return c.equalizer_half + c.channel_span + 2; }

//! Cubic Lagrange interpolation of y at t (y oversampled sps >= 2 times).
cfloat interpolate(const std::vector<cfloat>& y, double t)
{
    const int i = int(std::floor(t));
    const float m = float(t - i);
    const float cm1 = -m * (m - 1.0f) * (m - 2.0f) / 6.0f;
    const float c0 = (m + 1.0f) * (m - 1.0f) * (m - 2.0f) / 2.0f;
    const float c1 = -(m + 1.0f) * m * (m - 2.0f) / 2.0f;
    const float c2 = (m + 1.0f) * m * (m - 1.0f) / 6.0f;
    return cm1 * y[i - 1] + c0 * y[i] + c1 * y[i + 1] + c2 * y[i + 2];
}

double wrap(double a) { return a - 2.0 * pi * std::floor((a + pi) / (2.0 * pi)); }
} // namespace

int demod_before(const demod_config& c, const burst_format&)
{
    return search_window(c) + pad_symbols(c) * c.sps + 2;
}

int demod_after(const demod_config& c, const burst_format& f)
{
    return search_window(c) + (f.core_len() + pad_symbols(c)) * c.sps + 3;
}

bool demodulate_burst(const demod_config& c,
                      const burst_format& f,
                      const cfloat* x,
                      int64_t x_offset,
                      int start,
                      double cfo,
                      burst_result& r,
                      demod_scratch& scratch)
{
    const int sps = c.sps, W = search_window(c), pad = pad_symbols(c);
    const int before = demod_before(c, f), len = before + demod_after(c, f);
    const cfloat* xs = x + (start - before);

    // Remove the detector's frequency offset: a phasor advanced sample by
    // sample (a sine per sample would cost more than all the rest), set
    // exactly every 256 samples so that its rounding cannot accumulate.
    std::vector<cfloat>& y = scratch.y;
    y.resize(size_t(len));
    const cdouble step = std::polar(1.0, -2.0 * pi * cfo);
    for (int i0 = 0; i0 < len; i0 += 256) {
        cdouble rot = std::polar(1.0, -2.0 * pi * cfo * i0);
        for (int i = i0; i < std::min(len, i0 + 256); i++, rot *= step)
            y[i] = xs[i] * cfloat(float(rot.real()), float(rot.imag()));
    }

    // 1. Fine timing.
    const auto& pre = preamble_symbols();
    const int np = burst_format::preamble_len;
    std::vector<double>& c2 = scratch.c2;
    c2.resize(size_t(2 * W + 1));
    double best = -1.0, best_energy = 0.0;
    int tau0 = 0;
    for (int tau = -W; tau <= W; tau++) {
        // Float sums of 128 terms: rounding far below the noise.
        // Float sums of 128 terms: rounding far below the noise.
        cfloat acc = 0.0f;
        float e = 0.0f;
        const cfloat* v = y.data() + before + tau;
        for (int k = 0; k < np; k++) {
            const cfloat x = v[k * sps];
            acc += std::conj(pre[k]) * x;
            e += x.real() * x.real() + x.imag() * x.imag();
        }
        c2[tau + W] = std::norm(cdouble(acc));
        if (c2[tau + W] > best) {
            best = c2[tau + W];
            best_energy = e;
            tau0 = tau;
        }
    }
    r.corr = best_energy > 0.0 ? best / (double(np) * best_energy) : 0.0;
    if (!(r.corr >= c.min_corr))
        return false;
    double mu = 0.0;
    if (tau0 > -W && tau0 < W) {
        const double a = c2[tau0 - 1 + W], b = c2[tau0 + W], d = c2[tau0 + 1 + W];
        const double den = a - 2.0 * b + d;
        if (den < 0.0)
            mu = std::clamp(0.5 * (a - d) / den, -0.5, 0.5);
    }
    const double t0 = before + tau0 + mu;

    // 2. Symbols, core and pad.
    const int core = f.core_len();
    std::vector<cfloat>& z = scratch.z;
    z.resize(size_t(core + 2 * pad));
    for (int k = -pad; k < core + pad; k++)
        z[k + pad] = interpolate(y, t0 + double(k) * sps);

    // 3. Channel, noise, equaliser.
    channel_estimate ch = estimate_channel(z.data() + pad, pre.data(), np, c.channel_span);
    const double h0 = std::norm(ch.h[ch.span]);
    ch.sigma2 = std::max(ch.sigma2, 1e-9 * h0 + 1e-30); // noiseless input
    const mmse_equalizer eq = design_mmse(ch, c.equalizer_half);
    if (!(eq.gain > 1e-6))
        return false;
    const int L = eq.half;
    std::vector<cdouble>& u = scratch.u;
    u.resize(size_t(core));
    for (int k = 0; k < core; k++) {
        cdouble acc = 0.0;
        for (int i = -L; i <= L; i++)
            acc += std::conj(eq.w[i + L]) * cdouble(z[k + i + pad]);
        u[k] = acc / eq.gain;
    }

    // 4. Pilots: per-block gain, a residual frequency, smoothing.
    const int J = f.pilot_blocks(), P = burst_format::pilot_len;
    std::vector<cdouble> a(static_cast<size_t>(J));
    std::vector<double> t(static_cast<size_t>(J)), phase(static_cast<size_t>(J));
    const double t_pre = 0.5 * (np - 1); // the preamble's phase is 0 at its centre
    double prev = 0.0;
    for (int j = 0; j < J; j++) {
        const int s = f.pilot_start(j);
        const cfloat* p = pilot_symbols(j);
        cdouble acc = 0.0;
        for (int i = 0; i < P; i++)
            acc += u[s + i] * std::conj(cdouble(p[i]));
        a[j] = acc / double(P);
        t[j] = s + 0.5 * (P - 1);
        prev += wrap(std::arg(a[j]) - prev);
        phase[j] = prev;
    }
    // Weighted least-squares line through the preamble (weight np) and the
    // blocks (weight P): phase = phi0 + omega (t - t_pre).
    double sw = np, st = np * t_pre, stt = np * t_pre * t_pre, sp = 0.0, stp = 0.0;
    for (int j = 0; j < J; j++) {
        sw += P;
        st += P * t[j];
        stt += P * t[j] * t[j];
        sp += P * phase[j];
        stp += P * t[j] * phase[j];
    }
    const double den = sw * stt - st * st;
    const double omega = den > 0.0 ? (sw * stp - st * sp) / den : 0.0;
    std::vector<cdouble> ah(static_cast<size_t>(J));
    std::vector<double> self(static_cast<size_t>(J));
    for (int j = 0; j < J; j++) {
        cdouble num = 0.0;
        double sum = 0.0;
        for (int i = std::max(0, j - smoothing_span); i <= std::min(J - 1, j + smoothing_span); i++) {
            const double wgt = smoothing_span + 1.0 - std::abs(i - j);
            num += wgt * a[i] * std::polar(1.0, -omega * (t[i] - t[j]));
            sum += wgt;
        }
        ah[j] = num / sum;
        self[j] = (smoothing_span + 1.0) / sum;
    }
    // The gain at core symbol k, between blocks jb and jb + 1:
    // (1-lam) ah_jb e^(j omega (k - t_jb)) + lam ah_ja e^(j omega (k - t_ja))
    // = e^(j omega k) ((1-lam) b_jb + lam b_ja), b_j = ah_j e^(-j omega t_j).
    std::vector<cdouble> bj(static_cast<size_t>(J));
    for (int j = 0; j < J; j++)
        bj[j] = ah[j] * std::polar(1.0, -omega * t[j]);
    auto gain_at = [&](int k, int jb, cdouble e_k) {
        const int ja = std::min(jb + 1, J - 1);
        const double lam = ja == jb ? 0.0 : std::clamp((k - t[jb]) / (t[ja] - t[jb]), 0.0, 1.0);
        return e_k * ((1.0 - lam) * bj[jb] + lam * bj[ja]);
    };

    // 5. Noise: the pilots' residual (corrected for each block's own share
    // in its smoothed estimate) and the equaliser's model, by their counts.
    double res = 0.0;
    for (int j = 0; j < J; j++) {
        const int s = f.pilot_start(j);
        const cfloat* p = pilot_symbols(j);
        double e = 0.0;
        for (int i = 0; i < P; i++) {
            const cdouble g = ah[j] * std::polar(1.0, omega * (s + i - t[j]));
            e += std::norm(u[s + i] - g * cdouble(p[i]));
        }
        res += e / (1.0 - self[j] / P);
    }
    // The gain: 1, the equaliser's unbiased scale, estimated from the
    // preamble's 128 symbols. The pilots' mean magnitude, from a few dozen
    // symbols, scattered by +-7 % at the turbo code's SNRs and cost 16-QAM
    // more than it gave; they set the phase only.
    const double gain = 1.0;
    const double n0_pilots = res / double(J * P);
    const int rows = np - 2 * ch.span;
    const double n0_model = eq.error / (eq.gain * eq.gain) * gain * gain;
    const double n0 = (n0_model * rows + n0_pilots * J * P) / double(rows + J * P);

    if (!std::isfinite(n0) || !std::isfinite(omega))
        return false; // degenerate input: no burst to trust
    r.data.resize(size_t(f.data_symbols));
    // e^(j omega k), advanced symbol by symbol and set exactly at each block.
    const cdouble step_k = std::polar(1.0, omega);
    cdouble e_k = 1.0;
    int e_at = -1;
    for (int d = 0; d < f.data_symbols; d++) {
        const int k = f.data_index(d);
        if (d % burst_format::pilot_spacing == 0)
            e_k = std::polar(1.0, omega * k);
        else
            e_k *= k == e_at + 1 ? step_k : std::polar(1.0, omega * (k - e_at));
        e_at = k;
        const cdouble g = gain_at(k, d / burst_format::pilot_spacing, e_k);
        const double ag = std::abs(g);
        const cdouble v = ag > 0.0 ? u[k] * std::conj(g) / ag : u[k];
        r.data[d] = cfloat(float(v.real()), float(v.imag()));
    }
    r.timing = double(x_offset) + double(start - before) + t0;
    r.cfo = cfo + omega / (2.0 * pi * sps);
    r.gain = float(gain);
    r.n0 = float(std::max(n0, 1e-20));
    r.snr_db = float(10.0 * std::log10(gain * gain / double(r.n0)));
    r.channel_taps = 0;
    for (const auto& h : ch.h)
        r.channel_taps += std::norm(h) > 0.0;
    return true;
}

} // namespace link
} // namespace core
} // namespace gpurx
} // namespace gr
