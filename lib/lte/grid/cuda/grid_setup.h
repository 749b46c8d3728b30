/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE grid kernels' layout and tables, made on the host from the CPU
// code's own functions (no CUDA here: a test runs grid_elements.h on the
// host with them).
#ifndef INCLUDED_GPURX_LTE_GRID_CUDA_GRID_SETUP_H
#define INCLUDED_GPURX_LTE_GRID_CUDA_GRID_SETUP_H

#include "lte/common/lte_cell.h"
#include "lte/common/resource_grid.h"
#include "lte/grid/channel_estimator.h"
#include "lte/grid/cuda/grid_elements.h"
#include "lte/grid/ofdm_demod.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {
namespace gpu {

/*!
 * The layout of a batch of \p batch subframes of cell \p c as \p demod cuts
 * them (its FFT size, antennas and window advance), estimated with \p o;
 * first_subframe and carry_usable are the batch's own (0 here).
 */
grid_layout make_grid_layout(const cell& c, const ofdm_demodulator& demod, int batch,
                             const channel_estimator_options& o);

//! The CRS values of every symbol of the 10 subframes: [subframe][l][m]
//! (crs_sequence(); the grid kernels' crs buffer).
std::vector<cf> crs_table(const cell& c);

//! The host's half of "element 0 interpolates from the previous batch's
//! last subframe": the option is on, there was one (\p have_last), and
//! \p first follows \p last (the CPU estimator's rule).
bool carry_usable(const channel_estimator_options& o, bool have_last, const subframe_time& last,
                  const subframe_time& first);

//! \p t plus \p n subframes (SFN modulo 1024).
subframe_time subframe_after(const subframe_time& t, int n);

} // namespace gpu
} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
