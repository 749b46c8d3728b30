#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
'''
gr-gpurx: GNU Radio receiver blocks that decode on an NVIDIA GPU, or on the
CPU where no GPU is usable.

Blocks (each takes options=pipeline_options(...): batching, backend, GPUs):
  lte_turbo_encoder, lte_turbo_encoder_tagged, lte_turbo_encoder_pdu
  lte_turbo_decoder, lte_turbo_decoder_tagged, lte_turbo_decoder_pdu
  viterbi_decoder, viterbi_decoder_tagged, viterbi_decoder_pdu
  mimo_detector, mimo_detector_tagged, mimo_detector_pdu
  mimo_idd_decoder (iterative detection and decoding of LTE transport blocks)
  lte_sch_decoder_pdu, lte_sch_decoder_tagged (LTE DL-SCH / UL-SCH transport
    blocks with HARQ), lte_sch_encoder_pdu, lte_sch_encoder_tagged (CPU)
  qam_mapper, qam_demapper, mimo_channel, mimo_fading_channel (CPU simulators)
  packet link (docs/radio-link.md): packet_link_tx, packet_link_rx
    (hierarchical), burst_framer, burst_sync, packet_tagger, packet_counter,
    payload_source
  batch_copy (measures and tests the pipeline)
  scale-out (docs/scale-out.md): pdu_sequencer, pdu_shard_sink, pdu_reorder,
    worker_gate (C++ message blocks; worker_gate a thin Python wrapper of
    worker_gate_block), worker_monitor (Python; ZMQ transport by
    gr-zeromq), and
    the gpurx-worker program; for the front end and collector programs
    (examples/scale_out_frontend.py, scale_out_collector.py):
    capture_tagger (capture.py), llr_pdu_to_int8 (C++), decoded_tb_sink
  LTE downlink receiver (docs/lte-downlink.md): lte_dl_decoder (C++ sink: samples
    in, every TB of the cell as messages), lte_dl_receiver (hierarchical, with
    the counters a GUI shows)

gr-fec coder objects (for fec.extended_decoder, tagged/async decoders,
fec.bercurve_generator; one frame per call, for interoperability):
  lte_turbo_fec_decoder.make, lte_turbo_fec_encoder.make, viterbi_fec_decoder.make

Helpers: pipeline_options, lte_turbo_block_sizes() (the valid K),
runtime_report() (what gpurx-info prints), cuda_available(), auto_backend(),
backend_reason(), version(), cuda_architectures().

Soft values (LLRs) follow GNU Radio's convention: L = ln P(b=1)/P(b=0),
positive for bit 1. For BPSK (bit 1 sent as +1, Es = 1) in complex AWGN of
density N0, L = 4 Re(y) / N0 (examples/lte_turbo_ber.py shows the chain).
help(gpurx.<block>) lists each block's parameters.
'''
import os

try:
    from .gpurx_python import *
except ImportError:
    # Running from the source tree before the extension is built.
    dirname, filename = os.path.split(os.path.abspath(__file__))
    __path__.append(os.path.join(dirname, "bindings"))
    from .gpurx_python import *

from .packet_link import (packet_link_genie, packet_link_rx, packet_link_tx, link_parameters,
                          rrc_taps)
from .link_channel import impaired_channel
from .scale_out import (pdu_reorder, pdu_sequencer, pdu_shard_sink, worker_gate,
                        worker_heartbeat, worker_monitor)
from .capture import capture_tagger
from .collector import decoded_tb_sink
from .lte_dl_receiver import lte_dl_receiver

__version__ = version()
