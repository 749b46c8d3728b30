/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/ofdm_sync.h"
#include "common/running_sums.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

namespace {
constexpr double pi = 3.14159265358979323846;
constexpr int64_t trim_above = 1 << 16;
} // namespace

ofdm_frame_receiver::ofdm_frame_receiver(const ofdm_frame_format& f, int nr, double threshold)
    : d_f(f), d_nr(nr), d_threshold(threshold), d_half(f.fft_len / 2)
{
    if (nr < 1 || nr > 8)
        throw std::invalid_argument("nr must be in 1..8, got " + std::to_string(nr));
    if (!(threshold > 0.0 && threshold < 1.0))
        throw std::invalid_argument("threshold must be in (0, 1), got " + std::to_string(threshold));
    std::vector<cfloat> s = sync_spectrum(f);
    fft_inplace(s, true);
    const float scale = float(1.0 / std::sqrt(double(f.fft_len)));
    for (auto& v : s)
        v *= scale;
    d_sync_time = s;
    d_y.assign(size_t(nr), {});
    d_q.push_back(0.0);
    d_e.push_back(0.0);
    // Zeros before the first sample, so that a frame at the very start has
    // its look-back; absolute indices stay those of the input.
    const int lead = f.fft_len;
    d_base = -lead;
    d_scan = -lead;
    std::vector<cfloat> zeros(size_t(lead), cfloat(0, 0));
    std::vector<const cfloat*> p(size_t(nr), zeros.data());
    push(p.data(), zeros.size());
}

void ofdm_frame_receiver::push(const cfloat* const* x, size_t n)
{
    const size_t old = d_y[0].size();
    for (int r = 0; r < d_nr; r++) {
        auto& y = d_y[size_t(r)];
        y.insert(y.end(), x[r], x[r] + n);
        d_non_finite += zero_non_finite(y.data() + old, n);
    }
    const size_t len = d_y[0].size();
    for (size_t i = old; i < len; i++) {
        double e = 0.0;
        for (int r = 0; r < d_nr; r++)
            e += std::norm(d_y[size_t(r)][i]);
        d_e.push_back(d_e.back() + e);
    }
    for (size_t j = d_q.size() - 1; j + d_half < len; j++) {
        std::complex<double> q = 0.0;
        for (int r = 0; r < d_nr; r++)
            q += std::complex<double>(std::conj(d_y[size_t(r)][j]) * d_y[size_t(r)][j + d_half]);
        d_q.push_back(d_q.back() + q);
    }
    run();
}

bool ofdm_frame_receiver::pop(ofdm_sync_result& r)
{
    if (d_out.empty())
        return false;
    r = std::move(d_out.front());
    d_out.pop_front();
    return true;
}

double ofdm_frame_receiver::metric(int64_t d, std::complex<double>* p) const
{
    const int64_t i = d - d_base, H = d_half;
    const std::complex<double> P = d_q[size_t(i + H)] - d_q[size_t(i)];
    // Both halves' energies: |P| <= sqrt(R1 R2) <= (R1 + R2) / 2, so M <= 1
    // even where the energy steps (a frame's end into silence, where the
    // second half alone would make M soar).
    const double R = 0.5 * (d_e[size_t(i + 2 * H)] - d_e[size_t(i)]);
    if (p)
        *p = P;
    return R > 0.0 ? std::abs(P) / R : 0.0;
}

bool ofdm_frame_receiver::demodulate(int64_t coarse, double cfo, double m, ofdm_sync_result& r) const
{
    const int N = d_f.fft_len, H = d_half;
    // Fine timing: the known sync waveform against each antenna, from N/2
    // before the coarse estimate to 3N after it (a crossing on
    // noise before the frame leaves the coarse estimate early). A best
    // timing in the range's last N may be a partial match of a sync symbol
    // beyond the range (its cyclic prefix, or its repeated half, against
    // the waveform): rejected, and a later crossing finds the frame.
    const int64_t last = coarse + 3 * N;
    // Each antenna's samples over the search, frequency corrected once (a
    // phasor advanced sample by sample), then the correlations.
    const int64_t first = coarse - H;
    const size_t span = size_t(last + N - first);
    std::vector<std::vector<cfloat>> z(static_cast<size_t>(d_nr), std::vector<cfloat>(span));
    for (int rr = 0; rr < d_nr; rr++) {
        const cfloat* y = d_y[size_t(rr)].data() + (first - d_base);
        std::complex<double> rot = std::polar(1.0, -2.0 * pi * cfo * double(first));
        const std::complex<double> step = std::polar(1.0, -2.0 * pi * cfo);
        for (size_t n = 0; n < span; n++, rot *= step)
            z[size_t(rr)][n] = y[n] * cfloat(rot);
    }
    double best = -1.0;
    int64_t t0 = coarse;
    for (int64_t tau = first; tau <= last; tau++) {
        double sum = 0.0;
        for (int rr = 0; rr < d_nr; rr++) {
            cfloat acc = 0.0f;
            const cfloat* v = z[size_t(rr)].data() + (tau - first);
            for (int n = 0; n < N; n++)
                acc += std::conj(d_sync_time[size_t(n)]) * v[n];
            sum += std::norm(std::complex<double>(acc));
        }
        if (sum > best) {
            best = sum;
            t0 = tau;
        }
    }
    // The sync symbol must be there, not a metric peak on noise or data:
    // its normalised correlation (1 for the symbol alone on one path; the
    // strongest path's share of the energy on several, 0.3 to 0.7 on the
    // twin's exponential profile; about 0.05 on data) at least 0.15.
    double e = 0.0, es = 0.0;
    for (int rr = 0; rr < d_nr; rr++)
        for (int n = 0; n < N; n++)
            e += std::norm(d_y[size_t(rr)][size_t(t0 + n - d_base)]);
    for (const auto& v : d_sync_time)
        es += std::norm(v);
    (void)m;
    if (t0 > last - N || !(e > 0.0) || best / (es * e) < 0.15)
        return false;
    // And its repeated halves must be where the timing says (a partial
    // match, the cyclic prefix alone against the waveform's end, passes
    // the correlation but not this).
    if (metric(t0 - d_f.cp_len / 2, nullptr) < d_threshold)
        return false;
    r.timing = double(t0);
    r.metric = m;
    const int S = d_f.training_symbols() + d_f.data_symbols;
    const int backoff = d_f.cp_len / 4;
    r.symbols.assign(size_t(S) * d_nr * N, cfloat(0, 0));
    std::vector<cfloat> buf(static_cast<size_t>(N));
    // Twice: the training symbols first, whose pattern repeats every nt
    // symbols, so that the phase between repeats refines the frequency
    // (the sync symbol's N/2 samples leave an error that turns a long
    // frame's last symbols by tenths of a radian); then every symbol.
    for (int pass = 0; pass < 2; pass++) {
        const int upto = pass == 0 ? d_f.training_symbols() : S;
        extract(t0, cfo, backoff, upto, r.symbols, buf);
        if (pass == 1)
            break;
        std::complex<double> acc = 0.0;
        for (int t = 0; t + d_f.nt < d_f.training_symbols(); t++)
            for (int rr = 0; rr < d_nr; rr++)
                for (int k = 0; k < d_f.used; k++) {
                    const int b = d_f.bin(k);
                    acc += std::complex<double>(r.symbols[(size_t(t + d_f.nt) * d_nr + rr) * N + b]) *
                           std::conj(std::complex<double>(r.symbols[(size_t(t) * d_nr + rr) * N + b]));
                }
        cfo += std::arg(acc) / (2.0 * pi * double(d_f.nt) * d_f.symbol_len());
    }
    r.cfo = cfo;
    return true;
}

