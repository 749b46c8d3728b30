/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The transport block's metadata, which help(gpurx.lte_sch_*) shows after
// the parameters: the decoders' and the encoders' bindings (generated from
// lib/blocks/sch/lte_sch_{decoder,encoder}.api.yml) include it.
#ifndef INCLUDED_GPURX_SCH_DOCSTRINGS_H
#define INCLUDED_GPURX_SCH_DOCSTRINGS_H

#define GPURX_DOC_SCH_METADATA                                                              \
    "A transport block's parameters (PDU metadata, or tags on a packet's first item):\n"    \
    "    required: tbs, rv (0-3), qm (2/4/6/8), rnti, cell_id, subframe (0-9),\n"           \
    "    harq_process (0-15), ndi (0/1); downlink, defaults in brackets: codeword (0),\n"   \
    "    nl (1), n_soft (absent: no soft-buffer limit), kc (1), k_mimo (1),\n"              \
    "    m_dl_harq (8), m_limit (8); uplink: n_symb (12). Encoders: g (required).\n"        \
    "    Bad metadata or input: the frame is dropped and a dict with the 'reason'\n"        \
    "    (naming the key and value) is posted on 'errors'.\n"

#endif
