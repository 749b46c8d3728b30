/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/sch/sch_metadata.h"
#include "blocks/drivers/tagged_driver.h" // pmt_description

#include <climits>

namespace gr {
namespace gpurx {

namespace {

enum class need { required, optional };

//! meta[key] as an int into \p out; false with why when it is there but
//! not an integer that fits, or missing while required.
bool int_key(const pmt::pmt_t& meta, const char* key, need n, long long& out, std::string& why)
{
    const pmt::pmt_t k = pmt::mp(key);
    if (!pmt::dict_has_key(meta, k)) {
        if (n == need::optional)
            return true;
        why = std::string("metadata has no \"") + key + "\" (required)";
        return false;
    }
    const pmt::pmt_t v = pmt::dict_ref(meta, k, pmt::PMT_NIL);
    if (pmt::is_integer(v)) {
        out = pmt::to_long(v);
    } else if (pmt::is_uint64(v) && pmt::to_uint64(v) <= uint64_t(LLONG_MAX)) {
        out = (long long)pmt::to_uint64(v);
    } else if (pmt::is_bool(v) && (std::string(key) == "ndi" || std::string(key) == "harq_reset")) {
        out = pmt::to_bool(v) ? 1 : 0;
    } else {
        why = std::string("metadata \"") + key + "\" is " + pmt_description(v) + ", not an integer";
        return false;
    }
    // n_soft is a long in tb_request; the others are ints.
    const long long hi = std::string(key) == "n_soft" ? LONG_MAX : INT_MAX;
    if (out < INT_MIN || out > hi) {
        why = std::string(key) + "=" + std::to_string(out) + ": out of range";
        return false;
    }
    return true;
}

} // namespace

bool tb_request_of(const pmt::pmt_t& meta,
                   core::sch::channel_kind channel,
                   long long g_items,
                   core::sch::tb_request& req,
                   std::string& why,
                   const soft_buffer_defaults& soft)
{
    if (!pmt::is_dict(meta)) {
        why = "metadata is " + pmt_description(meta) + ", not a dict";
        return false;
    }
    req = core::sch::tb_request{};
    req.channel = channel;
    req.kc = soft.kc;
    req.k_mimo = soft.k_mimo;
    long long v;
    struct field {
        const char* key;
        need n;
        int* to;
    };
    const field fields[] = {
        { "tbs", need::required, &req.tbs },
        { "rv", need::required, &req.rv },
        { "qm", need::required, &req.qm },
        { "rnti", need::required, &req.rnti },
        { "cell_id", need::required, &req.cell_id },
        { "subframe", need::required, &req.subframe },
        { "harq_process", need::required, &req.harq_process },
        { "ndi", need::required, &req.ndi },
        { "codeword", need::optional, &req.codeword },
        { "tb", need::optional, &req.tb_index },
        { "nl", need::optional, &req.nl },
        { "kc", need::optional, &req.kc },
        { "k_mimo", need::optional, &req.k_mimo },
        { "m_dl_harq", need::optional, &req.m_dl_harq },
        { "m_limit", need::optional, &req.m_limit },
        { "n_symb", need::optional, &req.n_symb },
    };
    for (const auto& f : fields) {
        v = *f.to; // the default, kept when an optional key is absent
        if (!int_key(meta, f.key, f.n, v, why))
            return false;
        *f.to = int(v);
    }
    v = 0;
    if (!int_key(meta, "harq_reset", need::optional, v, why))
        return false;
    if (v != 0 && v != 1) {
        why = "harq_reset=" + std::to_string(v) + ": must be 0 or 1 (or a bool)";
        return false;
    }
    req.harq_reset = v == 1;
    v = soft.n_soft;
    if (!int_key(meta, "n_soft", need::optional, v, why))
        return false;
    req.n_soft = long(v);
    // Not in tb_request::check(): they only key the HARQ buffer.
    if (req.harq_process < 0 || req.harq_process > 15) {
        why = "harq_process=" + std::to_string(req.harq_process) + ": must be in 0..15";
        return false;
    }
    if (req.tb_index != -1 && req.tb_index != 0 && req.tb_index != 1) {
        why = "tb=" + std::to_string(req.tb_index) + ": must be 0 or 1 (the transport block's index in its DCI)";
        return false;
    }
    if (req.ndi != 0 && req.ndi != 1) {
        why = "ndi=" + std::to_string(req.ndi) + ": must be 0 or 1";
        return false;
    }
    long long g = -1;
    if (!int_key(meta, "g", g_items < 0 ? need::required : need::optional, g, why))
        return false;
    const bool g_given = pmt::dict_has_key(meta, pmt::mp("g"));
    if (g_given && g < 1) {
        why = "g=" + std::to_string(g) + ": must be >= 1";
        return false;
    }
    if (g_items >= 0) {
        if (g_given && g != g_items) {
            why = "g=" + std::to_string(g) + " in the metadata, but the frame holds " +
                  std::to_string(g_items) + " LLRs (G is the frame's length)";
            return false;
        }
        g = g_items;
    }
    req.g = int(g);
    why = req.check();
    return why.empty();
}

} // namespace gpurx
} // namespace gr
