/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/sync/cell_search.h"

#include "lte/sync/cfo.h"
#include "lte/sync/decimator.h"
#include "lte/sync/pss.h"
#include "lte/sync/sss.h"
#include "lte/sync/sync_estimate.h"
#include "lte/sync/sync_fft.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

constexpr int SEARCH_FFT = 128;        // 1.92 MS/s
constexpr double SEARCH_RATE = 1.92e6;
constexpr int SEARCH_HALF_FRAME = 9600; // 5 ms at 1.92 MS/s
constexpr double SUBCARRIER_HZ = 15000.0;

//! The smallest k >= k_min whose only prime factors are 2, 3 and 5.
size_t smooth_at_least(size_t k_min)
{
    for (size_t k = std::max<size_t>(k_min, 1);; k++) {
        size_t r = k;
        for (size_t p : { 2, 3, 5 })
            while (r % p == 0)
                r /= p;
        if (r == 1)
            return k;
    }
}

struct pss_peak {
    int n_id2 = 0;
    int shift = 0;  // whole subcarriers of frequency offset
    long t = 0;     // PSS useful start at 1.92 MS/s, 0..9599 (first period)
    double metric = 0.0;
};

struct sss_decision {
    double metric = -1.0;
    int n_id1 = -1;
    int parity = 0; // 1 when the first period's PSS is in subframe 5
    cyclic_prefix cp = cyclic_prefix::normal;
    double cfo_hz = 0.0;
    const pss_peak* peak = nullptr;
};

using sss_table = std::array<std::array<std::array<float, SYNC_LENGTH>, 2>, 168>;

const sss_table& sss_sequences(int n_id2)
{
    static const std::array<sss_table, 3> tables = [] {
        std::array<sss_table, 3> t;
        for (int n2 = 0; n2 < 3; n2++)
            for (int n1 = 0; n1 < 168; n1++)
                for (int half = 0; half < 2; half++)
                    t[size_t(n2)][size_t(n1)][size_t(half)] = sss_sequence(n1, n2, half == 1);
        return t;
    }();
    return tables[size_t(n_id2)];
}

} // namespace

