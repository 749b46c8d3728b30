/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Synchronisation of nr receive channels to ofdm_frame's frames
// (docs/mimo-ofdm.md): one timing and one frequency offset for all of them
// (one oscillator, one sample clock), found on their sum.
//
//   detection: Schmidl & Cox on the sync symbol's repeated halves, summed
//              over the antennas: P(d) = sum_r sum_(m<N/2) conj(y_r(d+m))
//              y_r(d+m+N/2), R(d) = 1/2 sum_r sum_(m<N) |y_r(d+m)|^2,
//              M = |P| / R <= 1, S/(S+N) on the symbol; a crossing of the
//              threshold, then the largest M over the next 3N samples;
//   frequency: arg P / (pi N), capture range +-1/N cycles/sample; then
//              refined by the phase between the training pattern's
//              repetitions (nt symbols apart);
//   timing:    the sync symbol's known waveform correlated with every
//              antenna (frequency corrected), |.|^2 summed over antennas,
//              the largest from N/2 before the coarse estimate to 3N after
//              it; a best in the range's last N (maybe a partial match of
//              a symbol beyond it), a normalised correlation below 0.15,
//              or no repetition (M below the threshold) at that timing
//              rejects the detection, and scanning goes on;
//   symbols:   each training and data symbol's FFT window starts cp/4
//              samples inside its cyclic prefix (room for a channel's
//              spread and a timing error; the phase ramp this gives is the
//              same in training and data, so the channel estimate takes it
//              in), frequency corrected, transformed: on the caller's
//              thread, or (threads > 0) on worker threads while the
//              caller goes on detecting, frames still popped in order.
#ifndef INCLUDED_GPURX_OFDM_OFDM_SYNC_H
#define INCLUDED_GPURX_OFDM_OFDM_SYNC_H

#include "ofdm/ofdm_frame.h"

#include <complex>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

struct ofdm_sync_result {
    double timing = 0.0; //!< the sync symbol's FFT window, in input samples
    double cfo = 0.0;    //!< cycles per sample
    double metric = 0.0; //!< M at the detection
    //! The training and data symbols after the FFT: ((s * nr) + r) * fft_len + bin.
    std::vector<cfloat> symbols;
};

class ofdm_frame_receiver
{
public:
    /*!
     * Throws std::invalid_argument naming nr (1..8), threshold (0..1) or
     * threads (0..16). threads 0: each frame's symbols are transformed in
     * push(); 1..16: by that many worker threads, while push() goes on
     * detecting (the symbols are the same either way).
     */
    ofdm_frame_receiver(const ofdm_frame_format& f, int nr, double threshold = 0.3, int threads = 0);
    ~ofdm_frame_receiver();
    ofdm_frame_receiver(const ofdm_frame_receiver&) = delete;
    ofdm_frame_receiver& operator=(const ofdm_frame_receiver&) = delete;

    //! n samples of each of the nr streams.
    void push(const cfloat* const* x, size_t n);
    //! The oldest frame found, once its symbols are ready; with \p wait,
    //! waits for them if workers are still transforming them.
    bool pop(ofdm_sync_result& r, bool wait = false);
    //! Frames found whose symbols the workers have not finished.
    size_t in_work() const;
    //! A popped result's symbols, done with: their memory serves a later
    //! frame.
    void recycle(std::vector<cfloat>&& symbols);
    int64_t samples() const { return d_base + int64_t(d_y[0].size()); }
    //! Samples per antenna held for detections still to come.
    size_t kept() const { return d_y[0].size(); }
    //! A detection waits for samples the stream has not brought (at the
    //! end of a stream: a frame cut short), at pending_sample().
    bool pending() const { return d_triggered; }
    //! Input samples that were NaN, Inf or beyond 1e15: taken as 0.
    uint64_t non_finite() const { return d_non_finite; }
    int64_t pending_sample() const { return d_trigger; }
    //! The end of the stream: silence follows. Decides what still waits
    //! for samples after the last one, so that a frame whose samples all
    //! came is popped, not lost; frames that silence would complete are
    //! dropped instead, and their first samples returned (to report them
    //! cut). push() may follow: the stream goes on after that silence.
    std::vector<int64_t> finish();

private:
    struct frame_job;
    class workers;

    ofdm_frame_format d_f;
    int d_nr;
    double d_threshold;
    int d_half;
    std::vector<cfloat> d_sync_time; // the sync symbol's N samples (no CP)
    std::vector<cfloat> d_sync_conj_fft; // conj(FFT) of them, zero-padded to the fine search's FFT
    int64_t d_base = 0;
    std::vector<std::vector<cfloat>> d_y;
    // Prefix sums from sample d_sum_from on (extend_sums()):
    int64_t d_sum_from = 0;
    std::vector<std::complex<double>> d_q; // of sum_r conj(y_r(n)) y_r(n + N/2)
    std::vector<double> d_e;               // of sum_r |y_r(n)|^2
    int64_t d_scan = 0, d_trigger = 0;
    bool d_triggered = false;
    uint64_t d_non_finite = 0;
    std::deque<std::shared_ptr<frame_job>> d_out;
    std::unique_ptr<workers> d_workers; // null with threads 0
    std::vector<std::vector<cfloat>> d_pool; // threads 0: popped frames' symbol buffers

    // Scratch of locate() and extend_sums(), kept between frames (the arrays of a
    // 2048-point frame are fresh pages every time otherwise).
    struct scratch {
        std::vector<std::vector<cfloat>> z;
        std::vector<cfloat> a, c;
        std::vector<double> power;
        std::vector<float> term_e, term_qr, term_qi; // push()'s per-sample terms
    };
    scratch d_scratch;

    double metric(int64_t d, std::complex<double>* p) const;
    bool crosses(int64_t d) const;
    //! The fine timing of a detection, and whether a frame is there.
    bool locate(int64_t coarse, double cfo, int64_t& t0);
    //! A located frame: its symbols now (threads 0) or by the workers.
    void submit(int64_t t0, double cfo, double m);
    void extend_sums(int64_t to);
    void reset_sums(int64_t from);
    void run();
    void trim();
};

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
