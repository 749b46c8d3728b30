/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A single-precision FFTW transform of one size and direction with its own
// aligned buffers. FFTW's planner is not thread-safe, so plan creation and
// destruction take a process-wide lock; execution does not.
#ifndef INCLUDED_GPURX_LTE_SYNC_SYNC_FFT_H
#define INCLUDED_GPURX_LTE_SYNC_SYNC_FFT_H

#include "lte/common/lte_cell.h"

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

class sync_fft
{
public:
    //! \p forward: e^{-j...} (unnormalised both ways).
    sync_fft(int n, bool forward);
    ~sync_fft();
    sync_fft(const sync_fft&) = delete;
    sync_fft& operator=(const sync_fft&) = delete;

    int size() const { return d_n; }
    cf* in() { return d_in; }
    cf* out() { return d_out; }
    void execute();

private:
    int d_n;
    cf* d_in;
    cf* d_out;
    void* d_plan;
};

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
