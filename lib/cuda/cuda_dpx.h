/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The one policy for Hopper's DPX instructions, for every kernel that has a
// DPX path (the fixed-point turbo decoder's add-max, the cuda-thread Viterbi
// decoder's packed max): such a kernel is compiled in two variants, DPX and
// portable (bit-exact with it), and the host picks one per device when it
// makes the kernel object. DPX runs on compute capability 9.x, where it is
// in hardware; everywhere else, or when the environment variable
// GPURX_CUDA_PORTABLE is set to anything but "0" (tests force the portable
// path on a Hopper GPU with it), the portable variant runs.
//
// The device side, GPURX_DPX_ARCH (cuda/dpx_arch.cuh), only implements that
// choice: it is 1 in Hopper's device compilations (sm_90, and compute_90
// PTX), where the DPX variant is compiled; elsewhere the DPX variant's body
// is empty (a trap: the host never launches it there), so other
// architectures pay no build time for it.
#ifndef INCLUDED_GPURX_CUDA_CUDA_DPX_H
#define INCLUDED_GPURX_CUDA_CUDA_DPX_H

#include <cstring>

namespace gr {
namespace gpurx {
namespace core {

//! The policy on a device of compute capability \p major.x with
//! GPURX_CUDA_PORTABLE set to \p portable_env (nullptr: not set).
inline bool cuda_dpx_policy(int major, const char* portable_env)
{
    const bool forced_portable = portable_env != nullptr && *portable_env != '\0' &&
                                 std::strcmp(portable_env, "0") != 0;
    return major == 9 && !forced_portable;
}

//! Whether kernels with a DPX path run it on \p device (cuda_dpx_policy()
//! of its compute capability and the environment, read at each call: a
//! kernel object asks once, when it is made).
bool cuda_dpx_for_device(int device);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
