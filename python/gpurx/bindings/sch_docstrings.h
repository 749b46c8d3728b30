/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The parameter descriptions help(gpurx.lte_sch_*) shows: one text for the
// decoders' and one for the encoders' deployments, so that they cannot
// drift apart (qa_python_api.py checks every parameter is described).
#ifndef INCLUDED_GPURX_SCH_DOCSTRINGS_H
#define INCLUDED_GPURX_SCH_DOCSTRINGS_H

#define GPURX_DOC_SCH_CHANNEL "channel: \"dlsch\" (PDSCH scrambling) or \"ulsch\" (PUSCH scrambling, channel interleaver).\n"

#define GPURX_DOC_SCH_METADATA                                                              \
    "A transport block's parameters (PDU metadata, or tags on a packet's first item):\n"    \
    "    required: tbs, rv (0-3), qm (2/4/6/8), rnti, cell_id, subframe (0-9),\n"           \
    "    harq_process (0-15), ndi (0/1); downlink, defaults in brackets: codeword (0),\n"   \
    "    nl (1), n_soft (absent: no soft-buffer limit), kc (1), k_mimo (1),\n"              \
    "    m_dl_harq (8), m_limit (8); uplink: n_symb (12). Encoders: g (required).\n"        \
    "    Bad metadata or input: the frame is dropped and a dict with the 'reason'\n"        \
    "    (naming the key and value) is posted on 'errors'.\n"

#define GPURX_DOC_SCH_DECODER_PARAMS                                                        \
    GPURX_DOC_SCH_CHANNEL                                                                   \
    "iterations: full turbo iterations per code block, 1..16.\n"                           \
    "algorithm: \"log-map\", \"max-log-map\" or \"scaled-max-log-map\".\n"                \
    "input: \"float\" (float32 LLRs) or \"int8\" (one char per LLR, L = value / 8).\n"     \
    "harq_buffers: HARQ soft buffers kept, 0..65536, keyed by (rnti, harq_process,\n"      \
    "    codeword): a toggled ndi or another tbs starts a new TB; the same ndi and tbs\n"   \
    "    is combined with the buffer once what came before has been decoded; a pass\n"      \
    "    releases the buffer; a new key with every buffer taken evicts the least\n"         \
    "    recently used (logged); a contradicting retransmission is decoded alone and\n"     \
    "    reported on 'errors'. Out: 'transmissions', how many were combined.\n"             \
    "early_termination: stop a code block once its CRC checks.\n"                          \
    "max_tbs: the largest TB accepted, 16..391656 (sizes each soft buffer).\n"             \
    "max_g: the largest G (LLRs per TB) accepted, 8..2097152.\n"                           \
    "implementation: \"auto\", \"cpu-sch\" or \"cuda-sch\".\n"

#define GPURX_DOC_SCH_DECODER_OUTPUT                                                        \
    "Out: the TB's tbs bits (0/1) with crc_ok, cb_crc (one 0/1 per code block),\n"          \
    "iterations and transmissions; a TB failing its CRC still leaves, flagged.\n"           \
    "Soft input: LLRs L = ln P(b=1)/P(b=0), positive for bit 1, in transmission order,\n"   \
    "still scrambled; G is the frame's length.\n"                                            \
    "Bad parameters raise ValueError naming the parameter.\n"

#define GPURX_DOC_SCH_ENCODER_PARAMS                                                        \
    GPURX_DOC_SCH_CHANNEL                                                                   \
    "max_tbs: the largest TB accepted, 1..391656.\n"                                        \
    "max_g: the largest G accepted, 8..2097152.\n"

#define GPURX_DOC_SCH_LEN_TAG_KEY "len_tag_key: the tag that gives each packet's length.\n"

#endif
