/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// CRC24A and CRC24B of 3GPP TS 36.212 section 5.1.1, on unpacked bits (one
// bit per byte, first bit = highest power). The register starts at zero and
// the parity bits are appended unchanged, so a block with its CRC attached
// divides evenly: crc24(block with parity) == 0.
#ifndef INCLUDED_GPURX_CORE_LTE_CRC_H
#define INCLUDED_GPURX_CORE_LTE_CRC_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

enum class crc24_type { a, b };

//! g_CRC24A(D) = D^24+D^23+D^18+D^17+D^14+D^11+D^10+D^7+D^6+D^5+D^4+D^3+D+1
constexpr uint32_t crc24a_poly = 0x864CFB;
//! g_CRC24B(D) = D^24+D^23+D^6+D^5+D+1
constexpr uint32_t crc24b_poly = 0x800063;

inline uint32_t crc24_poly(crc24_type t) { return t == crc24_type::a ? crc24a_poly : crc24b_poly; }

//! Remainder of the n bits (as a polynomial) times D^24, modulo g: the parity.
//! A byte's lowest bit is its bit; the others are ignored.
uint32_t crc24(const uint8_t* bits, size_t n, crc24_type t);
//! The register after \p n more bits, from \p reg (0 at the start): a
//! message's CRC over pieces that are not contiguous.
uint32_t crc24_update(uint32_t reg, const uint8_t* bits, size_t n, crc24_type t);

/*!
 * The builds of crc24_update, the same function (lte_crc.cc says how):
 *   generic  portable C++: 64 bits per step through slicing-by-8 tables;
 *   clmul    x86 with AVX2 and PCLMULQDQ (lte_crc_clmul.cc): the bits
 *            packed 32 per movemask, folded 512 at a time by carry-less
 *            multiplies; chosen at run time when the CPU has both.
 * GPURX_CRC_SIMD=generic|clmul caps the choice, as GPURX_TURBO_SIMD does the
 * turbo decoder's.
 */
enum class crc24_build { generic = 0, clmul = 1 };
const char* crc24_build_name(crc24_build b);
//! "generic" | "clmul" (throws std::invalid_argument naming \p what).
crc24_build parse_crc24_build(const std::string& name, const char* what);
bool crc24_build_supported(crc24_build b);
//! The one crc24_update runs: the fastest this CPU has, capped by GPURX_CRC_SIMD; decided once.
crc24_build crc24_default_build();
//! crc24_update on a given build (tests, benchmarks); it must be supported.
uint32_t crc24_update_on(crc24_build b, uint32_t reg, const uint8_t* bits, size_t n, crc24_type t);
//! Writes the 24 parity bits of bits[0..n) to bits[n..n+24).
void crc24_attach(uint8_t* bits, size_t n, crc24_type t);
//! True when bits[0..n) (data and its 24 parity bits) checks.
bool crc24_check(const uint8_t* bits, size_t n, crc24_type t);

//! "crc24a" / "crc24b"; throws std::invalid_argument naming the parameter.
crc24_type parse_crc24(const std::string& name, const char* param);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
