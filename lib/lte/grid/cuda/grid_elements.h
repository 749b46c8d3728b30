/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What each thread of the LTE grid kernels computes, as host-and-device
// functions of one output element: the kernels (grid_kernels.cu) are
// grid-stride loops over them, and a host program can run the same
// functions in a plain loop (test_grid_cuda checks them that way on a
// machine without a GPU, with FFTW for cuFFT). The arithmetic is
// pilot_interpolation.h's, the loops over symbols and CRS pairs are
// channel_estimator.cc's.
//
// What the kernels are told: the batch's layout (sizes, symbol starts, the
// CRS symbols and offsets of each port, the estimator's options) and its
// buffers. grid_gpu.cc fills both from the cell with the CPU code's own
// functions (numerology, crs_symbol, crs_offset, crs_sequence,
// ofdm_demodulator's bins and factors): the kernels compute no table.
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
#ifndef INCLUDED_GPURX_LTE_GRID_CUDA_GRID_ELEMENTS_H
#define INCLUDED_GPURX_LTE_GRID_CUDA_GRID_ELEMENTS_H

#include "common/host_device.h"
#include "lte/grid/cuda/device_cf.h"
#include "lte/grid/pilot_interpolation.h"

#include <cmath>
#include <cstddef>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {
namespace gpu {

constexpr int max_symbols = 14;    //!< symbols of a subframe (normal CP)
constexpr int max_ports = 4;
constexpr int max_crs_symbols = 4; //!< CRS symbols of one port in a subframe (ports 0 and 1)

struct grid_layout {
    int batch = 0, n_rx = 0, ports = 0, n_sym = 0, n_sc = 0, n_pil = 0, fft = 0, subframe_samples = 0;
    int window_start[max_symbols] = {};              //!< first sample of symbol l's FFT window
    int n_crs[max_ports] = {};                       //!< CRS symbols of port p
    int crs_l[max_ports][max_crs_symbols] = {};      //!< their symbols l, ascending
    int crs_offset[max_ports][max_crs_symbols] = {}; //!< their subcarriers: k = 6 m + offset
    int half = 0;           //!< channel_estimator_options::average_span / 2
    int half_narrow = 0;    //!< narrow_span / 2 (0: the wide average always)
    int averaged = 0;       //!< frequency_interpolation::averaged (else linear)
    int hold = 0;           //!< hold_in_time
    int use_previous = 0;   //!< use_previous_subframe
    int noise_ports = 1;    //!< ports whose residual estimates the noise
    int first_subframe = 0; //!< 0..9: subframe of batch element 0
    int carry_usable = 0;   //!< element 0 may interpolate from the carry (the host's half of the condition)
};

struct grid_buffers {
    const device_cf* in = nullptr;
    device_cf* fft = nullptr;
    device_cf* grid = nullptr;
    const int* bin = nullptr;          //!< [k]: FFT bin of subcarrier k
    const device_cf* factor = nullptr; //!< [k]: the factor of that bin
    const device_cf* crs = nullptr;
    device_cf* ls = nullptr;
    device_cf* v = nullptr;
    double* resid = nullptr;
    device_cf* v_narrow = nullptr; //!< the narrow average (half_narrow > 0)
    double* resid_narrow = nullptr;
    int* wide = nullptr;           //!< [b]: 1 when subframe b takes the wide average
    device_cf* symh = nullptr;
    float* noise = nullptr; //!< [b]
    int* ok = nullptr;      //!< [b]: 1 when the estimate succeeded
    device_cf* est = nullptr;
    device_cf* carry = nullptr;
    int* carry_ok = nullptr; //!< one int: the carry's subframe was estimated
};

GPURX_HD bool finite_value(double x)
{
#ifdef __CUDA_ARCH__
    return isfinite(x);
#else
    return std::isfinite(x);
#endif
}

//! Row of the pilot and CRS-symbol buffers: ((b n_rx + a) ports + p) 4 + j.
GPURX_HD size_t crs_row(const grid_layout& L, int b, int a, int p, int j)
{
    return ((size_t(b) * L.n_rx + a) * L.ports + p) * max_crs_symbols + j;
}

//! Splits a row index into b, a, p, j.
GPURX_HD void split_row(const grid_layout& L, size_t row, int& b, int& a, int& p, int& j)
{
    j = int(row % max_crs_symbols);
    const size_t bap = row / max_crs_symbols;
    p = int(bap % size_t(L.ports));
    const size_t ba = bap / size_t(L.ports);
    a = int(ba % size_t(L.n_rx));
    b = int(ba / size_t(L.n_rx));
}

// --- 1. the FFT windows: fft[b][a][l][t] = in[b][a][window_start[l] + t]

GPURX_HD size_t cut_windows_count(const grid_layout& L) { return size_t(L.batch) * L.n_rx * L.n_sym * L.fft; }
GPURX_HD void cut_window_at(const grid_layout& L, const grid_buffers& B, size_t i)
{
    const size_t sym = i / size_t(L.fft); // (b n_rx + a) n_sym + l
    const int t = int(i % size_t(L.fft));
    const size_t ba = sym / size_t(L.n_sym);
    const int l = int(sym % size_t(L.n_sym));
    B.fft[i] = B.in[ba * size_t(L.subframe_samples) + size_t(L.window_start[l] + t)];
}

// --- 2. after the FFT, the grid: subcarrier k from its bin (ofdm_demodulator)

GPURX_HD size_t extract_count(const grid_layout& L) { return size_t(L.batch) * L.n_rx * L.n_sym * L.n_sc; }
GPURX_HD void extract_at(const grid_layout& L, const grid_buffers& B, size_t i)
{
    const size_t sym = i / size_t(L.n_sc);
    const int k = int(i % size_t(L.n_sc));
    B.grid[i] = B.fft[sym * size_t(L.fft) + size_t(B.bin[k])] * B.factor[k];
}

// --- 3. per pilot of every CRS symbol of every port: LS, then smoothing

GPURX_HD size_t pilot_count(const grid_layout& L)
{
    return size_t(L.batch) * L.n_rx * L.ports * max_crs_symbols * L.n_pil;
}
GPURX_HD void least_squares_at(const grid_layout& L, const grid_buffers& B, size_t i)
{
    const size_t row = i / size_t(L.n_pil);
    const int m = int(i % size_t(L.n_pil));
    int b, a, p, j;
    split_row(L, row, b, a, p, j);
    if (j >= L.n_crs[p])
        return;
    const int l = L.crs_l[p][j];
    const int sf = (L.first_subframe + b) % 10;
    const device_cf* y = B.grid + ((size_t(b) * L.n_rx + a) * L.n_sym + l) * L.n_sc;
    const device_cf* r = B.crs + (size_t(sf) * L.n_sym + l) * L.n_pil;
    B.ls[i] = crs_least_squares_at(y, r, L.crs_offset[p][j], m);
}
//! After least_squares_at() of the whole row.
GPURX_HD void smooth_at(const grid_layout& L, const grid_buffers& B, size_t i)
{
    const size_t row = i / size_t(L.n_pil);
    const int m = int(i % size_t(L.n_pil));
    int b, a, p, j;
    split_row(L, row, b, a, p, j);
    if (j >= L.n_crs[p])
        return;
    const device_cf* ls = B.ls + row * L.n_pil;
    const device_cf s = smoothed_pilot_at(ls, L.n_pil, L.half, m);
    B.v[i] = L.averaged ? s : ls[m];
    // The residual counts in both modes (the CPU's smooth_pilots always runs).
    B.resid[i] = smoothing_residual_at(ls[m], s, L.n_pil, L.half, m);
    if (L.half_narrow > 0) {
        const device_cf sn = smoothed_pilot_at(ls, L.n_pil, L.half_narrow, m);
        B.v_narrow[i] = L.averaged ? sn : ls[m];
        B.resid_narrow[i] = smoothing_residual_at(ls[m], sn, L.n_pil, L.half_narrow, m);
    }
}

// --- 4. each CRS symbol at every subcarrier

GPURX_HD size_t frequency_count(const grid_layout& L)
{
    return size_t(L.batch) * L.n_rx * L.ports * max_crs_symbols * L.n_sc;
}
//! After smooth_at() of the whole row and finish_noise() of its subframe
//! (which chose the average).
GPURX_HD void frequency_at(const grid_layout& L, const grid_buffers& B, size_t i)
{
    const size_t row = i / size_t(L.n_sc);
    const int k = int(i % size_t(L.n_sc));
    int b, a, p, j;
    split_row(L, row, b, a, p, j);
    if (j >= L.n_crs[p])
        return;
    const device_cf* v = L.half_narrow > 0 && !B.wide[b] ? B.v_narrow : B.v;
    B.symh[i] = interpolate_frequency_at(v + row * L.n_pil, L.n_pil, L.crs_offset[p][j], k);
}

// --- 5. per subframe: the noise variance and whether the estimate succeeded

GPURX_HD size_t noise_terms_per_subframe(const grid_layout& L)
{
    return size_t(L.n_rx) * L.ports * max_crs_symbols * L.n_pil;
}
//! Adds term \p e (0..noise_terms_per_subframe()-1) of subframe \p b: its
//! residual to \p all (every port: the finiteness test) and, for the noise
//! ports, to \p resid, with its expectation per unit noise to \p weight.
GPURX_HD void add_noise_term(const grid_layout& L, const grid_buffers& B, int b, size_t e, double& resid,
                             double& weight, double& resid_n, double& weight_n, double& all)
{
    const int m = int(e % size_t(L.n_pil));
    const size_t rib = e / size_t(L.n_pil); // (a ports + p) 4 + j
    const int j = int(rib % max_crs_symbols);
    const int p = int((rib / max_crs_symbols) % size_t(L.ports));
    if (j >= L.n_crs[p])
        return;
    const double r = B.resid[size_t(b) * noise_terms_per_subframe(L) + e];
    all += r;
    if (p < L.noise_ports) {
        resid += r;
        weight += smoothing_weight_at(L.n_pil, L.half, m);
        if (L.half_narrow > 0) {
            resid_n += B.resid_narrow[size_t(b) * noise_terms_per_subframe(L) + e];
            weight_n += smoothing_weight_at(L.n_pil, L.half_narrow, m);
        }
    }
}
//! Subframe \p b's average (wide_average_wins), its noise_var (resid /
//! weight of that average) and success (both sums finite).
GPURX_HD void finish_noise(const grid_layout& L, const grid_buffers& B, int b, double resid, double weight,
                           double resid_n, double weight_n, double all)
{
    const bool wide =
        L.half_narrow == 0 || wide_average_wins(resid, weight, resid_n, weight_n, L.half, L.half_narrow);
    if (B.wide)
        B.wide[b] = wide ? 1 : 0;
    if (!wide) {
        resid = resid_n;
        weight = weight_n;
    }
    const double nv = weight > 0.0 ? resid / weight : 0.0;
    const bool good = finite_value(nv) && finite_value(all);
    B.noise[b] = good ? float(nv) : 0.0f;
    B.ok[b] = good ? 1 : 0;
}

// --- 6. the estimate: each symbol from the pair of CRS symbols around it

GPURX_HD size_t time_count(const grid_layout& L)
{
    return size_t(L.batch) * L.n_rx * L.ports * L.n_sym * L.n_sc;
}
//! After frequency_at() and finish_noise() of the whole batch.
GPURX_HD void time_at(const grid_layout& L, const grid_buffers& B, size_t i)
{
    const int k = int(i % size_t(L.n_sc));
    size_t rest = i / size_t(L.n_sc);
    const int l = int(rest % size_t(L.n_sym));
    rest /= size_t(L.n_sym);
    const int p = int(rest % size_t(L.ports));
    rest /= size_t(L.ports);
    const int a = int(rest % size_t(L.n_rx));
    const int b = int(rest / size_t(L.n_rx));
    if (!B.ok[b]) { // as the CPU's failed estimate: zeros
        B.est[i] = device_cf(0.0f, 0.0f);
        return;
    }
    // The previous subframe's last CRS symbol, n_sym symbols earlier: the
    // previous element's, or the previous batch's (the carry), when that
    // subframe was estimated (channel_estimator's d_have_previous).
    const bool previous = b == 0 ? (L.carry_usable && *B.carry_ok) : (L.use_previous && B.ok[b - 1]);
    const int nc = L.n_crs[p];
    int sym_l[max_crs_symbols + 1];
    const device_cf* sym_h[max_crs_symbols + 1];
    int n_list = 0;
    if (previous) {
        sym_l[n_list] = L.crs_l[p][nc - 1] - L.n_sym;
        sym_h[n_list] = b == 0 ? B.carry + (size_t(a) * L.ports + p) * L.n_sc
                               : B.symh + crs_row(L, b - 1, a, p, nc - 1) * L.n_sc;
        n_list++;
    }
    for (int j = 0; j < nc; j++) {
        sym_l[n_list] = L.crs_l[p][j];
        sym_h[n_list] = B.symh + crs_row(L, b, a, p, j) * L.n_sc;
        n_list++;
    }
    int q = 0;
    while (q + 2 < n_list && sym_l[q + 1] < l)
        q++;
    B.est[i] = interpolate_time(sym_h[q][k], sym_h[q + 1][k], sym_l[q], sym_l[q + 1], l, L.hold != 0);
}

// --- 7. the carry: the last element's last CRS symbol, for the next batch

GPURX_HD size_t carry_count(const grid_layout& L) { return size_t(L.n_rx) * L.ports * L.n_sc; }
//! After time_at() of the whole batch (which reads the carry).
GPURX_HD void carry_at(const grid_layout& L, const grid_buffers& B, size_t i)
{
    const int last = L.batch - 1;
    const int k = int(i % size_t(L.n_sc));
    const size_t ap = i / size_t(L.n_sc);
    const int p = int(ap % size_t(L.ports));
    const int a = int(ap / size_t(L.ports));
    B.carry[i] = B.symh[crs_row(L, last, a, p, L.n_crs[p] - 1) * L.n_sc + k];
    if (i == 0)
        *B.carry_ok = B.ok[last];
}

} // namespace gpu
} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
