/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/sync/subframe_tracker.h"

#include "lte/sync/cfo.h"
#include "lte/sync/pss.h"
#include "lte/sync/sync_estimate.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {
constexpr double MAX_RATE_OFFSET = 100e-6; // the loop's samples-per-subframe estimate stays within +-100 ppm
}

subframe_tracker::subframe_tracker(const cell_search_result& found,
                                   int n_rx,
                                   double sample_rate,
                                   long long stream_offset,
                                   const tracker_options& options)
    : d_n_rx(n_rx), d_fs(sample_rate), d_opt(options)
{
    if (!found.found)
        throw std::invalid_argument("found.found=false: the tracker starts from a cell that was found");
    if (found.cell_id < 0 || found.cell_id > 503)
        throw std::invalid_argument("found.cell_id=" + std::to_string(found.cell_id) + " is outside 0..503");
    if (found.frame_start < 0)
        throw std::invalid_argument("found.frame_start=" + std::to_string(found.frame_start) + " is negative");
    if (n_rx < 1)
        throw std::invalid_argument("n_rx=" + std::to_string(n_rx) + " is not a positive number of antennas");
    const int fft_size = fft_size_of_rate(sample_rate);
    if (fft_size == 0)
        throw std::invalid_argument("sample_rate=" + std::to_string(sample_rate) + " is not 15 kHz times an FFT size");
    if (stream_offset < 0)
        throw std::invalid_argument("stream_offset=" + std::to_string(stream_offset) + " is negative");
    if (options.max_missed_pss < 1)
        throw std::invalid_argument("max_missed_pss=" + std::to_string(options.max_missed_pss) + " is below 1");
    if (options.reacquire_window < 0)
        throw std::invalid_argument("reacquire_window=" + std::to_string(options.reacquire_window) + " is negative");
    if (d_opt.reacquire_window == 0)
        d_opt.reacquire_window = fft_size / 4;
    d_nu = numerology{ fft_size, found.cp };
    d_n_id1 = found.cell_id / 3;
    d_n_id2 = found.cell_id % 3;
    d_pss = pss_sequence(d_n_id2);
    d_sss[0] = sss_sequence(d_n_id1, d_n_id2, false);
    d_sss[1] = sss_sequence(d_n_id1, d_n_id2, true);
    d_pss_time = pss_time_symbol(d_n_id2, fft_size);
    d_fft.reset(new sync_fft(fft_size, true));
    d_buf.resize(size_t(n_rx));
    d_period = d_nu.subframe_samples();
    // Start at the earliest whole subframe of the searched buffer.
    const long long S = d_nu.subframe_samples();
    const long long k = found.frame_start / S;
    d_next = double(stream_offset + found.frame_start - k * S);
    d_sf = int((10 - k % 10) % 10);
    d_cfo = found.cfo_hz;
    d_phase_at = (long long)d_next;
}

subframe_tracker::~subframe_tracker() = default;

tracked_subframe subframe_tracker::next_record(subframe_status s)
{
    tracked_subframe t;
    t.status = s;
    t.subframe = d_sf;
    t.counter = d_counter;
    t.start_sample = std::llround(d_next);
    t.cfo_hz = d_cfo;
    t.residual_cfo_hz = d_last_residual;
    t.timing_error = d_last_timing;
    t.samples_per_subframe = d_period;
    return t;
}

std::vector<tracked_subframe> subframe_tracker::feed(const cf* const* rx, size_t n)
{
    std::vector<tracked_subframe> out;
    if (!d_tracking || n == 0)
        return out;
    if (!rx)
        throw std::invalid_argument("rx is null");
    for (int a = 0; a < d_n_rx; a++) {
        if (!rx[a])
            throw std::invalid_argument("rx[" + std::to_string(a) + "] is null");
        d_buf[size_t(a)].insert(d_buf[size_t(a)].end(), rx[a], rx[a] + n);
    }
    emit_ready(out);
    // Keep what a backward timing correction or a re-search may still need.
    const long long keep_from = std::llround(d_next) - d_opt.reacquire_window - 2 * d_nu.fft_size;
    if (keep_from > d_buf_start) {
        const size_t drop = std::min(size_t(keep_from - d_buf_start), d_buf[0].size());
        for (auto& b : d_buf)
            b.erase(b.begin(), b.begin() + long(drop));
        d_buf_start += (long long)drop;
    }
    return out;
}

std::vector<tracked_subframe> subframe_tracker::feed_gap(size_t samples_lost)
{
    std::vector<tracked_subframe> out;
    if (!d_tracking || samples_lost == 0)
        return out;
    const long long end = d_buf_start + (long long)d_buf[0].size();
    const long long gap_end = end + (long long)samples_lost;
    // Every subframe not yet out starts before the gap's end and so misses
    // samples (the whole ones before the gap went out already).
    while (std::llround(d_next) < gap_end) {
        tracked_subframe t = next_record(subframe_status::lost);
        t.reason = "a gap of " + std::to_string(samples_lost) + " samples at stream index " + std::to_string(end);
        out.push_back(std::move(t));
        d_lost++;
        d_next += d_period;
        d_sf = (d_sf + 1) % 10;
        d_counter++;
    }
    for (auto& b : d_buf)
        b.clear();
    d_buf_start = gap_end;
    d_reacquire = true;
    return out;
}

