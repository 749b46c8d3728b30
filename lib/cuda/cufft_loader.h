/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cuFFT, loaded when first needed. The library links the CUDA runtime
// statically so that it needs only the driver at run time; cuFFT exists
// only as a shared library in CUDA 13 (no static one), and linking it
// would make every user of the module load it. So the few cuFFT entry
// points the LTE front end calls are looked up with dlopen on first use;
// a missing cuFFT is a cuda_error naming the libraries tried.
#ifndef INCLUDED_GPURX_CUDA_CUFFT_LOADER_H
#define INCLUDED_GPURX_CUDA_CUFFT_LOADER_H

#include <cufft.h>

namespace gr {
namespace gpurx {
namespace core {

struct cufft_api {
    cufftResult (*plan_many)(cufftHandle*, int, int*, int*, int, int, int*, int, int, cufftType, int);
    cufftResult (*set_stream)(cufftHandle, cudaStream_t);
    cufftResult (*exec_c2c)(cufftHandle, cufftComplex*, cufftComplex*, int);
    cufftResult (*destroy)(cufftHandle);
};

//! The loaded entry points (the first call loads them, thread-safely).
//! Throws cuda_error when no cuFFT library can be loaded.
const cufft_api& cufft();

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
