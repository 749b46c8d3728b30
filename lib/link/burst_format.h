/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The packet link's burst, in symbols (docs/radio-link.md):
//
//   guard | preamble | P | D ... D | P | D ... D | P | ... | D | P | guard
//
// guard:    zero symbols that hold the pulse-shaping filter's tails;
// preamble: a Zadoff-Chu sequence of zc_len repeated 4 times with the signs
//           + + - +. The repetition lets the receiver find the burst and its
//           frequency offset by autocorrelation, whatever the channel; the
//           sign pattern leaves the cross-correlation peak unambiguous (its
//           sidelobes at one repetition are 1/4 of the peak, not 3/4);
// P:        a pilot block, pilot_len known QPSK symbols, for phase and gain
//           tracking and the noise estimate; one after the preamble, one
//           after every pilot_spacing data symbols and one at the end, so
//           that every data symbol lies between two pilot blocks;
// D:        data symbols (the codeword's QAM symbols, in order).
// Every symbol has unit average energy, so the burst's Es is 1 throughout.
#ifndef INCLUDED_GPURX_LINK_BURST_FORMAT_H
#define INCLUDED_GPURX_LINK_BURST_FORMAT_H

#include <complex>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace link {

using cfloat = std::complex<float>;

struct burst_format {
    static constexpr int zc_len = 32;       //!< one preamble repetition, symbols
    static constexpr int zc_root = 7;       //!< coprime with zc_len: CAZAC
    static constexpr int repetitions = 4;   //!< signs + + - +
    static constexpr int preamble_len = zc_len * repetitions;
    static constexpr int pilot_len = 4;
    static constexpr int pilot_spacing = 60; //!< data symbols between pilot blocks
    static constexpr int filter_span = 11;   //!< the link's root-raised-cosine filters, symbols
    static constexpr int guard = 12;         //!< zero symbols at each end: the tails of
                                             //!< a filter_span-symbol pulse-shaping filter

    int data_symbols = 0; //!< the codeword's symbols, G / qm

    //! Throws std::invalid_argument naming data_symbols outside 1..1048576.
    explicit burst_format(int data_symbols);

    int pilot_blocks() const { return (data_symbols + pilot_spacing - 1) / pilot_spacing + 1; }
    //! Preamble, pilots and data: the burst without its guards.
    int core_len() const { return preamble_len + data_symbols + pilot_blocks() * pilot_len; }
    int burst_len() const { return core_len() + 2 * guard; }
    //! The core index of pilot block j's first symbol (the last block
    //! follows the last data symbol, however few the last segment holds).
    int pilot_start(int j) const
    {
        const int regular = preamble_len + j * (pilot_len + pilot_spacing);
        return regular < core_len() - pilot_len ? regular : core_len() - pilot_len;
    }
    //! The core index of data symbol d.
    int data_index(int d) const
    {
        return preamble_len + (d / pilot_spacing + 1) * pilot_len + d;
    }
};

//! The preamble's preamble_len symbols.
const std::vector<cfloat>& preamble_symbols();
//! Pilot block j's pilot_len symbols (QPSK from a PN9 sequence, unit energy).
const cfloat* pilot_symbols(int j);

/*!
 * The whole burst (guards included) around \p data, which holds
 * fmt.data_symbols symbols.
 */
std::vector<cfloat> build_burst(const burst_format& fmt, const cfloat* data);

} // namespace link
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
