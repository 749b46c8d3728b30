/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "link/burst_receiver.h"
#include "common/running_sums.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace link {

namespace {
constexpr double pi = 3.14159265358979323846;

void check_range(const char* name, double v, double lo, double hi, bool open)
{
    const bool ok = open ? (v > lo && v < hi) : (v >= lo && v <= hi);
    if (!ok)
        throw std::invalid_argument(std::string(name) + " must be in " + (open ? "(" : "[") +
                                    std::to_string(lo) + ", " + std::to_string(hi) +
                                    (open ? ")" : "]") + ", got " + std::to_string(v));
}

// Kept samples are re-based once this many lie before the scan point: the
// prefix sums then restart near zero, so their rounding stays that of a few
// bursts, however long the stream.
constexpr int64_t trim_above = 1 << 16;
} // namespace

burst_receiver::burst_receiver(const receiver_config& cfg, int data_symbols)
    : d_cfg(cfg), d_fmt(data_symbols), d_lag(burst_format::zc_len * cfg.demod.sps)
{
    check_range("sps", cfg.demod.sps, 2, 64, false);
    check_range("threshold", cfg.threshold, 0.0, 1.0, true);
    check_range("min_corr", cfg.demod.min_corr, 0.0, 1.0, true);
    d_q.push_back(0.0);
    d_e.push_back(0.0);
    // Zeros before the stream's first sample, so that a burst at its very
    // start has the look-back the demodulator needs; absolute indices stay
    // those of the input.
    const int before = demod_before(cfg.demod, d_fmt) + 4 * cfg.demod.sps;
    d_base = -before;
    d_scan = -before;
    const std::vector<cfloat> zeros(static_cast<size_t>(before), cfloat(0.0f, 0.0f));
    push(zeros.data(), zeros.size());
}

size_t burst_receiver::finish()
{
    // A burst that ends the stream lacks the look-ahead past its core and
    // what the two filters delay: 188 samples at sps 4, measured. Its
    // guard's zeros (guard symbols) more than cover the filters, so the pad
    // is the look-ahead plus one guard: a burst cut by less than about
    // three quarters of its guard is completed with zeros (the zeros it
    // would have had), one cut into its core stays pending().
    const int sps = d_cfg.demod.sps;
    const int look_ahead = demod_after(d_cfg.demod, d_fmt) - d_fmt.core_len() * sps;
    const std::vector<cfloat> zeros(size_t(look_ahead + burst_format::guard * sps), cfloat(0.0f, 0.0f));
    push(zeros.data(), zeros.size());
    return zeros.size();
}

void burst_receiver::push(const cfloat* x, size_t n)
{
    const size_t old = d_y.size();
    if (d_y.capacity() < old + n) {
        // Room for what trim() keeps plus this call's samples, doubled: the
        // buffers then stop moving once the stream's chunk size is seen.
        const size_t cap = 2 * (old + n + size_t(trim_above));
        d_y.reserve(cap);
        d_e.reserve(cap + 1);
        d_q.reserve(cap + 1);
    }
    d_y.insert(d_y.end(), x, x + n);
    // Such samples count as silence, and are counted.
    d_non_finite += zero_non_finite(d_y.data() + old, n);
    // Within the reserved capacity: no reallocation, no zero fill.
    double e = d_e.back();
    for (size_t i = old; i < d_y.size(); i++) {
        e += double(std::norm(d_y[i]));
        d_e.push_back(e);
    }
    // q_j needs y_(j+D): extend d_q as far as the samples allow.
    std::complex<double> q = d_q.back();
    for (size_t j = d_q.size() - 1; j + d_lag < d_y.size(); j++) {
        q += std::complex<double>(std::conj(d_y[j]) * d_y[j + d_lag]);
        d_q.push_back(q);
    }
    run();
}

bool burst_receiver::pop(burst_result& r)
{
    if (d_out.empty())
        return false;
    r = std::move(d_out.front());
    d_out.pop_front();
    return true;
}

double burst_receiver::metric(int64_t n, std::complex<double>* p) const
{
    const int64_t i = n - d_base, D = d_lag;
    auto A = [&](int64_t k) { return d_q[size_t(k + D)] - d_q[size_t(k)]; };
    const std::complex<double> P = A(i) - A(i + D) - A(i + 2 * D);
    const double e = d_e[size_t(i + 4 * D)] - d_e[size_t(i)];
    if (p)
        *p = P;
    return e > 0.0 ? std::abs(P) / (0.75 * e) : 0.0;
}

