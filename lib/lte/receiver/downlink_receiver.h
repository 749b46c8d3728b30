/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE downlink receiver of one cell, GNU Radio-free: samples in (one
// stream per receive antenna, chunks of any size, gaps reported), every
// transport block of the cell's UEs out.
//
//   samples -> [acquisition: cell search + MIB]          (cell_acquisition.h)
//           -> [subframe tracker: timing, CFO, rate]     (sync/)
//           -> per subframe: OFDM demodulation, CRS channel estimate (grid/)
//              -> PCFICH, PDCCH blind decoding, DCIs      (control/)
//              -> grants -> PDSCH detection, LLRs         (receiver/grant_of_dci.h, pdsch/)
//              -> DL-SCH decoding with HARQ, on the GPU or CPU (dlsch/)
//
// RNTIs: the C-RNTIs given, and SI-RNTI; or every UE of the cell
// (rnti_tracker: RNTIs recovered from the PDCCH CRC, believed once the
// re-encoded DCI matches its soft bits and the RNTI has been seen twice;
// and the Temporary C-RNTIs of random access responses, believed at once).
// A lost stretch (a gap fed, a lost track) is reported per subframe, never
// decoded as if the stream were contiguous; after a lost track the cell is
// searched for again.
#ifndef INCLUDED_GPURX_LTE_RECEIVER_DOWNLINK_RECEIVER_H
#define INCLUDED_GPURX_LTE_RECEIVER_DOWNLINK_RECEIVER_H

#include "lte/common/resource_grid.h"
#include "lte/dlsch/dlsch_decoder.h"
#include "lte/receiver/cell_acquisition.h"
#include "mimo/mimo_config.h"

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

struct downlink_options {
    int n_rx = 1;               //!< receive antennas, 1 or 2
    double sample_rate = 0.0;   //!< fft_size x 15 kHz (1.92 .. 30.72 MS/s)
    std::vector<int> rntis;     //!< C-RNTIs to decode (with every_ue false)
    bool every_ue = false;      //!< learn and decode every UE's C-RNTI
    bool broadcast = true;      //!< SI-, P- and RA-RNTI grants in the common space
    //! The UEs' transmission mode, as RRC tells it (1..7), or 0 unknown:
    //! the DCI formats searched in the UE-specific spaces
    //! (ue_formats_of_tm); 5 and 6 are how 1D and 1B are received.
    int tm = 0;
    //! MIMO detector of TM3/TM4 (lib/mimo's algorithms).
    mimo::algorithm detector = mimo::algorithm::lmmse;
    dlsch_decoder_options dlsch; //!< backend, HARQ buffers, UE category
    //! OFDM demodulation and channel estimation: "cpu", "cuda" (batches of
    //! batch_subframes on the GPU, grid/cuda/), or "auto": on the GPU when
    //! the DL-SCH decoder is and cuFFT loads, else on the CPU.
    std::string front_end = "auto";
    //! Subframes whose TBs are handed to the decoder before their results
    //! are collected (the GPU decodes them in one batch).
    int batch_subframes = 10;
    //! Samples a cell search looks at (4 radio frames: the MIB can be
    //! combined over a whole PBCH period).
    double search_ms = 40.0;
    //! PDCCH candidates whose CCEs hold no more power than noise are not
    //! decoded (control/pdcch_blind.h, cce_power_gate): this many standard
    //! deviations of the noise-only power above it. 0 decodes every one.
    float pdcch_gate_sigmas = 2.0f;

    //! Throws std::invalid_argument naming the bad field.
    void validate() const;
};

enum class subframe_outcome : int32_t {
    decoded,      //!< control region and PDSCHs processed
    no_control,   //!< no PCFICH/PDCCH could be read (reason)
    lost,         //!< no samples (a gap, a lost track)
};
const char* subframe_outcome_name(subframe_outcome o);

struct subframe_report {
    long long index = 0;   //!< subframes since the cell was first acquired
    int sfn = 0, subframe = 0;
    subframe_outcome outcome = subframe_outcome::decoded;
    int cfi = 0;
    int dcis = 0;          //!< downlink DCIs found for the RNTIs searched
    int pdschs = 0;        //!< PDSCHs received
    double cfo_hz = 0.0;
    float noise_var = 0.0f;
    std::string reason;    //!< for no_control and lost; grants dropped and why
};

//! A decoded TB with where it came from.
struct downlink_tb : dlsch_result {
    int ncce = 0, agg = 0;
    bool common_space = false;
    //! A TB of an RA-RNTI that passed its CRC: the Temporary C-RNTIs of its
    //! random access response (rar_temporary_rntis()), or why its MAC PDU is
    //! malformed (rar_error).
    std::vector<uint16_t> rar_tc_rntis;
    std::string rar_error;
};

/*!
 * The Temporary C-RNTIs that a random access response hands out (36.321
 * §6.1.5, §6.2.3), read from \p r when it is a TB of an RA-RNTI that passed
 * its CRC, else none. Only C-RNTI values (is_c_rnti_value()) are returned:
 * they become the UEs' C-RNTIs after contention resolution. A malformed
 * PDU gives none and its reason in \p error (cleared otherwise).
 */
std::vector<uint16_t> rar_temporary_rntis(const dlsch_result& r, std::string& error);

class downlink_receiver
{
public:
    explicit downlink_receiver(const downlink_options& o);
    ~downlink_receiver();

    //! \p n samples of each antenna (rx[a][0..n-1]).
    void feed(const cf* const* rx, size_t n);
    //! \p n samples are missing here (an overflow, an rx_time jump).
    void feed_gap(size_t n);
    //! End of stream: decode what is pending.
    void finish();

    std::vector<downlink_tb> take_tbs();
    std::vector<subframe_report> take_reports();

    bool acquired() const { return d_acq.found; }
    const acquisition_result& acquisition() const { return d_acq; }
    //! Why no cell (yet): the last search's reason.
    const std::string& search_status() const { return d_search_reason; }
    const std::string& backend_line() const { return d_dlsch->backend_line(); }
    //! Where the front end runs, and why (one line, for a log).
    const std::string& front_end_line() const { return d_front_line; }
    std::vector<uint16_t> active_rntis() const;
    long long samples_fed() const { return d_fed; }
    //! Every-UE mode: failed TBs of RNTIs never confirmed by a CRC (false
    //! PDCCH decodes), dropped.
    long long unconfirmed_dropped() const { return d_unconfirmed_dropped; }
    //! Every-UE mode: C-RNTIs learnt from random access responses (each
    //! counted once, when it was not searched for already).
    long long rar_rntis_learnt() const { return d_rar_learnt; }
    //! RA-RNTI TBs that passed their CRC but hold no well-formed RAR PDU.
    long long rars_malformed() const { return d_rar_malformed; }

private:
    struct chain;
    void try_acquire();
    void process(const struct tracked_subframe& t);
    //! Control region, PDSCHs and their TBs of one demodulated subframe.
    void decode(subframe_report r, const subframe_grid& grid, const channel_estimate& h);
    void flush_gpu();
    void collect(bool all);
    bool want_gpu_front_end();

    downlink_options d_o;
    std::unique_ptr<dlsch_decoder> d_dlsch;
    std::unique_ptr<chain> d_chain;
    acquisition_result d_acq;
    std::string d_search_reason = "not searched yet";
    std::vector<std::vector<cf>> d_search_buf; //!< samples kept for a search
    long long d_fed = 0;
    std::vector<downlink_tb> d_tbs;
    std::vector<subframe_report> d_reports;
    std::vector<downlink_tb> d_meta; //!< submitted TBs' DCI details, in order
    //! Every-UE mode: RNTIs with a TB that passed its CRC. A DCI of another
    //! RNTI whose TB fails is taken for a false PDCCH decode: dropped and
    //! counted, not reported as a block error.
    std::set<int> d_confirmed;
    long long d_unconfirmed_dropped = 0;
    long long d_rar_learnt = 0, d_rar_malformed = 0;
    int d_since_collect = 0;
    std::string d_front_line;
};

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
