/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What flows between the receiver's steps for one subframe: the resource
// grid of each receive antenna (36.211 §6.2.2: symbol l, subcarrier k), and
// the channel estimated from the cell-specific reference signals, per
// receive antenna and transmit port, at every resource element, with the
// noise variance per subframe.
#ifndef INCLUDED_GPURX_LTE_COMMON_RESOURCE_GRID_H
#define INCLUDED_GPURX_LTE_COMMON_RESOURCE_GRID_H

#include "lte/common/lte_cell.h"

#include <cstddef>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! Where a subframe sits in time: the system frame number and subframe.
struct subframe_time {
    int sfn = 0;      //!< 0..1023
    int subframe = 0; //!< 0..9
    int slot() const { return 2 * subframe; } //!< n_s of its first slot
};

//! One subframe's resource elements: [rx][l][k], k = 0..n_sc-1.
struct subframe_grid {
    int n_rx = 1, n_symbols = 14, n_sc = 72;
    subframe_time time;
    std::vector<cf> re;

    void resize(int rx, int symbols, int sc)
    {
        n_rx = rx;
        n_symbols = symbols;
        n_sc = sc;
        re.assign(size_t(rx) * size_t(symbols) * size_t(sc), cf(0.0f, 0.0f));
    }
    cf& at(int rx, int l, int k) { return re[(size_t(rx) * n_symbols + l) * n_sc + k]; }
    const cf& at(int rx, int l, int k) const { return re[(size_t(rx) * n_symbols + l) * n_sc + k]; }
    cf* symbol(int rx, int l) { return &re[(size_t(rx) * n_symbols + l) * n_sc]; }
    const cf* symbol(int rx, int l) const { return &re[(size_t(rx) * n_symbols + l) * n_sc]; }
};

//! The channel from transmit port p to receive antenna rx at every RE:
//! [rx][p][l][k], and the noise variance per RE (the same for all).
struct channel_estimate {
    int n_rx = 1, n_ports = 1, n_symbols = 14, n_sc = 72;
    std::vector<cf> h;
    float noise_var = 0.0f;

    void resize(int rx, int ports, int symbols, int sc)
    {
        n_rx = rx;
        n_ports = ports;
        n_symbols = symbols;
        n_sc = sc;
        h.assign(size_t(rx) * size_t(ports) * size_t(symbols) * size_t(sc), cf(0.0f, 0.0f));
    }
    cf& at(int rx, int p, int l, int k)
    {
        return h[((size_t(rx) * n_ports + p) * n_symbols + l) * n_sc + k];
    }
    const cf& at(int rx, int p, int l, int k) const
    {
        return h[((size_t(rx) * n_ports + p) * n_symbols + l) * n_sc + k];
    }
};

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