bool subframe_tracker::reacquire()
{
    const int N = d_nu.fft_size, R = d_opt.reacquire_window;
    int j = 0;
    while ((d_sf + j) % 5 != 0)
        j++;
    const double pred = d_next + j * d_period + pss_useful_start(d_nu);
    const long long lo = std::max(d_buf_start, std::llround(pred) - R);
    const long long hi = std::llround(pred) + R; // last candidate start
    const long long end = d_buf_start + (long long)d_buf[0].size();
    if (hi + N > end)
        return false; // wait for more samples
    const double step = -2.0 * M_PI * d_cfo / d_fs;
    const size_t len = size_t(hi + N - lo);
    std::vector<cf> x(len);
    std::vector<double> score(size_t(hi - lo + 1), 0.0);
    for (int a = 0; a < d_n_rx; a++) {
        mix(&d_buf[size_t(a)][size_t(lo - d_buf_start)], x.data(), len, step * double(lo), step);
        for (long long p = lo; p <= hi; p++) {
            cf c(0.0f, 0.0f);
            const cf* xp = &x[size_t(p - lo)];
            for (int i = 0; i < N; i++)
                c += xp[i] * std::conj(d_pss_time[size_t(i)]);
            score[size_t(p - lo)] += std::norm(c);
        }
    }
    const long long best = lo + (long long)(std::max_element(score.begin(), score.end()) - score.begin());
    // The peak confirmed in the frequency domain (bandwidth independent).
    const int back = std::max(2, N / 32);
    sync_accumulator acc;
    std::array<cf, SYNC_LENGTH> bins;
    std::vector<cf> w(static_cast<size_t>(N));
    for (int a = 0; a < d_n_rx; a++) {
        const long long s = std::max(d_buf_start, best - back);
        mix(&d_buf[size_t(a)][size_t(s - d_buf_start)], w.data(), size_t(N), step * double(s), step);
        sync_bins(*d_fft, w.data(), bins);
        acc.add(bins, d_pss);
    }
    d_reacquire = false;
    if (acc.pss_metric() >= d_opt.pss_threshold) {
        d_next += double(best) - pred;
        d_last_timing = double(best) - pred;
        d_missed = 0;
    } else {
        d_missed++;
    }
    return true;
}

void subframe_tracker::measure_pss(tracked_subframe& t, long long start)
{
    const int N = d_nu.fft_size;
    const int back = std::max(2, N / 32);
    const int w = pss_useful_start(d_nu) - back;
    const int ws = w - N - d_nu.cp_length(d_nu.symbols_per_slot() - 1);
    sync_accumulator acc;
    std::array<cf, SYNC_LENGTH> yp, ys;
    for (int a = 0; a < d_n_rx; a++) {
        sync_bins(*d_fft, t.rx[size_t(a)].data() + w, yp);
        sync_bins(*d_fft, t.rx[size_t(a)].data() + ws, ys);
        acc.add(yp, d_pss, &ys, &d_sss[t.subframe == 5 ? 1 : 0]);
    }
    t.pss_metric = acc.pss_metric();
    if (t.pss_metric < d_opt.pss_threshold) {
        d_missed++;
        return;
    }
    d_missed = 0;
    // Where the subframe really started, against where it was meant to.
    const double err = double(start) + acc.delay(N) - back - d_next;
    d_last_timing = err;
    t.timing_error = err;
    d_next += d_opt.timing_gain * err;
    d_period += d_opt.rate_gain * err / 5.0;
    const double S = d_nu.subframe_samples();
    d_period = std::min(S * (1.0 + MAX_RATE_OFFSET), std::max(S * (1.0 - MAX_RATE_OFFSET), d_period));
}

void subframe_tracker::emit_ready(std::vector<tracked_subframe>& out)
{
    const int S = d_nu.subframe_samples();
    while (d_tracking) {
        if (d_reacquire && !reacquire())
            return;
        const long long s0 = std::llround(d_next);
        const long long end = d_buf_start + (long long)d_buf[0].size();
        if (s0 + S > end)
            return;
        if (s0 < d_buf_start) {
            tracked_subframe t = next_record(subframe_status::lost);
            t.reason = "its first samples were before the samples kept (a gap)";
            out.push_back(std::move(t));
            d_lost++;
        } else {
            tracked_subframe t = next_record(subframe_status::ok);
            const double step = -2.0 * M_PI * d_cfo / d_fs;
            const double phase = std::fmod(d_phase + step * double(s0 - d_phase_at), 2.0 * M_PI);
            t.rx.resize(size_t(d_n_rx));
            std::complex<double> cp(0.0, 0.0);
            for (int a = 0; a < d_n_rx; a++) {
                t.rx[size_t(a)].resize(size_t(S));
                mix(&d_buf[size_t(a)][size_t(s0 - d_buf_start)], t.rx[size_t(a)].data(), size_t(S), phase, step);
                cp += cp_correlation(t.rx[size_t(a)].data(), d_nu);
            }
            d_phase = phase;
            d_phase_at = s0;
            d_last_residual = cfo_of_cp_correlation(cp, d_nu);
            t.residual_cfo_hz = d_last_residual;
            d_cfo += d_opt.cfo_gain * d_last_residual;
            if (t.subframe == 0 || t.subframe == 5)
                measure_pss(t, s0);
            out.push_back(std::move(t));
        }
        d_next += d_period;
        d_sf = (d_sf + 1) % 10;
        d_counter++;
        if (d_missed >= d_opt.max_missed_pss) {
            tracked_subframe t = next_record(subframe_status::track_lost);
            t.reason = "the PSS was missed in " + std::to_string(d_missed) + " half-frames in a row";
            out.push_back(std::move(t));
            d_tracking = false;
        }
    }
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
