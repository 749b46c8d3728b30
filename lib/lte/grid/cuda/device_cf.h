/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The complex float of the LTE grid kernels: std::complex<float> cannot be
// used in device code, so the kernels run pilot_interpolation.h's templates
// on this type. Each operator is the formula g++ uses for std::complex<float>
// (without FMA contraction: -ffp-contract=off on the CPU, --fmad=false on the
// GPU), so that the same inputs give the same floats on both; the grid tests
// check that on the host (test_grid_cuda, DeviceComplexMatchesStdComplex).
// Same layout as std::complex<float> and cufftComplex: {re, im}, 8 bytes.
#ifndef INCLUDED_GPURX_LTE_GRID_CUDA_DEVICE_CF_H
#define INCLUDED_GPURX_LTE_GRID_CUDA_DEVICE_CF_H

#include "common/host_device.h"

namespace gr {
namespace gpurx {
namespace core {
namespace lte {
namespace gpu {

struct alignas(8) device_cf {
    float re, im;

    device_cf() = default; // trivial, so that arrays of it need no construction
    GPURX_HD device_cf(float r, float i) : re(r), im(i) {}
    GPURX_HD device_cf& operator+=(const device_cf& o)
    {
        re += o.re;
        im += o.im;
        return *this;
    }
};

static_assert(sizeof(device_cf) == 8, "device_cf must be laid out as {float re, im}");

GPURX_HD device_cf operator+(const device_cf& a, const device_cf& b) { return device_cf(a.re + b.re, a.im + b.im); }
GPURX_HD device_cf operator-(const device_cf& a, const device_cf& b) { return device_cf(a.re - b.re, a.im - b.im); }
//! (a.re + j a.im)(b.re + j b.im): re = ar br - ai bi, im = ar bi + ai br.
GPURX_HD device_cf operator*(const device_cf& a, const device_cf& b)
{
    return device_cf(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
//! A real times a complex: each part scaled.
GPURX_HD device_cf operator*(float t, const device_cf& a) { return device_cf(t * a.re, t * a.im); }
//! A complex divided by a real: each part divided.
GPURX_HD device_cf operator/(const device_cf& a, float d) { return device_cf(a.re / d, a.im / d); }
GPURX_HD device_cf conj(const device_cf& a) { return device_cf(a.re, -a.im); }
//! |a|^2 = re^2 + im^2, as std::norm computes it.
GPURX_HD float norm(const device_cf& a) { return a.re * a.re + a.im * a.im; }

} // namespace gpu
} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
