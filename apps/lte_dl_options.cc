/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte_dl_options.h"
#include "app_args.h"

#include <cstdlib>

namespace gr {
namespace gpurx {
namespace apps {

const char* lte_dl_help()
{
    return R"(usage: gpurx-lte-dl --input FILE[,FILE2] [options]
       gpurx-lte-dl --usrp ARGS --freq HZ [--gain DB] [--rate HZ] [--channels 1|2] [options]

Decodes every transport block of an LTE downlink capture: cell search
(PSS/SSS, any standard bandwidth, FDD), the MIB, PCFICH and PDCCH blind
decoding, the PDSCH (TM1-TM4, allocation types 0-2), and the DL-SCH with
HARQ, on the GPU (CUDA) or the CPU backend. The receiver, its outputs and
what was tried on radios: docs/lte-downlink.md.

Input:
  --input FILE[,FILE2]   one capture per receive antenna (1 or 2), the same
                         length and rate
  --format F             cf32 (default: interleaved float32 I/Q) | sc16
                         (interleaved int16 I/Q, full scale 32768)
  --rate HZ              the sampling rate, a standard LTE rate (1.92e6,
                         3.84e6, 7.68e6, 15.36e6, 23.04e6, 30.72e6); default:
                         each is tried and the one a cell is found at wins
  --max-subframes N      stop after N subframes (default: the whole file)

UEs:
  --rnti all|N[,N...]    all (default): every UE of the cell, its C-RNTI
                         learnt from the PDCCH; or the C-RNTIs to decode
                         (decimal or 0x-hex). SI-, P- and RA-RNTI grants
                         are decoded in both cases
  --tm N                 the UEs' transmission mode 1..7, as RRC sets it:
                         the DCI formats searched (TM5: 1D, TM6: 1B);
                         default 0, unknown: 1A, 1, 2A, 2

Receiver:
  --backend B            auto (default) | cpu | cuda: the DL-SCH decoder's
  --devices D            CUDA devices ("0", "0,1", "all"; default 0)
  --cpu-threads N        CPU backend decoder threads (default 0: one per core)
  --ue-category N        the UEs' category 1..12 (default 4): their soft
                         buffer, which the eNodeB's rate matching follows;
                         0: no soft-buffer limit
  --detector A           TM3/TM4 MIMO detector: lmmse (default), mtt, kbest,
                         ml, one_pass
  --front-end F          auto (default: the GPU when the decoder is on it) |
                         cpu | cuda: OFDM demodulation and channel estimation

Live from a USRP (GNU Radio's USRP Source; gpurx_lte_dl_usrp.py, run with
GNU Radio's Python, takes every option; its --help lists them all):
  --usrp ARGS            UHD device arguments ("" the first device,
                         "type=b200", "addr=192.168.10.2"); with it, no
                         --input
  --freq HZ              the downlink centre frequency
  --gain DB              receive gain (default: the device's)
  --rate HZ              a standard LTE rate the device gives exactly
                         (default 30.72e6: any bandwidth)
  --channels 1|2         receive channels (antennas)
  --antenna, --subdev, --bandwidth, --clock-source, --time-source
                         set only when given (an N2x0 refuses "internal")
  --duration S           seconds to receive (default: until Ctrl-C)
  Overflows ("O") are read from the rx_time tags: those subframes are
  reported lost. The same --rnti, --backend, --devices, --ue-category,
  --detector, --max-subframes, --jsonl, --pcap, --quiet and summary.

Output:
  --jsonl FILE           one JSON object per decoded TB: sfn, subframe,
                         rnti, tb, tbs, mcs, rv, ndi, harq, crc_ok, payload
                         (hex, first bit the MSB of the first byte)
  --pcap FILE            a MAC-LTE pcap for Wireshark (DLT 147, payload
                         protocol mac-lte-framed)
  --quiet                no progress line
  Always: a summary on stdout (subframes seen and skipped, PDSCHs, TBs,
  BLER per RNTI, throughput). Exit status 0, or 1 when no cell was found.
)";
}

lte_dl_options parse_lte_dl_options(int argc, char** argv)
{
    lte_dl_options o;
    auto value = [&](int& i) -> std::string {
        const std::string opt = argv[i];
        const auto eq = opt.find('=');
        if (eq != std::string::npos)
            return opt.substr(eq + 1);
        if (i + 1 >= argc)
            throw usage_error(opt + " needs a value");
        return argv[++i];
    };
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        const std::string name = a.substr(0, a.find('='));
        if (name == "--help" || name == "-h") {
            o.help = true;
        } else if (name == "--input") {
            o.inputs = split(value(i), ',');
            if (o.inputs.empty() || o.inputs.size() > 2)
                throw usage_error("--input: one or two files");
            for (const auto& f : o.inputs)
                if (f.empty())
                    throw usage_error("--input: an empty file name");
        } else if (name == "--format") {
            o.format = value(i);
            if (o.format != "cf32" && o.format != "sc16")
                throw usage_error("--format " + o.format + ": cf32 or sc16");
        } else if (name == "--rate") {
            o.rate = to_double("--rate", value(i));
            const int fft = core::lte::fft_size_of_rate(o.rate);
            if (fft == 0 || fft % 128 != 0)
                throw usage_error("--rate " + std::to_string(o.rate) +
                                  ": not a standard LTE rate (1.92e6 .. 30.72e6, 15 kHz x a multiple of 128)");
        } else if (name == "--rnti") {
            const std::string v = value(i);
            if (v == "all") {
                o.every_ue = true;
            } else {
                o.every_ue = false;
                o.rntis.clear();
                for (const auto& s : split(v, ',')) {
                    char* end = nullptr;
                    const long r = std::strtol(s.c_str(), &end, 0);
                    if (s.empty() || *end != '\0' || r < 1 || r > 0xFFFF)
                        throw usage_error("--rnti " + s + ": an RNTI 1..65535 (decimal or 0x-hex), or all");
                    o.rntis.push_back(int(r));
                }
            }
        } else if (name == "--backend") {
            o.backend = value(i);
            if (o.backend != "auto" && o.backend != "cpu" && o.backend != "cuda")
                throw usage_error("--backend " + o.backend + ": auto, cpu or cuda");
        } else if (name == "--cpu-threads") {
            o.cpu_threads = int(to_int("--cpu-threads", value(i), 0, 1024));
        } else if (name == "--devices") {
            o.devices = value(i);
        } else if (name == "--tm") {
            o.tm = int(to_int("--tm", value(i), 0, 7));
        } else if (name == "--ue-category") {
            o.ue_category = int(to_int("--ue-category", value(i), 0, 12));
        } else if (name == "--front-end") {
            o.front_end = value(i);
            if (o.front_end != "auto" && o.front_end != "cpu" && o.front_end != "cuda")
                throw usage_error("--front-end " + o.front_end + ": auto, cpu or cuda");
        } else if (name == "--detector") {
            o.detector = value(i);
        } else if (name == "--max-subframes") {
            o.max_subframes = to_int("--max-subframes", value(i), 1, 1LL << 40);
        } else if (name == "--jsonl") {
            o.jsonl = value(i);
        } else if (name == "--pcap") {
            o.pcap = value(i);
        } else if (name == "--quiet") {
            o.quiet = true;
        } else {
            throw usage_error("unknown option " + a + " (--help lists them)");
        }
    }
    if (!o.help && o.inputs.empty())
        throw usage_error("--input is required");
    return o;
}

} // namespace apps
} // namespace gpurx
} // namespace gr
