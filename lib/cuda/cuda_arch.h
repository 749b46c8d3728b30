/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Whether a build's CUDA architecture list (CMAKE_CUDA_ARCHITECTURES, e.g.
// "75-real;80-real;90-real;120-real;120-virtual") can run on a device of a
// given compute capability, and how. No CUDA needed: gpurx-info and the
// backend selection explain a GPU this build cannot use.
#ifndef INCLUDED_GPURX_CORE_CUDA_ARCH_H
#define INCLUDED_GPURX_CORE_CUDA_ARCH_H

#include <string>

namespace gr {
namespace gpurx {
namespace core {

struct cuda_arch_support {
    bool runs = false;   //!< a kernel image fits the device
    bool native = false; //!< sm_XY machine code (else PTX compiled at first launch)
    std::string how;     //!< "sm_86 machine code", "PTX compute_120, JIT-compiled ...", or why not
};

/*!
 * What a build of architectures \p archs (";" or "," separated; each "NN",
 * "NN-real", "NN-virtual", optionally with an "a"/"f" suffix) runs on a device
 * of compute capability major.minor. Machine code for sm_XY runs on X.Z with
 * Z >= Y (arch-specific "a" code only on X.Y itself, family "f" code on X.Z);
 * PTX of compute_XY is compiled by the driver for any capability >= X.Y.
 * "all", "all-major" and "native" are taken to cover the device.
 */
cuda_arch_support cuda_arch_supports(const std::string& archs, int major, int minor);

//! The architectures this library was built for ("" without CUDA).
const char* cuda_build_architectures();

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
