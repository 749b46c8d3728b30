/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/lte/lte_dl_params.h"
#include "lte/common/lte_cell.h"

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace gr {
namespace gpurx {

namespace {
std::string trimmed(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
        return "";
    const auto e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}
} // namespace

void parse_rnti_list(const std::string& rnti, bool& every_ue, std::vector<int>& rntis)
{
    rntis.clear();
    const std::string all = trimmed(rnti);
    if (all == "all") {
        every_ue = true;
        return;
    }
    every_ue = false;
    size_t pos = 0;
    for (;;) {
        const size_t comma = all.find(',', pos);
        const std::string s = trimmed(all.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
        char* end = nullptr;
        errno = 0;
        const long r = s.empty() ? 0 : std::strtol(s.c_str(), &end, 0);
        if (s.empty() || errno != 0 || *end != '\0' || r < 1 || r > 0xFFFF)
            throw std::invalid_argument("rnti=\"" + rnti + "\": \"" + s +
                                        "\" is not an RNTI 1..65535 (decimal or 0x-hex); give \"all\" or a comma list");
        rntis.push_back(int(r));
        if (comma == std::string::npos)
            break;
        pos = comma + 1;
    }
}

core::lte::downlink_options lte_dl_options_of(const lte_dl_decoder_params& p)
{
    core::lte::downlink_options o;
    if (p.n_rx != 1 && p.n_rx != 2)
        throw std::invalid_argument("n_rx=" + std::to_string(p.n_rx) + " is not 1 or 2");
    o.n_rx = p.n_rx;
    const int fft = core::lte::fft_size_of_rate(p.sample_rate);
    if (fft == 0 || fft % 128 != 0)
        throw std::invalid_argument("sample_rate=" + std::to_string(p.sample_rate) +
                                    " is not a standard LTE rate (1.92e6, 3.84e6, 7.68e6, 15.36e6, 23.04e6, 30.72e6)");
    o.sample_rate = p.sample_rate;
    parse_rnti_list(p.rnti, o.every_ue, o.rntis);
    if (p.backend != "auto" && p.backend != "cpu" && p.backend != "cuda")
        throw std::invalid_argument("backend=\"" + p.backend + "\" is not auto, cpu or cuda");
    o.dlsch.backend = p.backend;
    if (trimmed(p.devices).empty())
        throw std::invalid_argument("devices=\"" + p.devices + "\" is empty (\"0\", \"0,1\" or \"all\")");
    o.dlsch.devices = p.devices;
    if (p.ue_category < 0 || p.ue_category > 12)
        throw std::invalid_argument("ue_category=" + std::to_string(p.ue_category) + " is outside 0..12");
    o.dlsch.ue_category = p.ue_category;
    try {
        o.detector = core::mimo::parse_algorithm(p.detector == "one_pass" ? "one-pass" : p.detector);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("detector=\"" + p.detector + "\": " + e.what());
    }
    if (p.tm < 0 || p.tm > 7)
        throw std::invalid_argument("tm=" + std::to_string(p.tm) + " is outside 0..7 (0: not known)");
    o.tm = p.tm;
    o.validate();
    return o;
}

} // namespace gpurx
} // namespace gr
