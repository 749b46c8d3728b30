/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A metadata integer as the scale-out blocks read it (python/gpurx/
// scale_out.py _meta_int: a uint64 or a long): absent, there but not an
// integer, or its value. __int128 holds both a uint64 >= 2^63 and a
// negative long, which the rules tell apart.
#ifndef INCLUDED_GPURX_SCALE_OUT_META_INT_H
#define INCLUDED_GPURX_SCALE_OUT_META_INT_H

namespace gr {
namespace gpurx {
namespace scale_out {

struct meta_int {
    enum kind_t { absent, ill_typed, ok } kind = absent;
    __int128 value = 0;

    static meta_int of(__int128 v)
    {
        meta_int m;
        m.kind = ok;
        m.value = v;
        return m;
    }
    static meta_int not_an_integer()
    {
        meta_int m;
        m.kind = ill_typed;
        return m;
    }
};

} // namespace scale_out
} // namespace gpurx
} // namespace gr

#endif
