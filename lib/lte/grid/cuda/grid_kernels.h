/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Host entry points of the LTE grid kernels (grid_kernels.cu), and what
// they are told: the batch's layout (sizes, symbol starts, the CRS symbols
// and offsets of each port, the estimator's options) and its device
// buffers. grid_gpu.cc fills both from the cell with the CPU code's own
// functions (numerology, crs_symbol, crs_offset, crs_sequence,
// demod_bin_factor), so the kernels compute no table of their own.
//
// Layouts (b: batch element, a: receive antenna, p: port, l: symbol of the
// subframe, k: subcarrier, j: index of a port's CRS symbol, m: pilot):
//   in     [b][a][15 N samples]
//   fft    [b][a][l][N]            the FFT windows, transformed in place
//   grid   [b][a][l][k]            as subframe_grid, per b
//   crs    [subframe 0..9][l][m]   the CRS values r[m] of each symbol
//   ls, v, resid  [row][m]         row = ((b n_rx + a) ports + p) 4 + j
//   symh   [row][k]                the CRS symbols interpolated in frequency
//   est    [b][a][p][l][k]         as channel_estimate, per b
//   carry  [a][p][k]               the last CRS symbol of the last batch
// Rows j >= n_crs[p] are neither written nor read.
#ifndef INCLUDED_GPURX_LTE_GRID_CUDA_GRID_KERNELS_H
#define INCLUDED_GPURX_LTE_GRID_CUDA_GRID_KERNELS_H

#include "lte/grid/cuda/device_cf.h"

#include <cuda_runtime_api.h>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {
namespace gpu {

constexpr int max_symbols = 14;   //!< symbols of a subframe (normal CP)
constexpr int max_ports = 4;
constexpr int max_crs_symbols = 4; //!< CRS symbols of one port in a subframe (ports 0 and 1)

struct grid_layout {
    int batch = 0, n_rx = 0, ports = 0, n_sym = 0, n_sc = 0, n_pil = 0, fft = 0, subframe_samples = 0;
    int window_start[max_symbols] = {};               //!< first sample of symbol l's FFT window
    int n_crs[max_ports] = {};                        //!< CRS symbols of port p
    int crs_l[max_ports][max_crs_symbols] = {};       //!< their symbols l, ascending
    int crs_offset[max_ports][max_crs_symbols] = {};  //!< their subcarriers: k = 6 m + offset
    int half = 0;             //!< channel_estimator_options::average_span / 2
    int averaged = 0;         //!< frequency_interpolation::averaged (else linear)
    int hold = 0;             //!< hold_in_time
    int use_previous = 0;     //!< use_previous_subframe
    int noise_ports = 1;      //!< ports whose residual estimates the noise
    int first_subframe = 0;   //!< 0..9: subframe of batch element 0
    int carry_usable = 0;     //!< element 0 may interpolate from the carry (the host's half of the condition)
};

struct grid_buffers {
    const device_cf* in = nullptr;
    device_cf* fft = nullptr;
    device_cf* grid = nullptr;
    const int* bin = nullptr;          //!< [k]: FFT bin of subcarrier k
    const device_cf* factor = nullptr; //!< [k]: demod_bin_factor of that bin
    const device_cf* crs = nullptr;
    device_cf* ls = nullptr;
    device_cf* v = nullptr;
    double* resid = nullptr;
    device_cf* symh = nullptr;
    float* noise = nullptr; //!< [b]
    int* ok = nullptr;      //!< [b]: 1 when the estimate succeeded
    device_cf* est = nullptr;
    device_cf* carry = nullptr;
    int* carry_ok = nullptr; //!< one int: the carry's subframe was estimated
};

//! Cuts every symbol's FFT window from the samples into fft.
void enqueue_cut_windows(const grid_layout& L, const grid_buffers& B, cudaStream_t s);

//! After the FFT: the grids, then the estimates, noise variances and the
//! carry for the next batch.
void enqueue_grid_and_estimate(const grid_layout& L, const grid_buffers& B, cudaStream_t s);

} // namespace gpu
} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
