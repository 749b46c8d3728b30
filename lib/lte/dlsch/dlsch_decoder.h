/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The downlink receiver's transport blocks: what a DCI's grant and the
// PDSCH's LLRs become, decoded on the project's DL-SCH decoder (CPU or
// CUDA, batched), with the HARQ that real traffic needs:
//  - the soft buffer of a TB is named by (cell, rnti, HARQ process, TB
//    index), never by its codeword (sch/sch_harq.h);
//  - a retransmission of a TB already delivered (same ndi and TBS: its ACK
//    was lost) is a duplicate: reported, neither decoded nor delivered;
//  - MCS 29..31 (28..31 with 256-QAM) signal only the modulation: the TBS
//    is that of the process's first transmission (36.213 §7.1.7.2);
//  - the soft-buffer size from the UE category and transmission mode
//    (36.212 §5.1.4.1.2, lte/tables/tables.h), so that large TBs rate-match
//    as an eNodeB sends them.
#ifndef INCLUDED_GPURX_LTE_DLSCH_DLSCH_DECODER_H
#define INCLUDED_GPURX_LTE_DLSCH_DLSCH_DECODER_H

#include "lte/tables/tables.h"
#include "pipeline/batch_pipeline.h"
#include "sch/sch_harq.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! One transport block of a PDSCH: who it is for, what its DCI said, and
//! its codeword's G LLRs (scrambled, as demapped).
struct dlsch_tb {
    int cell_id = 0;
    int sfn = 0, subframe = 0;
    int rnti = 0;
    int tb_index = 0;     //!< 0: TB 1, 1: TB 2 (the DCI's)
    int codeword = 0;     //!< q, the codeword it was sent on
    int harq_process = 0; //!< 0..15
    int ndi = 0, rv = 0;
    int mcs = 0;          //!< 0..31
    //! The TBS the DCI gives (tables.h), or 0 for a retransmission-only MCS
    //! (the decoder takes the process's first transmission's).
    int tbs = 0;
    int qm = 2;
    int nl = 1;           //!< layers of its codeword (N_L), 1 or 2
    std::string dci_format;
    std::vector<float> llr; //!< G values, L = ln P(b=1)/P(b=0)
};

struct dlsch_result {
    dlsch_tb tb;              //!< as submitted (llr emptied), tbs resolved
    bool decoded = false;     //!< false: not decoded (duplicate, or an error)
    bool crc_ok = false;
    bool duplicate = false;   //!< a retransmission of a TB already delivered
    int iterations = 0;
    int transmissions = 0;    //!< combined, this one included
    std::vector<uint8_t> bits; //!< tbs bits (0/1) when decoded
    std::string error;        //!< why it was not decoded, or a HARQ contradiction
};

struct dlsch_decoder_options {
    std::string backend = "auto"; //!< "auto", "cpu" or "cuda"
    std::string devices = "0";
    int harq_buffers = 64;        //!< soft buffers of the pool (all UEs of all cells)
    int max_tbs = 97896;          //!< the largest TBS (one layer, I_TBS 33)
    int max_g = 110 * 12 * 14 * 8; //!< the largest codeword
    int ue_category = 4;          //!< N_soft (36.306); 0: no soft-buffer limit
    int tm = 1;                   //!< transmission mode (K_MIMO)
    size_t cpu_threads = 0;       //!< CPU backend workers, 0: one per core
    size_t max_batch = 64;
};

class dlsch_decoder
{
public:
    //! Throws std::invalid_argument naming a bad option.
    explicit dlsch_decoder(const dlsch_decoder_options& o);
    ~dlsch_decoder();

    //! What backend_choice decided, one line (for a log).
    const std::string& backend_line() const { return d_backend_line; }
    bool on_cuda() const;

    /*!
     * Queue \p tb for decoding. Duplicates and TBs that cannot be decoded
     * (a retransmission-only MCS without a first transmission, a bad
     * parameter) complete at once, with the reason. Results come out of
     * take() in submission order.
     */
    void submit(dlsch_tb tb);
    //! The TBS of the TB that HARQ process holds (its first transmission's),
    //! or 0 when none: what MCS 29..31 retransmissions take.
    int process_tbs(int cell_id, int rnti, int harq_process, int tb_index) const;
    //! Wait for every TB submitted so far and return the results, in order.
    std::vector<dlsch_result> take();

private:
    struct pending;
    using key = std::tuple<int, int, int, int>; // cell, rnti, process, tb
    void collect(bool block);

    dlsch_decoder_options d_o;
    std::string d_backend_line;
    backend_kind d_kind;
    std::unique_ptr<batch_pipeline> d_pipe;
    sch::harq_pool d_harq;
    std::map<key, int> d_first_tbs; //!< the TBS of each process's current TB
    std::vector<std::unique_ptr<pending>> d_pending; //!< in submission order
    size_t d_head = 0; //!< d_pending's first entry that may be in the pipeline
    uint64_t d_next = 0;
};

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
