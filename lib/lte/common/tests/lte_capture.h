/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Test signals for the LTE receiver's tests: srsRAN's eNodeB chain as a file
// generator (lte_dl_gen, a peer program that is run, never linked or
// shipped), its captures read back, and its truth (one JSON object per
// subframe with every DCI and transport block). The generator's path: the
// environment's GPURX_LTE_DL_GEN, else what CMake found (GPURX_LTE_DL_GEN
// at configure time); tests skip, saying so, when there is none.
#ifndef INCLUDED_GPURX_LTE_TESTS_LTE_CAPTURE_H
#define INCLUDED_GPURX_LTE_TESTS_LTE_CAPTURE_H

#include "lte/common/lte_cell.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

inline std::string lte_dl_gen_path()
{
    if (const char* e = std::getenv("GPURX_LTE_DL_GEN"))
        return access(e, X_OK) == 0 ? e : "";
#ifdef GPURX_LTE_DL_GEN
    if (access(GPURX_LTE_DL_GEN, X_OK) == 0)
        return GPURX_LTE_DL_GEN;
#endif
    return "";
}

//! How the generator's ports reach the receive antennas.
enum class lte_rx_setup {
    port_files,   //!< -o: one file per port (a 1-port cell: one antenna, h = 1)
    ports_summed, //!< -S: one antenna, h = [1 1]
    channel_2x2,  //!< -R: two antennas through a fixed random flat 2x2 channel
};

struct lte_capture {
    std::vector<std::vector<core::lte::cf>> rx; //!< samples per file
    std::vector<nlohmann::json> truth;          //!< one object per subframe
};

inline std::vector<core::lte::cf> read_cf32(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw std::runtime_error("cannot open " + path);
    f.seekg(0, std::ios::end);
    const auto bytes = size_t(f.tellg());
    f.seekg(0);
    std::vector<core::lte::cf> v(bytes / sizeof(core::lte::cf));
    f.read(reinterpret_cast<char*>(v.data()), std::streamsize(v.size() * sizeof(core::lte::cf)));
    return v;
}

/*!
 * Runs lte_dl_gen with \p args (everything but the outputs: "-p 25 -x 1
 * -m 9 -n 20 ...") into a temporary folder and reads back every file and the
 * truth. Throws when the generator is missing or fails.
 */
inline lte_capture generate_lte_capture(const std::string& args, lte_rx_setup setup = lte_rx_setup::port_files)
{
    const std::string gen = lte_dl_gen_path();
    if (gen.empty())
        throw std::runtime_error("lte_dl_gen not found (set GPURX_LTE_DL_GEN)");
    char tmpl[] = "/tmp/gpurx-lte-XXXXXX";
    const char* dir = mkdtemp(tmpl);
    if (!dir)
        throw std::runtime_error("mkdtemp failed");
    const std::string base = std::string(dir) + "/cap";
    const char* flag = setup == lte_rx_setup::port_files ? "-o" : setup == lte_rx_setup::ports_summed ? "-S" : "-R";
    const std::string cmd = gen + " " + args + " " + flag + " " + base + " -j " + base + ".jsonl > " + base + ".log 2>&1";
    if (std::system(cmd.c_str()) != 0)
        throw std::runtime_error("lte_dl_gen failed: " + cmd);
    lte_capture c;
    std::ifstream j(base + ".jsonl");
    for (std::string line; std::getline(j, line);)
        if (!line.empty())
            c.truth.push_back(nlohmann::json::parse(line));
    if (access(base.c_str(), R_OK) == 0) {
        c.rx.push_back(read_cf32(base));
    } else {
        for (int i = 0; access((base + "." + std::to_string(i)).c_str(), R_OK) == 0; i++)
            c.rx.push_back(read_cf32(base + "." + std::to_string(i)));
    }
    std::system(("rm -rf " + std::string(dir)).c_str());
    if (c.rx.empty())
        throw std::runtime_error("lte_dl_gen wrote no capture: " + cmd);
    return c;
}

//! A TB's payload as the truth writes it (hex, first bit the MSB of the
//! first byte) as bits 0/1.
inline std::vector<uint8_t> hex_bits(const std::string& hex, int nbits)
{
    std::vector<uint8_t> b(size_t(nbits), 0);
    for (int i = 0; i < nbits && i / 4 < int(hex.size()); i++) {
        const char ch = hex[size_t(i / 4)];
        const int v = ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10;
        b[size_t(i)] = uint8_t((v >> (3 - i % 4)) & 1);
    }
    return b;
}

} // namespace test
} // namespace gpurx
} // namespace gr

//! Skips the current test, with the reason, when lte_dl_gen is not found.
#define GPURX_REQUIRE_LTE_DL_GEN()                                                     \
    do {                                                                               \
        if (gr::gpurx::test::lte_dl_gen_path().empty())                                \
            GTEST_SKIP() << "lte_dl_gen not found (set GPURX_LTE_DL_GEN or configure " \
                            "with -DGPURX_LTE_DL_GEN=path)";                           \
    } while (0)

#endif
