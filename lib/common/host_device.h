/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Qualifiers for arithmetic compiled by both g++ (the CPU backend) and nvcc
// (the kernels) from one definition, so the two backends perform the same
// operations in the same order.
#ifndef INCLUDED_GPURX_COMMON_HOST_DEVICE_H
#define INCLUDED_GPURX_COMMON_HOST_DEVICE_H

#ifdef __CUDACC__
#define GPURX_HD __host__ __device__ __forceinline__
#define GPURX_UNROLL _Pragma("unroll")
#else
#define GPURX_HD inline
#define GPURX_UNROLL _Pragma("GCC unroll 8")
#endif

#endif
