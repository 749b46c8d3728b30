/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "bbdev_vector.h"
#include "sch/sch_arith.h"

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace test {

namespace {

std::string trim(const std::string& s)
{
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a])))
        a++;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1])))
        b--;
    return s.substr(a, b - a);
}

std::vector<std::string> split_commas(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string tok;
    while (std::getline(in, tok, ','))
        if (!trim(tok).empty())
            out.push_back(trim(tok));
    return out;
}

[[noreturn]] void fail(const std::string& path, const std::string& what)
{
    throw std::runtime_error(path + ": " + what);
}

} // namespace

bbdev_vector read_bbdev_vector(const std::string& path)
{
    std::ifstream f(path);
    if (!f)
        fail(path, "cannot open");
    bbdev_vector v;
    v.path = path;
    std::string line;
    int n = 0;
    while (std::getline(f, line)) {
        n++;
        if (line.empty() || line[0] == '#' || line[0] == '/' || line[0] == '\r')
            continue;
        std::string entry = trim(line);
        if (entry.empty())
            continue;
        // A value goes on over the next lines while the entry ends in ',' or '='.
        while (entry.back() == ',' || entry.back() == '=') {
            if (!std::getline(f, line))
                fail(path, "line " + std::to_string(n) + ": entry cut off at the end");
            n++;
            entry += trim(line);
        }
        const size_t eq = entry.find('=');
        if (eq == std::string::npos)
            fail(path, "line " + std::to_string(n) + ": no '=' in \"" + entry + "\"");
        const std::string key = trim(entry.substr(0, eq));
        if (v.fields.count(key))
            fail(path, "line " + std::to_string(n) + ": " + key + " given twice");
        v.fields[key] = trim(entry.substr(eq + 1));
    }
    return v;
}

long bbdev_vector::number(const std::string& key) const
{
    auto it = fields.find(key);
    if (it == fields.end())
        fail(path, "no field " + key);
    size_t used = 0;
    long x = 0;
    try {
        x = std::stol(it->second, &used, 0);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != it->second.size())
        fail(path, key + " = \"" + it->second + "\" is not a number");
    return x;
}

long bbdev_vector::number_or(const std::string& key, long fallback) const
{
    return has(key) ? number(key) : fallback;
}

std::vector<uint8_t> bbdev_vector::bytes(const std::string& key) const
{
    auto it = fields.find(key);
    if (it == fields.end())
        fail(path, "no field " + key);
    std::vector<uint8_t> out;
    for (const auto& tok : split_commas(it->second)) {
        const size_t digits = tok.size() - 2;
        if (tok.size() < 4 || tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X') ||
            digits % 2 || digits > 8)
            fail(path, key + ": \"" + tok + "\" is not 0x and 2, 4, 6 or 8 hex digits");
        size_t used = 0;
        const unsigned long x = std::stoul(tok, &used, 16);
        if (used != tok.size())
            fail(path, key + ": \"" + tok + "\" is not hex");
        for (size_t b = 0; b < digits / 2; b++)
            out.push_back(uint8_t(x >> (8 * b)));
    }
    return out;
}

bool bbdev_vector::flag(const std::string& name) const
{
    auto it = fields.find("op_flags");
    if (it == fields.end())
        return false;
    for (const auto& f : split_commas(it->second))
        if (f == name)
            return true;
    return false;
}

std::vector<uint8_t> unpack_msb_first(const uint8_t* bytes, size_t nbits)
{
    std::vector<uint8_t> bits(nbits);
    for (size_t i = 0; i < nbits; i++)
        bits[i] = uint8_t((bytes[i / 8] >> (7 - i % 8)) & 1u);
    return bits;
}

