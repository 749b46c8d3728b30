/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/sch/sch_decoder_adapter.h"
#include "blocks/sch/sch_decoder_blocks.h"
#include "blocks/drivers/llr_staging.h"
#include "blocks/sch/sch_metadata.h"
#include "cuda/cuda_probe.h"
#include "lte/tables/tables.h"
#include "pipeline/backend.h"
#include "sch/sch_implementations.h"

#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpurx {

namespace sch = core::sch;

core::sch_config sch_decoder_args::config() const
{
    core::sch_config c;
    c.turbo.algorithm = core::turbo::parse_algorithm(algorithm);
    c.turbo.iterations = iterations;
    c.early_termination = early_termination;
    c.harq_buffers = harq_buffers;
    c.max_tbs = max_tbs;
    c.max_g = max_g;
    c.implementation = implementation;
    c.validate();
    return c;
}

soft_buffer_defaults sch_decoder_args::soft_defaults() const
{
    if (ue_category < 0 || ue_category > 12)
        throw std::invalid_argument("ue_category=" + std::to_string(ue_category) +
                                    " is not in 0..12 (0: no soft-buffer limit)");
    if (tm < 1 || tm > 10)
        throw std::invalid_argument("tm=" + std::to_string(tm) + " is not in 1..10");
    soft_buffer_defaults d;
    if (ue_category == 0)
        return d;
    // 36.212 5.1.4.1.2 limits N_cb on the DL-SCH only (N_cb = K_w on the
    // UL-SCH): a category there would be ignored silently, so refuse it.
    if (core::sch::parse_channel(channel) != core::sch::DLSCH)
        throw std::invalid_argument("ue_category=" + std::to_string(ue_category) + " with channel=\"" + channel +
                                    "\": the uplink has no soft-buffer limit; use ue_category=0");
    const auto c = core::lte::soft_buffer_of(ue_category, tm);
    d.n_soft = c.n_soft;
    d.kc = c.kc;
    d.k_mimo = c.k_mimo;
    return d;
}

sch_decoder_adapter sch_decoder_args::adapter(deployment, const pipeline_options& options) const
{
    const auto cfg = config();
    const auto soft = soft_defaults();
    check_sch_devices(options, cfg);
    return sch_decoder_adapter(cfg, core::sch::parse_channel(channel), parse_sch_input(input), soft);
}

core::turbo::input_kind parse_sch_input(const std::string& input)
{
    if (input == "float" || input == "soft")
        return core::turbo::INPUT_FLOAT32;
    if (input == "int8")
        return core::turbo::INPUT_INT8;
    throw std::invalid_argument("input=\"" + input +
                                "\": must be \"float\" (float32 LLRs) or \"int8\" (LLR x 8 in a char)");
}

void check_sch_devices(const pipeline_options& o, const core::sch_config& cfg)
{
    const auto b = core::select_backend(o.backend, o.devices);
    const bool cuda = b.kind == core::backend_kind::cuda;
    if (cuda && b.devices.size() > 1)
        throw std::invalid_argument("devices=\"" + o.devices +
                                    "\": the shared-channel decoder keeps its HARQ soft buffers on "
                                    "one GPU; name one device");
    // The soft buffers are allocated whole when the block starts: refuse
    // what cannot fit now, naming harq_buffers, rather than fail later
    // naming the staging. At most half the memory, as the staging's check.
    const size_t need = size_t(cfg.harq_buffers) * cfg.soft_buffer_llrs() * sizeof(int16_t);
    size_t have = 0;
    if (cuda) {
        const auto& p = core::probe_cuda();
        const int d = b.devices.empty() ? 0 : b.devices.front();
        have = d < int(p.devices.size()) ? p.devices[size_t(d)].total_mem : 0;
    } else {
        have = core::host_memory_bytes();
    }
    if (have && need > have / 2)
        throw std::invalid_argument("harq_buffers=" + std::to_string(cfg.harq_buffers) + " needs " + core::gib(need) +
                                    " of " + (cuda ? "GPU" : "host") + " memory for soft buffers of max_tbs=" +
                                    std::to_string(cfg.max_tbs) + " (" + std::to_string(cfg.soft_buffer_llrs()) +
                                    " int16 LLRs each); this machine has " + core::gib(have) +
                                    ": lower harq_buffers or max_tbs");
}