void ofdm_frame_receiver::extract(int64_t t0, double cfo, int backoff, int upto, std::vector<cfloat>& out,
                                  std::vector<cfloat>& buf) const
{
    const int N = d_f.fft_len, L = d_f.symbol_len();
    for (int s = 0; s < upto; s++) {
        const int64_t start = t0 + N + int64_t(s) * L + d_f.cp_len - backoff;
        for (int rr = 0; rr < d_nr; rr++) {
            const cfloat* y = d_y[size_t(rr)].data() + (start - d_base);
            const std::complex<double> rot0 = std::polar(1.0, -2.0 * pi * cfo * double(start));
            const std::complex<double> step = std::polar(1.0, -2.0 * pi * cfo);
            std::complex<double> rot = rot0;
            for (int n = 0; n < N; n++, rot *= step)
                buf[size_t(n)] = y[n] * cfloat(rot);
            fft_inplace(buf, false);
            const float scale = float(1.0 / std::sqrt(double(N)));
            for (int n = 0; n < N; n++)
                out[(size_t(s) * d_nr + rr) * N + n] = buf[size_t(n)] * scale;
        }
    }
}

void ofdm_frame_receiver::run()
{
    const int N = d_f.fft_len, H = d_half;
    for (;;) {
        const int64_t end = samples();
        if (!d_triggered) {
            while (d_scan + N <= end) {
                if (d_scan - d_base >= 0 && metric(d_scan, nullptr) > d_threshold) {
                    d_triggered = true;
                    d_trigger = d_scan;
                    break;
                }
                d_scan++;
            }
            if (!d_triggered)
                break;
        }
        // The peak within 3N of the crossing (a crossing on noise up to
        // 2N before the frame still finds the sync symbol's plateau, where
        // the frequency estimate is right); then the fine timing and the
        // whole frame after it.
        if (d_trigger + 4 * N > end)
            break;
        int64_t peak = d_trigger;
        double best = -1.0;
        std::complex<double> P_best = 0.0;
        for (int64_t d = d_trigger; d <= d_trigger + 3 * N; d++) {
            std::complex<double> P;
            const double m = metric(d, &P);
            if (m > best) {
                best = m;
                peak = d;
                P_best = P;
            }
        }
        // The S&C peak lies up to a CP before the symbol's FFT window.
        const int64_t coarse = peak + d_f.cp_len / 2;
        // The fine search reads to coarse + 4N; an accepted frame (timing
        // at most coarse + 2N) reads to its timing + frame_len.
        const int64_t need = std::max<int64_t>(coarse + 4 * N, coarse + 2 * N + d_f.frame_len());
        if (need > end)
            break;
        const double cfo = std::arg(P_best) / (pi * N);
        ofdm_sync_result r;
        const bool ok = coarse - H - d_base >= 0 && demodulate(coarse, cfo, best, r);
        if (ok) {
            d_scan = int64_t(r.timing) + d_f.frame_len() - d_f.symbol_len();
            d_out.push_back(std::move(r));
        } else {
            // One FFT length on (a tone or DC keeps M at 1: a retry at the
            // next sample would search at every sample); a frame whose
            // plateau lay in the window searched would have been its peak.
            d_scan = std::max(peak + 1, d_trigger + N);
        }
        d_triggered = false;
    }
    trim();
}

void ofdm_frame_receiver::trim()
{
    const int64_t keep_from = d_scan - 2 * d_f.fft_len;
    const int64_t drop = keep_from - d_base;
    if (d_triggered || drop < trim_above)
        return;
    for (auto& y : d_y)
        y.erase(y.begin(), y.begin() + drop);
    drop_prefix(d_e, size_t(drop));
    drop_prefix(d_q, size_t(drop));
    d_base += drop;
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
