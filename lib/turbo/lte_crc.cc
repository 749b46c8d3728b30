/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/lte_crc.h"
#include "turbo/lte_crc_impl.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#if defined(__x86_64__) || defined(__i386__)
#define GPURX_CRC_X86 1
#else
#define GPURX_CRC_X86 0
#endif

namespace gr {
namespace gpurx {
namespace core {

namespace crc24_impl {

// The early stops run the CRC on every code block after every iteration, so
// it is a visible part of a transport block's decoding: a bit per step cost
// a third of it, 32 bits per step still an eighth at high SNR. Both builds
// run it in the reflected form (lte_crc_impl.h).
tables::tables(uint32_t g)
{
    for (uint32_t b = 0; b < 256; b++) {
        // b(x): bit i of b is the coefficient of x^(7 - i); times x^24 first.
        uint32_t r = 0;
        for (int i = 0; i < 8; i++)
            r |= ((b >> i) & 1u) << (7 - i);
        for (int i = 0; i < 24; i++)
            r = times_x(r, g);
        for (int s = 0; s < 8; s++) {
            slice[s][b] = reflect24(r);
            for (int i = 0; i < 8; i++)
                r = times_x(r, g);
        }
    }
    // x^e mod g for e = 0, 1, ..: the folds take e = 128 d - 1 and 128 d + 63.
    uint32_t r = 1;
    for (int e = 0; e <= 4 * 128 + 63; e++) {
        for (int d = 0; d < 4; d++)
            for (int h = 0; h < 2; h++)
                if (e == 128 * (d + 1) + (h ? -1 : 63))
                    fold[d][h] = uint64_t(reflect24(r)) << 40;
        r = times_x(r, g);
    }
}

const tables& tables_of(crc24_type t)
{
    static const tables a(crc24a_poly), b(crc24b_poly);
    return t == crc24_type::a ? a : b;
}

#if !GPURX_CRC_X86
// Never called: crc24_build_supported() admits only generic off x86.
uint32_t update_clmul(uint32_t rho, const uint8_t* bits, size_t n, const tables& T)
{
    return update_generic(rho, bits, n, T);
}
#endif

} // namespace crc24_impl

namespace {

using update_fn = uint32_t (*)(uint32_t, const uint8_t*, size_t, const crc24_impl::tables&);

uint32_t update_generic_fn(uint32_t rho, const uint8_t* bits, size_t n, const crc24_impl::tables& T)
{
    return crc24_impl::update_generic(rho, bits, n, T);
}

update_fn fn_of(crc24_build b)
{
    return b == crc24_build::clmul ? crc24_impl::update_clmul : update_generic_fn;
}

inline uint32_t run_on(update_fn f, uint32_t r, const uint8_t* bits, size_t n, crc24_type type)
{
    if (n == 0)
        return r;
    using crc24_impl::reflect24;
    return reflect24(f(reflect24(r), bits, n, crc24_impl::tables_of(type)));
}

} // namespace

const char* crc24_build_name(crc24_build b) { return b == crc24_build::clmul ? "clmul" : "generic"; }

crc24_build parse_crc24_build(const std::string& name, const char* what)
{
    for (crc24_build b : { crc24_build::generic, crc24_build::clmul })
        if (name == crc24_build_name(b))
            return b;
    throw std::invalid_argument(std::string(what) + " must be \"generic\" or \"clmul\", got \"" + name + "\"");
}

bool crc24_build_supported(crc24_build b)
{
#if GPURX_CRC_X86
    return b == crc24_build::generic ||
           (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("pclmul"));
#else
    return b == crc24_build::generic;
#endif
}

crc24_build crc24_default_build()
{
    static const crc24_build chosen = [] {
        crc24_build best = crc24_build_supported(crc24_build::clmul) ? crc24_build::clmul : crc24_build::generic;
        if (const char* cap = std::getenv("GPURX_CRC_SIMD")) {
            const crc24_build asked = parse_crc24_build(cap, "GPURX_CRC_SIMD");
            if (int(asked) < int(best))
                best = asked;
        }
        return best;
    }();
    return chosen;
}

uint32_t crc24_update_on(crc24_build b, uint32_t r, const uint8_t* bits, size_t n, crc24_type type)
{
    if (!crc24_build_supported(b))
        throw std::invalid_argument(std::string("crc24: this CPU cannot run the ") + crc24_build_name(b) +
                                    " build");
    return run_on(fn_of(b), r, bits, n, type);
}

uint32_t crc24_update(uint32_t r, const uint8_t* bits, size_t n, crc24_type type)
{
    static const update_fn f = fn_of(crc24_default_build());
    return run_on(f, r, bits, n, type);
}

uint32_t crc24(const uint8_t* bits, size_t n, crc24_type t) { return crc24_update(0, bits, n, t); }

void crc24_attach(uint8_t* bits, size_t n, crc24_type t)
{
    const uint32_t p = crc24(bits, n, t);
    for (int i = 0; i < 24; i++)
        bits[n + i] = uint8_t((p >> (23 - i)) & 1u);
}

bool crc24_check(const uint8_t* bits, size_t n, crc24_type t)
{
    if (n < 24)
        return false;
    const uint32_t p = crc24(bits, n - 24, t);
    for (int i = 0; i < 24; i++)
        if (bits[n - 24 + i] != uint8_t((p >> (23 - i)) & 1u))
            return false;
    return true;
}

crc24_type parse_crc24(const std::string& name, const char* param)
{
    if (name == "crc24a")
        return crc24_type::a;
    if (name == "crc24b")
        return crc24_type::b;
    throw std::invalid_argument(std::string(param) + " must be \"crc24a\" or \"crc24b\", got \"" +
                                name + "\"");
}

} // namespace core
} // namespace gpurx
} // namespace gr