bool burst_receiver::crosses(int64_t n, double t2) const
{
    // m(n) > threshold without a square root: |P|^2 > (3/4 threshold E)^2.
    const int64_t i = n - d_base, D = d_lag;
    const std::complex<double> P = d_q[size_t(i + D)] - d_q[size_t(i)] - d_q[size_t(i + 2 * D)] +
                                   d_q[size_t(i + D)] - d_q[size_t(i + 3 * D)] + d_q[size_t(i + 2 * D)];
    const double e = d_e[size_t(i + 4 * D)] - d_e[size_t(i)];
    return std::norm(P) > t2 * e * e;
}

void burst_receiver::run()
{
    const int64_t D = d_lag;
    const int before = demod_before(d_cfg.demod, d_fmt), after = demod_after(d_cfg.demod, d_fmt);
    for (;;) {
        const int64_t end = samples();
        if (!d_triggered) {
            // The metric at n needs samples up to n + 4D - 1. Tested at
            // every other sample: the metric rises over 2D samples, and the
            // peak search that follows looks at every one.
            const double t2 = 0.75 * 0.75 * d_cfg.threshold * d_cfg.threshold;
            while (d_scan + 4 * D <= end) {
                if (crosses(d_scan, t2)) {
                    d_trigger = d_scan;
                    d_triggered = true;
                    break;
                }
                d_scan += 2;
            }
            if (!d_triggered)
                break;
        }
        // The peak within 4D of the threshold crossing, then the burst. m
        // has side peaks of 2/3 of the main one 2D either side (where two
        // repetitions meet the window, one of them with the sign flip): a
        // crossing on the early one still finds the main peak.
        const int64_t need_peak = d_trigger + 4 * D + 4 * D;
        if (need_peak > end)
            break;
        int64_t peak = d_trigger;
        double best = -1.0;
        std::complex<double> P_best = 0.0;
        for (int64_t n = d_trigger; n <= d_trigger + 4 * D; n++) {
            std::complex<double> P;
            const double m = metric(n, &P);
            if (m > best) {
                best = m;
                peak = n;
                P_best = P;
            }
        }
        if (peak + after > end)
            break;
        const double cfo = std::arg(P_best) / (2.0 * pi * double(D));
        burst_result r;
        const int64_t local = peak - d_base;
        bool ok = local - before >= 0 &&
                  demodulate_burst(d_cfg.demod, d_fmt, d_y.data(), d_base, int(local), cfo, r, d_scratch);
        if (ok) {
            // Resume after the burst's last pilot.
            d_scan = int64_t(std::floor(r.timing)) + int64_t(d_fmt.core_len()) * d_cfg.demod.sps;
            d_out.push_back(std::move(r));
        } else {
            if (local - before >= 0)
                d_false_alarms++;
            // One repetition on: a tone or a DC offset keeps the metric
            // above the threshold everywhere, and a retry at the next sample
            // would demodulate at every sample. A preamble whose peak lay in
            // the window searched would have been its peak (on it m is S/(S+N),
            // above noise's), so the one rejected here lies later and still
            // crosses the threshold after this point.
            d_scan = std::max(peak + 1, d_trigger + D);
        }
        d_triggered = false;
    }
    trim();
}

void burst_receiver::trim()
{
    // Keep what a detection at d_scan may look back at; also while one
    // waits for its burst (d_scan is then the detection): with bursts back
    // to back the receiver waits nearly all the time, and the kept samples
    // would grow with the stream.
    const int64_t keep_from =
        d_scan - demod_before(d_cfg.demod, d_fmt) - 4 * int64_t(d_cfg.demod.sps);
    const int64_t drop = keep_from - d_base;
    if (drop < trim_above)
        return;
    d_y.erase(d_y.begin(), d_y.begin() + drop);
    drop_prefix(d_e, size_t(drop));
    drop_prefix(d_q, size_t(drop));
    d_base += drop;
}

} // namespace link
} // namespace core
} // namespace gpurx
} // namespace gr
