#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
'''
gr-gpurx: GPU-accelerated receiver blocks (LTE turbo decoding, soft MIMO
detection, Viterbi decoding) with a CPU backend for machines without a GPU.

Soft values (LLRs) follow GNU Radio's convention: L = ln P(b=1)/P(b=0),
positive for bit 1.
'''
import os

try:
    from .gpurx_python import *
except ImportError:
    # Running from the source tree before the extension is built.
    dirname, filename = os.path.split(os.path.abspath(__file__))
    __path__.append(os.path.join(dirname, "bindings"))
    from .gpurx_python import *
