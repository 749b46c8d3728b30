/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/ofdm_fft.h"

#include <fftw3.h>

#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

namespace {
std::mutex& planner_lock()
{
    static std::mutex m;
    return m;
}

struct plan_deleter {
    void operator()(fftwf_plan_s* p) const
    {
        std::lock_guard<std::mutex> lk(planner_lock());
        fftwf_destroy_plan(p);
    }
};
using plan_ptr = std::unique_ptr<fftwf_plan_s, plan_deleter>;

// Planned on scratch arrays (FFTW_ESTIMATE leaves them untouched, and the
// plan is made for unaligned arrays) and executed on the caller's. In
// place, FFTW copies through a buffer; out of place it does not.
plan_ptr make_plan(size_t n, bool inverse, bool in_place)
{
    std::lock_guard<std::mutex> lk(planner_lock());
    fftwf_complex* a = fftwf_alloc_complex(n);
    fftwf_complex* b = in_place ? a : fftwf_alloc_complex(n);
    if (!a || !b) {
        fftwf_free(a);
        throw std::bad_alloc();
    }
    fftwf_plan p = fftwf_plan_dft_1d(int(n), a, b, inverse ? FFTW_BACKWARD : FFTW_FORWARD,
                                     FFTW_ESTIMATE | FFTW_UNALIGNED);
    if (b != a)
        fftwf_free(b);
    fftwf_free(a);
    if (!p)
        throw std::runtime_error("FFTW could not plan a " + std::to_string(n) + "-point FFT");
    return plan_ptr(p);
}

fftwf_plan_s* plan_of(size_t n, bool inverse, bool in_place)
{
    thread_local std::map<std::tuple<size_t, bool, bool>, plan_ptr> plans;
    auto& p = plans[std::make_tuple(n, inverse, in_place)];
    if (!p)
        p = make_plan(n, inverse, in_place);
    return p.get();
}
} // namespace

void fft(std::complex<float>* x, size_t n, bool inverse)
{
    auto* io = reinterpret_cast<fftwf_complex*>(x);
    fftwf_execute_dft(plan_of(n, inverse, true), io, io);
}

void fft(const std::complex<float>* in, std::complex<float>* out, size_t n, bool inverse)
{
    // FFTW does not write an out-of-place complex DFT's input (its
    // documentation: only c2r transforms may destroy it).
    auto* i = reinterpret_cast<fftwf_complex*>(const_cast<std::complex<float>*>(in));
    fftwf_execute_dft(plan_of(n, inverse, false), i, reinterpret_cast<fftwf_complex*>(out));
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