sch_decoder_adapter::sch_decoder_adapter(const core::sch_config& cfg,
                                         sch::channel_kind channel,
                                         core::turbo::input_kind input,
                                         const soft_buffer_defaults& soft)
    : d_cfg(cfg), d_channel(channel), d_input(input), d_soft(soft),
      d_harq(std::make_unique<sch_harq_admission>(cfg.harq_buffers))
{
    d_cfg.validate();
    d_choice = core::sch_registry().choose(d_cfg);
}

core::frame_types sch_decoder_adapter::types() const { return sch::frame_types_of(); }

core::kernel_factories sch_decoder_adapter::kernels() const
{
    return core::sch_registry().factories(d_cfg, d_choice);
}

std::string soft_buffer_report(const core::sch_config& cfg, const std::string& backend)
{
    const size_t bytes = size_t(cfg.harq_buffers) * cfg.soft_buffer_llrs() * sizeof(int16_t);
    if (cfg.harq_buffers == 0)
        return "HARQ soft buffers: none (harq_buffers=0): every transmission is decoded alone";
    return "HARQ soft buffers: " + std::to_string(cfg.harq_buffers) + " x " +
           std::to_string(cfg.soft_buffer_llrs()) + " int16 LLRs (" +
           std::to_string(cfg.max_code_blocks()) + " code blocks of max_tbs=" +
           std::to_string(cfg.max_tbs) + ") x 2 bytes = " + std::to_string(bytes) + " bytes of " +
           (backend == "cuda" ? "device memory on the GPU" : "host memory (CPU backend)");
}

bool sch_decoder_adapter::shape(uint64_t, frame_shape&, std::string& why) const
{
    why = "a transport block needs its metadata (tbs, rv, qm, ...), not only its length";
    return false;
}

bool sch_decoder_adapter::shape_frame(uint64_t n, const pmt::pmt_t& meta, frame_shape& out, std::string& why) const
{
    if (n > max_in_items()) {
        why = "G=" + std::to_string(n) + " LLRs: more than max_g=" + std::to_string(d_cfg.max_g);
        return false;
    }
    sch::tb_request req;
    if (!tb_request_of(meta, d_channel, (long long)n, req, why, d_soft))
        return false;
    if (req.tbs > d_cfg.max_tbs) {
        why = "tbs=" + std::to_string(req.tbs) + ": more than max_tbs=" + std::to_string(d_cfg.max_tbs) +
              " (the soft buffers' size)";
        return false;
    }
    sch::frame_params p;
    try {
        p = sch::frame_params_of(req);
    } catch (const std::invalid_argument& e) {
        why = e.what();
        return false;
    }
    p.input = d_input;
    out.set_params(p);
    out.set_note(sch::harq_request_of(req));
    out.in_items = n;
    out.out_bytes = size_t(req.tbs);
    return true;
}

bool sch_decoder_adapter::stage(const frame_shape&,
                                const uint8_t* src,
                                size_t first,
                                size_t n,
                                uint8_t* dst,
                                std::string& why) const
{
    if (d_input == core::turbo::INPUT_INT8) {
        std::memcpy(dst, src, n); // every int8 is an LLR (-128 acts as -127)
        return true;
    }
    return stage_llrs(src, first, n, dst, why);
}

void sch_decoder_adapter::describe(const core::completed_frame& f, frame_meta& meta) const
{
    const auto* r = f.result_as<sch::frame_result>();
    if (!r)
        return;
    std::vector<uint8_t> cb(size_t(r->C));
    for (int i = 0; i < r->C; i++)
        cb[size_t(i)] = uint8_t((r->cb_crc >> i) & 1u);
    meta.emplace_back(pmt::mp("crc_ok"), pmt::from_bool(r->crc_ok == 1));
    meta.emplace_back(pmt::mp("cb_crc"), pmt::init_u8vector(cb.size(), cb));
    meta.emplace_back(pmt::mp("iterations"), pmt::from_long(r->iterations));
    // Too few soft values to decode (dead input, a retransmission without
    // systematic bits decoded alone): crc_ok is false whatever the CRC
    // said, and this says why.
    if (r->uninformed)
        meta.emplace_back(pmt::mp("no_information"), pmt::from_long(r->uninformed));
}

bool sch_decoder_adapter::pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const
{
    return pdu_llr_items(vec, d_input == core::turbo::INPUT_INT8, items, n, why);
}

pmt::pmt_t sch_decoder_adapter::pdu_output(const core::completed_frame& f) const
{
    return pmt::init_u8vector(f.out_bytes, f.data);
}

} // namespace gpurx
} // namespace gr
