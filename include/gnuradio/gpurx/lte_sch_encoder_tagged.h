/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_SCH_ENCODER_TAGGED_H
#define INCLUDED_GPURX_LTE_SCH_ENCODER_TAGGED_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief LTE DL-SCH / UL-SCH transport-block encoder on a tagged stream,
 * on the CPU: lte_sch_encoder_pdu's encoder, one packet per TB.
 * \ingroup gpurx
 *
 * In: a byte stream of TB bits (0/1) cut into packets by \p len_tag_key
 * tags (the length is tbs); the TB's parameters are tags on the packet's
 * first item, named as lte_sch_encoder_pdu's metadata keys ("g" included).
 * Out: the G scrambled codeword bits (0/1) as a packet tagged \p
 * len_tag_key = G and with the input packet's other tags, so that
 * lte_sch_decoder_tagged takes them as they are. Malformed packets are
 * dropped and reported on "errors" (a dict with "reason", "offset" and
 * "length"); the stream goes on.
 */
class GPURX_API lte_sch_encoder_tagged : virtual public gr::block
{
public:
    typedef std::shared_ptr<lte_sch_encoder_tagged> sptr;
    /*!
     * \param channel "dlsch" or "ulsch"
     * \param len_tag_key the packet length tag
     * \param max_tbs the largest TB accepted, 1..391656
     * \param max_g the largest G accepted, 8..2097152
     */
    static sptr make(const std::string& channel = "dlsch",
                     const std::string& len_tag_key = "packet_len",
                     int max_tbs = 97896,
                     int max_g = 262144);
    //! "cpu": the encoder runs on the CPU.
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
