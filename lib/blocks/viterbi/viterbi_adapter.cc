/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/viterbi/viterbi_adapter.h"
#include "blocks/drivers/llr_staging.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>

namespace gr {
namespace gpurx {

core::viterbi_config make_viterbi_config(int K,
                                         const std::vector<int>& polys,
                                         const std::string& termination,
                                         int chunk,
                                         const std::vector<int>& puncture,
                                         bool gr_fec_order)
{
    core::viterbi_config c;
    c.K = K;
    c.polynomials.clear();
    for (int p : polys) {
        if (p < 0)
            throw std::invalid_argument("polys must be non-negative, got " + std::to_string(p));
        c.polynomials.push_back(unsigned(p));
    }
    c.termination = core::viterbi::parse_termination(termination);
    c.chunk = chunk;
    c.puncture = puncture;
    c.gr_fec_order = gr_fec_order;
    try {
        c.validate();
    } catch (const std::invalid_argument& e) {
        // The core says "polynomials"; the block's parameter is "polys".
        std::string m = e.what();
        for (size_t p = m.find("polynomials"); p != std::string::npos; p = m.find("polynomials", p))
            m.replace(p, 11, "polys");
        throw std::invalid_argument(m);
    }
    return c;
}

core::viterbi::input_kind parse_viterbi_input(const std::string& input)
{
    if (input == "soft")
        return core::viterbi::INPUT_SOFT;
    if (input == "hard")
        return core::viterbi::INPUT_HARD;
    if (input == "int8")
        return core::viterbi::INPUT_INT8;
    throw std::invalid_argument("input must be \"soft\", \"int8\" or \"hard\", got \"" + input + "\"");
}

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

viterbi_adapter viterbi_decoder_args::adapter(deployment d, const pipeline_options&) const
{
    const auto cfg = make_viterbi_config(K, polys, termination, chunk, puncture, gr_fec_order);
    if (d == deployment::stream) {
        cfg.code().check_frame_bits(frame_bits); // throws, naming frame_bits
        return viterbi_adapter(cfg, parse_viterbi_input(input), frame_bits);
    }
    return viterbi_adapter(cfg, parse_viterbi_input(input), max_frame_bits);
}

size_t viterbi_decoder_args::stream_items(const viterbi_adapter& a) const
{
    const size_t items = a.items_for(frame_bits);
    check_stream_frame_bits(frame_bits, items * a.in_item_bytes(), size_t(frame_bits));
    return items;
}

viterbi_adapter::viterbi_adapter(const core::viterbi_config& cfg,
                                 core::viterbi::input_kind input,
                                 int max_frame_bits)
    : d_cfg(cfg), d_code(cfg.code()), d_input(input), d_max_frame_bits(max_frame_bits)
{
    d_cfg.max_frame_bits = max_frame_bits;
    if (max_frame_bits < d_code.min_frame_bits() || max_frame_bits > core::viterbi_code::max_frame_bits)
        throw std::invalid_argument("max_frame_bits must be in " + std::to_string(d_code.min_frame_bits()) +
                                    ".." + std::to_string(core::viterbi_code::max_frame_bits) +
                                    " for this code, got " + std::to_string(max_frame_bits));
    d_choice = core::choose_viterbi_implementation(d_cfg);
}

core::kernel_factories viterbi_adapter::kernels() const
{
    return core::viterbi_kernel_factories(d_cfg, d_choice);
}

size_t viterbi_adapter::in_item_bytes() const
{
    return d_input == core::viterbi::INPUT_SOFT ? sizeof(float) : 1;
}

size_t viterbi_adapter::max_in_items() const { return d_code.coded_bits(d_max_frame_bits); }

bool viterbi_adapter::shape(uint64_t n, frame_shape& out, std::string& why) const
{
    // coded_bits() is non-decreasing in frame_bits: invert it by bisection
    // (the smallest frame_bits whose coded length reaches n, if it is n).
    long lo = d_code.min_frame_bits(), hi = d_max_frame_bits;
    while (lo < hi) {
        const long mid = lo + (hi - lo) / 2;
        if (d_code.coded_bits(int(mid)) < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (d_code.coded_bits(int(lo)) == n) {
        out.set_params(core::viterbi::frame_params{ int32_t(lo), d_input });
        out.in_items = n;
        out.out_bytes = size_t(lo);
        return true;
    }
    why = "length " + std::to_string(n) + " is the coded length of no frame of " +
          std::to_string(d_code.min_frame_bits()) + ".." + std::to_string(d_max_frame_bits) +
          " bits for this code (frame_bits=" + std::to_string(d_code.min_frame_bits()) + " takes " +
          std::to_string(d_code.coded_bits(d_code.min_frame_bits())) + " items)";
    return false;
}

bool viterbi_adapter::stage(const frame_shape&,
                            const uint8_t* src,
                            size_t first,
                            size_t n,
                            uint8_t* dst,
                            std::string& why) const
{
    if (d_input != core::viterbi::INPUT_SOFT) { // bytes: hard bits or int8 LLRs
        std::memcpy(dst, src, n);
        return true;
    }
    return stage_llrs(src, first, n, dst, why);
}

void viterbi_adapter::describe(const core::completed_frame& f, frame_meta& meta) const
{
    const auto* r = f.result_as<core::viterbi::frame_result>();
    meta.emplace_back(pmt::mp("frame_bits"), pmt::from_long(long(f.out_bytes)));
    meta.emplace_back(pmt::mp("metric"), pmt::from_double(r->metric));
}

bool viterbi_adapter::pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const
{
    if (d_input == core::viterbi::INPUT_SOFT) {
        if (!pmt::is_f32vector(vec)) {
            why = "not a PDU of float32 LLRs";
            return false;
        }
        items = reinterpret_cast<const uint8_t*>(pmt::f32vector_elements(vec, n));
        return true;
    }
    if (d_input == core::viterbi::INPUT_INT8) {
        if (!pmt::is_s8vector(vec)) {
            why = "not a PDU of int8 LLRs";
            return false;
        }
        items = reinterpret_cast<const uint8_t*>(pmt::s8vector_elements(vec, n));
        return true;
    }
    if (!pmt::is_u8vector(vec)) {
        why = "not a PDU of u8 hard bits";
        return false;
    }
    items = pmt::u8vector_elements(vec, n);
    return true;
}

pmt::pmt_t viterbi_adapter::pdu_output(const core::completed_frame& f) const
{
    return pmt::init_u8vector(f.out_bytes, f.data);
}

} // namespace gpurx
} // namespace gr
