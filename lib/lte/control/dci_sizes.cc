/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/control/dci_sizes.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

const char* dci_format_name(dci_format f)
{
    switch (f) {
    case dci_format::f0: return "0";
    case dci_format::f1: return "1";
    case dci_format::f1a: return "1A";
    case dci_format::f1b: return "1B";
    case dci_format::f1c: return "1C";
    case dci_format::f1d: return "1D";
    case dci_format::f2: return "2";
    case dci_format::f2a: return "2A";
    }
    return "?";
}

int riv_bits(int n)
{
    const long v = long(n) * (n + 1) / 2;
    int b = 0;
    while ((1L << b) < v)
        b++;
    return b;
}

bool is_ambiguous_dci_size(int bits)
{
    static const int sizes[] = { 12, 14, 16, 20, 24, 26, 32, 40, 44, 56 };
    for (int s : sizes)
        if (s == bits)
            return true;
    return false;
}

dci_sizes dci_payload_sizes(const cell& c)
{
    const std::string bad = c.check();
    if (!bad.empty())
        throw std::invalid_argument(bad);
    const int n = c.n_prb;
    const int riv = riv_bits(n);
    const int header = n > 10 ? 1 : 0;  // type 0/1 header (type 0 only up to 10 PRBs)
    const int rbgs = rbg_count(n);
    const int harq = 3;                 // FDD
    dci_sizes s;

    // Format 0: flag, hopping, RIV (uplink = downlink bandwidth here), MCS
    // and RV 5, NDI, TPC 2, cyclic shift 3, CQI request. Format 1A: flag,
    // localized/distributed, RIV, MCS 5, HARQ, NDI, RV 2, TPC 2.
    const int f0 = 1 + 1 + riv + 5 + 1 + 2 + 3 + 1;
    int f1a = 1 + 1 + riv + 5 + harq + 1 + 2 + 2;
    f1a = std::max(f1a, f0);
    if (is_ambiguous_dci_size(f1a))
        f1a++;
    s.size[int(dci_format::f0)] = f1a; // zeros appended to 0 up to 1A's size
    s.size[int(dci_format::f1a)] = f1a;

    // Format 1: header, RBG bitmap, MCS, HARQ, NDI, RV, TPC; zeros appended
    // until it is neither ambiguous nor 0/1A's size.
    int f1 = header + rbgs + 5 + harq + 1 + 2 + 2;
    while (is_ambiguous_dci_size(f1) || f1 == f1a)
        f1++;
    s.size[int(dci_format::f1)] = f1;

    // Format 1C: gap (50 PRBs and more), RIV over N_VRB,gap1 / N_step, TBS 5.
    const int nvrb = distributed_vrb_count(n, 1) / format1c_step(n);
    s.size[int(dci_format::f1c)] = (n >= 50 ? 1 : 0) + riv_bits(nvrb) + 5;

    // Formats 2 and 2A: header, RBG bitmap, TPC, HARQ, swap flag, two TBs
    // (MCS, NDI, RV), precoding (2: 3 bits for 2 ports, 6 for 4; 2A: 0, 2).
    const int f2base = header + rbgs + 2 + harq + 1 + 2 * (5 + 1 + 2);
    int f2 = f2base + (c.ports == 4 ? 6 : 3);
    int f2a = f2base + (c.ports == 4 ? 2 : 0);
    if (is_ambiguous_dci_size(f2))
        f2++;
    if (is_ambiguous_dci_size(f2a))
        f2a++;
    s.size[int(dci_format::f2)] = f2;
    s.size[int(dci_format::f2a)] = f2a;

    // Formats 1B and 1D (2 or 4 ports): localized/distributed, RIV, MCS,
    // HARQ, NDI, RV, TPC, TPMI (2 or 4 bits), then PMI confirmation (1B) or
    // downlink power offset (1D).
    if (c.ports > 1) {
        int f1b = 1 + riv + 5 + harq + 1 + 2 + 2 + (c.ports == 4 ? 4 : 2) + 1;
        if (is_ambiguous_dci_size(f1b))
            f1b++;
        s.size[int(dci_format::f1b)] = f1b;
        s.size[int(dci_format::f1d)] = f1b;
    }
    return s;
}

std::vector<dci_format> ue_formats_of_tm(int tm)
{
    switch (tm) {
    case 0: return { dci_format::f1a, dci_format::f1, dci_format::f2a, dci_format::f2 };
    case 1:
    case 2:
    case 7: return { dci_format::f1a, dci_format::f1 };
    case 3: return { dci_format::f1a, dci_format::f2a };
    case 4: return { dci_format::f1a, dci_format::f2 };
    case 5: return { dci_format::f1a, dci_format::f1d };
    case 6: return { dci_format::f1a, dci_format::f1b };
    default: break;
    }
    throw std::invalid_argument("tm=" + std::to_string(tm) + " is not 0 (unknown) or 1..7");
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr
