/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// PDCCH blind decoding (36.213 §9.1.1, 36.212 §5.3.3): every candidate of
// the search spaces, at every DCI size that may be there, is rate
// de-matched from E = 72 L soft bits, Viterbi decoded and its CRC16
// checked; the CRC's remainder is the RNTI the eNodeB masked it with.
//
// The work is a flat list of jobs (first CCE, aggregation, payload size)
// with flat results (the CRC remainder, the decoded bits, how well the
// re-encoded bits match the soft bits): what a GPU twin takes as it is.
// Choosing which jobs to run and which results to believe is separate.
#ifndef INCLUDED_GPURX_LTE_CONTROL_PDCCH_BLIND_H
#define INCLUDED_GPURX_LTE_CONTROL_PDCCH_BLIND_H

#include "lte/coding/lte_cc_decoder.h"
#include "lte/control/control_layout.h"
#include "lte/control/dci.h"
#include "lte/control/search_space.h"

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! One decoding: a candidate at one payload size.
struct pdcch_job {
    int ncce = 0, agg = 1;
    int payload_bits = 0;
};

//! The jobs' results, [j] and [j * max_bits + i].
struct pdcch_job_results {
    int max_bits = 0;                  //!< payload + 16 CRC bits, the largest of the jobs
    std::vector<uint16_t> crc_xor;     //!< the candidate RNTI of job j
    std::vector<float> correlation;    //!< re-encoded bits against the soft bits, -1..1
    std::vector<uint8_t> bits;         //!< payload then the 16 received parity bits
};

/*!
 * The normalised correlation sum(L_i s_i) / sqrt(E sum(L_i^2)) of \p E soft
 * bits with the \p K bits (payload and masked CRC, as sent) re-encoded and
 * rate matched to E (s = +1 for bit 1). 1 for a noiseless match; near
 * sqrt(fraction) when part of the CCEs carry nothing; 0 with no energy.
 */
float reencoded_correlation(const uint8_t* bits, int K, const float* llr, int E);

/*!
 * Which candidates are worth decoding: those whose CCEs hold more power than
 * noise alone (pdcch_cce_power). A candidate of aggregation L runs when the
 * mean of its CCEs' power ratios is at least 1 + sigmas / sqrt(36 L n_rx),
 * i.e. \p sigmas standard deviations of the noise-only mean above it. With
 * sigmas = 2 an empty candidate passes about 3 times in 100, and a PDCCH at
 * the SNR where its aggregation decodes (3 dB at L = 1 down to -5 dB at
 * L = 8) more than 99 times in 100 (test_cce_power measures both). No power given (nullptr), or sigmas <= 0: every
 * candidate runs.
 */
struct cce_power_gate {
    const float* power = nullptr; //!< [n_cce], pdcch_cce_power
    int n_rx = 1;
    float sigmas = 2.0f;

    bool passes(int ncce, int agg) const;
};

struct blind_config {
    std::vector<uint16_t> c_rntis; //!< UEs whose spaces are searched
    bool common_space = true;      //!< SI/P/RA-RNTI (1A, 1C) and the UEs' 0/1A there
    //! Formats tried in the UE-specific spaces (0 comes with 1A); where two
    //! have the same size the first listed wins.
    std::vector<dci_format> ue_formats = { dci_format::f1a, dci_format::f1, dci_format::f2a, dci_format::f2 };
    //! Accepted DCIs must match their soft bits at least this well.
    float min_correlation = 0.5f;
};

class pdcch_blind_decoder
{
public:
    explicit pdcch_blind_decoder(cc_backend backend = cc_backend::wrap_around) : d_decoder(backend) {}

    //! Runs \p jobs on \p cce_llr (72 per CCE). Jobs beyond the CCEs, and
    //! those the gate turns away, give crc_xor 0 and correlation 0.
    void run(const float* cce_llr, int n_cce, const std::vector<pdcch_job>& jobs, pdcch_job_results& out,
             const cce_power_gate& gate = {});

    /*!
     * The DCIs of \p cfg's RNTIs (and the broadcast ones) in the subframe:
     * each candidate of the common and of the UEs' spaces decoded at each
     * size that may be there, accepted when the CRC remainder is an RNTI
     * whose space holds it, then parsed. Decodings of one DCI at
     * overlapping candidates (a DCI of aggregation 2 also decodes from its
     * first CCE, a wrong size can fit a DCI nearly as well) keep the
     * best-matching one, the larger aggregation on a tie. Impossible grants are returned with valid = false.
     */
    std::vector<dci_message> decode(const control_layout& lay, const float* cce_llr, int subframe,
                                    const blind_config& cfg, const cce_power_gate& gate = {});

    //! Jobs decoded and turned away by the gate since construction.
    long long jobs_run() const { return d_jobs_run; }
    long long jobs_gated() const { return d_jobs_gated; }

private:
    tail_biting_decoder d_decoder;
    std::vector<float> d_work;
    long long d_jobs_run = 0, d_jobs_gated = 0;
};

//! Keeps, among DCIs on overlapping CCEs (whatever their RNTIs: a CCE
//! carries one PDCCH), the best-matching one (the larger aggregation when
//! within 0.05).
struct scored_dci {
    dci_message msg;
    float correlation = 0.0f;
};
std::vector<dci_message> drop_overlapping_decodes(std::vector<scored_dci> found);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