cell_search_result search_cell(const cf* const* rx, int n_rx, size_t n, double sample_rate, const search_options& opt)
{
    const int fft_size = fft_size_of_rate(sample_rate);
    if (fft_size == 0 || fft_size % SEARCH_FFT != 0)
        throw std::invalid_argument("sample_rate=" + std::to_string(sample_rate) +
                                    " is not 15 kHz times a multiple of 128 (1.92, 3.84 .. 30.72 MS/s)");
    if (n_rx < 1 || !rx)
        throw std::invalid_argument("n_rx=" + std::to_string(n_rx) + " is not a positive number of antennas");
    for (int a = 0; a < n_rx; a++)
        if (!rx[a])
            throw std::invalid_argument("rx[" + std::to_string(a) + "] is null");
    if (opt.max_half_frames < 1)
        throw std::invalid_argument("max_half_frames=" + std::to_string(opt.max_half_frames) + " is below 1");
    if (opt.candidates < 1)
        throw std::invalid_argument("candidates=" + std::to_string(opt.candidates) + " is below 1");
    if (!(opt.max_cfo_hz >= 0.0) || opt.max_cfo_hz > 7.5 * SUBCARRIER_HZ)
        throw std::invalid_argument("max_cfo_hz=" + std::to_string(opt.max_cfo_hz) + " is outside 0..112500");

    cell_search_result res;
    const int D = fft_size / SEARCH_FFT;
    const size_t half_frame = size_t(75) * size_t(fft_size);
    const size_t two_symbols = size_t(2) * size_t(fft_size + fft_size / 4);
    if (n < half_frame + two_symbols) {
        res.reason = "the buffer (" + std::to_string(n) + " samples) is shorter than 5 ms and two symbols (" +
                     std::to_string(half_frame + two_symbols) + ")";
        return res;
    }
    const size_t n_use = std::min(n, size_t(opt.max_half_frames) * half_frame + two_symbols);

    // 1. Decimation to 1.92 MS/s.
    std::vector<std::vector<cf>> y(static_cast<size_t>(n_rx));
    for (int a = 0; a < n_rx; a++)
        y[size_t(a)] = decimate(rx[a], n_use, D);
    const long M = long(y[0].size());
    const long L = M - SEARCH_FFT + 1; // PSS window positions

    // 2. PSS correlation by FFT. The FFT length is a multiple of 128 so that
    // a whole-subcarrier frequency shift is a whole-bin rotation of the
    // signal's spectrum.
    const size_t K = smooth_at_least((size_t(M) + SEARCH_FFT - 1) / SEARCH_FFT);
    const long Mfft = long(K) * SEARCH_FFT;
    sync_fft fwd(int(Mfft), true), inv(int(Mfft), false);
    std::vector<std::vector<cf>> X(static_cast<size_t>(n_rx), std::vector<cf>(static_cast<size_t>(Mfft)));
    for (int a = 0; a < n_rx; a++) {
        std::fill(fwd.in(), fwd.in() + Mfft, cf(0.0f, 0.0f));
        std::copy(y[size_t(a)].begin(), y[size_t(a)].end(), fwd.in());
        fwd.execute();
        std::copy(fwd.out(), fwd.out() + Mfft, X[size_t(a)].begin());
    }
    std::array<std::vector<cf>, 3> pss_t;
    std::array<std::array<std::vector<cf>, 2>, 3> Q; // conj spectra of the halves
    double template_energy = 0.0;
    for (int r = 0; r < 3; r++) {
        pss_t[size_t(r)] = pss_time_symbol(r, SEARCH_FFT);
        for (int h = 0; h < 2; h++) {
            std::fill(fwd.in(), fwd.in() + Mfft, cf(0.0f, 0.0f));
            for (int i = 0; i < SEARCH_FFT / 2; i++)
                fwd.in()[h * SEARCH_FFT / 2 + i] = pss_t[size_t(r)][size_t(h * SEARCH_FFT / 2 + i)];
            fwd.execute();
            Q[size_t(r)][size_t(h)].resize(size_t(Mfft));
            for (long m = 0; m < Mfft; m++)
                Q[size_t(r)][size_t(h)][size_t(m)] = std::conj(fwd.out()[m]);
        }
    }
    for (const cf& v : pss_t[0])
        template_energy += std::norm(v);

    // Received energy in each window, folded over 5 ms periods.
    const int fold = int(std::min<long>(SEARCH_HALF_FRAME, L));
    std::vector<double> den(size_t(fold), 0.0);
    for (int a = 0; a < n_rx; a++) {
        const std::vector<cf>& ya = y[size_t(a)];
        double e = 0.0;
        for (int i = 0; i < SEARCH_FFT; i++)
            e += std::norm(ya[size_t(i)]);
        for (long t = 0; t < L; t++) {
            den[size_t(t % SEARCH_HALF_FRAME)] += e * template_energy;
            if (t + SEARCH_FFT < M)
                e += std::norm(ya[size_t(t + SEARCH_FFT)]) - std::norm(ya[size_t(t)]);
        }
    }

    const int max_shift = int(std::floor(opt.max_cfo_hz / SUBCARRIER_HZ + 1e-9));
    const double scale = 1.0 / (double(Mfft) * double(Mfft));
    std::vector<pss_peak> peaks;
    std::vector<double> num(static_cast<size_t>(fold));
    std::vector<float> mag0(static_cast<size_t>(L));
    for (int r = 0; r < 3; r++) {
        for (int s = -max_shift; s <= max_shift; s++) {
            std::fill(num.begin(), num.end(), 0.0);
            const long rot = ((long(s) * long(K)) % Mfft + Mfft) % Mfft;
            for (int a = 0; a < n_rx; a++) {
                for (int h = 0; h < 2; h++) {
                    const cf* Xa = X[size_t(a)].data();
                    const cf* Qh = Q[size_t(r)][size_t(h)].data();
                    for (long m = 0; m < Mfft; m++) {
                        long mm = m + rot;
                        if (mm >= Mfft)
                            mm -= Mfft;
                        inv.in()[m] = Xa[mm] * Qh[m];
                    }
                    inv.execute();
                    if (h == 0) {
                        for (long t = 0; t < L; t++)
                            mag0[size_t(t)] = std::abs(inv.out()[t]);
                    } else {
                        for (long t = 0; t < L; t++) {
                            const double v = double(mag0[size_t(t)]) + double(std::abs(inv.out()[t]));
                            num[size_t(t % SEARCH_HALF_FRAME)] += v * v;
                        }
                    }
                }
            }
            pss_peak p;
            p.n_id2 = r;
            p.shift = s;
            p.metric = -1.0;
            for (int t = 0; t < fold; t++) {
                if (den[size_t(t)] <= 0.0)
                    continue;
                const double rho = num[size_t(t)] * scale / den[size_t(t)];
                if (rho > p.metric) {
                    p.metric = rho;
                    p.t = t;
                }
            }
            peaks.push_back(p);
        }
    }
    std::sort(peaks.begin(), peaks.end(), [](const pss_peak& a, const pss_peak& b) { return a.metric > b.metric; });
    res.pss_metric = std::max(0.0, peaks[0].metric);
    if (peaks[0].metric < opt.pss_threshold) {
        res.reason = "no PSS: the best folded metric " + std::to_string(peaks[0].metric) + " is below " +
                     std::to_string(opt.pss_threshold);
        return res;
    }

    // 3. The SSS of the best peaks, at 1.92 MS/s.
    sync_fft fft128(SEARCH_FFT, true);
    std::vector<cf> win(static_cast<size_t>(SEARCH_FFT));
    sss_decision best;
    const int n_check = std::min<int>(opt.candidates, int(peaks.size()));
    for (int c = 0; c < n_check; c++) {
        const pss_peak& p = peaks[size_t(c)];
        if (p.metric < opt.pss_threshold)
            break;
        const std::vector<cf>& pt = pss_t[size_t(p.n_id2)];
        // Fractional offset: the phase between the halves' correlations.
        std::complex<double> turn(0.0, 0.0);
        const double shift_step = -2.0 * M_PI * p.shift / SEARCH_FFT;
        for (long T = p.t; T + SEARCH_FFT <= M; T += SEARCH_HALF_FRAME) {
            for (int a = 0; a < n_rx; a++) {
                mix(&y[size_t(a)][size_t(T)], win.data(), SEARCH_FFT, shift_step * double(T), shift_step);
                cf c0(0.0f, 0.0f), c1(0.0f, 0.0f);
                for (int i = 0; i < SEARCH_FFT / 2; i++) {
                    c0 += win[size_t(i)] * std::conj(pt[size_t(i)]);
                    c1 += win[size_t(i + SEARCH_FFT / 2)] * std::conj(pt[size_t(i + SEARCH_FFT / 2)]);
                }
                turn += std::complex<double>(c1 * std::conj(c0));
            }
        }
        const double cfo = p.shift * SUBCARRIER_HZ + std::arg(turn) * SEARCH_RATE / (2.0 * M_PI * SEARCH_FFT / 2);
        const double step = -2.0 * M_PI * cfo / SEARCH_RATE;
        const auto dp = pss_sequence(p.n_id2);
        const sss_table& table = sss_sequences(p.n_id2);
        for (cyclic_prefix cp : { cyclic_prefix::normal, cyclic_prefix::extended }) {
            const numerology nu{ SEARCH_FFT, cp };
            const long sss_back = SEARCH_FFT + nu.cp_length(nu.symbols_per_slot() - 1);
            // z_h(n) = SSS times the conjugate channel seen on the PSS.
            std::vector<std::array<cf, SYNC_LENGTH>> z;
            std::vector<int> zh;
            int h = 0;
            for (long T = p.t; T + SEARCH_FFT <= M; T += SEARCH_HALF_FRAME, h++) {
                if (T - sss_back < 0)
                    continue;
                std::array<cf, SYNC_LENGTH> zz{}, yp, ys;
                for (int a = 0; a < n_rx; a++) {
                    mix(&y[size_t(a)][size_t(T)], win.data(), SEARCH_FFT, step * double(T), step);
                    sync_bins(fft128, win.data(), yp);
                    mix(&y[size_t(a)][size_t(T - sss_back)], win.data(), SEARCH_FFT, step * double(T - sss_back),
                        step);
                    sync_bins(fft128, win.data(), ys);
                    for (int k = 0; k < SYNC_LENGTH; k++)
                        zz[size_t(k)] += ys[size_t(k)] * std::conj(yp[size_t(k)]) * dp[size_t(k)];
                }
                z.push_back(zz);
                zh.push_back(h);
            }
            double norm = 0.0;
            for (const auto& zz : z)
                for (const cf& v : zz)
                    norm += std::abs(v);
            if (norm <= 0.0)
                continue;
            for (int n1 = 0; n1 < 168; n1++) {
                for (int parity = 0; parity < 2; parity++) {
                    double m = 0.0;
                    for (size_t i = 0; i < z.size(); i++) {
                        const auto& d = table[size_t(n1)][size_t((parity + zh[i]) % 2)];
                        for (int k = 0; k < SYNC_LENGTH; k++)
                            m += double(z[i][size_t(k)].real()) * d[size_t(k)];
                    }
                    m /= norm;
                    if (m > best.metric) {
                        best.metric = m;
                        best.n_id1 = n1;
                        best.parity = parity;
                        best.cp = cp;
                        best.cfo_hz = cfo;
                        best.peak = &p;
                    }
                }
            }
        }
    }
    res.sss_metric = std::max(0.0, best.metric);
    if (!best.peak || best.metric < opt.sss_threshold) {
        res.reason = "PSS peak (metric " + std::to_string(peaks[0].metric) + ") but no SSS: the best SSS metric " +
                     std::to_string(best.metric) + " is below " + std::to_string(opt.sss_threshold);
        return res;
    }
    const pss_peak& p = *best.peak;

    // 4. Timing and frequency at the full rate, from the PSS and SSS
    // together: two passes, the window a little early (inside the cyclic
    // prefix) so it sees each symbol cyclically shifted, never the next one.
    const numerology nu{ fft_size, best.cp };
    const long sss_back = fft_size + nu.cp_length(nu.symbols_per_slot() - 1);
    const auto dp = pss_sequence(p.n_id2);
    const sss_table& table = sss_sequences(p.n_id2);
    sync_fft fft(fft_size, true);
    std::vector<cf> w(static_cast<size_t>(fft_size));
    std::array<cf, SYNC_LENGTH> yp, ys;
    double start = double(p.t) * D; // PSS useful start in the first period
    double cfo = best.cfo_hz;
    int used = 0;
    for (int pass = 0; pass < 2; pass++) {
        const long back = pass == 0 ? std::max(2, D) : std::max(2, D / 2);
        const long w0 = std::lround(start) - back;
        const double step = -2.0 * M_PI * cfo / sample_rate;
        sync_accumulator acc;
        int h = 0;
        used = 0;
        for (long T = w0; T + fft_size <= long(n_use); T += long(half_frame), h++) {
            if (T - sss_back < 0)
                continue;
            const auto& d = table[size_t(best.n_id1)][size_t((best.parity + h) % 2)];
            for (int a = 0; a < n_rx; a++) {
                mix(rx[a] + T, w.data(), size_t(fft_size), step * double(T), step);
                sync_bins(fft, w.data(), yp);
                mix(rx[a] + (T - sss_back), w.data(), size_t(fft_size), step * double(T - sss_back), step);
                sync_bins(fft, w.data(), ys);
                acc.add(yp, dp, &ys, &d);
            }
            used++;
        }
        if (used == 0)
            break;
        start = double(w0) + acc.delay(fft_size);
        cfo += acc.cfo_hz(nu);
    }
    const long long P = std::llround(start);

    // 5. The frequency once more from the cyclic prefixes of every whole
    // subframe in the buffer: far more samples than the PSS and SSS, so a
    // much smaller error at low SNR (the residual is well inside the
    // +-7.5 kHz the CP correlation can tell).
    {
        const long sf_len = 15L * fft_size;
        long b = long(P) - pss_useful_start(nu);
        b = ((b % sf_len) + sf_len) % sf_len; // the first whole subframe
        const double step = -2.0 * M_PI * cfo / sample_rate;
        std::vector<cf> sf(static_cast<size_t>(sf_len));
        std::complex<double> acc(0.0, 0.0);
        for (; b + sf_len <= long(n_use); b += sf_len)
            for (int a = 0; a < n_rx; a++) {
                mix(rx[a] + b, sf.data(), size_t(sf_len), step * double(b), step);
                acc += cp_correlation(sf.data(), nu);
            }
        cfo += cfo_of_cp_correlation(acc, nu);
    }
    const long long frame = 2 * (long long)half_frame;
    long long f0 = P - pss_useful_start(nu) - (long long)best.parity * (long long)half_frame;
    f0 = ((f0 % frame) + frame) % frame;

    res.found = true;
    res.n_id1 = best.n_id1;
    res.n_id2 = p.n_id2;
    res.cell_id = 3 * best.n_id1 + p.n_id2;
    res.cp = best.cp;
    res.frame_start = f0;
    res.cfo_hz = cfo;
    res.pss_metric = p.metric;
    res.half_frames = used;
    return res;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
