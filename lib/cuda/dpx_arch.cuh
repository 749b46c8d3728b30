/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// GPURX_DPX_ARCH: 1 in the device compilations where a kernel's DPX variant
// is compiled (Hopper: sm_90, and compute_90 PTX), else 0. It implements the
// policy of cuda/cuda_dpx.h and decides nothing itself: the host launches a
// DPX variant only where cuda_dpx_for_device() says so, and elsewhere that
// variant's body is a trap.
#ifndef INCLUDED_GPURX_CUDA_DPX_ARCH_CUH
#define INCLUDED_GPURX_CUDA_DPX_ARCH_CUH

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && __CUDA_ARCH__ < 1000
#define GPURX_DPX_ARCH 1
#else
#define GPURX_DPX_ARCH 0
#endif

#endif
