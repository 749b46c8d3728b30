/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/tables/tables.h"
#include "lte/tables/tbs_table_data.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

[[noreturn]] void refuse(const char* param, long value, const char* why)
{
    throw std::invalid_argument(std::string(param) + "=" + std::to_string(value) + " " + why);
}

// Table 7.1.7.2.3-1.
const int format1c_tbs[32] = { 40,  56,  72,  120, 136, 144, 176, 208, 224, 256,  280,
                               296, 328, 336, 392, 488, 552, 600, 632, 696, 776,  840,
                               904, 1000, 1064, 1128, 1224, 1288, 1384, 1480, 1608, 1736 };

int translate(const tables::tbs_translation* t, int n, int l1, int itbs, int layers)
{
    const auto* end = t + n;
    const auto* it = std::lower_bound(t, end, l1, [](const tables::tbs_translation& e, int v) { return e.l1 < v; });
    if (it == end || it->l1 != l1)
        refuse("itbs", itbs,
               ("has a one-layer TBS (" + std::to_string(l1) + ") outside the " + std::to_string(layers) +
                "-layer translation table this library carries (Release 10, up to 75376)")
                   .c_str());
    return it->ln;
}

} // namespace

mcs_entry pdsch_mcs(int mcs, mcs_table table)
{
    if (mcs < 0 || mcs > 31)
        refuse("mcs", mcs, "is outside 0..31");
    if (table == mcs_table::qam64) {
        if (mcs <= 9)
            return { 2, mcs };
        if (mcs <= 16)
            return { 4, mcs - 1 };
        if (mcs <= 28)
            return { 6, mcs - 2 };
        return { 2 * (mcs - 28), -1 }; // 29, 30, 31: QPSK, 16-QAM, 64-QAM
    }
    // Table 7.1.7.1-1A.
    static const int itbs256[28] = { 0,  2,  4,  6,  8,  10, 11, 12, 13, 14, 15, 16, 17, 18,
                                     19, 20, 21, 22, 23, 24, 25, 27, 28, 29, 30, 31, 32, 33 };
    if (mcs <= 27) {
        const int qm = mcs <= 4 ? 2 : mcs <= 10 ? 4 : mcs <= 19 ? 6 : 8;
        return { qm, itbs256[mcs] };
    }
    return { 2 * (mcs - 27), -1 }; // 28..31: QPSK, 16-QAM, 64-QAM, 256-QAM
}

int tbs_of(int itbs, int n_prb, int layers)
{
    if (itbs < 0 || itbs > MAX_ITBS)
        refuse("itbs", itbs, "is outside 0..33");
    if (n_prb < 1 || n_prb > MAX_PRB)
        refuse("n_prb", n_prb, "is outside 1..110");
    if (layers < 1 || layers > 4)
        refuse("layers", layers, "is outside 1..4");
    const int direct_limit[5] = { 0, 110, 55, 36, 27 };
    if (n_prb <= direct_limit[layers])
        return tables::tbs_one_layer[itbs][layers * n_prb - 1];
    const int l1 = tables::tbs_one_layer[itbs][n_prb - 1];
    switch (layers) {
    case 2: return translate(tables::tbs_two_layers, tables::tbs_two_layers_count, l1, itbs, 2);
    case 3: return translate(tables::tbs_three_layers, tables::tbs_three_layers_count, l1, itbs, 3);
    default: return translate(tables::tbs_four_layers, tables::tbs_four_layers_count, l1, itbs, 4);
    }
}

int tbs_format1c(int itbs)
{
    if (itbs < 0 || itbs > 31)
        refuse("itbs", itbs, "is outside 0..31 (DCI format 1C)");
    return format1c_tbs[itbs];
}

soft_buffer_config soft_buffer_of(int category, int tm)
{
    // 36.306 Table 4.1-1 (Release 12), categories 1..12.
    static const long n_soft[13] = { 0,       250368,  1237248, 1237248, 1827072, 3667200, 3654144,
                                     3654144, 35982720, 5481216, 5481216, 7308288, 7308288 };
    if (category < 1 || category > 12)
        refuse("category", category, "is not a UE category 1..12");
    if (tm < 1 || tm > 10)
        refuse("tm", tm, "is not a transmission mode 1..10");
    soft_buffer_config c;
    c.n_soft = n_soft[category];
    c.kc = c.n_soft == 35982720 ? 5 : c.n_soft == 3654144 ? 2 : 1;
    c.k_mimo = (tm == 3 || tm == 4 || tm >= 8) ? 2 : 1;
    c.m_dl_harq = 8;
    c.m_limit = 8;
    return c;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
