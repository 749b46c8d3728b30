/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/mimo/mimo_adapter.h"
#include "blocks/mimo/bounded_copy.h"
#include "blocks/drivers/llr_staging.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gr {
namespace gpurx {

namespace {
using core::mimo::frame_params;

// The core names its fields; the block's parameters are spelled differently.
std::string block_names(std::string m)
{
    const std::pair<const char*, const char*> renames[] = { { "noise_variance", "noise_var" } };
    for (const auto& r : renames) {
        const size_t len = std::strlen(r.first);
        for (size_t p = m.find(r.first); p != std::string::npos; p = m.find(r.first, p + len))
            m.replace(p, len, r.second);
    }
    return m;
}

// Why a value copy_bounded() refused is refused.
std::string value_text(float v, double limit, float n0)
{
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "+Inf" : "-Inf";
    char s[160];
    std::snprintf(s, sizeof s,
                  "%g: at N0 = %g, parts of H and y beyond +-%.3g would take the LLRs out of "
                  "float's range (scale H and y down, or N0 up)",
                  double(v), double(n0), limit);
    return s;
}
} // namespace

core::mimo_config make_mimo_config(int nt,
                                   int nr,
                                   const std::string& modulation,
                                   const std::string& algorithm,
                                   int k,
                                   float clip,
                                   float noise_var,
                                   bool sorted_qr,
                                   bool apriori,
                                   const std::string& output,
                                   const std::string& implementation,
                                   const std::string& llr_type)
{
    core::mimo_config c;
    c.nt = nt;
    c.nr = nr;
    c.modulation = core::qam::parse_modulation(modulation);
    c.algorithm = core::mimo::parse_algorithm(algorithm);
    c.k = k;
    c.clip = clip;
    c.noise_variance = noise_var;
    c.sorted_qr = sorted_qr;
    c.apriori = apriori;
    c.output = core::mimo::parse_llr_output(output);
    c.llr_type = core::mimo::parse_llr_type(llr_type);
    c.implementation = implementation;
    try {
        c.validate();
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(block_names(e.what()));
    }
    return c;
}

mimo_adapter::mimo_adapter(const core::mimo_config& cfg, int max_vectors, bool noise_input)
    : d_cfg(cfg), d_max_vectors(max_vectors), d_noise_input(noise_input)
{
    if (max_vectors < 1 || max_vectors > mimo_max_vectors)
        throw std::invalid_argument("max_vectors must be in 1.." + std::to_string(mimo_max_vectors) +
                                    ", got " + std::to_string(max_vectors));
    d_choice = core::choose_mimo_implementation(d_cfg); // throws naming implementation
    try {
        d_cfg.validate(); // a named implementation may have fixed the algorithm
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(block_names(e.what()));
    }
}

core::kernel_factories mimo_adapter::kernels() const
{
    return core::mimo_kernel_factories(d_cfg, d_choice);
}

size_t mimo_adapter::apriori_items_per_vector() const
{
    // nt * bps is even (bps is), so a vector's LLRs fill whole complex items.
    return d_cfg.apriori ? size_t(d_cfg.llrs_per_vector()) / 2 : 0;
}

size_t mimo_adapter::items_for(int vectors) const
{
    return h_items() + size_t(vectors) * (size_t(d_cfg.nr) + apriori_items_per_vector());
}

size_t mimo_adapter::max_out_bytes() const
{
    return size_t(d_max_vectors) * d_cfg.llrs_per_vector() * out_item_bytes();
}

bool mimo_adapter::shape(uint64_t n, frame_shape& out, std::string& why) const
{
    const uint64_t per = d_cfg.nr + apriori_items_per_vector();
    const uint64_t h = h_items();
    if (n > h && (n - h) % per == 0 && (n - h) / per <= uint64_t(d_max_vectors)) {
        const int vectors = int((n - h) / per);
        const frame_params p = core::mimo::frame_params_for(d_cfg, vectors);
        out.set_params(p);
        out.in_items = n;
        out.out_bytes = core::mimo::frame_out_bytes(p, d_cfg.llr_type);
        return true;
    }
    why = "length " + std::to_string(n) + " is not " + std::to_string(h) + " (H, " +
          std::to_string(d_cfg.nr) + "x" + std::to_string(d_cfg.nt) + ") + vectors x " +
          std::to_string(per) + " complex items for 1.." + std::to_string(d_max_vectors) + " vectors";
    return false;
}

bool mimo_adapter::stage(const frame_shape& shape,
                         const uint8_t* src,
                         size_t first,
                         size_t n,
                         uint8_t* dst,
                         std::string& why) const
{
    // The packet is the frame's input area byte for byte; check each region
    // of items [first, first + n) and clamp the a-priori LLRs.
    frame_params p;
    std::memcpy(&p, shape.params.data(), sizeof p);
    const size_t y_end = h_items() + size_t(p.vectors) * p.nr;
    const auto* s = reinterpret_cast<const float*>(src);
    auto* d = reinterpret_cast<float*>(dst);
    // H and y are bounded as well as finite: the metrics |y - H s|^2 / N0
    // must stay within float's range on either backend.
    const double limit = core::mimo::max_input_component(p);
    size_t i = first;
    const size_t end = first + n;
    while (i < end) {
        const size_t off = 2 * (i - first);
        if (i < h_items()) {
            const size_t m = std::min(end, h_items()) - i;
            const size_t bad = copy_bounded(s + off, 2 * m, limit, d + off);
            if (bad < 2 * m) {
                const size_t e = i + bad / 2;
                why = "H[" + std::to_string(e / p.nt) + "][" + std::to_string(e % p.nt) + "] is " +
                      value_text(s[off + bad], limit, p.n0);
                return false;
            }
            i += m;
        } else if (i < y_end) {
            const size_t m = std::min(end, y_end) - i;
            const size_t bad = copy_bounded(s + off, 2 * m, limit, d + off);
            if (bad < 2 * m) {
                const size_t e = i + bad / 2 - h_items();
                why = "received vector " + std::to_string(e / p.nr) + " of the frame, entry " +
                      std::to_string(e % p.nr) + ", is " + value_text(s[off + bad], limit, p.n0);
                return false;
            }
            i += m;
        } else {
            const size_t m = end - i;
            if (!stage_finite_llrs(s + off, 2 * m, d + off)) {
                why = "an a-priori LLR is NaN or Inf";
                return false;
            }
            i += m;
        }
    }
    return true;
}

stream_layout mimo_adapter::stream_ports(const frame_shape& shape) const
{
    frame_params p;
    std::memcpy(&p, shape.params.data(), sizeof p);
    const size_t v = size_t(p.vectors);
    stream_layout l;
    l.inputs.push_back({ size_t(d_cfg.nr) * 2 * sizeof(float), v });  // y
    l.inputs.push_back({ h_items() * 2 * sizeof(float), 1 });          // H
    if (d_cfg.apriori)
        l.inputs.push_back({ size_t(d_cfg.llrs_per_vector()) * sizeof(float), v });
    if (d_noise_input)
        l.inputs.push_back({ sizeof(float), 1 });
    l.out_items_per_frame = v;
    return l;
}

bool mimo_adapter::stream_frame(const uint8_t* const* ports, frame_shape& shape, std::string& why) const
{
    if (!d_noise_input)
        return true;
    float n0;
    std::memcpy(&n0, ports[d_cfg.apriori ? 3 : 2], sizeof n0);
    if (!(n0 >= core::mimo::min_noise_variance && n0 <= core::mimo::max_noise_variance)) {
        char v[32];
        std::snprintf(v, sizeof v, "%g", double(n0));
        why = std::string("noise_var input (N0 of this channel) must be in 1e-20..1e20 (beyond, "
                          "the LLRs would leave float's range), got ") + v;
        return false;
    }
    frame_params p;
    std::memcpy(&p, shape.params.data(), sizeof p);
    p.n0 = n0;
    shape.set_params(p);
    return true;
}

bool mimo_adapter::stage_stream(const frame_shape& shape,
                                const uint8_t* const* ports,
                                uint8_t* dst,
                                std::string& why) const
{
    // Frame order: H, the y vectors, the a-priori LLRs - ports 1, 0, 2.
    frame_params p;
    std::memcpy(&p, shape.params.data(), sizeof p);
    const size_t h_bytes = h_items() * 2 * sizeof(float);
    const size_t y_items = size_t(p.vectors) * p.nr;
    return stage(shape, ports[1], 0, h_items(), dst, why) &&
           stage(shape, ports[0], h_items(), y_items, dst + h_bytes, why) &&
           (!d_cfg.apriori ||
            stage(shape, ports[2], h_items() + y_items, size_t(p.vectors) * apriori_items_per_vector(),
                  dst + h_bytes + y_items * 2 * sizeof(float), why));
}

void mimo_adapter::describe(const core::completed_frame& f, frame_meta& meta) const
{
    const auto* r = f.result_as<core::mimo::frame_result>();
    if (!d_full_rank_tags && r->status == core::mimo::STATUS_OK && r->rank == d_cfg.nt)
        return;
    meta.emplace_back(pmt::mp("rank"), pmt::from_long(r->rank));
    if (r->status == core::mimo::STATUS_RANK_DEFICIENT)
        meta.emplace_back(pmt::mp("rank_deficient"), pmt::PMT_T);
    else if (r->status != core::mimo::STATUS_OK)
        // Staging refuses what the kernel would; kept so a disagreement shows.
        meta.emplace_back(pmt::mp("gpurx_error"),
                          pmt::mp("the detector refused the frame (status " + std::to_string(r->status) +
                                  "): its output is zeros"));
}

bool mimo_adapter::pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const
{
    if (!pmt::is_c32vector(vec)) {
        why = "not a PDU of complex float (c32vector) items: H, then the y vectors";
        return false;
    }
    items = reinterpret_cast<const uint8_t*>(pmt::c32vector_elements(vec, n));
    return true;
}

pmt::pmt_t mimo_adapter::pdu_output(const core::completed_frame& f) const
{
    if (d_cfg.llr_type == core::mimo::llr_format::int8)
        return pmt::init_s8vector(f.out_bytes, reinterpret_cast<const int8_t*>(f.data));
    return pmt::init_f32vector(f.out_bytes / sizeof(float), reinterpret_cast<const float*>(f.data));
}

} // namespace gpurx
} // namespace gr
