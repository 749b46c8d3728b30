/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// QPSK, 16-, 64- and 256-QAM exactly as 3GPP TS 36.211 section 7.1: Gray
// mapped, unit average energy. Bits b(0), b(1), ... of a symbol: b(0) is the
// sign of the in-phase part, b(1) of the quadrature part, b(2), b(4), ... the
// in-phase magnitude bits, b(3), b(5), ... the quadrature ones. A symbol's
// index is its bits read as a number with b(0) the most significant bit.
//
// LLRs follow the convention of the whole module: L = ln P(b=1)/P(b=0),
// positive for bit 1.
#ifndef INCLUDED_GPURX_MODULATION_QAM_H
#define INCLUDED_GPURX_MODULATION_QAM_H

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace qam {

//! A modulation, by its bits per symbol.
enum class modulation : int32_t { qpsk = 2, qam16 = 4, qam64 = 6, qam256 = 8 };

inline int bits_per_symbol(modulation m) { return int(m); }
inline int points_of(modulation m) { return 1 << int(m); }

//! The modulation of \p bits bits per symbol (2, 4, 6, 8); throws
//! std::invalid_argument naming bits_per_symbol otherwise.
modulation modulation_of_bits(int bits);
//! "qpsk" | "16qam" | "64qam" | "256qam"; throws naming `modulation`.
modulation parse_modulation(const std::string& name);
const char* modulation_name(modulation m);

//! The constellation of one modulation: points[index], index as above.
struct constellation {
    modulation mod;
    int bits;                                 //!< bits per symbol
    std::vector<std::complex<double>> points; //!< 2^bits points, unit average energy
};

//! The constellation of \p m (built once, shared).
const constellation& constellation_of(modulation m);

//! The point of the bits b[0..bits) (each 0 or 1).
std::complex<double> map_bits(modulation m, const uint8_t* b);

/*!
 * Max-log soft demapping of one symbol seen as y = s + n, E|n|^2 = n0:
 * llr[i] = (min over points with b(i)=0 of d - min over b(i)=1 of d) / n0,
 * d = |y - s|^2. Writes bits_per_symbol(m) LLRs.
 */
void demap_max_log(const constellation& c, std::complex<double> y, double n0, float* llr);

} // namespace qam
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
