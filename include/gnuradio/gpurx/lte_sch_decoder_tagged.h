/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_SCH_DECODER_TAGGED_H
#define INCLUDED_GPURX_LTE_SCH_DECODER_TAGGED_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <gnuradio/gpurx/pipeline_options.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief LTE DL-SCH / UL-SCH transport-block decoder on a tagged stream:
 * lte_sch_decoder_pdu's decoder, one packet per transport block.
 * \ingroup gpurx
 *
 * In: a stream of LLRs (float, or int8 with input "int8": L = value / 8),
 * L = ln P(b=1)/P(b=0), positive for bit 1, cut into packets by \p
 * len_tag_key tags; a packet is one TB's G LLRs in transmission order,
 * still scrambled. Its parameters are tags on its first item, named as
 * lte_sch_decoder_pdu's metadata keys (tbs, rv, qm, rnti, cell_id,
 * subframe, harq_process, ndi; codeword, nl, n_soft, kc, k_mimo,
 * m_dl_harq, m_limit; n_symb; harq_reset), with the same defaults and HARQ
 * semantics.
 *
 * Out: the TB's tbs bits (uint8 0/1) as a packet tagged \p len_tag_key =
 * tbs, the input packet's tags (the length tag excepted), "crc_ok",
 * "cb_crc", "iterations" and "transmissions". A TB failing its CRC still
 * leaves, flagged. A packet with bad tags or NaN/Inf LLRs is dropped and
 * reported on "errors" (a dict with "reason", "offset" and "length"),
 * as every malformed packet of the tagged blocks is; the stream goes on.
 */
class GPURX_API lte_sch_decoder_tagged : virtual public gr::block
{
public:
    typedef std::shared_ptr<lte_sch_decoder_tagged> sptr;
    /*!
     * Parameters as lte_sch_decoder_pdu's, and
     * \param len_tag_key the packet length tag
     */
    static sptr make(const std::string& channel = "dlsch",
                     int iterations = 6,
                     const std::string& algorithm = "scaled-max-log-map",
                     const std::string& input = "float",
                     int harq_buffers = 16,
                     bool early_termination = true,
                     int max_tbs = 97896,
                     int max_g = 262144,
                     const std::string& implementation = "auto",
                     const std::string& len_tag_key = "packet_len",
                     const pipeline_options& options = pipeline_options());
    //! "cuda" or "cpu": the backend this block runs on.
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