turbo_dec_op turbo_dec_op_of(const bbdev_vector& v)
{
    if (!v.has("op_type") || v.fields.at("op_type") != "RTE_BBDEV_OP_TURBO_DEC")
        fail(v.path, "not a turbo decoder vector");
    turbo_dec_op op;
    op.rv = int(v.number_or("rv_index", 0));
    op.iter_max = int(v.number_or("iter_max", 0));
    op.circular = v.flag("RTE_BBDEV_TURBO_SUBBLOCK_DEINTERLEAVE");
    op.crc24b = v.flag("RTE_BBDEV_TURBO_CRC_TYPE_24B");
    const bool neg = v.flag("RTE_BBDEV_TURBO_NEG_LLR_1_BIT_IN");
    const bool pos = v.flag("RTE_BBDEV_TURBO_POS_LLR_1_BIT_IN");
    if (neg == pos)
        fail(v.path, "needs exactly one of RTE_BBDEV_TURBO_NEG/POS_LLR_1_BIT_IN");
    op.neg_llr = neg;
    // CB mode (code_block_mode 1, DPDK's default) has one block; TB mode
    // counts from the first block's index r, K- below c_neg, Ea below cab.
    const bool tb = v.number_or("code_block_mode", 1) == 0;
    const int first = tb ? int(v.number_or("r", 0)) : 0;
    const int count = tb ? int(v.number("c")) - first : 1;
    const bool drop_crc =
        tb && v.number("c") > 1 && !v.flag("RTE_BBDEV_TURBO_DEC_TB_CRC_24B_KEEP");
    size_t in_at = 0, out_bit = 0;
    for (int r = first; r < first + count; r++) {
        turbo_dec_op::block b;
        if (tb) {
            b.K =
                int(r < v.number_or("c_neg", 0) ? v.number("k_neg") : v.number("k_pos"));
            b.E = int(r < v.number_or("cab", 0) ? v.number("ea") : v.number("eb"));
        } else {
            b.K = int(v.number("k"));
            b.E = int(v.number("e"));
        }
        b.in_at = in_at;
        b.out_bit = out_bit;
        b.out_bits = drop_crc ? b.K - 24 : b.K;
        in_at += size_t(core::sch::circular_length(b.K));
        out_bit += size_t(b.out_bits);
        op.blocks.push_back(b);
    }
    const auto in = v.bytes("input0");
    if (in.size() != in_at)
        fail(v.path,
             "input0 has " + std::to_string(in.size()) + " LLRs, 3 K_pi per block is " +
                 std::to_string(in_at));
    op.input.resize(in.size());
    for (size_t i = 0; i < in.size(); i++)
        op.input[i] = static_cast<int8_t>(in[i]);
    if (v.has("hard_output0")) {
        const auto h = v.bytes("hard_output0");
        if (h.size() != (out_bit + 7) / 8)
            fail(v.path,
                 "hard_output0 has " + std::to_string(h.size() * 8) +
                     " bits, the blocks " + std::to_string(out_bit));
        op.hard = unpack_msb_first(h.data(), out_bit);
    }
    return op;
}

turbo_enc_op turbo_enc_op_of(const bbdev_vector& v)
{
    if (!v.has("op_type") || v.fields.at("op_type") != "RTE_BBDEV_OP_TURBO_ENC")
        fail(v.path, "not a turbo encoder vector");
    if (v.number_or("code_block_mode", 1) == 0)
        fail(v.path, "TB mode is not read here");
    if (!v.flag("RTE_BBDEV_TURBO_RATE_MATCH"))
        fail(v.path, "no RTE_BBDEV_TURBO_RATE_MATCH: the output is not rate matched");
    turbo_enc_op op;
    op.K = int(v.number("k"));
    op.E = int(v.number("e"));
    op.ncb = int(v.number("ncb"));
    op.rv = int(v.number_or("rv_index", 0));
    op.rv_bypass = v.flag("RTE_BBDEV_TURBO_RV_INDEX_BYPASS");
    op.crc24a = v.flag("RTE_BBDEV_TURBO_CRC_24A_ATTACH");
    op.crc24b = v.flag("RTE_BBDEV_TURBO_CRC_24B_ATTACH");
    const size_t in_bits = size_t(op.K - (op.crc24a || op.crc24b ? 24 : 0));
    const auto in = v.bytes("input0"), out = v.bytes("output0");
    if (in.size() != (in_bits + 7) / 8 || out.size() != (size_t(op.E) + 7) / 8)
        fail(v.path,
             "input0 / output0 of " + std::to_string(in.size()) + " / " +
                 std::to_string(out.size()) + " bytes for K=" + std::to_string(op.K) +
                 " E=" + std::to_string(op.E));
    op.input = unpack_msb_first(in.data(), in_bits);
    op.output = unpack_msb_first(out.data(), size_t(op.E));
    return op;
}

} // namespace test
} // namespace gpurx
} // namespace gr
