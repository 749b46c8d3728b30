/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The OFDM code's FFTs, by FFTW (single precision). A receiver transforms
// every symbol of every antenna at one length, so each thread keeps one
// plan per length and direction; FFTW's planner is not thread-safe and is
// called under one lock, its execution is.
#ifndef INCLUDED_GPURX_OFDM_OFDM_FFT_H
#define INCLUDED_GPURX_OFDM_OFDM_FFT_H

#include <complex>
#include <cstddef>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

//! In place, n points (any n >= 1); inverse: the IFFT without 1/n.
void fft(std::complex<float>* x, size_t n, bool inverse);
//! Out of place (in and out must not overlap); in is not changed.
void fft(const std::complex<float>* in, std::complex<float>* out, size_t n, bool inverse);

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
