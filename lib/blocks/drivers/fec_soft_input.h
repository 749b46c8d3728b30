/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The soft values a gr-fec decoder object takes (its input_conversion):
// float, or gr-fec's 8-bit soft values as its cc_decoder takes them.
//
// Why 8-bit at all: fec.extended_decoder and fec.extended_tagged_decoder
// depuncture (puncpat other than "11") with depuncture_bb, a byte block, and
// they only convert the float stream to bytes for an object whose
// get_input_conversion() is "uchar" (y x 48 + get_shift(), rounded and
// clamped to 0..255 by float_to_uchar). A float object cannot be punctured
// there: the flowgraph fails with "itemsize mismatch: depuncture_bb0:0 using
// 1, fec_decoder0:0 using 4". Float stays the default: the 8-bit values clip
// at |y| = 128 / 48 (about 2.67), which true LLRs exceed, and gr-fec's async
// decoder casts y x 48 + 128 to a byte without clamping (a value beyond the
// range wraps around to the other sign).
#ifndef INCLUDED_GPURX_BLOCKS_FEC_SOFT_INPUT_H
#define INCLUDED_GPURX_BLOCKS_FEC_SOFT_INPUT_H

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

enum class fec_soft_input {
    floats, //!< gr-fec's "none": float values, item size 4
    uchar,  //!< gr-fec's "uchar": bytes y x 48 + 128, item size 1
};

//! "none" or "uchar" (gr-fec's names); throws std::invalid_argument naming
//! input_conversion otherwise.
inline fec_soft_input parse_input_conversion(const std::string& s)
{
    if (s == "none")
        return fec_soft_input::floats;
    if (s == "uchar")
        return fec_soft_input::uchar;
    throw std::invalid_argument("input_conversion must be \"none\" (float soft values) or \"uchar\" "
                                "(gr-fec's 8-bit soft values, for puncpat), got \"" + s + "\"");
}

// gr-fec's 8-bit soft value: y x fec_uchar_scale + fec_uchar_shift. The
// scale is gr-fec's (fixed in its extended and async decoders); the shift is
// what the object reports from get_shift(), 128 as cc_decoder's, so 0 sits
// mid-range. depuncture_bb's fill symbol, 127, reads as -1/48: near an
// erasure, as it is for cc_decoder.
constexpr float fec_uchar_scale = 48.0f;
constexpr float fec_uchar_shift = 128.0f;

//! The float values y of \p n gr-fec 8-bit soft values, into \p out.
inline const float* fec_uchar_to_float(const uint8_t* in, size_t n, std::vector<float>& out)
{
    out.resize(n);
    for (size_t i = 0; i < n; i++)
        out[i] = (float(in[i]) - fec_uchar_shift) / fec_uchar_scale;
    return out.data();
}

} // namespace gpurx
} // namespace gr

#endif
