/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The per-subframe front end of the LTE receiver on an NVIDIA GPU, for a
// batch of B consecutive subframes of one cell at a time: the GPU twin of
// ofdm_demodulator + channel_estimator (lte/grid/), with the same results
// to float rounding (the FFTs are cuFFT's instead of FFTW's; the rest is the
// same arithmetic, pilot_interpolation.h compiled for both):
//   1. the samples in (pinned staging, one copy per batch);
//   2. each symbol's FFT window cut out (the CPU's window advance), one
//      batched cuFFT of B x n_rx x N_symb transforms;
//   3. the n_sc subcarriers kept, the advance's phase undone and scaled
//      (demod_bin_factor(), the CPU's factors) -> the resource grids;
//   4. the CRS least squares, moving average, frequency interpolation, the
//      noise variance per subframe, time interpolation -> the estimates;
//   5. grids, estimates and noise variances out (pinned staging).
// The previous subframe's last CRS symbol, which "use_previous_subframe"
// interpolates from, is the previous batch element within a batch and stays
// on the device between batches (like the CPU estimator, only when the
// subframes follow each other and the previous one's estimate succeeded).
//
// Two batches may be in flight (submit() twice, then collect()): each slot
// has its own stream, device buffers and pinned staging, so one batch's
// copies overlap the other's kernels; the kernels of consecutive batches run
// in submission order (an event between the streams), since they share the
// FFT's work area and the carried CRS symbol. Not thread-safe: one thread
// drives an object (objects for different cells run independently). Every
// call makes the object's device current on the calling thread. A CUDA
// failure throws core::cuda_error; the object is then unusable.
#ifndef INCLUDED_GPURX_LTE_GRID_CUDA_GRID_GPU_H
#define INCLUDED_GPURX_LTE_GRID_CUDA_GRID_GPU_H

#include "lte/common/lte_cell.h"
#include "lte/common/resource_grid.h"
#include "lte/grid/channel_estimator.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

class grid_gpu
{
public:
    /*!
     * For cell \p c (its ports: how many to estimate), \p n_rx antennas at
     * \p fft_size (the capture's: fft_size x 15 kHz), batches of \p batch
     * subframes, on CUDA device \p device (an ordinal); \p o and
     * \p window_advance as channel_estimator and ofdm_demodulator take them.
     * Throws std::invalid_argument for a bad parameter (before touching the
     * GPU), core::cuda_error when the device cannot be used or allocation
     * fails.
     */
    grid_gpu(const cell& c,
             int fft_size,
             int n_rx,
             int batch,
             int device = 0,
             const channel_estimator_options& o = {},
             int window_advance = -1);
    ~grid_gpu();
    grid_gpu(const grid_gpu&) = delete;
    grid_gpu& operator=(const grid_gpu&) = delete;

    /*!
     * One batch, synchronously: \p host_samples holds batch() subframes one
     * after the other, each n_rx antennas one after the other, each
     * subframe_samples() samples from the subframe's first sample (as
     * ofdm_demodulator takes them); pinned or not. \p first: the time of
     * the first; the others follow it. Fills \p grids and \p ests (resized
     * to batch()); \p ok, when given, gets per subframe whether its estimate
     * succeeded (else it is zeros with noise_var 0, as the CPU's returns
     * false: values not finite in the grid's CRS). Returns the number that
     * succeeded. Throws std::logic_error when batches are in flight.
     */
    int run(const cf* host_samples,
            const subframe_time& first,
            std::vector<subframe_grid>& grids,
            std::vector<channel_estimate>& ests,
            std::vector<uint8_t>* ok = nullptr);

    /*!
     * Starts a batch (as run() reads it) and returns once \p host_samples
     * are copied into the slot's pinned staging (the caller may reuse them).
     * Throws std::logic_error when two batches are in flight already.
     */
    void submit(const cf* host_samples, const subframe_time& first);

    /*!
     * The pinned staging of the next submit_staged(): a producer writes the
     * batch there itself (batch() x n_rx x subframe_samples() samples),
     * saving submit()'s copy. Valid until submit_staged(). Throws
     * std::logic_error when two batches are in flight.
     */
    cf* staging();
    //! Starts the batch written into staging().
    void submit_staged(const subframe_time& first);

    /*!
     * Waits for the oldest batch in flight and takes its results (as run()
     * gives them). Returns -1 when none is in flight, else the number of
     * subframes whose estimate succeeded.
     */
    int collect(std::vector<subframe_grid>& grids,
                std::vector<channel_estimate>& ests,
                std::vector<uint8_t>* ok = nullptr);

    //! Forgets the previous subframe (after a gap or a timing change); the
    //! next batch's first subframe then does not interpolate from it.
    void reset();

    int batch() const;
    int n_rx() const;
    int device() const;
    int subframe_samples() const;
    int window_advance() const;
    int in_flight() const;
    //! Device time of the collected batch's kernels and FFT (ms), from the
    //! end of its input copy (or of the previous batch's kernels) to the end
    //! of its own.
    float last_kernel_ms() const;

private:
    struct state;
    std::unique_ptr<state> d;
    void enqueue(const subframe_time& first);
};

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
