/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/sync/sync_fft.h"

#include <fftw3.h>

#include <mutex>
#include <new>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {
std::mutex& planner_mutex()
{
    static std::mutex m;
    return m;
}
} // namespace

sync_fft::sync_fft(int n, bool forward) : d_n(n), d_in(nullptr), d_out(nullptr), d_plan(nullptr)
{
    if (n < 1)
        throw std::invalid_argument("n=" + std::to_string(n) + " is not a positive FFT size");
    std::lock_guard<std::mutex> lock(planner_mutex());
    d_in = reinterpret_cast<cf*>(fftwf_malloc(sizeof(cf) * size_t(n)));
    d_out = reinterpret_cast<cf*>(fftwf_malloc(sizeof(cf) * size_t(n)));
    if (!d_in || !d_out) {
        fftwf_free(d_in);
        fftwf_free(d_out);
        throw std::bad_alloc();
    }
    d_plan = fftwf_plan_dft_1d(n, reinterpret_cast<fftwf_complex*>(d_in), reinterpret_cast<fftwf_complex*>(d_out),
                               forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
}

sync_fft::~sync_fft()
{
    std::lock_guard<std::mutex> lock(planner_mutex());
    fftwf_destroy_plan(reinterpret_cast<fftwf_plan>(d_plan));
    fftwf_free(d_in);
    fftwf_free(d_out);
}

void sync_fft::execute() { fftwf_execute(reinterpret_cast<fftwf_plan>(d_plan)); }

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
