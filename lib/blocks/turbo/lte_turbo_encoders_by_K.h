/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The turbo encoders of the packet deployments (tagged stream, PDU), which
// take any LTE K per packet: one encoder per K seen, made on first use, so a
// packet costs no interleaver set-up once its K has been seen.
#ifndef INCLUDED_GPURX_BLOCKS_LTE_TURBO_ENCODERS_BY_K_H
#define INCLUDED_GPURX_BLOCKS_LTE_TURBO_ENCODERS_BY_K_H

#include "turbo/lte_turbo_encoder.h"

#include <map>
#include <memory>

namespace gr {
namespace gpurx {

class lte_turbo_encoders_by_K
{
public:
    //! The encoder for \p K, a valid LTE block size.
    core::lte_turbo_encoder& operator[](int K)
    {
        auto& e = d_enc[K];
        if (!e)
            e = std::make_unique<core::lte_turbo_encoder>(K);
        return *e;
    }

private:
    std::map<int, std::unique_ptr<core::lte_turbo_encoder>> d_enc;
};

} // namespace gpurx
} // namespace gr

#endif
