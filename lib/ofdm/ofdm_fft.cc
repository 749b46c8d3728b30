/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/ofdm_fft.h"

#include <fftw3.h>

#include <cstring>
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

// Planned on FFTW's own (aligned) scratch arrays and executed on the
// caller's, which must then be aligned alike: a plan for unaligned arrays
// gives up SIMD (18 us against 1.6 us for 2048 points). std::vector's
// memory is; an array that is not goes through an aligned copy.
plan_ptr make_plan(size_t n, bool inverse, bool in_place)
{
    std::lock_guard<std::mutex> lk(planner_lock());
    fftwf_complex* a = fftwf_alloc_complex(n);
    fftwf_complex* b = in_place ? a : fftwf_alloc_complex(n);
    if (!a || !b) {
        fftwf_free(a);
        throw std::bad_alloc();
    }
    fftwf_plan p = fftwf_plan_dft_1d(int(n), a, b, inverse ? FFTW_BACKWARD : FFTW_FORWARD, FFTW_ESTIMATE);
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

bool aligned(const void* p) { return fftwf_alignment_of(static_cast<float*>(const_cast<void*>(p))) == 0; }

struct aligned_buffer {
    fftwf_complex* p = nullptr;
    size_t n = 0;
    ~aligned_buffer() { fftwf_free(p); }
    fftwf_complex* get(size_t want)
    {
        if (want > n) {
            fftwf_free(p);
            p = fftwf_alloc_complex(want);
            if (!p)
                throw std::bad_alloc();
            n = want;
        }
        return p;
    }
};
} // namespace

void fft(std::complex<float>* x, size_t n, bool inverse)
{
    auto* io = reinterpret_cast<fftwf_complex*>(x);
    if (aligned(x)) {
        fftwf_execute_dft(plan_of(n, inverse, true), io, io);
        return;
    }
    thread_local aligned_buffer tmp;
    fftwf_complex* t = tmp.get(n);
    std::memcpy(t, x, n * sizeof(*t));
    fftwf_execute_dft(plan_of(n, inverse, true), t, t);
    std::memcpy(static_cast<void*>(x), t, n * sizeof(*t));
}

void fft(const std::complex<float>* in, std::complex<float>* out, size_t n, bool inverse)
{
    // FFTW does not write an out-of-place complex DFT's input (its
    // documentation: only c2r transforms may destroy it).
    auto* i = reinterpret_cast<fftwf_complex*>(const_cast<std::complex<float>*>(in));
    auto* o = reinterpret_cast<fftwf_complex*>(out);
    if (aligned(in) && aligned(out)) {
        fftwf_execute_dft(plan_of(n, inverse, false), i, o);
        return;
    }
    thread_local aligned_buffer ti, to;
    fftwf_complex* a = ti.get(n);
    fftwf_complex* b = to.get(n);
    std::memcpy(a, in, n * sizeof(*a));
    fftwf_execute_dft(plan_of(n, inverse, false), a, b);
    std::memcpy(static_cast<void*>(out), b, n * sizeof(*b));
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
