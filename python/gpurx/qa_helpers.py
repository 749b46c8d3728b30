#
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Shared by the QA tests: run CUDA cases when a device exists, and exit 77
(ctest: Skipped) with the reason when none does - never pass them silently."""
import sys

from gnuradio import gpurx


def require_cuda_or_skip():
    if not gpurx.cuda_available(0):
        try:
            reason = gpurx.backend_reason("auto", 0)
        except Exception as e:  # noqa: BLE001 - report whatever the probe said
            reason = str(e)
        print("skipped: no CUDA device (%s)" % reason)
        sys.exit(77)
