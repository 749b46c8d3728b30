/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.viterbi_decoder: the Viterbi family on the shared stream driver.
#include "blocks/drivers/driver_blocks.h"
#include "blocks/viterbi/viterbi_adapter.h"
#include <gnuradio/gpurx/viterbi_decoder.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace gr {
namespace gpurx {

namespace {

// Bytes of the GNU Radio stream buffer for items of \p item bytes: its
// double-mapped buffers hold whole pages of whole items, at least two items
// (a 134217776-byte item, 2^27 + 48, takes 256 of them: 34 GB).
double gr_buffer_bytes(size_t item)
{
    const size_t page = 4096;
    const size_t per = page / std::gcd(item, page);
    return double(item) * double(std::max<size_t>(2, per));
}

double host_memory_bytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? double(pages) * double(page) : 0.0;
}

// The stream form carries a frame as one vector item in and one out: a long
// frame makes GNU Radio's buffers for them larger than the machine (tb.start()
// then fails in GNU Radio). Checked before the pipeline options, so the error
// names what to change.
void check_stream_frame_bits(int frame_bits, size_t in_item, size_t out_item)
{
    const double need = gr_buffer_bytes(in_item) + gr_buffer_bytes(out_item);
    const double host = host_memory_bytes();
    if (host > 0 && need > host) {
        char s[400];
        std::snprintf(s, sizeof s,
                      "frame_bits=%d makes stream vectors of %zu bytes in and %zu out; GNU Radio's "
                      "buffers for them would take %.1f GiB (a buffer holds whole pages of whole "
                      "items), more than this machine's %.1f GiB: use a smaller frame_bits, or "
                      "viterbi_decoder_tagged or viterbi_decoder_pdu, which take a frame as a "
                      "stream or PDU of single values",
                      frame_bits, in_item, out_item, need / double(1ull << 30),
                      host / double(1ull << 30));
        throw std::invalid_argument(s);
    }
}

} // namespace

viterbi_decoder::sptr viterbi_decoder::make(int frame_bits,
                                            int K,
                                            const std::vector<int>& polys,
                                            const std::string& termination,
                                            int chunk,
                                            const std::vector<int>& puncture,
                                            const std::string& input,
                                            bool gr_fec_order,
                                            const pipeline_options& options)
{
    const auto cfg = make_viterbi_config(K, polys, termination, chunk, puncture, gr_fec_order);
    cfg.code().check_frame_bits(frame_bits); // throws, naming frame_bits
    viterbi_adapter a(cfg, parse_viterbi_input(input), frame_bits);
    const size_t items = a.items_for(frame_bits);
    check_stream_frame_bits(frame_bits, items * a.in_item_bytes(), size_t(frame_bits));
    return gnuradio::make_block_sptr<stream_block<viterbi_decoder, viterbi_adapter>>(
        "viterbi_decoder", std::move(a), items, options);
}

} // namespace gpurx
} // namespace gr
