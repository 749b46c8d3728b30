/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/ofdm_frame.h"
#include "ofdm/ofdm_fft.h"
#include "ofdm/ofdm_pilots.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

namespace {
void check(bool ok, const std::string& what)
{
    if (!ok)
        throw std::invalid_argument(what);
}
} // namespace

ofdm_frame_format::ofdm_frame_format(int nt_, int fft_, int cp_, int used_, int repeats_, int data_, int pilots_)
    : nt(nt_), fft_len(fft_), cp_len(cp_), used(used_), repeats(repeats_), data_symbols(data_), pilots(pilots_)
{
    check(nt == 1 || nt == 2 || nt == 4 || nt == 8, "nt must be 1, 2, 4 or 8, got " + std::to_string(nt));
    check(fft_len >= 16 && fft_len <= 65536 && (fft_len & (fft_len - 1)) == 0,
          "fft_len must be a power of two in 16..65536, got " + std::to_string(fft_len));
    check(cp_len >= 0 && cp_len < fft_len, "cp_len must be in 0..fft_len-1, got " + std::to_string(cp_len));
    check(used >= 4 && used % 4 == 0 && used <= fft_len - 2,
          "used must be a multiple of 4 in 4..fft_len-2, got " + std::to_string(used));
    check(repeats >= 2 && repeats <= 16, "repeats must be in 2..16, got " + std::to_string(repeats));
    check(data_symbols >= 1 && data_symbols <= 4096,
          "data_symbols must be in 1..4096, got " + std::to_string(data_symbols));
    check(pilots >= 0 && pilots % 2 == 0 && pilots <= used / 2,
          "pilots must be even and in 0..used/2, got " + std::to_string(pilots));
}

void fft_inplace(std::vector<cfloat>& x, bool inverse) { fft(x.data(), x.size(), inverse); }

std::vector<cfloat> sync_spectrum(const ofdm_frame_format& f)
{
    // PN9 QPSK on the even bins (bins, not used indices: the halves repeat
    // when only even bins carry energy), scaled by sqrt(2) to keep the
    // symbol's energy that of a full one.
    std::vector<cfloat> s(size_t(f.fft_len), cfloat(0.0f, 0.0f));
    unsigned reg = 0x1ff;
    auto bit = [&reg]() {
        const unsigned b = ((reg >> 8) ^ (reg >> 4)) & 1u;
        reg = ((reg << 1) | b) & 0x1ffu;
        return b;
    };
    for (int k = 0; k < f.used; k++) {
        const int b = f.bin(k);
        const unsigned b0 = bit(), b1 = bit();
        if (b % 2 == 0)
            s[b] = cfloat(b0 ? -1.0f : 1.0f, b1 ? -1.0f : 1.0f);
    }
    return s;
}

namespace {
// One OFDM symbol of fft_len bins to cp + fft_len samples at out.
void modulate(const ofdm_frame_format& f, std::vector<cfloat>& bins, cfloat* out)
{
    fft_inplace(bins, true);
    const float scale = float(1.0 / std::sqrt(double(f.fft_len)));
    for (int i = 0; i < f.cp_len; i++)
        out[i] = bins[size_t(f.fft_len - f.cp_len + i)] * scale;
    for (int i = 0; i < f.fft_len; i++)
        out[f.cp_len + i] = bins[size_t(i)] * scale;
}
} // namespace

std::vector<std::vector<cfloat>> build_ofdm_frame(const ofdm_frame_format& f, const cfloat* symbols)
{
    std::vector<std::vector<cfloat>> out(size_t(f.nt), std::vector<cfloat>(size_t(f.frame_len()), cfloat(0, 0)));
    std::vector<cfloat> bins(size_t(f.fft_len));
    // The sync symbol from antenna 0 alone, at the power all nt antennas
    // give every other symbol: each symbol of the frame has the same total
    // power, and detection sees the sync symbol at the data's SNR.
    bins = sync_spectrum(f);
    for (auto& b : bins)
        b *= float(std::sqrt(double(f.nt)));
    modulate(f, bins, out[0].data());
    const mimo_training tr(f.nt, f.used, f.repeats);
    for (int t = 0; t < f.training_symbols(); t++)
        for (int j = 0; j < f.nt; j++) {
            std::fill(bins.begin(), bins.end(), cfloat(0, 0));
            for (int k = 0; k < f.used; k++)
                bins[size_t(f.bin(k))] = tr.cover(j, t % f.nt) * tr.sequence()[k];
            modulate(f, bins, out[j].data() + size_t(1 + t) * f.symbol_len());
        }
    const ofdm_pilot_layout pl(f.used, f.pilots);
    for (int s = 0; s < f.data_symbols; s++)
        for (int j = 0; j < f.nt; j++) {
            std::fill(bins.begin(), bins.end(), cfloat(0, 0));
            for (int d = 0; d < pl.data_carriers(); d++)
                bins[size_t(f.bin(pl.data_index[size_t(d)]))] = symbols[(size_t(d) * f.data_symbols + s) * f.nt + j];
            for (int i = 0; i < f.pilots; i++)
                bins[size_t(f.bin(pl.pilot_index[size_t(i)]))] = cfloat(pilot_value(s, i, j), 0.0f);
            modulate(f, bins, out[j].data() + size_t(1 + f.training_symbols() + s) * f.symbol_len());
        }
    return out;
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
