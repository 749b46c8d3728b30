/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_MIMO_OFDM_FRAMER_H
#define INCLUDED_GPURX_MIMO_OFDM_FRAMER_H

#include <gnuradio/gpurx/api.h>
#include <gnuradio/tagged_stream_block.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief The MIMO-OFDM link's transmitter framing (docs/mimo-ofdm.md): a
 * codeword's QAM symbols to one frame per transmit antenna.
 * \ingroup gpurx
 *
 * In: a tagged stream of complex QAM symbols, one packet of (used -
 * pilots) * nt * data_symbols per frame. Out: nt streams of samples, each frame a Schmidl
 * & Cox sync symbol (antenna 0), repeats * nt training symbols (Hadamard
 * cover across antennas) and the data symbols, each with a cyclic prefix,
 * then \p gap zero samples. Each data symbol carries \p pilots pilot
 * subcarriers (+-1 per symbol and antenna, evenly spread on both sides of
 * DC; core::ofdm::ofdm_pilot_layout) and data on the other used
 * subcarriers. Codeword symbol m goes to antenna m mod nt, as y vector
 * m / nt in mimo_ofdm_channel_estimator's order. A packet of the
 * wrong length is dropped with a warning.
 */
class GPURX_API mimo_ofdm_framer : virtual public gr::tagged_stream_block
{
public:
    typedef std::shared_ptr<mimo_ofdm_framer> sptr;
    /*!
     * \param nt transmit antennas: 1, 2, 4 or 8
     * \param fft_len power of two, 16..65536
     * \param cp_len cyclic prefix, 0..fft_len-1
     * \param used used subcarriers, a multiple of 4, 4..fft_len-2
     * \param repeats training repetitions, 2..16
     * \param data_symbols data OFDM symbols per frame, 1..4096
     * \param gap zero samples after each frame, 0..1048576
     * \param len_tag_key the packet length tag
     * \param pilots pilot subcarriers per data symbol, even, 0..used/2
     */
    static sptr make(int nt, int fft_len, int cp_len, int used, int repeats, int data_symbols, int gap = 0,
                     const std::string& len_tag_key = "packet_len", int pilots = 0);
    //! Samples per frame and antenna, gap included.
    virtual int frame_samples() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif
