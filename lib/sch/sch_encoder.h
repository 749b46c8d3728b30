/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The DL-SCH / UL-SCH transmit chain on the CPU, in the steps of 36.212:
// CRC24A (§5.1.1), segmentation with CRC24B and filler bits (§5.1.2), turbo
// coding (§5.1.3.2), rate matching (§5.1.4.1), concatenation (§5.1.5), the
// uplink channel interleaver (§5.2.2.8, no UCI), and scrambling (36.211
// §6.3.1 / §5.3.1). For simulation and the transmit side of a link.
#ifndef INCLUDED_GPURX_SCH_SCH_ENCODER_H
#define INCLUDED_GPURX_SCH_SCH_ENCODER_H

#include "sch/sch_params.h"
#include "sch/sch_rate_match.h"
#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

class sch_encoder
{
public:
    /*!
     * The G scrambled codeword bits (0/1) of the TB's \p tbs bits (0/1)
     * under \p req. Throws std::invalid_argument naming the bad field (of
     * req, or `bits` for a wrong count or a value other than 0/1).
     */
    std::vector<uint8_t> encode(const uint8_t* bits, size_t nbits, const tb_request& req);
    /*!
     * The same for a TB already laid out (frame_params_of()): its p.tbs
     * bits (0/1, not checked here) to p.G scrambled bits at \p out. For
     * a kernel, whose frames carry frame_params only.
     */
    void encode(const uint8_t* bits, const frame_params& p, uint8_t* out);

    //! The code blocks' bits before turbo coding (filler zeros, CRC24B
    //! attached): for tests and for the decoder's reference.
    static std::vector<std::vector<uint8_t>> code_blocks(const uint8_t* bits, const frame_params& p);

private:
    circular_order_cache d_orders;
};

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
