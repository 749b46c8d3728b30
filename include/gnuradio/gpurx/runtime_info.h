/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_RUNTIME_INFO_H
#define INCLUDED_GPURX_RUNTIME_INFO_H

#include <gnuradio/gpurx/api.h>
#include <string>

namespace gr {
namespace gpurx {

//! True when CUDA device \p device is usable (a probe kernel ran on it).
GPURX_API bool cuda_available(int device = 0);
//! The backend "auto" resolves to: "cuda" or "cpu".
GPURX_API std::string auto_backend(int device = 0);
//! The one-line reason select_backend() gives; throws like a block would.
GPURX_API std::string backend_reason(const std::string& backend, int device = 0);
//! This build's version as GNU Radio's GrVersion derives it (from git describe in a checkout).
GPURX_API std::string version();
//! The CUDA architectures this build contains (CMAKE_CUDA_ARCHITECTURES, e.g.
//! "90-real;90-virtual": sm_90 machine code and compute_90 PTX), "" without CUDA.
GPURX_API std::string cuda_architectures();
//! Devices, versions and the "auto" choice, as gpurx-info prints them.
GPURX_API std::string runtime_report();

} // namespace gpurx
} // namespace gr

#endif
