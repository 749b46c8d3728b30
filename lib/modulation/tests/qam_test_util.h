/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The 36.211 constellations written again from the standard's formulas,
// sharing no code with modulation/qam.h: the reference its tests and the
// MIMO family's hold the library to.
#ifndef INCLUDED_GPURX_QAM_TEST_UTIL_H
#define INCLUDED_GPURX_QAM_TEST_UTIL_H

#include <cmath>
#include <complex>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace test {

using cd = std::complex<double>;

//! 36.211 7.1.2-7.1.5: the point of symbol index idx (b(0) = most significant bit).
inline cd standard_point(int bits, unsigned idx)
{
    auto s = [&](int i) {
        return 1.0 - 2.0 * ((idx >> (bits - 1 - i)) & 1);
    }; // 1 - 2 b(i)
    switch (bits) {
    case 2:
        return cd(s(0), s(1)) / std::sqrt(2.0);
    case 4:
        return cd(s(0) * (2 - s(2)), s(1) * (2 - s(3))) / std::sqrt(10.0);
    case 6:
        return cd(s(0) * (4 - s(2) * (2 - s(4))), s(1) * (4 - s(3) * (2 - s(5)))) /
               std::sqrt(42.0);
    case 8:
        return cd(s(0) * (8 - s(2) * (4 - s(4) * (2 - s(6)))),
                  s(1) * (8 - s(3) * (4 - s(5) * (2 - s(7))))) /
               std::sqrt(170.0);
    }
    throw std::invalid_argument("standard_point: bits");
}


//! The stated tolerance of "equal" between detectors: 1e-4 absolute + 1e-3 relative.
inline bool llr_close(double got, double want)
{
    return std::abs(got - want) <= 1e-4 + 1e-3 * std::abs(want);
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif
