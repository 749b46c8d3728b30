/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The deployments a generated make() builds, and the base of every family's
// args struct (deployment_make.h says what it provides).
#ifndef INCLUDED_GPURX_BLOCKS_DRIVERS_DEPLOYMENT_ARGS_H
#define INCLUDED_GPURX_BLOCKS_DRIVERS_DEPLOYMENT_ARGS_H

namespace gr {
namespace gpurx {

//! The deployment a generated make() builds.
enum class deployment { stream, tagged, pdu };

//! The base of every family's args struct: nothing to do once made.
struct deployment_args {
    template <typename Block>
    void made(const Block&) const
    {
    }
};

} // namespace gpurx
} // namespace gr

#endif
