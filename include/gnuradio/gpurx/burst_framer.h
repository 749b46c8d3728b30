/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_BURST_FRAMER_H
#define INCLUDED_GPURX_BURST_FRAMER_H

#include <gnuradio/gpurx/api.h>
#include <gnuradio/tagged_stream_block.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief The packet link's transmitter framing: a codeword's bits to the
 * symbols of one burst (docs/radio-link.md).
 * \ingroup gpurx
 *
 * In: a tagged stream of bits (uint8 0/1), one packet per codeword, G bits
 * long with G a multiple of the modulation's bits per symbol. Out: the
 * burst's complex symbols, a packet of guard, preamble (a Zadoff-Chu
 * sequence repeated 4 times), pilot blocks and the QAM data symbols (36.211
 * mapping, unit average energy), then \p gap_symbols zeros. A packet of the
 * wrong length is dropped with a warning.
 */
class GPURX_API burst_framer : virtual public gr::tagged_stream_block
{
public:
    typedef std::shared_ptr<burst_framer> sptr;
    /*!
     * \param modulation "qpsk", "16qam", "64qam" or "256qam"
     * \param data_symbols data symbols per burst (G / bits per symbol), 1..1048576
     * \param gap_symbols zero symbols after each burst, 0..1048576
     * \param len_tag_key the packet length tag
     */
    static sptr make(const std::string& modulation = "qpsk",
                     int data_symbols = 1048,
                     int gap_symbols = 0,
                     const std::string& len_tag_key = "packet_len");
    //! Symbols per burst, gap included.
    virtual int burst_symbols() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
