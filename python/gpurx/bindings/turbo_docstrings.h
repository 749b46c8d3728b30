/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The parameter descriptions help(gpurx.lte_turbo_decoder*) shows: one text
// for the three deployments, so that they cannot drift apart. The bindings are
// written by hand (BINDTOOL_HEADER_FILE_HASH(0)), so no generated docstring
// header is involved; qa_python_api.py checks every parameter is described.
#ifndef INCLUDED_GPURX_TURBO_DOCSTRINGS_H
#define INCLUDED_GPURX_TURBO_DOCSTRINGS_H

#define GPURX_DOC_TURBO_K                                                                  \
    "K: block size in bits, one of the 188 sizes of TS 36.212 Table 5.1.3-3\n"             \
    "    (gpurx.lte_turbo_block_sizes()). Input vectors hold 3K+12 LLRs.\n"

#define GPURX_DOC_TURBO_DECODER_PARAMS                                                     \
    "iterations: full turbo iterations (two half-iterations each), 1..16.\n"               \
    "algorithm: \"log-map\" (float), \"max-log-map\" or \"scaled-max-log-map\"\n"         \
    "    (16-bit fixed point: LLRs quantised to 1/8, saturating at +-15.9).\n"             \
    "subblocks: P, windows decoded in parallel per codeword, 0..256; 0 picks\n"            \
    "    windows of at most 48 steps for each K (within 0.01 dB of P=1).\n"                \
    "scaling: extrinsic scaling of \"scaled-max-log-map\", in (0, 1]; 0.75 usual.\n"      \
    "early_termination: \"none\", \"crc24a\", \"crc24b\" (stop when the CRC passes)\n"    \
    "    or \"hard-decision\" (stop when the hard decisions stop changing).\n"

#define GPURX_DOC_PIPELINE_OPTIONS                                                         \
    "options: gpurx.pipeline_options(max_batch, slots, flush_us, backend, devices,\n"      \
    "    cpu_threads): batching, \"auto\"/\"cuda\"/\"cpu\", GPUs (docs/latency.md).\n"

#define GPURX_DOC_TURBO_INPUT                                                              \
    "input: \"soft\" (float32 LLRs, default) or \"int8\": one char per LLR in steps of\n"   \
    "    1/8, v = round(8 L) saturated to +-127, decoded exactly as the float L = v/8\n"  \
    "    by the fixed-point algorithms (a quarter of the bytes to move). PDUs: s8vector\n" \
    "    or u8vector.\n"

#define GPURX_DOC_SOFT_INPUT                                                               \
    "Soft input: LLRs L = ln P(b=1)/P(b=0), positive for bit 1 (GNU Radio's\n"             \
    "convention); BPSK with Es = 1 in complex AWGN of density N0: L = 4 Re(y) / N0.\n"     \
    "Bad parameters raise ValueError naming the parameter.\n"

#endif
